//! Production shuffles: exactly uniform, in place, any element type.
//!
//! Up to 8 MiB all of them are the Fisher–Yates shuffle in Durstenfeld's in-place form
//! (Durstenfeld 1964, CACM Algorithm 235; Knuth, TAOCP vol. 2, Algorithm P):
//! each of the n! orders of a slice comes out with probability exactly 1/n!
//! when the dice is fair. “洗牌算法_最简单的洗牌方法” (2023) derives why each card lands in each place
//! with probability 1/n; the enumeration tests below check the whole
//! distribution, not just the marginals.
//!
//! Three things make them fast (see docs/book/src/speed.md):
//!
//! * the rolls are asked for in batches, a whole run of descending bounds
//!   at a time ([`Dice::roll_descending_below`]), which the production dice
//!   answers with up to eight rolls per 64-bit word (Brackett-Rozinsky &
//!   Lemire 2024), one batch ahead of the swaps that use them;
//! * slices larger than 64 MiB ([`Shuffle::run_parallel`]: 8 MiB) are
//!   shuffled by random buckets first (Sanders 1998): each element is read
//!   once and written once into its bucket of a scratch buffer, and each
//!   bucket goes back to the slice and is shuffled while it is in the cache
//!   — see the uniformity argument in the `scatter` module source;
//! * [`Shuffle::run_parallel`] (cargo feature `rayon`, on by default) runs
//!   every pass of that on all cores, with the same output for any thread
//!   count.
//!
//! # The API: two functions and one options type
//!
//! Like `rand`'s `SliceRandom`, the common cases are two functions:
//! [`shuffle`] (the whole slice) and [`partial_shuffle`] (the first `k`
//! places). Everything else — kept scratch memory, a stop hook, all cores,
//! watching the passes, the in-place orders of fairdeck 0.1.0 — is a
//! [`Shuffle`]: options set by methods, then one `run_*` method that says
//! where the randomness comes from and on how many threads:
//!
//! | run | randomness | threads |
//! |---|---|---|
//! | [`run`](Shuffle::run) | a dice | this one |
//! | [`run_observed`](Shuffle::run_observed) | a dice, telling each [`Pass`] | this one |
//! | [`run_parallel`](Shuffle::run_parallel) | a seed and a generator | every core |
//! | [`run_parallel_from_dice`](Shuffle::run_parallel_from_dice) | a key drawn from a dice | every core |
//! | [`run_in_place`](Shuffle::run_in_place), [`run_parallel_in_place`](Shuffle::run_parallel_in_place) | as above; 0.1.0's orders | as above |
//!
//! The options are orthogonal to the order: [`Shuffle::scratch`] and
//! [`Shuffle::until`] never change which order comes out, so they are
//! settings, not separate functions (up to fairdeck 0.1 there were thirteen functions
//! named by suffixes — `par_`, `_reusing`, `_until`, `_in_place`,
//! `_by_passes`, `_with` — one per combination; CHANGELOG.md maps each to
//! its call now). A builder rather than an options struct, because the stop
//! hook is a closure of the caller's type and the scratch a borrow: both fit
//! a builder's type parameters, and [`Shuffle::until`] changes what a run
//! returns — `()` without a hook, `Result<(), Stopped>` with one — so a
//! shuffle that cannot stop has no error to handle. The parallel runs take
//! a seed rather than a dice because their order must not depend on the
//! thread count: each task keys its own generator from the seed.
//!
//! A stopped shuffle ([`Shuffle::until`]) asks its hook between pieces of
//! at most 65536 elements of work: a long shuffle can end early (Ctrl-C, a
//! deadline) and leaves its slice a permutation of its elements, though
//! not a uniformly random one.

use crate::dice::Dice;

mod batched;
mod buckets;
mod labels;
mod moves;
mod options;
mod pages;
#[cfg(feature = "rayon")]
mod par_scatter;
#[cfg(feature = "rayon")]
mod parallel;
mod prefetch;
mod rows;
mod scatter;
mod scratch;
mod stop;

use buckets::Plan;
pub use options::{NoStop, Shuffle, Until};
pub use rows::shuffle_runs;
pub use scatter::Pass;
use scatter::ScatterPlan;
pub use scratch::Scratch;
pub use stop::Stopped;

