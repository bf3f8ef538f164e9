//! The parallel scatter: blocks placed by several threads, buckets settled by several threads.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::{Move, as_uninit, assume_init, place, scatter_into, split_by};

/// One bucket of [`par_scatter`], waiting in the scratch buffer to be
/// moved into its segment of the slice by [`Piece::settle`].
///
/// A piece dropped without being settled aborts the process: its segment
/// of the slice would otherwise hold stale copies.
pub(in crate::shuffle) struct Piece<'a, T> {
    src: &'a [MaybeUninit<T>],
    dst: Option<&'a mut [MaybeUninit<T>]>,
}

impl<'a, T> Piece<'a, T> {
    /// How many elements the bucket holds.
    #[cfg(test)]
    pub(in crate::shuffle) fn len(&self) -> usize {
        self.src.len()
    }

    /// Moves the bucket into its segment as `mov` says and returns the segment.
    ///
    /// # Panics
    ///
    /// Aborts the process if `mov` does not fit the bucket.
    pub(in crate::shuffle) fn settle(mut self, mov: Move<'_>) -> &'a mut [T] {
        if let Some(dst) = self.dst.as_deref_mut() {
            place(self.src, dst, mov);
        }
        // Only now, after a complete `place`, is the segment no longer stale.
        assume_init(self.dst.take().unwrap_or_default())
    }
}

impl<T> Drop for Piece<'_, T> {
    fn drop(&mut self) {
        if self.dst.is_some() {
            eprintln!("fairdeck: a bucket was left unsettled; aborting to keep memory safe");
            std::process::abort();
        }
    }
}

