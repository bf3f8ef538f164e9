//! Running an algorithm many times, in parallel, reproducibly.
//!
//! Trials are cut into chunks of [`CHUNK`]; chunk `i` gets its own generator
//! keyed with SHA-256 of the run's seed and `i`, so the counts depend only on
//! the seed, the generator and the trial count — never on the number of
//! threads or on which thread ran which chunk.

use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed};
use rayon::prelude::*;

use super::memory::{AUDIT_MEMORY_BYTES, audit_bytes};
use super::{MAX_N, Tally};
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
/// assert!(evaluate(&tally, 1e-6).no_test_rejected());
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// Memory: one tally per worker thread plus the total; fewer workers than
/// rayon's threads when that would exceed [`AUDIT_MEMORY_BYTES`] (at
/// n = 10 000 a tally is 800 MB, so one worker counts at a time).
///
/// # Errors
///
/// [`Error::NotAPermutation`] if `permute` returns something else;
/// [`Error::OutOfRange`] if `n` is over [`MAX_N`].
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
    if n > MAX_N {
        return Err(Error::OutOfRange(format!(
            "an audit takes at most {MAX_N} items, not {n}"
        )));
    }
    let chunks = trials.div_ceil(CHUNK);
    let workers = workers(n, trials);
    let mut total = Tally::try_new(n)?;
    reserve_fingerprints(&mut total, trials)?;
    // Chunks are counted `workers` at a time and merged in chunk order, so
    // at most `workers + 1` tallies are alive, and the result does not
    // depend on the number of threads.
    for first in (0..chunks).step_by(workers as usize) {
        let last = chunks.min(first + workers);
        let batch: Result<Vec<Tally>, Error> = (first..last)
            .into_par_iter()
            .map(|index| {
                let mut dice = RngDice::new(generator.build(&chunk_seed(seed, index)));
                let mut tally = Tally::try_new(n)?;
                let count = CHUNK.min(trials - index * CHUNK);
                reserve_fingerprints(&mut tally, count)?;
                for _ in 0..count {
                    tally.add(&permute(n, &mut dice))?;
                }
                progress(count);
                Ok(tally)
            })
            .collect();
        for t in batch? {
            total.merge(t);
        }
    }
    Ok(total)
}

/// Room for the birthday test's 16-byte fingerprints of `trials` decks
/// (n ≥ 9), reserved up front so that running out is an error, not an abort.
fn reserve_fingerprints(tally: &mut Tally, trials: u64) -> Result<(), Error> {
    if tally.n < super::MIN_N_FOR_BIRTHDAY {
        return Ok(());
    }
    let bytes = trials.saturating_mul(16);
    usize::try_from(trials)
        .ok()
        .and_then(|t| tally.fingerprints.try_reserve_exact(t).ok())
        .ok_or(Error::MemoryExhausted { bytes })
}

/// Threads counting at once: rayon's, fewer when their tallies would not
/// fit in [`AUDIT_MEMORY_BYTES`] (never fewer than one).
fn workers(n: usize, trials: u64) -> u64 {
    let threads = rayon::current_num_threads().max(1) as u64;
    (1..=threads)
        .rev()
        .find(|&w| audit_bytes(n, trials, w) <= AUDIT_MEMORY_BYTES)
        .unwrap_or(1)
}
