//! The cache-aware shuffle for large slices: random buckets, then small shuffles.
//!
//! When a slice is far larger than the caches, every swap of Fisher–Yates
//! misses them. Following Sanders (1998, "Random permutations on distributed,
//! external and hierarchical memory", IPL 67) we instead
//!
//! 1. give every element an independent uniform bucket label in
//!    `[0, B)`, `B = 2^bits ≤ 256` (exact: bits cut from uniform words);
//! 2. move the elements into their buckets in place — the American-flag
//!    distribution of MSD radix sort, one swap per misplaced element, whose
//!    writes go to only `B` sequential streams — so bucket `b` occupies the
//!    `b`-th segment, its length the number of labels equal to `b`;
//! 3. shuffle each bucket independently and uniformly (recursively, or with
//!    batched Fisher–Yates once it fits in the cache).
//!
//! **Why the result is exactly uniform.** Fix a final order `π` of the n
//! elements. For each composition `c = (c_0, …, c_{B−1})` of n there is
//! exactly one label vector that sends to segment `b` precisely the elements
//! `π` places there; it has probability `B^−n`, and given it the independent
//! bucket shuffles produce `π` with probability `∏ 1/c_b!` (whatever order
//! step 2 left inside each bucket). Summing over compositions,
//! `P(π) = B^−n · Σ_c ∏ 1/c_b! = B^−n · B^n / n! = 1/n!` by the multinomial
//! theorem. The tests check this by exact enumeration on tiny slices with
//! two buckets, and statistically on larger ones.
//!
//! Extra memory: one label byte per element, allocated once per call.

use super::batched::fisher_yates;
use super::prefetch::prefetch;
use crate::dice::Dice;

/// The thresholds of the bucket shuffle; tests shrink them to force it on tiny inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Whole slices of at most this many elements get Fisher–Yates directly.
    pub start_len: usize,
    /// Buckets of at most this many elements get Fisher–Yates directly.
    pub leaf_len: usize,
    /// How many more levels of bucketing are allowed (0: Fisher–Yates).
    pub levels: u32,
    /// At most this many label bits per level (`1..=8`).
    pub max_bits: u32,
}

/// Bytes of a leaf bucket (and of a final group of the scatter shuffle): a
/// quarter of a 1 MiB L2 cache, leaving room for the labels and the streams.
pub(super) const LEAF_BYTES: usize = 256 << 10;

/// Slices up to this many bytes are shuffled by Fisher–Yates directly:
/// while a good part of the slice fits in the L3 cache (32 MiB here), its
/// random swaps overlap well and beat the extra passes of the bucket method
/// (measured with the `production` example of `fairdeck-bench`).
pub(super) const START_BYTES: usize = 8 << 20;

impl Plan {
    /// The plan of `Shuffle::run_in_place` for slices of `T`: one level of up to 256
    /// buckets (a second level measured slower: its extra pass costs more
    /// than the L3-resident Fisher–Yates of 10⁸ / 256 elements).
    pub(crate) fn for_type<T>() -> Self {
        Plan {
            start_len: START_BYTES / size_of::<T>().max(1),
            leaf_len: (LEAF_BYTES / size_of::<T>().max(1)).max(1024),
            levels: 1,
            max_bits: 8,
        }
    }

    /// Whether a whole slice of `len` elements is bucketed (else Fisher–Yates).
    pub(crate) fn starts(&self, len: usize) -> bool {
        self.buckets(len) && len > self.start_len
    }

    /// Whether a bucket of `len` elements is bucketed again (else Fisher–Yates).
    pub(crate) fn buckets(&self, len: usize) -> bool {
        self.levels > 0 && len > self.leaf_len
    }

    /// Label bits for a slice of `len` elements: enough buckets for each to
    /// be about a leaf, capped at `max_bits`.
    pub(crate) fn bits_for(&self, len: usize) -> u32 {
        let wanted = len
            .div_ceil(self.leaf_len)
            .next_power_of_two()
            .trailing_zeros();
        wanted.clamp(1, self.max_bits)
    }

    /// The plan for the buckets one level down.
    pub(crate) fn inner(&self) -> Self {
        Plan {
            levels: self.levels.saturating_sub(1),
            ..*self
        }
    }
}

/// Shuffles `slice` uniformly with the bucket method where `plan` says so.
/// `labels` is scratch space of the same length.
pub(crate) fn shuffle_with_plan<T, D: Dice + ?Sized>(
    slice: &mut [T],
    labels: &mut [u8],
    plan: Plan,
    dice: &mut D,
) {
    if !plan.buckets(slice.len()) {
        fisher_yates(slice, dice);
        return;
    }
    let bits = plan.bits_for(slice.len());
    dice.roll_pow2_many(bits, labels);
    distribute_then(slice, labels, 1 << bits, |_, part, scratch| {
        shuffle_with_plan(part, scratch, plan.inner(), dice)
    });
}

