//! Statistical audit: many shuffles in, p-values and a verdict out.
//!
//! Counts go into a [`Tally`] (from [`run::shuffles`] or from permutations
//! read from any program); [`evaluate`] turns them into goodness-of-fit tests
//! against the exact laws of a uniform permutation, and a verdict at a
//! family-wise false-alarm rate `alpha` (Bonferroni: each of the m tests run
//! is held to `alpha / m`, so a uniform shuffle is called biased with
//! probability at most `alpha`, up to the chi-square approximation).
//!
//! The tests:
//! * `positions` — card × position counts (the experiment of
//!   “洗牌算法_最简单的洗牌方法” (2023) done for every card). For a uniform permutation the n² indicators
//!   have covariance P/(n−1), P the projection on doubly-centred matrices, so
//!   Pearson's X² is (n/(n−1))·χ²((n−1)²); we report X²·(n−1)/n with
//!   (n−1)² degrees of freedom. Needs T/n ≥ 5.
//! * `permutations` — all n! orders (n ≤ 8, T/n! ≥ 5), n! − 1 dof.
//! * `fixed-points`, `cycles`, `rising-sequences`, `successions` — histograms
//!   against their exact laws ([`laws`]), tails pooled so each bin expects ≥ 5.
//! * `birthday` — pairs of identical decks (n ≥ 9, where the expected number
//!   of pairs λ = C(T,2)/n! is at most 1): p = P(Poisson(λ) ≥ pairs).

pub mod equivalence;
pub mod input;
pub mod laws;
pub mod memory;
pub mod power;
pub mod run;
mod tally;
pub mod verdict;

pub use tally::{MAX_N_FOR_PERMUTATION_TABLE, MIN_N_FOR_BIRTHDAY, Tally, count_cycles, rank};

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Default family-wise false-alarm rate.
pub const DEFAULT_ALPHA: f64 = 1e-6;

/// Most items per permutation an audit takes: the card × position table of
/// n = 10 000 is already 800 MB.
pub const MAX_N: usize = 10_000;

/// Most trials an audit takes (the birthday test keeps 16 bytes per deck:
/// 160 MB at this limit).
pub const MAX_TRIALS: u64 = 10_000_000;

/// One test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    /// Short name (`positions`, `fixed-points`, …).
    pub name: &'static str,
    /// The test statistic (chi-square value, or number of duplicate pairs).
    pub statistic: f64,
    /// Degrees of freedom for chi-square tests.
    pub dof: Option<f64>,
    /// Probability under uniform shuffling of a statistic at least this extreme.
    pub p_value: f64,
}

/// The verdict on a stream of permutations.
#[derive(Debug, Clone, PartialEq)]
pub struct Audit {
    /// Items per permutation.
    pub n: usize,
    /// Permutations counted.
    pub trials: u64,
    /// Family-wise false-alarm rate.
    pub alpha: f64,
    /// The tests run.
    pub tests: Vec<TestResult>,
    /// Tests not run, with the reason.
    pub skipped: Vec<(&'static str, String)>,
}

impl Audit {
    /// The per-test threshold: alpha divided by the number of tests (Bonferroni).
    pub fn threshold(&self) -> f64 {
        self.alpha / self.tests.len().max(1) as f64
    }

    /// Tests whose p-value fell below the threshold.
    pub fn failed(&self) -> Vec<&TestResult> {
        let t = self.threshold();
        self.tests.iter().filter(|r| r.p_value < t).collect()
    }

