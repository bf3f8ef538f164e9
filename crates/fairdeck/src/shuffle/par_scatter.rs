//! `par_shuffle`: the scatter shuffle on every core, independent of the core count.

use rayon::prelude::*;

use super::batched::fisher_yates;
use super::moves::par_scatter;
use super::parallel::task_dice;
use super::scatter::{ScatterPlan, draw_labels, shuffle_bucket};
use crate::dice::{Dice, RngDice};
use crate::rng::{Generator, Seed};

/// Elements labelled and placed by one task: a fixed number, so nothing
/// depends on how many threads run the tasks.
const BLOCK: usize = 1 << 16;

/// Shuffles `slice` uniformly over all `n!` orders using every thread of
/// the current rayon pool, with output fixed by `seed` and `generator` alone
/// — one thread or many give the same order.
///
/// Slices up to 8 MiB (see [`shuffle`](super::shuffle)) are simply
/// shuffled with `generator` keyed by `seed`, so for them
/// `par_shuffle(s, seed, g)` equals `shuffle(s, &mut RngDice::new(g.build(seed)))`.
/// Larger slices run the scatter shuffle of [`shuffle`](super::shuffle) with
/// both of its passes parallel: the slice is cut into blocks of 65536
/// elements, each block draws its labels from its own generator (twice: to
/// count them, then to copy its elements into its own part of each bucket —
/// the buckets are laid out by a prefix sum over (bucket, block) counts, so
/// the blocks share nothing); then each bucket is settled and shuffled by
/// its own task with its own generator. Every generator is of the kind `generator`, keyed by
/// SHA-256("fairdeck/par_shuffle/" ‖ phase ‖ seed ‖ index); each task's
/// draws are exact, so the uniformity argument of the scatter shuffle holds.
///
/// O(n) work; for large slices `n · size_of::<T>()` bytes of scratch
/// memory, plus one label byte per element of the buckets being shuffled
/// ([`par_shuffle_in_place`](super::par_shuffle_in_place) needs n bytes in
/// all, and gives the orders of fairdeck 0.1.0). Like any `Vec`, the
/// scratch memory aborts the process if it cannot be allocated. Needs the
/// cargo feature `rayon` (on by default).
///
/// ```
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::par_shuffle;
///
/// let mut v: Vec<u32> = (0..3_000_000).collect();
/// par_shuffle(&mut v, &Seed::parse("doc"), Generator::Xoshiro256PlusPlus);
/// assert_ne!(v[..10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
/// v.sort_unstable();
/// assert!(v.iter().copied().eq(0..3_000_000));
/// ```
pub fn par_shuffle<T: Send>(slice: &mut [T], seed: &Seed, generator: Generator) {
    par_shuffle_planned(slice, seed, generator, ScatterPlan::for_type::<T>());
}

/// [`par_shuffle`] driven by a running `dice` instead of a key: what a
/// caller that shuffles many slices in a row wants. A slice that
/// [`par_shuffle`] would shuffle on one thread is shuffled with `dice`
/// exactly as [`shuffle`](super::shuffle) shuffles it — no generator is
/// built per call, so a 52-card deck costs what the one-thread shuffle costs
/// (building a ChaCha20 per call made a two-thread deck 2.3× slower than one
/// thread). A larger slice takes a fresh 256-bit key from `dice` (eight exact
/// draws of 32 bits) and runs [`par_shuffle`] keyed with it and `generator`.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::par_shuffle_with;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("tables")));
/// let mut deck: Vec<u8> = (0..52).collect();
/// for _ in 0..3 {
///     par_shuffle_with(&mut deck, &mut dice, Generator::ChaCha20);
/// }
/// ```
pub fn par_shuffle_with<T: Send, D: Dice + ?Sized>(
    slice: &mut [T],
    dice: &mut D,
    generator: Generator,
) {
    par_shuffle_with_planned(slice, dice, generator, ScatterPlan::for_type::<T>());
}

fn par_shuffle_with_planned<T: Send, D: Dice + ?Sized>(
    slice: &mut [T],
    dice: &mut D,
    generator: Generator,
    plan: ScatterPlan,
) {
    if !plan.starts(slice.len()) {
        fisher_yates(slice, dice);
        return;
    }
    let mut key = [0u8; 32];
    for word in key.chunks_exact_mut(4) {
        // `roll(2³²)` is below 2³², so the cast keeps every bit.
        word.copy_from_slice(&(dice.roll(1 << 32) as u32).to_le_bytes());
    }
    par_shuffle_planned(slice, &Seed::from_bytes(key), generator, plan);
}