/// Copies every element of `slice` into `scratch`, grouped by label, and
/// hands each bucket to `work` (in parallel) to be settled, with its own
/// part of `bucket_labels` (as long as the bucket) to use as it likes. Each block asks
/// `stop` before it is placed; if one says so, the remaining blocks are
/// skipped and `false` is returned with the slice untouched (it is only
/// read until every block is placed) and no bucket handed out.
///
/// Block `k` — the elements `[k·block, (k+1)·block)` — gets its labels
/// from `labels(k, out)` (called again for each block here, so it must
/// give the labels it gave when `counts` was made: a mismatch panics) and
/// has `counts[k][b]` elements with label `b`; the scratch buffer is laid
/// out bucket-major, then block-major, so each (bucket, block) pair owns a
/// disjoint piece of it and the blocks are placed in parallel without
/// sharing anything. The result does not depend on the number of threads.
///
/// # Panics
///
/// Panics (before anything moves) if the labels, `counts` or `scratch` do
/// not match the slice; aborts if `work` panics or does not settle its piece.
pub(in crate::shuffle) fn par_scatter<T: Send>(
    slice: &mut [T],
    labels: impl Fn(usize, &mut [u8]) + Sync + Send,
    block: usize,
    counts: &[Vec<usize>],
    (bucket_labels, scratch): (&mut [u8], &mut [MaybeUninit<T>]),
    stop: &(impl Fn() -> bool + Sync),
    work: impl Fn(usize, Piece<'_, T>, &mut [u8]) + Sync + Send,
) -> bool {
    let buckets = counts.first().map_or(0, Vec::len);
    assert_eq!(slice.len(), scratch.len(), "par_scatter: scratch length");
    assert_eq!(
        slice.len(),
        bucket_labels.len(),
        "par_scatter: labels length"
    );
    assert_eq!(
        counts.len(),
        slice.len().div_ceil(block),
        "par_scatter: blocks"
    );
    let lens: Vec<usize> = (0..buckets)
        .map(|b| counts.iter().map(|c| c[b]).sum())
        .collect();
    if !place_blocks(slice, labels, block, counts, scratch, stop) {
        // The copies made so far are forgotten: `scratch` is never read as `T`.
        return false;
    }
    // SAFETY: same layout; every element now has its counted copy in
    // `scratch` (the module invariant), and each segment of this view is
    // written only by its piece's `place` and read as `T` only after it.
    #[allow(unsafe_code)]
    let view = unsafe { &mut *(std::ptr::from_mut(slice) as *mut [MaybeUninit<T>]) };
    let sources = split_by(scratch, &lens);
    let segments = split_by(view, &lens);
    let label_parts = split_by(bucket_labels, &lens);
    sources
        .into_par_iter()
        .zip(segments)
        .zip(label_parts)
        .enumerate()
        .for_each(|(b, ((src, dst), labels))| {
            let piece = Piece {
                src: &*src,
                dst: Some(dst),
            };
            work(b, piece, labels);
        });
    true
}

/// The block-parallel placing pass of [`par_scatter`]; reads `slice` only.
/// `false` if a block was skipped because `stop` said so.
fn place_blocks<T: Send>(
    slice: &mut [T],
    labels: impl Fn(usize, &mut [u8]) + Sync + Send,
    block: usize,
    counts: &[Vec<usize>],
    scratch: &mut [MaybeUninit<T>],
    stop: &(impl Fn() -> bool + Sync),
) -> bool {
    let buckets = counts.first().map_or(0, Vec::len);
    let mut per_block: Vec<Vec<&mut [MaybeUninit<T>]>> =
        counts.iter().map(|_| Vec::with_capacity(buckets)).collect();
    let mut rest = scratch;
    // Bucket-major: bucket 0 of every block, then bucket 1 of every block, …
    #[allow(clippy::needless_range_loop)] // `b` indexes the inner lists
    for b in 0..buckets {
        for (pieces, count) in per_block.iter_mut().zip(counts) {
            let (piece, tail) = std::mem::take(&mut rest).split_at_mut(count[b]);
            pieces.push(piece);
            rest = tail;
        }
    }
    assert!(
        rest.is_empty(),
        "par_scatter: counts do not cover the slice"
    );
    // Drawing a block's labels again costs less than keeping all of them:
    // n bytes written, faulted in and read back.
    slice
        .par_chunks_mut(block)
        .zip(per_block.par_iter_mut())
        .enumerate()
        .all(|(k, (src, pieces))| {
            if stop() {
                return false;
            }
            let mut block_labels = vec![0u8; src.len()];
            labels(k, &mut block_labels);
            scatter_into(as_uninit(src), &block_labels, pieces);
            true
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_buckets_keep_every_element_once() {
        let mut v: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        let labels = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1];
        let counts = vec![vec![1, 3], vec![3, 1], vec![0, 2]];
        let mut scratch = Vec::with_capacity(10);
        par_scatter(
            &mut v,
            |k, out| out.copy_from_slice(&labels[4 * k..][..out.len()]),
            4,
            &counts,
            (&mut [0; 10], scratch.spare_capacity_mut()),
            &|| false,
            |b, piece, labels| {
                assert_eq!(labels.len(), piece.len());
                assert_eq!(piece.len(), [4, 6][b]);
                piece.settle(Move::Copy).reverse();
            },
        );
        let order: Vec<usize> = v.iter().map(|s| s.parse().unwrap()).collect();
        assert_eq!(order, [7, 6, 4, 1, 9, 8, 5, 3, 2, 0]);
    }

    #[test]
    fn labels_that_change_between_passes_are_refused_before_anything_moves() {
        let mut v: Vec<String> = (0..4).map(|i| i.to_string()).collect();
        let mut scratch = Vec::with_capacity(4);
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // Counts for labels [0, 0, 1, 1]; the pass draws [1, 1, 1, 1].
            let counts = vec![vec![2, 0], vec![0, 2]];
            let labels = |_: usize, out: &mut [u8]| {
                calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                out.fill(1);
            };
            par_scatter(
                &mut v,
                labels,
                2,
                &counts,
                (&mut [0; 4], scratch.spare_capacity_mut()),
                &|| false,
                |_, p, _| {
                    p.settle(Move::Copy);
                },
            );
        }));
        assert!(caught.is_err());
        assert!(calls.into_inner() >= 1);
        assert_eq!(v, ["0", "1", "2", "3"]);
    }

    #[test]
    fn counts_that_do_not_match_are_refused_before_anything_moves() {
        let mut v: Vec<String> = (0..4).map(|i| i.to_string()).collect();
        let mut scratch = Vec::with_capacity(4);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let counts = vec![vec![2, 1], vec![0, 1]];
            let labels = [0, 1, 0, 0];
            par_scatter(
                &mut v,
                |k, out| out.copy_from_slice(&labels[2 * k..][..out.len()]),
                2,
                &counts,
                (&mut [0; 4], scratch.spare_capacity_mut()),
                &|| false,
                |_, p, _| {
                    p.settle(Move::Copy);
                },
            );
        }));
        assert!(caught.is_err());
        assert_eq!(v, ["0", "1", "2", "3"]);
    }
}
