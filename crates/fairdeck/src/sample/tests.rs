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
fn masses(limit: usize, mut f: impl FnMut(&mut Limited) -> Vec<u64>) -> BTreeMap<Vec<u64>, u64> {
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

/// The bucketed walk gives what the step-by-step walk gives from the same
/// rolls: sparse samples (where `sample` uses it), and dense ones, where
/// nearly every step meets a moved position (long chains of `v`).
#[test]
fn the_bucketed_walk_is_the_step_by_step_walk() {
    let cases: &[(usize, u64)] = &[
        (0, 1),
        (1, 1),
        (1, 64),
        (3, 5),
        (50, 50),
        (200, 300),
        (1000, 1000),
        (1000, 64_000),
        (5000, 320_000),
        (20_000, 1 << 21),
        (300, u64::MAX),
    ];
    for (case, &(k, n)) in cases.iter().enumerate() {
        for seed in 0..4u8 {
            let key = Seed::from_bytes([seed.wrapping_add(case as u8 * 16); 32]);
            let mut a = RngDice::new(Generator::ChaCha8.build(&key));
            let mut b = RngDice::new(Generator::ChaCha8.build(&key));
            let reference = virtual_fisher_yates(k, k as u64, n, &mut a).unwrap();
            let bucketed = sparse::virtual_fisher_yates(k, n, &mut b).unwrap();
            assert_eq!(bucketed, reference, "k = {k}, n = {n}, seed {seed}");
        }
    }
}

/// The negative control: a walk that ignores repeated rolls (every step
/// outputs its roll) differs from the real one as soon as two rolls meet.
#[test]
fn a_walk_that_ignores_repeats_is_caught() {
    let key = Seed::from_bytes([7; 32]);
    let mut a = RngDice::new(Generator::ChaCha8.build(&key));
    let mut b = RngDice::new(Generator::ChaCha8.build(&key));
    let reference = virtual_fisher_yates(1000, 1000, 64_000, &mut a).unwrap();
    let naive: Vec<u64> = (0..1000u64).map(|i| i + b.roll(64_000 - i)).collect();
    assert_ne!(naive, reference);
}

proptest! {
    #[test]
    fn the_bucketed_walk_matches_on_any_input(seed in any::<[u8; 32]>(), n in 1u64..5000, k in 0usize..400) {
        let k = k.min(n as usize);
        let mut a = RngDice::new(Generator::ChaCha8.build(&Seed::from_bytes(seed)));
        let mut b = RngDice::new(Generator::ChaCha8.build(&Seed::from_bytes(seed)));
        prop_assert_eq!(
            sparse::virtual_fisher_yates(k, n, &mut b).unwrap(),
            virtual_fisher_yates(k, k as u64, n, &mut a).unwrap()
        );
    }
}
