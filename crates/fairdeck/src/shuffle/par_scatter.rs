//! `par_shuffle`: the scatter shuffle on every core, independent of the core count.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::batched::fisher_yates;
use super::labels::draw_labels;
use super::moves::{Move, par_scatter};
use super::parallel::task_dice;
use super::scatter::{Bucket, Pass, ScatterPlan};
use super::scratch::Scratch;
use super::stop::hook::Hook;
use super::stop::{Stopped, shuffle_planned_until};
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
    par_shuffle_reusing(slice, seed, generator, &mut Scratch::new());
}

/// Exactly [`par_shuffle`] — the same order for the same seed and
/// generator, at every size and thread count — with the scratch memory of
/// a large slice taken from `scratch` and left there for the next call
/// (see [`Scratch`] for what it keeps and when it lets go). Slices up to
/// 8 MiB do not touch `scratch`.
///
/// O(n) work; for large slices what `scratch` holds, grown to
/// `n · (1 + size_of::<T>())` bytes if it holds less (the label bytes are
/// touched only by buckets split by a second level). Needs the cargo
/// feature `rayon` (on by default).
///
/// ```
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{Scratch, par_shuffle, par_shuffle_reusing};
///
/// let seed = Seed::parse("doc");
/// let mut scratch = Scratch::new();
/// let mut a: Vec<u64> = (0..3_000_000).collect(); // 24 MB: scattered
/// let mut b = a.clone();
/// par_shuffle_reusing(&mut a, &seed, Generator::ChaCha8, &mut scratch);
/// par_shuffle(&mut b, &seed, Generator::ChaCha8);
/// assert_eq!(a, b);
/// assert!(scratch.held_bytes() >= 3_000_000 * 9);
/// ```
pub fn par_shuffle_reusing<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    scratch: &mut Scratch,
) {
    // A hook that never stops: the shuffle runs to its end.
    let plan = ScatterPlan::parallel::<T>();
    let _ = par_shuffle_planned(slice, seed, generator, plan, &|| false, scratch);
}

/// [`par_shuffle`], asking `stop` (from any of the pool's threads) between
/// bounded pieces of work and returning [`Stopped`] soon after it first
/// answers `true`.
///
/// `stop` is asked before each block of 65536 elements is labelled or
/// copied into its buckets, before each bucket is settled, and between
/// pieces of at most 65536 labels or Fisher–Yates steps inside a bucket;
/// once it has answered `true` the remaining tasks only copy their buckets
/// back. When it never answers `true`, the order is exactly that of
/// [`par_shuffle`] (the same for every thread count). Typically `stop`
/// reads an `AtomicBool` that another thread sets.
///
/// When stopped, the slice holds every element once but **not** in a
/// uniformly random order (see [`Stopped`]). A panic in `stop` is treated
/// as "stop" and raised again once every element is back in the slice.
///
/// # Errors
///
/// [`Stopped`] when `stop` answered `true` before the shuffle was done.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{par_shuffle, par_shuffle_until};
///
/// let cancel = AtomicBool::new(false); // another thread may set it
/// let mut a: Vec<u32> = (0..3_000_000).collect();
/// let mut b = a.clone();
/// par_shuffle_until(&mut a, &Seed::parse("doc"), Generator::ChaCha8, || {
///     cancel.load(Ordering::Relaxed)
/// })?;
/// par_shuffle(&mut b, &Seed::parse("doc"), Generator::ChaCha8);
/// assert_eq!(a, b);
/// # Ok::<(), fairdeck::shuffle::Stopped>(())
/// ```
pub fn par_shuffle_until<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    stop: impl Fn() -> bool + Sync,
) -> Result<(), Stopped> {
    par_shuffle_until_reusing(slice, seed, generator, stop, &mut Scratch::new())
}

/// Exactly [`par_shuffle_until`] (the same order, the same points where
/// `stop` is asked) with the scratch memory taken from `scratch` and kept
/// there for the next call, as [`par_shuffle_reusing`] keeps it.
///
/// # Errors
///
/// [`Stopped`] when `stop` answered `true` before the shuffle was done.
pub fn par_shuffle_until_reusing<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    stop: impl Fn() -> bool + Sync,
    scratch: &mut Scratch,
) -> Result<(), Stopped> {
    let plan = ScatterPlan::parallel::<T>();
    par_shuffle_planned(slice, seed, generator, plan, &stop, scratch)
        .map_err(|pass| Stopped { pass })
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
    par_shuffle_with_planned(slice, dice, generator, ScatterPlan::parallel::<T>());
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
    let seed = Seed::from_bytes(key);
    let _ = par_shuffle_planned(
        slice,
        &seed,
        generator,
        plan,
        &|| false,
        &mut Scratch::new(),
    );
}

/// [`par_shuffle_until`] with an explicit plan (the tests force small
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
    use crate::shuffle::shuffle;

    fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
            .install(f)
    }

    /// The planned shuffle with a fresh scratch, as `par_shuffle` runs it.
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
        par_shuffle(&mut a, &seed, Generator::ChaCha20);
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