/// How many slots ahead of a bucket's head to prefetch: one cache line of labels.
const PREFETCH_AHEAD: usize = 64;

/// Moves every element into the segment of its label (American-flag
/// distribution, in place, carrying the labels along). Returns the end of
/// each bucket's segment. (The shuffles use [`distribute_then`].)
#[cfg(test)]
pub(crate) fn distribute<T>(slice: &mut [T], labels: &mut [u8], buckets: usize) -> Vec<usize> {
    let mut ends = Vec::with_capacity(buckets);
    let mut total = 0;
    distribute_then(slice, labels, buckets, |_, part, _| {
        total += part.len();
        ends.push(total);
    });
    ends
}

/// [`distribute`], handing each bucket (and its labels) to `done` as soon as
/// it is complete, in bucket order — `Shuffle::run_parallel` starts shuffling bucket 0
/// on another core while the distribution goes on.
pub(crate) fn distribute_then<'a, T>(
    slice: &'a mut [T],
    labels: &'a mut [u8],
    buckets: usize,
    mut done: impl FnMut(usize, &'a mut [T], &'a mut [u8]),
) {
    debug_assert_eq!(slice.len(), labels.len());
    let mut ends = vec![0usize; buckets];
    for &l in labels.iter() {
        ends[usize::from(l)] += 1;
    }
    let mut total = 0;
    for e in &mut ends {
        total += *e;
        *e = total;
    }
    let mut heads: Vec<usize> = std::iter::once(0)
        .chain(ends[..buckets - 1].iter().copied())
        .collect();
    // `rest` is the not yet completed tail of the slice, starting at `base`.
    let (mut rest, mut rest_labels, mut base) = (slice, labels, 0);
    for b in 0..buckets {
        let mut at = heads[b];
        while at < ends[b] {
            // Follow the cycle through `at`, keeping the travelling label in
            // a register: each step parks one element for good at the head
            // of its bucket and brings back the one that was there.
            let mut label = usize::from(rest_labels[at - base]);
            while label != b {
                let dst = heads[label] - base;
                heads[label] += 1;
                // The heads are 2^bits streams, too many for the hardware
                // prefetcher; without the hint every new cache line of the
                // labels stalls this (serial) cycle for a memory round trip.
                prefetch(rest_labels, dst + PREFETCH_AHEAD);
                prefetch(rest, dst + PREFETCH_AHEAD);
                let displaced = rest_labels[dst];
                rest_labels[dst] = label as u8;
                rest.swap(at - base, dst);
                label = usize::from(displaced);
            }
            rest_labels[at - base] = b as u8;
            at += 1;
        }
        let len = ends[b] - base;
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(len);
        let (part_labels, tail_labels) = std::mem::take(&mut rest_labels).split_at_mut(len);
        (rest, rest_labels, base) = (tail, tail_labels, ends[b]);
        done(b, part, part_labels);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::dice::{Enumerator, RngDice};
    use crate::rng::{Generator, Seed};
    use crate::shuffle::{Shuffle, shuffle_planned};

    /// The in-place bucket shuffle, as its tests call it.
    fn shuffle<T, D: crate::dice::Dice + ?Sized>(slice: &mut [T], dice: &mut D) {
        Shuffle::new().run_in_place(slice, dice);
    }
    use std::collections::BTreeMap;

    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }

    /// Exact outcome probabilities (as multiples of 1/total) of `f` over every
    /// path of the enumerator; paths may have different probabilities here,
    /// because bucket sizes are random.
    pub(crate) fn exact_distribution<T: Ord>(
        mut f: impl FnMut(&mut Enumerator) -> T,
    ) -> (BTreeMap<T, u128>, u128) {
        let mut e = Enumerator::new();
        let mut paths = Vec::new();
        loop {
            let out = f(&mut e);
            paths.push((out, e.path_bounds().map(u128::from).product::<u128>()));
            if !e.next_path() {
                break;
            }
        }
        let total = paths.iter().fold(1, |l, &(_, w)| l / gcd(l, w) * w);
        let mut mass = BTreeMap::new();
        for (out, w) in paths {
            *mass.entry(out).or_insert(0) += total / w;
        }
        (mass, total)
    }

    fn tiny(leaf_len: usize, levels: u32, max_bits: u32) -> Plan {
        Plan {
            start_len: leaf_len,
            leaf_len,
            levels,
            max_bits,
        }
    }

    /// Asserts that `mass` (from [`exact_distribution`]) puts the same mass,
    /// `total / n!`, on each of the `n!` orders of `n` elements.
    pub(crate) fn assert_every_order_equally_likely(
        mass: &BTreeMap<Vec<usize>, u128>,
        total: u128,
        n: usize,
        what: &str,
    ) {
        let orders: u128 = (1..=n as u128).product();
        assert_eq!(mass.len() as u128, orders, "{what}, n = {n}");
        assert!(
            mass.values().all(|&m| m * orders == total),
            "{what}, n = {n}: {mass:?}"
        );
    }

    #[test]
    fn bucket_shuffle_is_exactly_uniform_on_tiny_slices() {
        // Forced onto the bucket path with 2 or 4 buckets, one or two levels.
        for plan in [tiny(1, 1, 1), tiny(1, 2, 1), tiny(2, 1, 2), tiny(2, 2, 1)] {
            for n in 0..=5usize {
                let (mass, total) = exact_distribution(|e| {
                    let mut v: Vec<usize> = (0..n).collect();
                    shuffle_planned(&mut v, plan, e);
                    v
                });
                assert_every_order_equally_likely(&mass, total, n, &format!("{plan:?}"));
            }
        }
    }

    #[test]
    fn enumeration_catches_a_bucket_shuffle_without_inner_shuffles() {
        // Negative control: labels and distribution alone are not uniform.
        let (mass, _) = exact_distribution(|e| {
            let mut v: Vec<usize> = (0..4).collect();
            let mut labels = vec![0u8; 4];
            e.roll_pow2_many(1, &mut labels);
            distribute(&mut v, &mut labels, 2);
            v
        });
        assert!(
            mass.len() < 24
                || mass
                    .values()
                    .any(|&m| m != mass.values().next().copied().unwrap())
        );
    }

    #[test]
    fn distribute_groups_by_label_and_keeps_the_multiset() {
        let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("d")));
        let mut labels = vec![0u8; 10_000];
        dice.roll_pow2_many(5, &mut labels);
        let original = labels.clone();
        let mut v: Vec<usize> = (0..10_000).collect();
        let ends = distribute(&mut v, &mut labels, 32);
        assert_eq!(ends.last(), Some(&10_000));
        let mut start = 0;
        for (b, &end) in ends.iter().enumerate() {
            assert!(labels[start..end].iter().all(|&l| usize::from(l) == b));
            assert!(v[start..end].iter().all(|&x| usize::from(original[x]) == b));
            start = end;
        }
        v.sort_unstable();
        assert!(v.iter().copied().eq(0..10_000));
    }

    /// Pearson χ² of the element × position count matrix against uniform,
    /// each trial shuffling the sorted slice `0..n`.
    pub(crate) fn position_chi_square(
        n: usize,
        trials: usize,
        mut shuffle: impl FnMut(&mut [usize]),
    ) -> f64 {
        let mut counts = vec![0u64; n * n];
        let mut v: Vec<usize> = Vec::with_capacity(n);
        for _ in 0..trials {
            // Each trial starts from the sorted order: a biased shuffle
            // applied to an already shuffled slice could hide its bias.
            v.clear();
            v.extend(0..n);
            shuffle(&mut v);
            for (pos, &x) in v.iter().enumerate() {
                counts[x * n + pos] += 1;
            }
        }
        let expected = trials as f64 / n as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn bucket_shuffle_passes_a_position_test_and_a_biased_one_fails() {
        // Statistic: χ² of where each of 12 elements lands, 60 000 shuffles,
        // df = (12 − 1)² = 121. Bound 210 is the 1 − 10^−6 quantile
        // (Wilson–Hilferty), so a correct shuffle fails with probability 10^−6;
        // the seed is fixed, so the test is deterministic.
        let plan = tiny(2, 2, 2);
        let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("chi")));
        let fair = position_chi_square(12, 60_000, |v| shuffle_planned(v, plan, &mut dice));
        assert!(fair < 210.0, "bucket shuffle χ² = {fair}");
        // Negative control: a two-bucket shuffle that forgets to shuffle bucket 0.
        let biased = position_chi_square(12, 60_000, |v| {
            let mut labels = vec![0u8; v.len()];
            dice.roll_pow2_many(1, &mut labels);
            distribute_then(v, &mut labels, 2, |i, part, _| {
                if i > 0 {
                    fisher_yates(part, &mut dice);
                }
            });
        });
        assert!(biased > 210.0, "negative control χ² = {biased}");
    }

    #[test]
    fn production_plan_uses_buckets_only_beyond_the_cache() {
        let plan = Plan::for_type::<u32>();
        assert!(!plan.buckets(65_536));
        assert!(plan.buckets(65_537));
        assert!(!plan.starts(1_000_000));
        assert!(plan.starts(2_100_000));
        assert_eq!(plan.bits_for(100_000_000), 8);
        assert_eq!(plan.inner().levels, 0);
    }

    #[test]
    fn large_slices_shuffle_to_permutations() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("big")));
        let mut v: Vec<u32> = (0..300_000).collect();
        let plan = Plan {
            start_len: 0,
            ..Plan::for_type::<u32>()
        };
        shuffle_planned(&mut v, plan, &mut dice);
        assert!(v.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 10);
        v.sort_unstable();
        assert!(v.iter().copied().eq(0..300_000));
        let mut w: Vec<u32> = (0..2_100_000).collect();
        shuffle(&mut w, &mut dice);
        assert!(w.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 10);
    }
}
