//! `Shuffle::run_parallel`: the scatter shuffle on every core, independent of the core count.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::batched::fisher_yates;
use super::labels::draw_labels;
use super::moves::{Move, par_scatter};
use super::parallel::task_dice;
use super::scatter::{Bucket, Pass, ScatterPlan};
use super::scratch::Scratch;
use super::stop::hook::Hook;
use super::stop::shuffle_planned_until;
use crate::dice::{Dice, RngDice};
use crate::rng::{Generator, Seed};

/// Elements labelled and placed by one task: a fixed number, so nothing
/// depends on how many threads run the tasks.
const BLOCK: usize = 1 << 16;

/// [`Shuffle::run_parallel_from_dice`](super::Shuffle::run_parallel_from_dice)
/// with an explicit plan and buffers from `scratch`.
pub(super) fn par_shuffle_with_planned<T: Send, D: Dice + ?Sized>(
    slice: &mut [T],
    dice: &mut D,
    generator: Generator,
    plan: ScatterPlan,
    scratch: &mut Scratch,
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
    let seed = Seed::from_bytes(key);
    let _ = par_shuffle_planned(slice, &seed, generator, plan, &|| false, scratch);
}

/// [`Shuffle::run_parallel`](super::Shuffle::run_parallel) with an explicit plan (the tests force small
/// ones) and buffers from `scratch`; `Err(pass)`: stopped, `pass` the
/// earliest pass a task was in.
pub(crate) fn par_shuffle_planned<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    plan: ScatterPlan,
    stop: &(impl Fn() -> bool + Sync),
    scratch: &mut Scratch,
) -> Result<(), Pass> {
    let n = slice.len();
    if !plan.starts(n) {
        let mut dice = RngDice::new(generator.build(seed));
        let stop = &mut || stop();
        return shuffle_planned_until(slice, plan, &mut dice, &mut |_| {}, stop, scratch);
    }
    let hook = Hook::new(stop);
    let mut fallback = Vec::new();
    let buffers = scratch.buffers::<T>(n, &mut fallback);
    let outcome = scatter_in_parallel(slice, seed, generator, plan, &hook, buffers);
    hook.finish();
    scratch.end_call();
    outcome
}

/// The three parallel passes of [`par_shuffle_planned`] on a slice the plan scatters.
fn scatter_in_parallel<T: Send, S: Fn() -> bool + Sync>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    plan: ScatterPlan,
    hook: &Hook<'_, S>,
    (bucket_labels, scratch): (&mut [u8], &mut [MaybeUninit<T>]),
) -> Result<(), Pass> {
    let n = slice.len();
    let (outer, inner) = plan.bits(n);
    let labels = |k: usize, out: &mut [u8]| {
        draw_labels(
            &mut task_dice(seed, generator, b"scatter-labels", k),
            outer,
            out,
        )
    };
    let counts: Option<Vec<Vec<usize>>> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|k| (!hook.ask()).then(|| labels(k, &mut vec![0u8; BLOCK.min(n - k * BLOCK)])))
        .collect();
    let counts = counts.ok_or(Pass::Labels)?;
    let labels = |k: usize, out: &mut [u8]| {
        labels(k, out);
    };
    let bucket = Bucket {
        bits: inner,
        poll_len: plan.poll_len,
    };
    // The labels are drawn twice per block, once to count, once to scatter
    // (measured cheaper than keeping n bytes of them).
    let ask = || hook.ask();
    // Each bucket's inner labels (if any) go to its own part of
    // `bucket_labels`, written before they are read: never zeroed.
    let buffers = (bucket_labels, scratch);
    let placed = par_scatter(
        slice,
        labels,
        BLOCK,
        &counts,
        buffers,
        &ask,
        |b, piece, labels| {
            let mut dice = task_dice(seed, generator, b"scatter-bucket", b);
            let settle = |mov: Move<'_>| piece.settle(mov);
            if let Err(pass) =
                bucket.shuffle(labels, &mut dice, &mut |_| {}, &mut || hook.ask(), settle)
            {
                hook.stopped_in(pass);
            }
        },
    );
    if !placed {
        return Err(Pass::Scatter);
    }
    hook.outcome()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::{Shuffle, shuffle};

    fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
            .install(f)
    }

    /// The planned shuffle with a fresh scratch, as `Shuffle::run_parallel` runs it.
    fn planned<T: Send>(
        slice: &mut [T],
        seed: &Seed,
        generator: Generator,
        plan: ScatterPlan,
        stop: &(impl Fn() -> bool + Sync),
    ) -> Result<(), Pass> {
        par_shuffle_planned(slice, seed, generator, plan, stop, &mut Scratch::new())
    }

    pub(crate) fn forced(max_bits: u32) -> ScatterPlan {
        ScatterPlan {
            start_len: 1000,
            leaf_len: 500,
            split_len: 500,
            max_bits,
            poll_len: 100,
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
                Shuffle::new().run_parallel_from_dice(&mut x, &mut a, generator);
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
            par_shuffle_with_planned(&mut v, &mut dice, generator, forced(4), &mut Scratch::new())
        });
        // The key is eight 32-bit draws of the same stream.
        let mut again = RngDice::new(generator.build(&Seed::parse("large")));
        let mut key = [0u8; 32];
        for word in key.chunks_exact_mut(4) {
            word.copy_from_slice(&(again.roll(1 << 32) as u32).to_le_bytes());
        }
        let mut w: Vec<u32> = (0..n).collect();
        on_threads(1, || {
            planned(
                &mut w,
                &Seed::from_bytes(key),
                generator,
                forced(4),
                &|| false,
            )
            .unwrap()
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
                            planned(&mut v, &seed, generator, plan, &|| false).unwrap();
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
                Shuffle::new().run_parallel(&mut v, &seed, Generator::Xoshiro256PlusPlus);
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
            planned(&mut v, &seed, Generator::ChaCha8, forced(8), &|| false).unwrap()
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
        Shuffle::new().run_parallel(&mut a, &seed, Generator::ChaCha20);
        shuffle(&mut b, &mut RngDice::new(Generator::ChaCha20.build(&seed)));
        assert_eq!(a, b);
    }

    #[test]
    fn different_seeds_give_different_orders() {
        let mut a: Vec<u32> = (0..5000).collect();
        let mut b = a.clone();
        planned(
            &mut a,
            &Seed::parse("a"),
            Generator::ChaCha20,
            forced(4),
            &|| false,
        )
        .unwrap();
        planned(
            &mut b,
            &Seed::parse("b"),
            Generator::ChaCha20,
            forced(4),
            &|| false,
        )
        .unwrap();
        assert_ne!(a, b);
    }
}