/// Shuffles `slice` in place, uniformly over all `n!` orders.
///
/// Up to 64 MiB of elements (2²⁴ `u32`s) this is Durstenfeld's backward
/// loop: for `i` from `n−1` down to `1`, swap element `i` with element `j`,
/// `j` uniform in `[0, i]` — exactly `n−1` rolls with bounds `n, n−1, …, 2`,
/// asked for in batches of up to eight. Larger slices get one uniform
/// bucket label per element, are copied into up to 256 buckets of a
/// scratch buffer in one pass, and each bucket is moved back to its part of
/// the slice (a bucket over 8 MiB split once more by a second label) and
/// shuffled the same way while it is in the cache; the result is again exactly
/// uniform (Sanders 1998, "Random permutations on distributed, external and
/// hierarchical memory"). Works for every `T`: elements are only moved,
/// never cloned or dropped, and if the dice panics the slice still holds
/// every element once.
///
/// O(n) time; O(1) extra space up to 64 MiB, `n · (1 + size_of::<T>())`
/// bytes beyond (see [`Shuffle::run_in_place`] for n bytes); like any `Vec`,
/// that scratch memory aborts the process if it cannot be allocated, and
/// it is freed before the call returns ([`Shuffle::scratch`] keeps it for
/// the next call). Reproducible: the same dice answers give the same order on every
/// platform; slices over 8 MiB are ordered differently than in fairdeck
/// 0.1.0 ([`Shuffle::run_in_place`] keeps those orders), and slices over 8 MiB
/// up to 64 MiB differently than before the scatter's start moved there
/// (CHANGELOG.md, Reproducibility).
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::shuffle;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut deck: Vec<u32> = (1..=10).collect();
/// shuffle(&mut deck, &mut dice);
/// let mut sorted = deck.clone();
/// sorted.sort();
/// assert_eq!(sorted, (1..=10).collect::<Vec<_>>());
/// ```
pub fn shuffle<T, D: Dice + ?Sized>(slice: &mut [T], dice: &mut D) {
    // A hook that never stops compiles to nothing: the shuffle runs to its end.
    let _ = stop::shuffle_planned_until(
        slice,
        ScatterPlan::for_type::<T>(),
        dice,
        &mut |_| {},
        &mut || false,
        &mut Scratch::new(),
    );
}

/// [`Shuffle::run_in_place`] with explicit bucket thresholds (the tests force small ones).
fn shuffle_planned<T, D: Dice + ?Sized>(slice: &mut [T], plan: Plan, dice: &mut D) {
    if plan.starts(slice.len()) {
        let mut labels = vec![0u8; slice.len()];
        buckets::shuffle_with_plan(slice, &mut labels, plan, dice);
    } else {
        batched::fisher_yates(slice, dice);
    }
}

