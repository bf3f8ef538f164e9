//! `par_shuffle`: the scatter shuffle on every core, independent of the core count.

use rayon::prelude::*;

use super::batched::fisher_yates;
use super::moves::par_scatter;
use super::parallel::task_dice;
use super::scatter::{ScatterPlan, draw_labels, shuffle_bucket};
use crate::dice::RngDice;
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
        shuffle_bucket(&mut labels, inner, &mut dice, |mov| piece.settle(mov));
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
            max_bits,
        }
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
