//! Many short runs shuffled one after the other (`numpy`'s `permuted(x,
//! axis=-1)`: a million decks in one call), two runs at a time.
//!
//! Each run's Fisher–Yates shuffle is a chain of swaps that depend on each
//! other through memory (a swap may read what the swap before it wrote), so
//! one run keeps the CPU waiting on its own stores. Two runs' chains are
//! independent: their rolls are drawn first, run after run, with the requests
//! [`shuffle`](super::shuffle) makes, and their swaps then take turns,
//! step by step. Each run gets exactly the swaps `shuffle` gives it, in the
//! same order, and the dice sees the same requests: only the interleaving
//! of independent work changes, never a result.

use super::batched::{Batch, backward_batches, roll_batch};
use super::shuffle;
use crate::dice::Dice;

/// Runs shuffled together. Measured (A/B in one process, 41 alternating
/// rounds of 2·10⁵ runs of 52 `u64`, ChaCha20, thread CPU time, on the
/// 2-core machine under a load of about 8): 1.08× the speed of `shuffle`
/// run by run (median of the per-round ratios). Prototypes that drew the
/// rolls without the dice's batching code measured two lanes 1.21× and
/// four 1.13×, so four lanes would not pay here.
const LANES: usize = 2;

/// Runs of at most this many items are interleaved; a longer run is
/// shuffled on its own (its swaps already overlap each other, and its
/// rolls would not fit the stack).
const MAX_RUN: usize = 256;

/// Shuffles each run of `m` consecutive items of `data` on its own, in
/// order: exactly [`shuffle`](super::shuffle) on each run in turn, with
/// the same dice (the same orders from the same answers). Items after the
/// last whole run are left where they are.
///
/// O(len) time, O(1) extra space (4 KiB of rolls on the stack, and the
/// list of a run's batches); `m − 1` rolls per run, asked for as
/// `shuffle` asks for them, so every roll is the dice's exact one.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{shuffle, shuffle_runs};
///
/// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut decks: Vec<u8> = (0..5).flat_map(|_| 0..52).collect();
/// let mut one_by_one = decks.clone();
/// shuffle_runs(&mut decks, 52, &mut dice());
/// let mut d = dice();
/// one_by_one.chunks_exact_mut(52).for_each(|deck| shuffle(deck, &mut d));
/// assert_eq!(decks, one_by_one);
/// ```
///
/// # Panics
///
/// Panics if `m == 0`.
pub fn shuffle_runs<T, D: Dice + ?Sized>(data: &mut [T], m: usize, dice: &mut D) {
    assert!(m > 0, "shuffle_runs: runs of 0 items");
    if !(2..=MAX_RUN).contains(&m) {
        data.chunks_exact_mut(m).for_each(|run| shuffle(run, dice));
        return;
    }
    let batches = backward_batches(m);
    // `targets[l][s]`: the position that step `s` of run `l` swaps with
    // position `m − 1 − s` (the backward loop's order: a batch with top
    // bound `i` holds steps `m − i, m − i + 1, …`). Every step is written
    // before it is read, in each group.
    let mut targets = [[0u64; MAX_RUN]; LANES];
    let mut groups = data.chunks_exact_mut(LANES * m);
    for group in &mut groups {
        shuffle_lanes(group, m, &batches, &mut targets, dice);
    }
    let rest = groups.into_remainder();
    rest.chunks_exact_mut(m).for_each(|run| shuffle(run, dice));
}

/// Shuffles the [`LANES`] runs of `m` items (`2 ≤ m ≤ MAX_RUN`) of
/// `group`, whose Fisher–Yates requests are `batches`, their rolls
/// kept in `targets`.
#[inline(always)]
fn shuffle_lanes<T, D: Dice + ?Sized>(
    group: &mut [T],
    m: usize,
    batches: &[Batch],
    targets: &mut [[u64; MAX_RUN]; LANES],
    dice: &mut D,
) {
    for lane in targets.iter_mut() {
        for &b in batches {
            roll_batch(b, dice, &mut lane[m - b.top..]);
        }
    }
    debug_assert_eq!(group.len(), LANES * m);
    for s in 0..m - 1 {
        for (l, lane) in targets.iter().enumerate() {
            group.swap(l * m + m - 1 - s, l * m + lane[s] as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};
    use crate::testing::orders;

    /// `shuffle_runs` against `shuffle` of each run in turn, for every run
    /// length up to past the interleaved ones, with a remainder of runs
    /// that do not fill the lanes and items past the last run.
    #[test]
    fn runs_are_shuffled_exactly_as_one_by_one() {
        for generator in [Generator::ChaCha20, Generator::Xoshiro256PlusPlus] {
            for m in (1..=300).chain([511, 1000]) {
                let dice = || RngDice::new(generator.build(&Seed::parse("runs")));
                let len = 7 * m + m / 2;
                let mut runs: Vec<u32> = (0..len as u32).collect();
                let mut reference = runs.clone();
                let mut d = dice();
                shuffle_runs(&mut runs, m, &mut d);
                let mut r = dice();
                reference
                    .chunks_exact_mut(m)
                    .for_each(|run| shuffle(run, &mut r));
                assert_eq!(runs, reference, "{generator:?}, m = {m}");
                // The dice is left where one-by-one leaves it.
                assert_eq!(d.roll(1 << 40), r.roll(1 << 40), "m = {m}");
            }
        }
    }

    /// Runs with many rejected words: bounds whose batch products come
    /// closest to 2^56 (127 = 2^7 − 1, eight to a word; 255, seven), over
    /// enough runs that rejections happen.
    #[test]
    fn rejected_words_are_redrawn_for_the_same_run() {
        for m in [127, 255] {
            let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("rejections")));
            let mut runs: Vec<u32> = (0..4000 * m as u32).collect();
            let mut reference = runs.clone();
            shuffle_runs(&mut runs, m, &mut dice());
            let mut r = dice();
            reference
                .chunks_exact_mut(m)
                .for_each(|run| shuffle(run, &mut r));
            assert_eq!(runs, reference, "m = {m}");
        }
    }

    #[test]
    fn each_run_is_exactly_uniform_for_small_m() {
        // Two runs of m items: every one of the (m!)^2 answer paths gives
        // a distinct combination of orders, each exactly once.
        for m in 1..=3usize {
            let counts = orders(LANES * m, |v: &mut [usize], e| shuffle_runs(v, m, e));
            let per_run: u64 = (1..=m as u64).product();
            assert_eq!(counts.len() as u64, per_run.pow(LANES as u32), "m = {m}");
            assert!(counts.values().all(|&c| c == 1), "m = {m}");
        }
    }
}