/// [`par_shuffle`] with an explicit plan (the tests force small ones).
pub(crate) fn par_shuffle_planned<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    plan: ScatterPlan,
) {
    let n = slice.len();
    if !plan.starts(n) {
        fisher_yates(slice, &mut RngDice::new(generator.build(seed)));
        return;
    }
    let (outer, inner) = plan.bits(n);
    let labels = |k: usize, out: &mut [u8]| {
        draw_labels(
            &mut task_dice(seed, generator, b"scatter-labels", k),
            outer,
            out,
        )
    };
    let counts: Vec<Vec<usize>> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|k| labels(k, &mut vec![0u8; BLOCK.min(n - k * BLOCK)]))
        .collect();
    let mut scratch = Vec::with_capacity(n);
    let scratch = &mut scratch.spare_capacity_mut()[..n];
    super::pages::advise_huge_pages(scratch);
    let labels = |k: usize, out: &mut [u8]| {
        labels(k, out);
    };
    // The labels are drawn twice per block, once to count, once to scatter
    // (measured cheaper than keeping n bytes of them).
    par_scatter(slice, labels, BLOCK, &counts, scratch, |bucket, piece| {
        let mut dice = task_dice(seed, generator, b"scatter-bucket", bucket);
        let mut labels = vec![0u8; piece.len()];
        shuffle_bucket(&mut labels, inner, &mut dice, &mut |_| {}, |mov| {
            piece.settle(mov)
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::shuffle;

    fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
            .install(f)
    }

    fn forced(max_bits: u32) -> ScatterPlan {
        ScatterPlan {
            start_len: 1000,
            leaf_len: 500,
            split_len: 500,
            max_bits,
        }
    }

    #[test]
    fn with_dice_small_slices_are_the_sequential_shuffle() {
        // Below the parallel threshold: the same order as `shuffle` with the
        // same dice, call after call (the dice's stream carries on).
        for generator in Generator::ALL {
            let build = || RngDice::new(generator.build(&Seed::parse("with dice")));
            let (mut a, mut b) = (build(), build());
            let (mut x, mut y): (Vec<u32>, Vec<u32>) = ((0..52).collect(), (0..52).collect());
            for _ in 0..5 {
                par_shuffle_with(&mut x, &mut a, generator);
                shuffle(&mut y, &mut b);
                assert_eq!(x, y, "{generator}");
            }
        }
    }

    #[test]
    fn with_dice_large_slices_run_par_shuffle_keyed_from_the_dice() {
        let generator = Generator::Xoshiro256PlusPlus;
        let n = 5000;
        let mut dice = RngDice::new(generator.build(&Seed::parse("large")));
        let mut v: Vec<u32> = (0..n).collect();
        on_threads(2, || {
            par_shuffle_with_planned(&mut v, &mut dice, generator, forced(4))
        });
        // The key is eight 32-bit draws of the same stream.
        let mut again = RngDice::new(generator.build(&Seed::parse("large")));
        let mut key = [0u8; 32];
        for word in key.chunks_exact_mut(4) {
            word.copy_from_slice(&(again.roll(1 << 32) as u32).to_le_bytes());
        }
        let mut w: Vec<u32> = (0..n).collect();
        on_threads(1, || {
            par_shuffle_planned(&mut w, &Seed::from_bytes(key), generator, forced(4))
        });
        assert_eq!(v, w);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert!(sorted.iter().copied().eq(0..n));
    }

    #[test]
    fn one_and_two_threads_give_the_same_order() {
        let seed = Seed::parse("threads");
        for generator in Generator::ALL {
            for n in [0, 1, 999, 1001, 70_000, 300_001] {
                for plan in [forced(2), forced(8)] {
                    let run = |threads| {
                        on_threads(threads, || {
                            let mut v: Vec<u32> = (0..n).collect();
                            par_shuffle_planned(&mut v, &seed, generator, plan);
                            v
                        })
                    };
                    let (one, two) = (run(1), run(2));
                    assert_eq!(one, two, "{generator}, n = {n}, {plan:?}");
                    let mut sorted = one.clone();
                    sorted.sort_unstable();
                    assert!(sorted.iter().copied().eq(0..n));
                    if n > 1000 {
                        assert!(one.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 20);
                    }
                }
            }
        }
    }

    #[test]
    fn production_plan_is_thread_independent_beyond_the_threshold() {
        let seed = Seed::parse("big");
        let n = 2_200_000u32;
        let run = |threads| {
            on_threads(threads, || {
                let mut v: Vec<u32> = (0..n).collect();
                par_shuffle(&mut v, &seed, Generator::Xoshiro256PlusPlus);
                v
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        assert!(one.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 20);
    }

    #[test]
    fn any_element_type_is_moved_exactly_once() {
        let seed = Seed::parse("strings");
        let mut v: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
        on_threads(2, || {
            par_shuffle_planned(&mut v, &seed, Generator::ChaCha8, forced(8))
        });
        let mut back: Vec<usize> = v.iter().map(|s| s.parse().unwrap()).collect();
        assert_ne!(back[..5], [0, 1, 2, 3, 4]);
        back.sort_unstable();
        assert!(back.into_iter().eq(0..20_000));
    }

    #[test]
    fn small_slices_match_the_sequential_shuffle() {
        let seed = Seed::parse("small");
        let mut a: Vec<u8> = (0..52).collect();
        let mut b = a.clone();
        par_shuffle(&mut a, &seed, Generator::ChaCha20);
        shuffle(&mut b, &mut RngDice::new(Generator::ChaCha20.build(&seed)));
        assert_eq!(a, b);
    }

    #[test]
    fn different_seeds_give_different_orders() {
        let mut a: Vec<u32> = (0..5000).collect();
        let mut b = a.clone();
        par_shuffle_planned(&mut a, &Seed::parse("a"), Generator::ChaCha20, forced(4));
        par_shuffle_planned(&mut b, &Seed::parse("b"), Generator::ChaCha20, forced(4));
        assert_ne!(a, b);
    }
}
