//! Work and memory estimates, made before a run starts, so that no single
//! flag can start a run of hours or one that needs more memory than the
//! machine has.
//!
//! Work is counted in *steps*: elementary operations (a roll, a swap, a
//! comparison, a count, a machine word of big-integer arithmetic), constant
//! factors dropped — one step is roughly 1–10 ns. [`DEFAULT_STEPS`] (10¹⁰)
//! is therefore somewhere between ten seconds and a couple of minutes. The
//! estimates are upper-bound style: they may refuse a run that would have
//! been a little faster, never accept one that is orders of magnitude slower.
//!
//! The CLI refuses a run over [`DEFAULT_STEPS`] unless `--allow-long` is
//! given; the web server uses the same estimates with its own, smaller
//! budget. Callers use [`check`] and, for a helpful message, [`largest`]:
//!
//! ```
//! use fairdeck::algorithms::Algorithm;
//! use fairdeck_audit::estimates::{self, DEFAULT_STEPS};
//!
//! let steps = estimates::audit_steps(Algorithm::SortKeys, 10_000, 10_000_000);
//! assert!(estimates::check(steps, DEFAULT_STEPS).is_err());
//! // The most trials that fit at this n:
//! let trials = estimates::largest(10_000_000, DEFAULT_STEPS, |t| {
//!     estimates::audit_steps(Algorithm::SortKeys, 10_000, t)
//! });
//! assert!(trials >= 50 && trials < 100);
//! assert!(estimates::check(estimates::audit_steps(Algorithm::FisherYates, 52, 100_000), DEFAULT_STEPS).is_ok());
//! ```

use fairdeck::algorithms::{Algorithm, largest_within};

use crate::error::Error;
use crate::mix::{self, Model};
pub use crate::stats::memory::{AUDIT_MEMORY_BYTES, audit_bytes, tally_bytes};

/// The default work budget in steps (10¹⁰, about a minute at most).
pub const DEFAULT_STEPS: u64 = 10_000_000_000;

/// Ok when `steps` fits in `budget`.
///
/// # Errors
///
/// [`Error::OverBudget`] with both numbers otherwise.
pub fn check(steps: u64, budget: u64) -> Result<(), Error> {
    if steps <= budget {
        Ok(())
    } else {
        Err(Error::OverBudget { steps, budget })
    }
}

/// The largest x in `1..=cap` whose `steps(x)` fits in `budget` (0 if even
/// 1 does not), for `steps` that never decrease. O(log cap) calls.
pub fn largest(cap: u64, budget: u64, steps: impl Fn(u64) -> u64) -> u64 {
    largest_within(cap, |x| steps(x) <= budget)
}

