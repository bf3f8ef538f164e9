//! `Shuffle::run_parallel_in_place`: the in-place bucket shuffle on every core, independent of the core count.
//!
//! This was `par_shuffle` (now `Shuffle::run_parallel`) up to fairdeck 0.1.0: it keeps that order for
//! slices beyond 8 MiB, and needs only n bytes of extra memory.

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::batched::fisher_yates;
use super::buckets::{Plan, distribute_then, shuffle_with_plan};
use crate::dice::{Dice, RngDice};
use crate::rng::{AnyRng, Generator, Seed};

/// Elements labelled by one task: a fixed number, so the labels do not
/// depend on how many threads run the tasks.
const LABEL_CHUNK: usize = 1 << 16;

/// [`Shuffle::run_parallel_in_place`](super::Shuffle::run_parallel_in_place) with explicit bucket thresholds (the tests force small ones).
pub(crate) fn par_shuffle_planned<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    plan: Plan,
) {
    if !plan.starts(slice.len()) {
        fisher_yates(slice, &mut RngDice::new(generator.build(seed)));
        return;
    }
    let bits = plan.bits_for(slice.len());
    let mut labels = vec![0u8; slice.len()];
    labels
        .par_chunks_mut(LABEL_CHUNK)
        .enumerate()
        .for_each(|(chunk, part)| {
            task_dice(seed, generator, b"labels", chunk).roll_pow2_many(bits, part)
        });
    let (seed, inner) = (*seed, plan.inner());
    rayon::scope(|scope| {
        distribute_then(slice, &mut labels, 1 << bits, |bucket, part, scratch| {
            scope.spawn(move |_| {
                let mut dice = task_dice(&seed, generator, b"bucket", bucket);
                shuffle_with_plan(part, scratch, inner, &mut dice);
            });
        });
    });
}

/// The dice of one task: `generator` keyed by a hash of the phase, the seed and the index.
pub(super) fn task_dice(
    seed: &Seed,
    generator: Generator,
    phase: &[u8],
    index: usize,
) -> RngDice<AnyRng> {
    let key = Sha256::new()
        .chain_update(b"fairdeck/par_shuffle/")
        .chain_update(phase)
        .chain_update(seed.as_bytes())
        .chain_update((index as u64).to_le_bytes())
        .finalize();
    RngDice::new(generator.build(&Seed::from_bytes(key.into())))
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

    fn forced() -> Plan {
        Plan {
            start_len: 1000,
            leaf_len: 1000,
            levels: 2,
            max_bits: 4,
        }
    }

    #[test]
    fn one_and_two_threads_give_the_same_order() {
        let seed = Seed::parse("threads");
        for generator in Generator::ALL {
            for n in [0, 1, 999, 1001, 70_000, 300_001] {
                let run = |threads| {
                    on_threads(threads, || {
                        let mut v: Vec<u32> = (0..n).collect();
                        par_shuffle_planned(&mut v, &seed, generator, forced());
                        v
                    })
                };
                let (one, two) = (run(1), run(2));
                assert_eq!(one, two, "{generator}, n = {n}");
                let mut sorted = one.clone();
                sorted.sort_unstable();
                assert!(sorted.iter().copied().eq(0..n));
                if n > 1000 {
                    assert!(one.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 20);
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
                Shuffle::new().run_parallel_in_place(&mut v, &seed, Generator::Xoshiro256PlusPlus);
                v
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert!(one.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 20);
    }

    #[test]
    fn small_slices_match_the_sequential_shuffle() {
        let seed = Seed::parse("small");
        let mut a: Vec<u8> = (0..52).collect();
        let mut b = a.clone();
        Shuffle::new().run_parallel_in_place(&mut a, &seed, Generator::ChaCha20);
        shuffle(&mut b, &mut RngDice::new(Generator::ChaCha20.build(&seed)));
        assert_eq!(a, b);
    }

    #[test]
    fn different_seeds_give_different_orders() {
        let mut a: Vec<u32> = (0..5000).collect();
        let mut b = a.clone();
        par_shuffle_planned(&mut a, &Seed::parse("a"), Generator::ChaCha20, forced());
        par_shuffle_planned(&mut b, &Seed::parse("b"), Generator::ChaCha20, forced());
        assert_ne!(a, b);
    }
}
