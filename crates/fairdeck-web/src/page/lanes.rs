//! Which queue a request waits in, from what it will cost.
//!
//! Requests whose work is bounded by their route alone (deals, trees, chaos,
//! commitments) run at once ([`Lane::Light`]). The others — exact walks,
//! audits, mixing curves — are costed from their validated request with the
//! work estimates of [`fairdeck_audit::estimates`] (the same ones the CLI's
//! `--allow-long` budget uses): one under [`CHEAP_STEPS`] takes a permit of
//! the cheap lane, anything larger one of the heavy lane. The lanes have
//! permits of their own, so `exact n = 3` never queues behind sixteen audits
//! of 52 cards, while a flood of large requests still runs
//! [`HEAVY_AT_ONCE`] at a time.

use std::sync::Arc;

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::estimates;
use fairdeck_audit::mix::Model;
use fairdeck_audit::walk;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::limits::{ApiError, HEAVY_AT_ONCE};

/// Work (in [`fairdeck_audit::estimates`]'s steps, about 6 ns each: 10¹⁰ is
/// about a minute) below which a request is cheap: 2·10⁶ steps is about
/// 10 ms of CPU.
pub const CHEAP_STEPS: u64 = 2_000_000;
/// Cheap requests computed at once; more wait their turn behind cheap ones only.
pub const CHEAP_AT_ONCE: usize = 2;

/// The queue a request waits in before its work starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Bounded by its route: no permit, no queue.
    Light,
    /// Estimated under [`CHEAP_STEPS`]: a permit of the cheap lane.
    Cheap,
    /// Anything larger: a permit of the heavy lane.
    Heavy,
}

impl Lane {
    /// The lane of a request estimated at `steps` of work.
    pub fn of_steps(steps: u64) -> Self {
        if steps < CHEAP_STEPS {
            Lane::Cheap
        } else {
            Lane::Heavy
        }
    }
}

/// The permits of the cheap and the heavy lane.
#[derive(Debug)]
pub struct Lanes {
    /// [`CHEAP_AT_ONCE`] permits for cheap requests.
    pub cheap: Arc<Semaphore>,
    /// [`HEAVY_AT_ONCE`] permits for heavy requests.
    pub heavy: Arc<Semaphore>,
}

impl Default for Lanes {
    fn default() -> Self {
        Self {
            cheap: Arc::new(Semaphore::new(CHEAP_AT_ONCE)),
            heavy: Arc::new(Semaphore::new(HEAVY_AT_ONCE)),
        }
    }
}

impl Lanes {
    /// Waits for a permit of `lane` (none for [`Lane::Light`]); the work
    /// holds it until it ends.
    ///
    /// # Errors
    ///
    /// Only when the server is shutting down (the semaphores are closed).
    pub async fn permit(&self, lane: Lane) -> Result<Option<OwnedSemaphorePermit>, ApiError> {
        let gate = match lane {
            Lane::Light => return Ok(None),
            Lane::Cheap => &self.cheap,
            Lane::Heavy => &self.heavy,
        };
        Arc::clone(gate)
            .acquire_owned()
            .await
            .map(Some)
            .map_err(|_| ApiError::internal("the server is shutting down"))
    }
}

/// The work of `exact ALG -n N`: one walk of every path when the tree has a
/// known size (every algorithm without a rejection loop), else the
/// deepening walks up to `max_paths`.
pub fn exact_steps(alg: Algorithm, n: usize, max_paths: u64, max_depth: usize) -> u64 {
    match walk::fixed_tree_paths(|d| alg.permute(n, d), max_depth) {
        Some(paths) => {
            let walked = u64::try_from(paths).unwrap_or(u64::MAX).min(max_paths);
            estimates::exact_walk_steps(alg, n, walked)
        }
        None => estimates::exact_steps(alg, n, max_paths),
    }
}

/// The work of `audit ALG -n N --trials T`.
pub fn audit_steps(alg: Algorithm, n: usize, trials: u64) -> u64 {
    estimates::audit_steps(alg, n, trials)
}

/// The work of `mix MODEL -n N` over the rows `ks` with `trials` simulated decks.
pub fn mix_steps(model: Model, n: usize, ks: &[u32], trials: u64) -> u64 {
    estimates::mix_steps(model, n, ks, trials)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_walks_are_cheap_and_large_ones_heavy() {
        let fy3 = exact_steps(Algorithm::FisherYates, 3, 1_000_000, 200);
        assert_eq!(Lane::of_steps(fy3), Lane::Cheap, "{fy3}");
        // naive-swap on 7 cards: 7^7 = 823,543 paths.
        let naive7 = exact_steps(Algorithm::NaiveSwap, 7, 1_000_000, 200);
        assert_eq!(Lane::of_steps(naive7), Lane::Heavy, "{naive7}");
        // A rejection loop has no fixed size: costed by its max_paths.
        let small = exact_steps(Algorithm::Rejection, 3, 100, 200);
        let large = exact_steps(Algorithm::Rejection, 3, 1_000_000, 200);
        assert_eq!(
            (Lane::of_steps(small), Lane::of_steps(large)),
            (Lane::Cheap, Lane::Heavy)
        );
    }

    #[test]
    fn audits_and_curves_are_costed_by_their_size() {
        let few = audit_steps(Algorithm::FisherYates, 10, 100);
        let page = audit_steps(Algorithm::FisherYates, 52, 192_307);
        assert_eq!(
            (Lane::of_steps(few), Lane::of_steps(page)),
            (Lane::Cheap, Lane::Heavy)
        );
        let riffle = mix_steps(Model::Riffle, 52, &[1, 2, 3], 1);
        let overhand = mix_steps(Model::Overhand { mean_packet: 6 }, 52, &[10, 20, 40], 4000);
        assert_eq!(Lane::of_steps(riffle), Lane::Cheap, "{riffle}");
        assert_eq!(Lane::of_steps(overhand), Lane::Heavy, "{overhand}");
    }
}
