//! Moving elements out of a slice and back: the `unsafe` core of the scatter shuffle.
//!
//! The scatter shuffle copies every element of the caller's slice into a
//! scratch buffer, grouped by bucket, and later moves each bucket back to
//! its segment of the slice. For any `T` (not only `Copy` types) such a move
//! is a bitwise copy, and while it is under way an element exists twice: the
//! copy that counts and a stale one. This module is the only place that
//! makes such copies, and it keeps one invariant so that no element is ever
//! dropped twice, seen twice or lost:
//!
//! **Invariant.** Between [`scatter`]/[`par_scatter`] and the end of the
//! settling, every element the caller passed in is owned exactly once:
//! either by its place in the slice's settled part, or by its place in the
//! scratch buffer's unsettled part (a bucket occupies the same index range
//! in both). Stale copies are never read as `T`, and no `T` method is ever
//! called (moving a `T` bitwise is always allowed in Rust). The copies are
//! written only by [`place`], which checks that every destination slot is
//! written exactly once with every source element used once.
//!
//! **Unwinding.** Code that can panic — the dice and the stop hook, which
//! may be user code — runs only between settling steps. The sequential
//! [`Spread`] then puts the unsettled buckets back when dropped, so the
//! caller gets a permutation of its elements, as after a panic inside any
//! in-place shuffle. The parallel path calls no user code that can unwind
//! (its dice are fairdeck's generators; its stop hook is called under
//! `catch_unwind`); a [`Piece`] dropped without being settled aborts the
//! process rather than leave stale copies behind.
//!
//! **Stopping.** [`scatter_until`] and [`par_scatter`] ask a stop hook while
//! they copy; stopped there, the slice has only been read, and the copies
//! made so far are forgotten (never read as `T`, never dropped).
//!
//! Measured reason for all this (docs/book/src/speed.md): reading each element
//! once and writing it once into a cache-resident bucket is what brings a
//! shuffle of 10⁸ elements near the speed of memory.

use std::mem::MaybeUninit;

/// Returns a bitwise copy of `x`.
#[inline(always)]
fn dup<T>(x: &MaybeUninit<T>) -> MaybeUninit<T> {
    // SAFETY: `x` is a valid reference, so the read is in bounds and
    // aligned; a `MaybeUninit<T>` has no validity invariant and no drop
    // glue, so its copy is harmless until someone treats both copies as `T`
    // — which the module invariant rules out.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::read(x)
    }
}

/// Views a slice of `T` as raw memory, for reading only.
#[inline]
fn as_uninit<T>(slice: &[T]) -> &[MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; through a shared view
    // nothing can be written.
    #[allow(unsafe_code)]
    unsafe {
        &*(std::ptr::from_ref(slice) as *const [MaybeUninit<T>])
    }
}

/// Splits `slice` into consecutive pieces of the given lengths.
///
/// # Panics
///
/// Panics unless the lengths add up to the slice's length.
pub(super) fn split_by<'a, U>(mut slice: &'a mut [U], lens: &[usize]) -> Vec<&'a mut [U]> {
    let mut pieces = Vec::with_capacity(lens.len());
    for &len in lens {
        let (piece, rest) = std::mem::take(&mut slice).split_at_mut(len);
        pieces.push(piece);
        slice = rest;
    }
    assert!(slice.is_empty(), "split_by: lengths do not cover the slice");
    pieces
}

/// How a bucket gets from the scratch buffer back into its segment.
#[derive(Debug, Clone, Copy)]
pub(super) enum Move<'l> {
    /// Copied in order.
    Copy,
    /// Scattered by one label per element into consecutive sub-buckets of
    /// the given lengths (each the number of its label in `labels`).
    Scatter {
        /// One label per element of the bucket.
        labels: &'l [u8],
        /// Elements per label.
        lens: &'l [usize],
    },
}

/// Writes `src` into `dst` as `mov` says.
///
/// # Panics
///
/// Panics, before or after writing, unless every slot of `dst` is written
/// exactly once and every element of `src` read once.
fn place<T>(src: &[MaybeUninit<T>], dst: &mut [MaybeUninit<T>], mov: Move<'_>) {
    assert_eq!(src.len(), dst.len(), "place: lengths differ");
    match mov {
        Move::Copy => copy_uninit(dst, src),
        Move::Scatter { labels, lens } => scatter_into(src, labels, &mut split_by(dst, lens)),
    }
}

