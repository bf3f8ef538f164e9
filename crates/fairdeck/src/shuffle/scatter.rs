//! The scatter shuffle for large slices: read once, write once, shuffle in the cache.
//!
//! Like the in-place bucket shuffle (module `buckets`), this is Sanders'
//! method (1998, "Random permutations on distributed, external and
//! hierarchical memory", IPL 67), arranged for memory speed:
//!
//! 1. every element gets an independent uniform label in `[0, 2^outer)`,
//!    all drawn before any element moves, and the labels are counted;
//! 2. one sequential pass over the slice copies each element into its
//!    bucket of a scratch buffer (bucket `b` at the index range its segment
//!    of the slice will have): one read and one write per element, the
//!    writes going to `2^outer ≤ 256` sequential streams;
//! 3. bucket by bucket: copy it back into its segment of the slice and
//!    shuffle it there with batched Fisher–Yates while it is in the cache
//!    (about 1 MiB). A bucket over 8 MiB (a slice over 2 GiB) first gets a
//!    second label in `[0, 2^inner)` per element and is scattered back
//!    grouped by it, and each group of about 1 MiB is shuffled.
//!
//! **Why the result is exactly uniform.** Step 3 applied to one bucket is
//! itself a bucket shuffle of that bucket (labels, a stable grouping, a
//! uniform shuffle of each group), so by the argument in module `buckets`
//! — for a fixed final order, sum over the label vectors that lead to it;
//! the multinomial theorem gives `2^(−inner·c) · 2^(inner·c) / c! = 1/c!` —
//! it shuffles the bucket uniformly, whatever order step 2 left it in. The
//! same argument one level up, with step 2 as the grouping, makes the whole
//! order uniform: `P(π) = 1/n!`. The tests check this by exact enumeration
//! of every dice answer on tiny slices forced through two levels.
//!
//! The moves themselves are in module `moves` (the only `unsafe` code of
//! the shuffle besides the prefetch hint), which works for every `T`.
//!
//! Extra memory: `n · size_of::<T>()` bytes of scratch and `n` label
//! bytes, from a [`Scratch`] (allocated per call by `shuffle`, kept
//! between calls by `Shuffle::scratch`).

use super::batched::fisher_yates_until;
use super::buckets::START_BYTES;
use super::labels::draw_labels_until;
use super::moves::{self, Move, split_by};
use super::scratch::Scratch;
use crate::dice::Dice;

/// Where the scatter shuffle starts and how it splits; tests shrink it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScatterPlan {
    /// Slices of at most this many elements get Fisher–Yates directly.
    pub start_len: usize,
    /// The elements a bucket should hold at most (as far as 8 label bits
    /// per level allow).
    pub leaf_len: usize,
    /// Buckets of more than this many elements are split once more (the
    /// second level); smaller ones get Fisher–Yates directly.
    pub split_len: usize,
    /// Label bits per level, at most (`1..=8`).
    pub max_bits: u32,
    /// Elements of work (labels drawn, elements scattered, Fisher–Yates
    /// steps) between two asks of a stop hook.
    pub poll_len: usize,
}

/// Bytes of a bucket, as far as 256 buckets allow: it is shuffled by
/// Fisher–Yates just after being copied back, mostly out of the L2 and L3
/// caches. At 10⁸ `u32` a bucket is 1.5 MB, above a 1 MiB L2; splitting it
/// to fit (issue 37, `bench --passes`, kept scratch, 3 alternating runs of
/// 3 rounds, load 1.5–2.9) made its Fisher–Yates faster (1.16 and 1.13
/// against 1.79 ns per element) but cost more in the second level's labels
/// (0.56–0.58) and 2- or 4-way settle (1.11–1.51 against a 0.23 copy):
/// 256 × 2 groups 5.27, 256 × 4 groups 4.57, 256 buckets 3.92 ns in all.
/// Fisher–Yates fused with the copy back (drawing each bucket from the
/// scratch into its segment: the same order, one pass less) measured 3.29
/// ns for the fused pass against 0.23 + 1.79 for the two: its random reads
/// hit a bucket the copy would have brought into the cache.
const LEAF_BYTES: usize = 1 << 20;

/// Elements of work between two asks of a stop hook: 65536 labels,
/// scattered elements or Fisher–Yates steps take well under a millisecond
/// (about 0.1–0.4 ms at the speeds in docs/book/src/speed.md), so a hook is
/// asked every few milliseconds at most and costs nothing measurable.
pub(crate) const POLL_LEN: usize = 1 << 16;

