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
//! bytes, allocated once per call.

use super::batched::fisher_yates;
use super::buckets::START_BYTES;
use super::moves::{self, Move, split_by};
use super::pages::advise_huge_pages;
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
}

/// Bytes of a bucket, as far as 256 buckets allow: it is shuffled by
/// Fisher–Yates just after being copied back, mostly out of the L2 and L3
/// caches.
const LEAF_BYTES: usize = 1 << 20;

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
        let size = size_of::<T>();
        ScatterPlan {
            start_len: START_BYTES.checked_div(size).unwrap_or(usize::MAX),
            leaf_len: (LEAF_BYTES / size.max(1)).max(1024),
            split_len: (START_BYTES / size.max(1)).max(1024),
            max_bits: 8,
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

/// Labels drawn per call to the dice while counting: small enough that
/// they are counted while still in the L1 cache.
const LABEL_RUN: usize = 16 << 10;

/// Fills `labels` with uniform labels of `bits` bits and returns how many
/// there are of each value `0..2^bits` (counted while they are in the cache).
pub(crate) fn draw_labels<D: Dice + ?Sized>(
    dice: &mut D,
    bits: u32,
    labels: &mut [u8],
) -> Vec<usize> {
    let mut tallies = vec![[0usize; 4]; 1 << bits];
    for run in labels.chunks_mut(LABEL_RUN) {
        dice.roll_pow2_many(bits, run);
        tally(run, &mut tallies);
    }
    tallies.iter().map(|t| t.iter().sum()).collect()
}

/// How many labels of each value `0..buckets` there are.
#[cfg(test)]
pub(crate) fn count(labels: &[u8], buckets: usize) -> Vec<usize> {
    let mut tallies = vec![[0usize; 4]; buckets];
    tally(labels, &mut tallies);
    tallies.iter().map(|t| t.iter().sum()).collect()
}

/// Adds the labels to four tallies per value, so that consecutive equal
/// labels do not wait on each other's increments.
fn tally(labels: &[u8], tallies: &mut [[usize; 4]]) {
    let mut quads = labels.chunks_exact(4);
    for q in &mut quads {
        for (lane, &l) in q.iter().enumerate() {
            tallies[usize::from(l)][lane] += 1;
        }
    }
    for &l in quads.remainder() {
        tallies[usize::from(l)][0] += 1;
    }
}

/// Shuffles `slice` by the scatter method: labels, one scatter pass, then
/// bucket by bucket a copy back (a second scatter for buckets beyond the
/// plan's `split_len`) and Fisher–Yates (module docs).
pub(crate) fn scatter_shuffle<T, D: Dice + ?Sized>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
) {
    scatter_shuffle_observed(slice, plan, dice, &mut |_| {});
}

/// [`scatter_shuffle`], calling `enter(pass)` as each pass begins.
pub(crate) fn scatter_shuffle_observed<T, D: Dice + ?Sized>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
    enter: &mut dyn FnMut(Pass),
) {
    let n = slice.len();
    let (outer, inner) = plan.bits(n);
    enter(Pass::Labels);
    let mut labels = vec![0u8; n];
    advise_huge_pages(&mut labels);
    let lens = draw_labels(dice, outer, &mut labels);
    enter(Pass::Scatter);
    let mut scratch = Vec::with_capacity(n);
    let scratch = &mut scratch.spare_capacity_mut()[..n];
    advise_huge_pages(scratch);
    let mut spread = moves::scatter(slice, &labels, lens, scratch);
    let mut at = 0;
    while let Some(len) = spread.next_len() {
        let labels = &mut labels[at..at + len];
        at += len;
        shuffle_bucket(labels, inner, dice, enter, |mov| spread.settle(mov));
    }
}

/// The passes of the shuffle of a large slice, in the order they run (the
/// three of step 3 once per bucket), as [`shuffle_by_passes`](super::shuffle_by_passes)
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

