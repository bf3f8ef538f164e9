//! Running an algorithm many times, in parallel, reproducibly.
//!
//! Trials are cut into chunks of [`CHUNK`]; chunk `i` gets its own generator
//! keyed with SHA-256 of the run's seed and `i`, so the counts depend only on
//! the seed, the generator and the trial count — never on the number of
//! threads or on which thread ran which chunk.

use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed};
use rayon::prelude::*;

use super::Tally;
use crate::error::Error;

/// Trials per chunk (one generator each).
pub const CHUNK: u64 = 16_384;

/// The seed of chunk `index` of a run keyed with `seed`.
pub fn chunk_seed(seed: &Seed, index: u64) -> Seed {
    Seed::from_text(&format!("fairdeck-audit/{}/{index}", seed.to_hex()))
}

/// Shuffles the identity of `n` items `trials` times with `permute` and
/// counts the results; `progress` is called with the trials done after each
/// chunk (from any thread). O(trials · (cost of one shuffle + n)) work, spread
/// over rayon's threads.
///
/// ```
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck_audit::stats::{evaluate, run::shuffles};
///
/// let fy = |n: usize, d: &mut _| {
///     let mut v: Vec<usize> = (0..n).collect();
///     fairdeck::shuffle::shuffle(&mut v, d);
///     v
/// };
/// let seed = Seed::from_text("doc");
/// let tally = shuffles(6, 20_000, &seed, Generator::ChaCha20, fy, &|_| {})?;
/// assert!(evaluate(&tally, 1e-6).is_uniform());
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::NotAPermutation`] if `permute` returns something else.
pub fn shuffles<F>(
    n: usize,
    trials: u64,
    seed: &Seed,
    generator: Generator,
    permute: F,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, Error>
where
    F: Fn(usize, &mut RngDice<AnyRng>) -> Vec<usize> + Sync,
{
    let chunks = trials.div_ceil(CHUNK);
    let tallies: Result<Vec<Tally>, Error> = (0..chunks)
        .into_par_iter()
        .map(|index| {
            let mut dice = RngDice::new(generator.build(&chunk_seed(seed, index)));
            let mut tally = Tally::new(n);
            let count = CHUNK.min(trials - index * CHUNK);
            for _ in 0..count {
                tally.add(&permute(n, &mut dice))?;
            }
            progress(count);
            Ok(tally)
        })
        .collect();
    let mut total = Tally::new(n);
    for t in tallies? {
        total.merge(t);
    }
    Ok(total)
}