/// Shuffles only the first `k` positions: afterwards `slice[..k]` is a
/// uniform random sequence of `k` distinct elements of the slice (every
/// one of the n!/(n−k)! arrangements equally likely), and `slice[k..]` holds
/// the rest in an unspecified order. Returns `(chosen, rest)`.
///
/// This is the Knuth deal of Juhász, “Keverjük a kártyát” ("Knuth-osztás"): the forward
/// Fisher–Yates loop stopped after `k` steps. A `k` larger than the slice is
/// treated as the slice's length.
///
/// O(k) time, O(1) extra space; `k` rolls with bounds `n, n−1, …, n−k+1`
/// (the last one, bound 1, is skipped), asked for in batches.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::partial_shuffle;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut deck: Vec<u32> = (1..=52).collect();
/// let (hand, rest) = partial_shuffle(&mut deck, 5, &mut dice);
/// assert_eq!((hand.len(), rest.len()), (5, 47));
/// ```
pub fn partial_shuffle<'a, T, D: Dice + ?Sized>(
    slice: &'a mut [T],
    k: usize,
    dice: &mut D,
) -> (&'a mut [T], &'a mut [T]) {
    let n = slice.len();
    let k = k.min(n);
    batched::forward_steps(slice, k.min(n.saturating_sub(1)), dice);
    slice.split_at_mut(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};
    use crate::testing::{enumerate, factorial, orders};
    use proptest::prelude::*;

    #[test]
    fn shuffle_is_exactly_uniform_for_small_n() {
        for n in 0..=6usize {
            let counts = orders(n, shuffle);
            assert_eq!(counts.len() as u64, factorial(n as u64), "n = {n}");
            assert!(counts.values().all(|&c| c == 1), "n = {n}");
        }
    }

    #[test]
    fn shuffle_by_passes_is_the_shuffle_and_names_every_pass_in_order() {
        let dice = || RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("passes")));
        // 2^24 + 2^20 u32 = 68 MiB: past the 64 MiB start, so it scatters.
        let n = (1 << 24) + (1 << 20);
        let mut plain: Vec<u32> = (0..n).collect();
        let mut observed = plain.clone();
        shuffle(&mut plain, &mut dice());
        let mut passes = Vec::new();
        let scratch = &mut Scratch::new();
        Shuffle::new()
            .scratch(scratch)
            .run_observed(&mut observed, &mut dice(), |p| passes.push(p));
        assert_eq!(plain, observed);
        assert_eq!(passes[..2], [Pass::Labels, Pass::Scatter]);
        let rest = &passes[2..];
        assert!(!rest.is_empty());
        // Then per bucket: (inner labels,) settle, Fisher–Yates.
        for bucket in rest.split_inclusive(|&p| p == Pass::FisherYates) {
            assert!(
                bucket == [Pass::InnerLabels, Pass::Settle, Pass::FisherYates]
                    || bucket == [Pass::Settle, Pass::FisherYates],
                "{bucket:?}"
            );
        }
        let mut small: Vec<u32> = (0..52).collect();
        passes.clear();
        Shuffle::new()
            .scratch(scratch)
            .run_observed(&mut small, &mut dice(), |p| passes.push(p));
        assert_eq!(passes, [Pass::FisherYates]);
    }

    #[test]
    fn partial_shuffle_is_exactly_uniform_for_small_n() {
        for n in 0..=6usize {
            for k in 0..=n + 1 {
                let counts = enumerate(|e| {
                    let mut v: Vec<usize> = (0..n).collect();
                    partial_shuffle(&mut v, k, e).0.to_vec()
                });
                let k = k.min(n) as u64;
                let arrangements = factorial(n as u64) / factorial(n as u64 - k);
                assert_eq!(counts.len() as u64, arrangements, "n = {n}, k = {k}");
                let first = *counts.values().next().unwrap();
                assert!(counts.values().all(|&c| c == first), "n = {n}, k = {k}");
            }
        }
    }

    #[test]
    fn value_stability_of_the_shuffle() {
        // Pinned: the ChaCha20 deck for seed "fairdeck". A change is a
        // reproducibility-breaking change (CHANGELOG.md).
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("fairdeck")));
        let mut v: Vec<u8> = (0..20).collect();
        shuffle(&mut v, &mut dice);
        assert_eq!(v, PINNED_SHUFFLE);
    }

    #[test]
    fn shuffle_agrees_with_shuffle_in_place_up_to_8_mib_and_is_fisher_yates_up_to_64() {
        let dice = || RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("split")));
        for (n, same) in [(52, true), (1 << 21, true), ((1 << 21) + 1, false)] {
            let mut a: Vec<u32> = (0..n).collect();
            let mut b = a.clone();
            shuffle(&mut a, &mut dice());
            Shuffle::new().run_in_place(&mut b, &mut dice());
            assert_eq!(a == b, same, "n = {n}");
            a.sort_unstable();
            assert!(a.iter().copied().eq(0..n));
        }
        for (n, same) in [
            ((1 << 21) + 1, true),
            (1 << 24, true),
            ((1 << 24) + 1, false),
        ] {
            let mut a: Vec<u32> = (0..n).collect();
            let mut b = a.clone();
            shuffle(&mut a, &mut dice());
            batched::fisher_yates(&mut b, &mut dice());
            assert_eq!(a == b, same, "n = {n}");
        }
    }

    const PINNED_SHUFFLE: [u8; 20] = [
        9, 10, 2, 13, 16, 15, 5, 7, 19, 0, 8, 11, 4, 1, 6, 17, 18, 12, 3, 14,
    ];

    proptest! {
        #[test]
        fn shuffle_is_a_permutation(seed in any::<[u8; 32]>(), n in 0usize..300) {
            let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::from_bytes(seed)));
            let mut v: Vec<usize> = (0..n).collect();
            shuffle(&mut v, &mut dice);
            v.sort_unstable();
            prop_assert_eq!(v, (0..n).collect::<Vec<_>>());
        }

        #[test]
        fn partial_shuffle_conserves(seed in any::<[u8; 32]>(), n in 0usize..300, k in 0usize..400) {
            let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_bytes(seed)));
            let mut v: Vec<usize> = (0..n).collect();
            let (chosen, rest) = partial_shuffle(&mut v, k, &mut dice);
            prop_assert_eq!(chosen.len(), k.min(n));
            prop_assert_eq!(rest.len(), n - k.min(n));
            v.sort_unstable();
            prop_assert_eq!(v, (0..n).collect::<Vec<_>>());
        }
    }
}