/// Step 3 for one bucket of `labels.len()` elements: draws its labels
/// (`bits` each; none when 0) into `labels`, has `settle` move the bucket
/// into its segment grouped by them, and shuffles each group.
pub(crate) fn shuffle_bucket<'a, T: 'a, D: Dice + ?Sized>(
    labels: &mut [u8],
    bits: u32,
    dice: &mut D,
    enter: &mut dyn FnMut(Pass),
    settle: impl FnOnce(Move<'_>) -> &'a mut [T],
) {
    if bits == 0 {
        enter(Pass::Settle);
        let segment = settle(Move::Copy);
        enter(Pass::FisherYates);
        fisher_yates(segment, dice);
        return;
    }
    enter(Pass::InnerLabels);
    let lens = draw_labels(dice, bits, labels);
    enter(Pass::Settle);
    let segment = settle(Move::Scatter {
        labels,
        lens: &lens,
    });
    enter(Pass::FisherYates);
    for group in split_by(segment, &lens) {
        fisher_yates(group, dice);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};
    use crate::shuffle::buckets::tests::{
        assert_every_order_equally_likely, exact_distribution, position_chi_square,
    };

    fn tiny(leaf_len: usize, max_bits: u32) -> ScatterPlan {
        ScatterPlan {
            start_len: 0,
            leaf_len,
            split_len: leaf_len,
            max_bits,
        }
    }

    #[test]
    fn scatter_shuffle_is_exactly_uniform_on_tiny_slices() {
        // Forced onto the scatter path: 2 or 4 outer buckets, with and
        // without a second level of 2 groups (n = 5 with leaf 1, 1 bit per
        // level: 2 × 2 groups; leaf 2, 2 bits: 4 buckets, one level).
        for plan in [tiny(1, 1), tiny(2, 1), tiny(2, 2), tiny(1, 2)] {
            for n in 0..=5usize {
                let (mass, total) = exact_distribution(|e| {
                    let mut v: Vec<usize> = (0..n).collect();
                    if plan.starts(n) {
                        scatter_shuffle(&mut v, plan, e);
                    } else {
                        fisher_yates(&mut v, e);
                    }
                    v
                });
                assert_every_order_equally_likely(&mass, total, n, &format!("{plan:?}"));
            }
        }
    }

    #[test]
    fn tiny_plans_really_use_two_levels() {
        assert_eq!(tiny(1, 1).bits(5), (1, 1));
        assert_eq!(tiny(1, 2).bits(5), (2, 1));
        assert_eq!(tiny(2, 2).bits(5), (2, 0));
        assert!(tiny(1, 1).starts(2) && !tiny(2, 1).starts(2));
    }

    #[test]
    fn enumeration_catches_a_scatter_shuffle_that_skips_its_groups() {
        // Negative control: both scatters without the final Fisher–Yates.
        let (mass, total) = exact_distribution(|e| {
            let mut v: Vec<usize> = (0..4).collect();
            let mut labels = vec![0u8; 4];
            e.roll_pow2_many(1, &mut labels);
            let lens = count(&labels, 2);
            let mut scratch = Vec::with_capacity(4);
            let mut spread = moves::scatter(&mut v, &labels, lens, scratch.spare_capacity_mut());
            let mut at = 0;
            while let Some(len) = spread.next_len() {
                let sub = &mut labels[at..at + len];
                at += len;
                e.roll_pow2_many(1, sub);
                let lens = count(sub, 2);
                spread.settle(Move::Scatter {
                    labels: sub,
                    lens: &lens,
                });
            }
            drop(spread);
            v
        });
        assert!(mass.len() < 24 || mass.values().any(|&m| m * 24 != total));
    }

    #[test]
    fn scatter_shuffle_passes_a_position_test_and_a_biased_one_fails() {
        // Statistic: χ² of where each of 12 elements lands, 60 000 shuffles,
        // df = (12 − 1)² = 121. Bound 210 is the 1 − 10^−6 quantile
        // (Wilson–Hilferty): a correct shuffle fails with probability 10^−6;
        // the seed is fixed, so the test is deterministic.
        let plan = tiny(2, 2);
        let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("chi")));
        let fair = position_chi_square(12, 60_000, |v| scatter_shuffle(v, plan, &mut dice));
        assert!(fair < 210.0, "scatter shuffle χ² = {fair}");
        // Negative control: the same shuffle that forgets to shuffle group 0
        // of each bucket.
        let biased = position_chi_square(12, 60_000, |v| {
            let (outer, inner) = plan.bits(v.len());
            let mut labels = vec![0u8; v.len()];
            dice.roll_pow2_many(outer, &mut labels);
            let lens = count(&labels, 1 << outer);
            let mut scratch = Vec::with_capacity(v.len());
            let mut spread = moves::scatter(v, &labels, lens, scratch.spare_capacity_mut());
            let mut at = 0;
            while let Some(len) = spread.next_len() {
                let sub = &mut labels[at..at + len];
                at += len;
                dice.roll_pow2_many(inner, sub);
                let lens = count(sub, 1 << inner);
                let segment = spread.settle(Move::Scatter {
                    labels: sub,
                    lens: &lens,
                });
                for group in split_by(segment, &lens).into_iter().skip(1) {
                    fisher_yates(group, &mut dice);
                }
            }
        });
        assert!(biased > 210.0, "negative control χ² = {biased}");
    }

    proptest::proptest! {
        #[test]
        fn any_plan_gives_a_permutation(
            seed in proptest::prelude::any::<[u8; 32]>(),
            n in 0usize..400,
            leaf_len in 1usize..40,
            max_bits in 1u32..=8,
        ) {
            let plan = ScatterPlan { start_len: 0, leaf_len, split_len: leaf_len, max_bits };
            let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::from_bytes(seed)));
            let mut v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            if plan.starts(n) {
                scatter_shuffle(&mut v, plan, &mut dice);
            }
            let mut back: Vec<usize> = v.iter().map(|x| x.parse().unwrap()).collect();
            back.sort_unstable();
            proptest::prop_assert!(back.into_iter().eq(0..n));
        }
    }

    #[test]
    fn counting_matches_a_plain_tally() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("count")));
        for n in [0, 1, 3, 4, 5, 1000, 1003] {
            let mut labels = vec![0u8; n];
            dice.roll_pow2_many(3, &mut labels);
            let mut want = vec![0usize; 8];
            labels.iter().for_each(|&l| want[usize::from(l)] += 1);
            assert_eq!(count(&labels, 8), want, "n = {n}");
        }
    }

    #[test]
    fn production_plan_splits_large_slices_into_cache_sized_groups() {
        let plan = ScatterPlan::for_type::<u32>();
        assert!(!plan.starts(1 << 21) && plan.starts((1 << 21) + 1));
        // 10⁸: one level of 256 buckets of 1.5 MiB; 10⁹: 256 of 15 MiB, each
        // split in 16 groups of 1 MiB or less.
        assert_eq!(plan.bits(100_000_000), (8, 0));
        assert_eq!(plan.bits(1_000_000_000), (8, 4));
        assert_eq!(plan.bits((1 << 21) + 1), (4, 0));
        assert_eq!(ScatterPlan::for_type::<u64>().bits(100_000_000), (8, 0));
        assert!(!ScatterPlan::for_type::<()>().starts(usize::MAX));
    }

    #[test]
    fn large_slices_of_any_type_shuffle_to_permutations() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("big")));
        let plan = ScatterPlan {
            start_len: 0,
            leaf_len: 1000,
            split_len: 1000,
            max_bits: 3,
        };
        let mut v: Vec<u32> = (0..300_000).collect();
        scatter_shuffle(&mut v, plan, &mut dice);
        assert!(v.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 10);
        v.sort_unstable();
        assert!(v.iter().copied().eq(0..300_000));
        let mut s: Vec<String> = (0..5000).map(|i| i.to_string()).collect();
        scatter_shuffle(&mut s, plan, &mut dice);
        let mut back: Vec<usize> = s.iter().map(|x| x.parse().unwrap()).collect();
        back.sort_unstable();
        assert!(back.into_iter().eq(0..5000));
    }
}