/// Slices up to this many bytes are shuffled by Fisher–Yates on one thread:
/// up to about twice the L3 cache (32 MiB here) its random swaps, lagged and
/// prefetched, still beat the scatter's two extra moves per element.
/// Measured with `fairdeck bench --passes` (Xoshiro256++, alternating
/// builds with the start at 8 and 64 MiB, ns per `u32`, median over 12–18
/// rounds at load 4–8 on 2 cores): Fisher–Yates against the scatter at 2.2 M
/// 1.75 against 4.99, 8 M 4.4 against 5.4, 12 M 5.3 against 7.1, 16 M 5.5
/// against 6.9 (the ranges overlap from 8 M on); a quiet run in 2026 found
/// the crossover between 16 M and 25 M (docs/book/src/speed.md).
const SCATTER_START_BYTES: usize = 64 << 20;

impl ScatterPlan {
    /// The production plan for slices of `T`; zero-sized types never scatter.
    ///
    /// A bucket is split by a second level of labels only beyond
    /// [`START_BYTES`], where Fisher–Yates alone stops beating the bucket
    /// passes: the second level's labels and eight-way scatter cost about
    /// 3.5 ns per element, more than Fisher–Yates saves on a bucket in the
    /// L3 cache. Measured with `fairdeck bench --passes` on 10⁸ `u32`
    /// (docs/book/src/speed.md): two levels of 256 × 8 groups took 10.7–12.3
    /// ns per element, one level of 256 buckets 8.9–9.8 in the same
    /// alternating runs.
    pub(crate) fn for_type<T>() -> Self {
        ScatterPlan {
            start_len: SCATTER_START_BYTES
                .checked_div(size_of::<T>())
                .unwrap_or(usize::MAX),
            ..Self::parallel::<T>()
        }
    }

    /// The plan of the parallel shuffle: [`ScatterPlan::for_type`] starting
    /// at [`START_BYTES`], as it always did (its orders are unchanged: from
    /// there on the work is spread over the pool's threads).
    pub(crate) fn parallel<T>() -> Self {
        let size = size_of::<T>();
        ScatterPlan {
            start_len: START_BYTES.checked_div(size).unwrap_or(usize::MAX),
            leaf_len: (LEAF_BYTES / size.max(1)).max(1024),
            split_len: (START_BYTES / size.max(1)).max(1024),
            max_bits: 8,
            poll_len: POLL_LEN,
        }
    }

    /// Whether a slice of `len` elements is scattered (else Fisher–Yates).
    pub(crate) fn starts(&self, len: usize) -> bool {
        len > self.start_len && len > self.leaf_len
    }

    /// Label bits of the two levels for `len` elements: the outer level
    /// enough for buckets of about a leaf (at most `max_bits`), the inner
    /// one only for buckets beyond `split_len`, enough for groups of about a
    /// leaf (at most `max_bits`; 0 for no second level).
    pub(crate) fn bits(&self, len: usize) -> (u32, u32) {
        let outer = ceil_log2(len.div_ceil(self.leaf_len)).clamp(1, self.max_bits);
        let bucket = len.div_ceil(1 << outer);
        let inner = if bucket > self.split_len {
            ceil_log2(bucket.div_ceil(self.leaf_len)).min(self.max_bits)
        } else {
            0
        };
        (outer, inner)
    }
}

/// The smallest `b` with `2^b ≥ x` (0 for `x ≤ 1`).
fn ceil_log2(x: usize) -> u32 {
    x.next_power_of_two().trailing_zeros()
}

/// Shuffles `slice` by the scatter method: labels, one scatter pass, then
/// bucket by bucket a copy back (a second scatter for buckets beyond the
/// plan's `split_len`) and Fisher–Yates (module docs).
#[cfg(test)]
pub(crate) fn scatter_shuffle<T, D: Dice + ?Sized>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
) {
    // A hook that never stops: the shuffle runs to its end.
    let scratch = &mut Scratch::new();
    let _ = scatter_shuffle_until(slice, plan, dice, &mut |_| {}, &mut || false, scratch);
}

