//! The scatter shuffle: exact uniformity, permutations, plans.

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::batched::fisher_yates;
use crate::shuffle::buckets::tests::{
    assert_every_order_equally_likely, exact_distribution, position_chi_square,
};
use crate::shuffle::labels::count;

fn tiny(leaf_len: usize, max_bits: u32) -> ScatterPlan {
    ScatterPlan {
        start_len: 0,
        leaf_len,
        split_len: leaf_len,
        max_bits,
        poll_len: POLL_LEN,
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
        let plan = ScatterPlan { start_len: 0, leaf_len, split_len: leaf_len, max_bits, poll_len: 7 };
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
fn production_plan_splits_large_slices_into_cache_sized_groups() {
    // One thread scatters beyond 64 MiB, the parallel shuffle beyond 8 MiB.
    let plan = ScatterPlan::for_type::<u32>();
    assert!(!plan.starts(1 << 24) && plan.starts((1 << 24) + 1));
    let parallel = ScatterPlan::parallel::<u32>();
    assert!(!parallel.starts(1 << 21) && parallel.starts((1 << 21) + 1));
    assert_eq!(
        ScatterPlan {
            start_len: parallel.start_len,
            ..plan
        },
        parallel
    );
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
        poll_len: POLL_LEN,
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