/// Saturating product of step counts.
fn times(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

/// `fairdeck audit ALG -n N --trials T`: each trial runs the algorithm once
/// ([`Algorithm::cost`]) and counts the result: 16 steps per item, measured
/// (the card × position counts are scattered over an n² table, so most
/// counts miss the cache: 2·10⁶ trials at n = 1000 take about 150 s).
pub fn audit_steps(algorithm: Algorithm, n: usize, trials: u64) -> u64 {
    let n = n as u64;
    let per_trial = algorithm.cost(n).saturating_add(times(16, n));
    times(per_trial, trials)
}

/// Steps per card moved in a simulated shuffle of `model` (n > 7), measured
/// as [`Algorithm::weight`] is (release build, CPU time): `mix overhand -n
/// 52 --step 1 --mean-packet 2` moved 4.5·10⁹ cards in 52 s (11.5 ns, the
/// worst: a packet every other card), `mix overhand -n 244 --trials 1000`
/// 2.5·10⁹ in 17.9 s (7.3 ns), so 2 steps; `mix top-to-random -n 100`
/// 6.5·10⁹ in 2.1 s (0.3 ns: two memory moves per shuffle), so 1 step.
fn simulated_weight(model: Model) -> u64 {
    match model {
        Model::Overhand { .. } => 2,
        _ => 1,
    }
}

/// `fairdeck mix MODEL -n N`: the rows `shuffles` (numbers of shuffles k)
/// with `trials` simulated decks per row where the model is simulated.
///
/// * riffle, n > 7 (exact Bayer–Diaconis sum): per row n² big-integer
///   operations on numbers of about n·(k + log₂ n) bits, 4 steps per
///   machine word (measured: n = 800 takes about 40 s);
/// * any model, n ≤ 7 (exact law on all n! orders): max k · n!² · n;
/// * top-to-random and overhand, n > 7: trials · k · n cards moved per row,
///   each `simulated_weight` steps.
pub fn mix_steps(model: Model, n: usize, shuffles: &[u32], trials: u64) -> u64 {
    let n64 = n as u64;
    let log = u64::from(u64::BITS - n64.leading_zeros());
    let k_max = u64::from(shuffles.iter().copied().max().unwrap_or(0));
    if n <= mix::MAX_EXACT_N {
        let orders: u64 = (1..=n64).product();
        return times(times(k_max, times(orders, orders)), n64.max(1));
    }
    shuffles
        .iter()
        .map(|&k| {
            let k = u64::from(k);
            match model {
                Model::Riffle => {
                    let words = times(n64, k.saturating_add(log)) / 64 + 1;
                    times(times(4, times(n64, n64)), words)
                }
                _ => times(
                    times(times(trials.saturating_add(1), k), n64),
                    simulated_weight(model),
                ),
            }
        })
        .fold(0, u64::saturating_add)
}

/// `fairdeck bench --passes -n N --rounds R`: R timed rounds and one
/// warm-up, each one production shuffle of N `u32`: five passes over every
/// element (labels, scatter, inner labels, settle, Fisher–Yates), about two
/// steps each (a roll or a label, and a write that mostly misses the cache).
/// So the default 5 rounds of 10⁸ fit the budget and 1000 rounds do not.
pub fn passes_steps(n: usize, rounds: u64) -> u64 {
    times(times(rounds.saturating_add(1), n as u64), 10)
}

/// `fairdeck chaos --distribution N --trials T`: the exact law visits all
/// n! orders (n ≤ 10), the simulated one shuffles T decks of n; both add
/// the Stirling numbers (n² big-integer operations of n·log₂ n bits).
pub fn chaos_law_steps(n: usize, trials: u64) -> u64 {
    let n64 = n as u64;
    let log = u64::from(u64::BITS - n64.leading_zeros());
    let stirling = times(times(n64, n64), times(n64, log) / 64 + 1);
    let law = if n <= crate::chaos::MAX_DISTRIBUTION_N {
        times((1..=n64).product(), n64)
    } else {
        times(trials, times(4, n64))
    };
    stirling.saturating_add(law)
}

/// Steps per item of one path of an exact walk besides the algorithm's own
/// run: replaying the path, hashing the output into the table of outcomes
/// and counting its weight. Measured: the walk of `exact naive-swap -n 9
/// --max-paths 111111111` reported in issue 26 ran about 1.6·10⁸ paths
/// (the deepening walks up to 9⁸ paths and the last, cut one) in 62.6 s,
/// 0.39 µs (65 steps) a path, which naive-swap's cost (9 cards, in cache)
/// and 4 steps per item cover.
const EXACT_PATH_STEPS: u64 = 4;

/// `fairdeck exact ALG -n N` on a tree of `paths` paths, walked once: each
/// path a run of the algorithm on n items ([`Algorithm::cost`]) plus the
/// walk's own work per path and item (`EXACT_PATH_STEPS` · n).
pub fn exact_walk_steps(algorithm: Algorithm, n: usize, paths: u64) -> u64 {
    let n64 = n as u64;
    let per_path = algorithm
        .cost(n64)
        .saturating_add(times(EXACT_PATH_STEPS, n64.max(1)));
    times(paths, per_path)
}

/// `fairdeck exact ALG -n N --max-paths P` on a tree of unknown size: at
/// most P paths per walk ([`exact_walk_steps`]), counting the deepening
/// walks of an unbounded algorithm as twice the last.
pub fn exact_steps(algorithm: Algorithm, n: usize, max_paths: u64) -> u64 {
    exact_walk_steps(algorithm, n, times(2, max_paths))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs issue 15 found running for hours are refused by default.
    #[test]
    fn the_hour_long_runs_of_issue_15_are_over_budget() {
        let over = |steps| check(steps, DEFAULT_STEPS).is_err();
        assert!(over(audit_steps(Algorithm::SortKeys, 10_000, 10_000_000)));
        assert!(over(audit_steps(
            Algorithm::FisherYatesList,
            10_000,
            10_000_000
        )));
        let ks = |k_max: u32, step: u32| -> Vec<u32> {
            (1..=k_max).filter(|k| k % step == 0 || *k == 1).collect()
        };
        assert!(over(mix_steps(Model::Riffle, 10_000, &ks(12, 1), 4000)));
        assert!(over(mix_steps(
            Model::TopToRandom,
            10_000,
            &ks(293_000, 14_650),
            4000
        )));
        let overhand = Model::Overhand { mean_packet: 6 };
        assert!(over(mix_steps(overhand, 10_000, &ks(40_000, 2000), 4000)));
        assert!(over(mix_steps(overhand, 52, &ks(208, 10), u64::MAX)));
        assert!(over(chaos_law_steps(11, u64::MAX)));
        assert!(over(exact_steps(Algorithm::Rejection, 9, u64::MAX)));
    }

    /// Issue 26 item 16: runs of `mix overhand` that took 108–200 s were
    /// accepted (-n 244 was even the suggested limit); with the measured
    /// weight they are over the budget.
    #[test]
    fn the_slow_overhand_runs_of_issue_26_are_over_budget() {
        let over = |steps| check(steps, DEFAULT_STEPS).is_err();
        let ks = |k_max: u32, step: u32| -> Vec<u32> {
            (1..=k_max).filter(|k| k % step == 0 || *k == 1).collect()
        };
        let overhand = Model::Overhand { mean_packet: 6 };
        assert!(over(mix_steps(overhand, 244, &ks(976, 48), 4000)));
        assert!(over(mix_steps(overhand, 10_000, &ks(40_000, 2000), 1)));
    }

    /// The documented defaults and examples stay accepted.
    #[test]
    fn the_defaults_fit() {
        let fits = |steps| check(steps, DEFAULT_STEPS).is_ok();
        assert!(fits(audit_steps(Algorithm::FisherYates, 52, 100_000)));
        assert!(fits(audit_steps(Algorithm::FisherYates, 52, 10_000_000)));
        assert!(fits(mix_steps(
            Model::Riffle,
            52,
            &(1..=12).collect::<Vec<_>>(),
            4000
        )));
        let ttr: Vec<u32> = (1..=703).filter(|k| k % 35 == 0 || *k == 1).collect();
        assert!(fits(mix_steps(Model::TopToRandom, 52, &ttr, 4000)));
        assert!(fits(mix_steps(
            Model::Riffle,
            7,
            &(1..=12).collect::<Vec<_>>(),
            4000
        )));
        assert!(fits(chaos_law_steps(1000, 100_000)));
        assert!(fits(chaos_law_steps(10, 100_000)));
        assert!(fits(exact_steps(Algorithm::NaiveSwap, 9, 10_000_000)));
    }

    #[test]
    fn largest_finds_the_edge_of_the_budget() {
        let steps = |t| audit_steps(Algorithm::SortKeys, 10_000, t);
        let t = largest(10_000_000, DEFAULT_STEPS, steps);
        assert!(steps(t) <= DEFAULT_STEPS && steps(t + 1) > DEFAULT_STEPS);
        assert_eq!(largest(10, 0, |x| x), 0);
    }

    #[test]
    fn a_tally_of_ten_thousand_items_leaves_room_for_one_worker() {
        assert_eq!(tally_bytes(8), 8 * (64 + 63 + 40_320));
        let one = audit_bytes(10_000, 0, 1);
        assert!(one <= AUDIT_MEMORY_BYTES && audit_bytes(10_000, 0, 2) > AUDIT_MEMORY_BYTES);
        assert_eq!(audit_bytes(usize::MAX, u64::MAX, u64::MAX), u64::MAX);
    }
}