/// The scatter shuffle, calling `enter(pass)` as each pass begins and
/// asking `stop` between pieces of `plan.poll_len` elements of work (and
/// before each bucket is settled). `Err(pass)`: stopped in `pass`, with the
/// slice holding every element once (the buckets not yet settled are copied
/// back unshuffled). Until it stops, the dice sees the same requests and
/// the order is the same as with a hook that never stops. The labels and
/// the scratch buffer come from `scratch` (grown if needed, not zeroed).
pub(crate) fn scatter_shuffle_until<T, D, S>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
    enter: &mut dyn FnMut(Pass),
    stop: &mut S,
    scratch: &mut Scratch,
) -> Result<(), Pass>
where
    D: Dice + ?Sized,
    S: FnMut() -> bool + ?Sized,
{
    let n = slice.len();
    let (outer, inner) = plan.bits(n);
    enter(Pass::Labels);
    let mut fallback = Vec::new();
    let (labels, room) = scratch.buffers::<T>(n, &mut fallback);
    // Every label is written here before it is read (draw_labels_until
    // fills the whole slice, run by run), so stale labels need no zeroing.
    let lens = draw_labels_until(dice, outer, labels, stop).ok_or(Pass::Labels)?;
    enter(Pass::Scatter);
    let mut spread = moves::scatter_until(slice, labels, lens, room, plan.poll_len, stop)
        .ok_or(Pass::Scatter)?;
    let mut at = 0;
    while let Some(len) = spread.next_len() {
        let labels = &mut labels[at..at + len];
        at += len;
        let bucket = Bucket {
            bits: inner,
            poll_len: plan.poll_len,
        };
        bucket.shuffle(labels, dice, enter, stop, |mov| spread.settle(mov))?;
    }
    Ok(())
}

/// The passes of the shuffle of a large slice, in the order they run (the
/// three of step 3 once per bucket), as [`Shuffle::run_observed`](super::Shuffle::run_observed)
/// reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pass {
    /// Step 1: the outer labels, drawn and counted (and the label array's
    /// first touch).
    Labels,
    /// Step 2: every element copied into its bucket of the scratch buffer
    /// (and the scratch buffer's first touch).
    Scatter,
    /// Step 3, per bucket: its inner labels, drawn and counted.
    InnerLabels,
    /// Step 3, per bucket: moved back into its segment, grouped by them.
    Settle,
    /// Step 3, per group: Fisher–Yates inside the cache (for a slice too
    /// small to scatter, the whole shuffle).
    FisherYates,
}

/// How step 3 treats one bucket.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bucket {
    /// Inner label bits (0: no second level).
    pub bits: u32,
    /// Elements of work between two asks of the stop hook.
    pub poll_len: usize,
}

impl Bucket {
    /// Step 3 for one bucket of `labels.len()` elements: draws its labels
    /// (none when `bits` is 0) into `labels`, has `settle` move the bucket
    /// into its segment grouped by them, and shuffles each group, asking
    /// `stop` on the way. `settle` is called exactly once whatever happens
    /// (with [`Move::Copy`] when stopped before it), so the segment always
    /// ends up holding the bucket's elements; `Err(pass)`: stopped in `pass`.
    pub(crate) fn shuffle<'a, T: 'a, D, S>(
        self,
        labels: &mut [u8],
        dice: &mut D,
        enter: &mut dyn FnMut(Pass),
        stop: &mut S,
        settle: impl FnOnce(Move<'_>) -> &'a mut [T],
    ) -> Result<(), Pass>
    where
        D: Dice + ?Sized,
        S: FnMut() -> bool + ?Sized,
    {
        if self.bits == 0 {
            if stop() {
                settle(Move::Copy);
                return Err(Pass::Settle);
            }
            enter(Pass::Settle);
            let segment = settle(Move::Copy);
            let whole = [segment.len()];
            return self.groups(segment, &whole, dice, enter, stop);
        }
        enter(Pass::InnerLabels);
        let Some(lens) = draw_labels_until(dice, self.bits, labels, stop) else {
            settle(Move::Copy);
            return Err(Pass::InnerLabels);
        };
        enter(Pass::Settle);
        let segment = settle(Move::Scatter {
            labels,
            lens: &lens,
        });
        self.groups(segment, &lens, dice, enter, stop)
    }

    /// Fisher–Yates on each group of a settled segment (`lens` elements each).
    fn groups<T, D, S>(
        self,
        segment: &mut [T],
        lens: &[usize],
        dice: &mut D,
        enter: &mut dyn FnMut(Pass),
        stop: &mut S,
    ) -> Result<(), Pass>
    where
        D: Dice + ?Sized,
        S: FnMut() -> bool + ?Sized,
    {
        enter(Pass::FisherYates);
        for group in split_by(segment, lens) {
            if !fisher_yates_until(group, dice, self.poll_len, stop) {
                return Err(Pass::FisherYates);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
