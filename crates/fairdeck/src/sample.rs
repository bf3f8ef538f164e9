//! Sampling without replacement: k distinct values from a range, or k items
//! from a stream of unknown length.

use rustc_hash::FxHashMap;

use crate::Error;
use crate::dice::Dice;
use crate::shuffle::shuffle;

/// Picks `k` distinct values from `[0, n)`, uniformly over all
/// n!/(n−k)! sequences, in selection order.
///
/// When `k ≤ n / 1024` the values are drawn by rejection instead: roll
/// uniform in `[0, n)` and redraw a value already chosen. Each new value is
/// then uniform over the ones not yet chosen — the same distribution as the
/// shuffle below, with a redraw probability below 1/1024 and a plain
/// open-addressing set (a power-of-two table at most half full: 16 to 32
/// bytes per value). Otherwise:
///
/// This is the hash-table deal of Juhász, “Keverjük a kártyát” ("Osztás hasítótáblával"): the
/// forward Fisher–Yates loop run on a *virtual* array `0, 1, …, n−1`, where
/// only the positions that a swap has touched are stored. Step `i` rolls `j`
/// uniform in `[i, n)`, outputs the value at `j` and moves the value at `i`
/// into `j`. Unlike the article we never store position `i` after step `i`
/// (it is never read again), and we keep the first `k` positions in a plain
/// array — only positions `≥ k` go into the hash map (FxHash: its keys are
/// our own uniform draws, so no adversary can pick colliding ones) — so each
/// step costs one hash operation at most.
///
/// O(k) expected time and O(k) memory, whatever `n` is (up to 2⁶⁴ − 1).
/// `k` rolls with bounds `n, n−1, …, n−k+1` (by rejection: about `k` rolls
/// with bound `n`).
///
/// # Errors
///
/// [`Error::SampleTooLarge`] if `k > n`, or if `k` does not fit in memory
/// indices (`usize`); [`Error::MemoryExhausted`] if the O(k) buffers cannot
/// be allocated (reported instead of aborting).
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::sample::sample;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("lotto")));
/// let picks = sample(5, 90, &mut dice)?;          // Hungarian lotto: 5 of 90
/// assert_eq!(picks.len(), 5);
/// assert!(picks.iter().all(|&x| x < 90));
/// let huge = sample(3, u64::MAX, &mut dice)?;     // instant, three numbers
/// assert_eq!(huge.len(), 3);
/// # Ok::<(), fairdeck::Error>(())
/// ```
pub fn sample<D: Dice + ?Sized>(k: u64, n: u64, dice: &mut D) -> Result<Vec<u64>, Error> {
    if k > n {
        return Err(Error::SampleTooLarge { k, n });
    }
    let capacity = usize::try_from(k).map_err(|_| Error::SampleTooLarge { k, n })?;
    if k <= n >> REJECTION_SHIFT {
        return sample_by_rejection(capacity, n, dice);
    }
    let mut out = buffer(capacity)?;
    // Virtual array: `front[p]` for positions p < k, `moved` for the rest
    // (a position absent from `moved` still holds its own index).
    let mut front = buffer(capacity)?;
    front.extend(0..k);
    let mut moved: FxHashMap<u64, u64> = FxHashMap::default();
    for i in 0..capacity {
        let at_i = front[i];
        let j = i as u64 + dice.roll(n - i as u64);
        let at_j = match usize::try_from(j) {
            Ok(p) if p < capacity => std::mem::replace(&mut front[p], at_i),
            _ => {
                if moved.len() == moved.capacity() {
                    let more = moved.len().max(capacity.min(1 << 20));
                    moved.try_reserve(more).map_err(|_| exhausted(more, 16))?;
                }
                moved.insert(j, at_i).unwrap_or(j)
            }
        };
        out.push(at_j);
    }
    Ok(out)
}

/// An empty vector with room for `capacity` values, or
/// [`Error::MemoryExhausted`] instead of an abort.
fn buffer(capacity: usize) -> Result<Vec<u64>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(capacity)
        .map_err(|_| exhausted(capacity, 8))?;
    Ok(v)
}

/// The error for `count` items of `size` bytes each.
fn exhausted(count: usize, size: u64) -> Error {
    Error::MemoryExhausted {
        bytes: (count as u64).saturating_mul(size),
    }
}

/// `sample` draws by rejection when `k ≤ n >> REJECTION_SHIFT`.
const REJECTION_SHIFT: u32 = 10;

/// `k` distinct values of `[0, n)` in selection order, each new one by
/// redrawing until it is new. Stops early if the dice is exhausted.
fn sample_by_rejection<D: Dice + ?Sized>(
    k: usize,
    n: u64,
    dice: &mut D,
) -> Result<Vec<u64>, Error> {
    let mut chosen = DrawnSet::with_capacity(k)?;
    let mut out = buffer(k)?;
    while out.len() < k && !dice.exhausted() {
        let x = dice.roll(n);
        if chosen.insert(x) {
            out.push(x);
        }
    }
    Ok(out)
}

