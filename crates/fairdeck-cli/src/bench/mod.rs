//! Timing algorithms over growing sizes within a time budget, fitting their
//! growth exponent, and plotting the result (`fairdeck bench`).
//!
//! The clock is read here, in the CLI: libraries never do.

pub mod fit;
pub mod plot;
pub mod production;

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::Serialize;

/// What to time and for how long.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Sizes to try, increasing.
    pub sizes: Vec<usize>,
    /// Wall-clock time allowed per subject (algorithm).
    pub budget: Duration,
}

impl Plan {
    /// How long one measurement should last: long enough for the clock, short
    /// enough to leave room for every size (a twentieth of the budget per
    /// size, at most 50 ms).
    fn target(&self) -> Duration {
        let per_size = self.budget / (2 * self.sizes.len().max(1) as u32);
        per_size.min(Duration::from_millis(50))
    }
}

/// One timing: `runs` runs at size `n`.
#[derive(Debug, Clone, Serialize)]
pub struct Measurement {
    /// The subject's name.
    pub algorithm: String,
    /// Number of cards.
    pub n: usize,
    /// How many runs were timed together.
    pub runs: u64,
    /// Mean wall-clock seconds per run.
    pub seconds_per_run: f64,
    /// Mean nanoseconds per card: `seconds_per_run / n · 10⁹`.
    pub ns_per_element: f64,
}

impl Measurement {
    /// `runs` runs of `algorithm` on `n` cards, `seconds_per_run` each; the
    /// time per card is derived (divided by 1 for `n = 0`).
    pub fn new(algorithm: &str, n: usize, runs: u64, seconds_per_run: f64) -> Self {
        Self {
            algorithm: algorithm.to_string(),
            n,
            runs,
            seconds_per_run,
            ns_per_element: seconds_per_run * 1e9 / n.max(1) as f64,
        }
    }
}

/// The measurements of one subject, and the sizes the budget did not allow.
#[derive(Debug, Clone, Default)]
pub struct Series {
    /// In increasing `n`.
    pub measured: Vec<Measurement>,
    /// Sizes skipped because the predicted time would exceed the budget.
    pub skipped: Vec<usize>,
}

/// Times `run(n)` for each size of the plan until the budget would be
/// exceeded. The first size is always measured. `tick` is called once per
/// size, measured or skipped (for a progress bar).
pub fn measure_series<R>(
    name: &str,
    plan: &Plan,
    mut run: impl FnMut(usize) -> R,
    mut tick: impl FnMut(),
) -> Series {
    let start = Instant::now();
    let mut series = Series::default();
    for &n in &plan.sizes {
        let spent = start.elapsed();
        let predicted = predict(&series.measured, n);
        let needed = predicted.max(plan.target()) + predicted;
        if !series.measured.is_empty() && spent + needed > plan.budget {
            series.skipped.push(n);
            tick();
            continue;
        }
        let (runs, elapsed) = time_runs(&mut run, n, plan.target());
        let seconds_per_run = elapsed.as_secs_f64() / runs as f64;
        series
            .measured
            .push(Measurement::new(name, n, runs, seconds_per_run));
        tick();
    }
    series
}

/// One warm-up run (which also estimates the cost), then enough runs to
/// last `target`. Returns the runs counted and their total time.
fn time_runs<R>(run: &mut impl FnMut(usize) -> R, n: usize, target: Duration) -> (u64, Duration) {
    let t0 = Instant::now();
    black_box(run(black_box(n)));
    let once = t0.elapsed();
    if once >= target {
        return (1, once);
    }
    let per_run = once.as_secs_f64().max(1e-9);
    let runs = (target.as_secs_f64() / per_run).ceil().clamp(1.0, 1e9) as u64;
    let t1 = Instant::now();
    for _ in 0..runs {
        black_box(run(black_box(n)));
    }
    (runs, t1.elapsed())
}

/// Predicted time of one run at `n`, from the last two measurements' slope
/// (or slope 2, the worst in the catalogue, from a single one).
fn predict(measured: &[Measurement], n: usize) -> Duration {
    let Some(last) = measured.last() else {
        return Duration::ZERO;
    };
    let slope = match measured.len() {
        0 | 1 => 2.0,
        len => {
            let prev = &measured[len - 2];
            let s = (last.seconds_per_run / prev.seconds_per_run).ln()
                / (last.n as f64 / prev.n as f64).ln();
            if s.is_finite() {
                s.clamp(1.0, 3.0)
            } else {
                2.0
            }
        }
    };
    let secs = last.seconds_per_run * (n as f64 / last.n as f64).powf(slope);
    Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One run of subject "x" on `n` cards taking `secs` (also for `fit`'s tests).
    pub(super) fn m(n: usize, secs: f64) -> Measurement {
        Measurement::new("x", n, 1, secs)
    }

    #[test]
    fn prediction_follows_the_last_slope() {
        let quadratic = [m(10, 1e-6), m(100, 1e-4)];
        let p = predict(&quadratic, 1000).as_secs_f64();
        assert!((p - 1e-2).abs() < 1e-9, "{p}");
        let linear = [m(10, 1e-6), m(100, 1e-5)];
        let p = predict(&linear, 1000).as_secs_f64();
        assert!((p - 1e-4).abs() < 1e-12, "{p}");
        assert_eq!(predict(&[], 1000), Duration::ZERO);
    }

    #[test]
    fn a_tiny_budget_still_measures_the_first_size_and_skips_the_rest() {
        let plan = Plan {
            sizes: vec![10, 1_000_000_000],
            budget: Duration::from_millis(1),
        };
        let mut ticks = 0;
        let series = measure_series(
            "sum",
            &plan,
            |n| (0..n.min(1000)).sum::<usize>(),
            || ticks += 1,
        );
        assert_eq!(series.measured.len(), 1);
        assert_eq!(series.skipped, [1_000_000_000]);
        assert_eq!(ticks, 2);
    }
}