    /// `true` when no test rejected uniformity. Not evidence of uniformity: see
    /// [`verdict::judge`] for what such a run could have caught.
    pub fn no_test_rejected(&self) -> bool {
        self.failed().is_empty()
    }
}

/// Runs every applicable test on the counts. O(n² + n! + T log T) time.
///
/// ```
/// use fairdeck_audit::stats::{evaluate, Tally};
///
/// let mut t = Tally::new(3);
/// for _ in 0..100 {
///     t.add(&[1, 2, 0])?; // always the same cyclic order: caught at once
/// }
/// let audit = evaluate(&t, 1e-6);
/// assert!(!audit.no_test_rejected());
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
pub fn evaluate(t: &Tally, alpha: f64) -> Audit {
    let mut audit = Audit {
        n: t.n,
        trials: t.trials,
        alpha,
        tests: Vec::new(),
        skipped: Vec::new(),
    };
    let mut record = |name, result: Result<TestResult, String>| match result {
        Ok(r) => audit.tests.push(r),
        Err(why) => audit.skipped.push((name, why)),
    };
    record("positions", positions(t));
    record("permutations", permutations(t));
    let histograms: [(&'static str, &[u64], Vec<f64>); 4] = [
        ("fixed-points", &t.fixed_points, laws::fixed_points(t.n)),
        ("cycles", &t.cycles, laws::cycles(t.n)),
        (
            "rising-sequences",
            &t.rising_sequences,
            laws::rising_sequences(t.n),
        ),
        ("successions", &t.successions, laws::successions(t.n)),
    ];
    for (name, observed, law) in histograms {
        record(name, pooled_chi_square(name, observed, &law, t.trials));
    }
    record("birthday", birthday(t));
    audit
}

fn chi_square_p(statistic: f64, dof: f64) -> f64 {
    ChiSquared::new(dof).map_or(f64::NAN, |d| d.sf(statistic))
}

fn positions(t: &Tally) -> Result<TestResult, String> {
    let n = t.n as f64;
    let expected = t.trials as f64 / n;
    if t.n < 2 || expected < 5.0 {
        return Err(format!("needs at least {} trials", 5 * t.n.max(2)));
    }
    let pearson: f64 = t
        .positions
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    let dof = (n - 1.0).powi(2);
    let statistic = pearson * (n - 1.0) / n;
    Ok(TestResult {
        name: "positions",
        statistic,
        dof: Some(dof),
        p_value: chi_square_p(statistic, dof),
    })
}

fn permutations(t: &Tally) -> Result<TestResult, String> {
    let Some(table) = &t.permutations else {
        return Err(format!("only for n <= {MAX_N_FOR_PERMUTATION_TABLE}"));
    };
    let cells = table.len() as f64;
    let expected = t.trials as f64 / cells;
    if t.n < 2 || expected < 5.0 {
        return Err(format!("needs at least {} trials", 5 * table.len().max(2)));
    }
    let statistic: f64 = table
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    Ok(TestResult {
        name: "permutations",
        statistic,
        dof: Some(cells - 1.0),
        p_value: chi_square_p(statistic, cells - 1.0),
    })
}

/// Chi-square goodness of fit with bins merged left to right until each
/// expects at least 5 (a short last bin joins the one before it).
fn pooled_chi_square(
    name: &'static str,
    observed: &[u64],
    law: &[f64],
    trials: u64,
) -> Result<TestResult, String> {
    let total = trials as f64;
    let mut bins: Vec<(f64, f64)> = Vec::new(); // (observed, expected)
    let mut open = (0.0, 0.0);
    for (k, &p) in law.iter().enumerate() {
        open.0 += observed.get(k).copied().unwrap_or(0) as f64;
        open.1 += p * total;
        if open.1 >= 5.0 {
            bins.push(open);
            open = (0.0, 0.0);
        }
    }
    match bins.last_mut() {
        Some(last) => {
            last.0 += open.0;
            last.1 += open.1;
        }
        None => return Err("too few trials for one bin of 5 expected".into()),
    }
    if bins.len() < 2 {
        return Err("too few trials for two bins of 5 expected".into());
    }
    let statistic: f64 = bins.iter().map(|&(o, e)| (o - e).powi(2) / e).sum();
    let dof = (bins.len() - 1) as f64;
    Ok(TestResult {
        name,
        statistic,
        dof: Some(dof),
        p_value: chi_square_p(statistic, dof),
    })
}

fn birthday(t: &Tally) -> Result<TestResult, String> {
    if t.n < MIN_N_FOR_BIRTHDAY {
        return Err("the permutations test covers n <= 8".into());
    }
    let pairs_possible = t.trials as f64 * (t.trials as f64 - 1.0) / 2.0;
    let log_lambda = pairs_possible.ln() - ln_factorial(t.n);
    if log_lambda > 0.0 || t.trials < 2 {
        return Err("too many trials for this n: duplicates are expected".into());
    }
    let mut prints = t.fingerprints.clone();
    prints.sort_unstable();
    let mut pairs = 0u64;
    let mut run = 1u64;
    for w in prints.windows(2) {
        if w[0] == w[1] {
            pairs += run;
            run += 1;
        } else {
            run = 1;
        }
    }
    Ok(TestResult {
        name: "birthday",
        statistic: pairs as f64,
        dof: None,
        p_value: poisson_tail(log_lambda, pairs),
    })
}

fn ln_factorial(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// P(X ≥ k) for X ~ Poisson(λ), λ = e^log_lambda ≤ 1, summed term by term
/// in logs so that tiny tails stay accurate.
fn poisson_tail(log_lambda: f64, k: u64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    let lambda = log_lambda.exp();
    (k..k + 60)
        .map(|j| (j as f64 * log_lambda - lambda - ln_factorial(j as usize)).exp())
        .sum::<f64>()
        .min(1.0)
}

#[cfg(test)]
mod tests;