/// A set of values below `u64::MAX`: open addressing with linear probing,
/// at most half full, `u64::MAX` marking empty slots (no value can be
/// `u64::MAX`: every value is below `n ≤ u64::MAX`). Its keys are our own
/// uniform draws, so the high bits of a multiplicative hash spread them well
/// and no adversary can choose colliding keys. Bare 8-byte slots, no
/// control bytes: fewer cache misses than a general hash set.
struct DrawnSet {
    slots: Vec<u64>,
    shift: u32,
}

impl DrawnSet {
    const EMPTY: u64 = u64::MAX;

    fn with_capacity(k: usize) -> Result<Self, Error> {
        let size = k
            .checked_mul(2)
            .and_then(usize::checked_next_power_of_two)
            .ok_or_else(|| exhausted(k, 16))?
            .max(16);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(size)
            .map_err(|_| exhausted(size, 8))?;
        slots.resize(size, Self::EMPTY);
        Ok(DrawnSet {
            slots,
            shift: u64::BITS - size.trailing_zeros(),
        })
    }

    /// Adds `x`; returns whether it was new.
    fn insert(&mut self, x: u64) -> bool {
        debug_assert_ne!(x, Self::EMPTY);
        let mask = self.slots.len() - 1;
        let mut at = (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            match self.slots[at] {
                Self::EMPTY => {
                    self.slots[at] = x;
                    return true;
                }
                y if y == x => return false,
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// Picks `k` items from an iterator of unknown length, each `k`-subset
/// equally likely, returned in uniformly random order.
///
/// Waterman's reservoir (Knuth, TAOCP vol. 2, Algorithm R): item number `t`
/// (0-based) replaces a random slot with probability k/(t+1), decided by one
/// exact roll in `[0, t]`. The reservoir is shuffled at the end so the order
/// is uniform too. If the iterator yields fewer than `k` items, all of them
/// are returned, shuffled.
///
/// O(N) time for N items and one roll per item past the first `k`; O(k) memory.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::sample::reservoir;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let three = reservoir(1..=1_000, 3, &mut dice);
/// assert_eq!(three.len(), 3);
/// ```
pub fn reservoir<T, I, D>(items: I, k: usize, dice: &mut D) -> Vec<T>
where
    I: IntoIterator<Item = T>,
    D: Dice + ?Sized,
{
    let mut iter = items.into_iter();
    let mut kept: Vec<T> = iter.by_ref().take(k).collect();
    if kept.len() == k && k > 0 {
        for (t, item) in (k as u64..).zip(iter) {
            let j = dice.roll(t + 1);
            if j < k as u64 {
                kept[j as usize] = item;
            }
        }
    }
    shuffle(&mut kept, dice);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};
    use crate::testing::{assert_all_equal, enumerate, factorial};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn sample_is_exactly_uniform_for_small_n() {
        for n in 0..=6u64 {
            for k in 0..=n {
                let counts = enumerate(|e| sample(k, n, e).unwrap());
                let outcomes = assert_all_equal(&counts, &format!("sample({k}, {n})"));
                assert_eq!(outcomes, factorial(n) / factorial(n - k));
                assert!(
                    counts
                        .keys()
                        .all(|s| s.len() as u64 == k && s.iter().all(|&x| x < n))
                );
            }
        }
    }

    /// The enumerator with a depth limit: paths longer than `limit` rolls
    /// are cut (the algorithm sees `exhausted()` and stops early).
    struct Limited {
        inner: crate::dice::Enumerator,
        limit: usize,
    }
    impl Dice for Limited {
        fn roll(&mut self, n: u64) -> u64 {
            self.inner.roll(n)
        }
        fn exhausted(&self) -> bool {
            self.inner.depth() >= self.limit
        }
    }

    /// Exact probability mass (in units of 1/6^limit) of each complete
    /// outcome of `f` over all paths of at most `limit` rolls with bound 6.
    fn masses(
        limit: usize,
        mut f: impl FnMut(&mut Limited) -> Vec<u64>,
    ) -> BTreeMap<Vec<u64>, u64> {
        let mut dice = Limited {
            inner: crate::dice::Enumerator::new(),
            limit,
        };
        let mut mass = BTreeMap::new();
        loop {
            let out = f(&mut dice);
            let depth = dice.inner.depth() as u32;
            if out.len() == 2 {
                *mass.entry(out).or_insert(0) += 6u64.pow(limit as u32 - depth);
            }
            if !dice.inner.next_path() {
                return mass;
            }
        }
    }

    #[test]
    fn rejection_sampling_is_exact_on_every_resolved_path() {
        // All paths of up to 6 rolls: every ordered pair of 6 values must
        // have the same mass; the unresolved rest shrinks like (1/6)^depth.
        let mass = masses(6, |d| sample_by_rejection(2, 6, d).unwrap());
        assert_eq!(mass.len(), 30);
        let first = *mass.values().next().unwrap();
        assert!(mass.values().all(|&m| m == first), "{mass:?}");
        // Negative control: "take the next free value" instead of redrawing.
        let biased = masses(6, |d| {
            let a = d.roll(6);
            let b = d.roll(6);
            vec![a, if b == a { (a + 1) % 6 } else { b }]
        });
        assert!(biased.values().any(|&m| m != first));
    }

    #[test]
    fn rejection_sampling_passes_a_chi_square_test() {
        // χ² of the 30 ordered pairs of sample(2, 6) by rejection, 60 000
        // draws, df = 29; bound 81 is the 1 − 10^−6 quantile (Wilson–Hilferty),
        // so a correct sampler fails with probability 10^−6 (fixed seed).
        let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("rej")));
        let chi = |draw: &mut dyn FnMut() -> Vec<u64>| {
            let mut counts = BTreeMap::new();
            for _ in 0..60_000 {
                *counts.entry(draw()).or_insert(0u32) += 1;
            }
            let e = 2_000.0;
            let missing = 30 - counts.len();
            counts
                .values()
                .map(|&c| (f64::from(c) - e).powi(2) / e)
                .sum::<f64>()
                + missing as f64 * e
        };
        let fair = chi(&mut || sample_by_rejection(2, 6, &mut dice).unwrap());
        assert!(fair < 81.0, "χ² = {fair}");
        let biased = chi(&mut || {
            let a = dice.roll(6);
            let b = dice.roll(6);
            vec![a, if b == a { (a + 1) % 6 } else { b }]
        });
        assert!(biased > 81.0, "negative control χ² = {biased}");
    }

    #[test]
    fn drawn_set_finds_repeats_across_collisions() {
        let mut set = DrawnSet::with_capacity(4).unwrap(); // 16 slots
        // Eight values (the most the set is meant to hold, and more) in 16
        // slots: repeats must be found even behind collisions.
        for x in 0..8u64 {
            assert!(set.insert(x << 60));
        }
        for x in 0..8u64 {
            assert!(!set.insert(x << 60));
        }
        assert_eq!(
            set.slots.iter().filter(|&&s| s != DrawnSet::EMPTY).count(),
            8
        );
        assert!(set.insert(u64::MAX - 1));
        assert!(!set.insert(u64::MAX - 1));
    }

    #[test]
    fn sample_uses_rejection_only_for_sparse_samples() {
        let seed = Seed::parse("sparse");
        let mut a = RngDice::new(Generator::ChaCha20.build(&seed));
        let mut b = RngDice::new(Generator::ChaCha20.build(&seed));
        assert_eq!(
            sample(1000, 1 << 40, &mut a).unwrap(),
            sample_by_rejection(1000, 1 << 40, &mut b).unwrap()
        );
        let v = sample(100_000, u64::MAX, &mut a).unwrap();
        let distinct: std::collections::HashSet<_> = v.iter().collect();
        assert_eq!(distinct.len(), 100_000);
    }

    #[test]
    fn reservoir_is_exactly_uniform_for_small_n() {
        for n in 0..=6usize {
            for k in 0..=n + 1 {
                let counts = enumerate(|e| reservoir(0..n, k, e));
                let outcomes = assert_all_equal(&counts, &format!("reservoir({k} of {n})"));
                let k = k.min(n) as u64;
                assert_eq!(outcomes, factorial(n as u64) / factorial(n as u64 - k));
            }
        }
    }

    #[test]
    fn sample_rejects_too_many() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("x")));
        assert_eq!(
            sample(10, 5, &mut dice),
            Err(Error::SampleTooLarge { k: 10, n: 5 })
        );
    }

    #[test]
    fn sample_reaches_the_top_of_u64() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("x")));
        let v = sample(2, u64::MAX, &mut dice).unwrap();
        assert_ne!(v[0], v[1]);
        // A full sample of a tiny range is a permutation.
        let mut all = sample(7, 7, &mut dice).unwrap();
        all.sort_unstable();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
    }

    proptest! {
        #[test]
        fn samples_are_distinct_and_in_range(seed in any::<[u8; 32]>(), n in 1u64.., k in 0u64..200) {
            let k = k.min(n);
            let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::from_bytes(seed)));
            let mut v = sample(k, n, &mut dice).unwrap();
            prop_assert!(v.iter().all(|&x| x < n));
            v.sort_unstable();
            v.dedup();
            prop_assert_eq!(v.len() as u64, k);
        }

        #[test]
        fn reservoir_keeps_distinct_items(seed in any::<[u8; 32]>(), n in 0usize..500, k in 0usize..50) {
            let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_bytes(seed)));
            let mut v = reservoir(0..n, k, &mut dice);
            prop_assert_eq!(v.len(), k.min(n));
            v.sort_unstable();
            v.dedup();
            prop_assert_eq!(v.len(), k.min(n));
        }
    }
}