/// Writes each element of `src` to the next free slot of the piece of its
/// label, in order (a stable counting-sort pass).
///
/// # Panics
///
/// Panics unless `labels` has one label per element and the pieces have
/// exactly as many slots as there are elements with their label.
fn scatter_into<T>(src: &[MaybeUninit<T>], labels: &[u8], pieces: &mut [&mut [MaybeUninit<T>]]) {
    scatter_into_until(src, labels, pieces, usize::MAX, &mut || false);
}

/// [`scatter_into`], asking `stop` before each run of `poll_len` elements
/// and returning `false` (with the pieces partly written) when it says so.
fn scatter_into_until<T, S: FnMut() -> bool + ?Sized>(
    src: &[MaybeUninit<T>],
    labels: &[u8],
    pieces: &mut [&mut [MaybeUninit<T>]],
    poll_len: usize,
    stop: &mut S,
) -> bool {
    assert_eq!(src.len(), labels.len(), "scatter: one label per element");
    // Software write combining (cache-line buffers per piece, with and
    // without non-temporal stores) measured slower here than these direct
    // writes: 2.6–3.2 against 1.6 ns per u32 for the 256-way pass over 10⁸.
    let mut cursors = vec![0usize; pieces.len()];
    for (src, labels) in src.chunks(poll_len).zip(labels.chunks(poll_len)) {
        if stop() {
            return false;
        }
        for (x, &label) in src.iter().zip(labels) {
            let b = usize::from(label);
            let c = cursors[b];
            pieces[b][c] = dup(x);
            cursors[b] = c + 1;
        }
    }
    // Each cursor counts its writes from 0: reaching the piece's length means
    // every slot was written once (the writes were bounds-checked).
    let full = cursors
        .iter()
        .zip(pieces.iter())
        .all(|(&c, p)| c == p.len());
    assert!(full, "scatter: piece lengths do not match the labels");
    true
}

/// Copies `src` into `dst` bitwise.
///
/// # Panics
///
/// Panics if the lengths differ.
#[inline(always)]
fn copy_uninit<T>(dst: &mut [MaybeUninit<T>], src: &[MaybeUninit<T>]) {
    assert_eq!(dst.len(), src.len(), "copy: lengths differ");
    // SAFETY: both ranges are valid for `src.len()` elements (checked) and a
    // `&mut` cannot overlap a `&`; copying `MaybeUninit` bytes is sound (see
    // [`dup`]).
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), src.len());
    }
}

/// Copies every element of `slice` into `scratch`, grouped by label (bucket
/// `b` gets `lens[b]` slots, in order), and returns the two as a [`Spread`]
/// with nothing settled.
///
/// # Panics
///
/// Panics if `labels` or `scratch` do not match the slice or `lens` the labels.
#[cfg(test)]
pub(super) fn scatter<'a, T>(
    slice: &'a mut [T],
    labels: &[u8],
    lens: Vec<usize>,
    scratch: &'a mut [MaybeUninit<T>],
) -> Spread<'a, T> {
    assert_eq!(slice.len(), scratch.len(), "scatter: scratch length");
    // Until the Spread exists the slice is only read: a panic here leaves it whole.
    scatter_into(as_uninit(slice), labels, &mut split_by(scratch, &lens));
    Spread::take_over(slice, scratch, lens)
}

/// [`scatter`], asking `stop` before each run of `poll_len` elements. When
/// it says so, returns `None` with the slice untouched (it is only read
/// until the [`Spread`] exists; the copies already in `scratch` are
/// forgotten, never read as `T`).
pub(super) fn scatter_until<'a, T, S: FnMut() -> bool + ?Sized>(
    slice: &'a mut [T],
    labels: &[u8],
    lens: Vec<usize>,
    scratch: &'a mut [MaybeUninit<T>],
    poll_len: usize,
    stop: &mut S,
) -> Option<Spread<'a, T>> {
    assert_eq!(slice.len(), scratch.len(), "scatter: scratch length");
    let mut pieces = split_by(&mut *scratch, &lens);
    if !scatter_into_until(as_uninit(slice), labels, &mut pieces, poll_len, stop) {
        return None;
    }
    Some(Spread::take_over(slice, scratch, lens))
}

/// The caller's slice while its elements live in a scratch buffer.
pub(super) struct Spread<'a, T> {
    slice: &'a mut [MaybeUninit<T>],
    scratch: &'a mut [MaybeUninit<T>],
    /// Bucket lengths, and how many buckets (and elements) are settled.
    lens: Vec<usize>,
    buckets: usize,
    settled: usize,
}

impl<'a, T> Spread<'a, T> {
    /// Takes over `slice`, all of whose elements have just been placed in `scratch`.
    fn take_over(slice: &'a mut [T], scratch: &'a mut [MaybeUninit<T>], lens: Vec<usize>) -> Self {
        // SAFETY: same layout. From here on the slice is written only by
        // `place` and read as `T` only in its settled part (the invariant).
        #[allow(unsafe_code)]
        let slice = unsafe { &mut *(std::ptr::from_mut(slice) as *mut [MaybeUninit<T>]) };
        Spread {
            slice,
            scratch,
            lens,
            buckets: 0,
            settled: 0,
        }
    }

    /// The length of the next bucket to settle, if any is left.
    pub(super) fn next_len(&self) -> Option<usize> {
        self.lens.get(self.buckets).copied()
    }

    /// Moves the next bucket back into its segment as `mov` says and
    /// returns the segment, now holding valid elements.
    ///
    /// # Panics
    ///
    /// Panics if no bucket is left or `mov` does not fit the bucket (the
    /// bucket then stays in the scratch buffer and goes back when dropped).
    pub(super) fn settle(&mut self, mov: Move<'_>) -> &mut [T] {
        let (start, end) = (self.settled, self.settled + self.lens[self.buckets]);
        place(&self.scratch[start..end], &mut self.slice[start..end], mov);
        (self.buckets, self.settled) = (self.buckets + 1, end);
        assume_init(&mut self.slice[start..end])
    }
}

impl<T> Drop for Spread<'_, T> {
    /// Puts the elements of the buckets not yet settled back (after a panic;
    /// a no-op once all are settled).
    fn drop(&mut self) {
        let at = self.settled;
        place(&self.scratch[at..], &mut self.slice[at..], Move::Copy);
    }
}

/// The elements of a segment that `place` has just filled.
fn assume_init<T>(segment: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: only called on a segment `place` wrote completely from the
    // scratch's copies of the same bucket, each once; the scratch's part is
    // no longer counted (the invariant), so the elements are valid and
    // owned only here.
    #[allow(unsafe_code)]
    unsafe {
        &mut *(std::ptr::from_mut(segment) as *mut [T])
    }
}

#[cfg(feature = "rayon")]
pub(super) use self::parallel::par_scatter;

#[cfg(feature = "rayon")]
mod parallel;

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    fn numbers(v: &[String]) -> Vec<usize> {
        v.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn settling_every_bucket_moves_every_element_once() {
        // Strings own heap memory: a lost element leaks, a doubled one is
        // freed twice (the allocator and Miri notice).
        let mut v = strings(10);
        let labels = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1];
        let mut scratch = Vec::with_capacity(10);
        {
            let mut spread = scatter(&mut v, &labels, vec![4, 6], scratch.spare_capacity_mut());
            assert_eq!(spread.next_len(), Some(4));
            spread.settle(Move::Copy).reverse();
            let sub = [0, 1, 0, 1, 0, 1];
            let lens = [3, 3];
            let part = spread.settle(Move::Scatter {
                labels: &sub,
                lens: &lens,
            });
            assert_eq!(part.len(), 6);
            assert_eq!(spread.next_len(), None);
        }
        assert_eq!(numbers(&v), [7, 6, 4, 1, 0, 3, 8, 2, 5, 9]);
    }

    #[test]
    fn a_panic_between_settles_leaves_a_permutation() {
        let mut v = strings(8);
        let mut scratch = Vec::with_capacity(8);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let labels = [1, 1, 0, 0, 1, 0, 1, 0];
            let mut spread = scatter(&mut v, &labels, vec![4, 4], scratch.spare_capacity_mut());
            spread.settle(Move::Copy);
            panic!("the dice gave up");
        }));
        assert!(caught.is_err());
        assert_eq!(numbers(&v), [2, 3, 5, 7, 0, 1, 4, 6]);
    }

    #[test]
    fn a_move_that_does_not_fit_is_refused_and_undone() {
        let mut v = strings(6);
        let mut scratch = Vec::with_capacity(6);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let labels = [0; 6];
            let mut spread = scatter(&mut v, &labels, vec![6], scratch.spare_capacity_mut());
            // Claims 4 + 1 elements per label where the bucket has 6.
            let sub = [0, 0, 0, 0, 1, 1];
            spread.settle(Move::Scatter {
                labels: &sub,
                lens: &[4, 1],
            });
        }));
        assert!(caught.is_err());
        assert_eq!(numbers(&v), [0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn wrong_lengths_are_refused_before_anything_moves() {
        let mut v = strings(5);
        let mut scratch = Vec::with_capacity(5);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            scatter(
                &mut v,
                &[0, 0, 1, 1, 1],
                vec![2, 2],
                scratch.spare_capacity_mut(),
            );
        }));
        assert!(caught.is_err());
        assert_eq!(v, strings(5));
    }
}
