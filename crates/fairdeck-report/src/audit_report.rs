//! The audit's report: the tests, their p-values, the verdict and the
//! model estimate, as every front end prints or returns them.

use fairdeck_audit::stats::Audit;
use fairdeck_audit::stats::verdict::Summary;
use serde::Serialize;

use crate::estimate::Estimate;
use crate::guessing::Guessing;
use crate::histograms::Histograms;

/// One test's line in the report.
#[derive(Debug, Serialize)]
pub struct TestRow {
    /// The test's name.
    pub name: &'static str,
    /// Its statistic.
    pub statistic: f64,
    /// Degrees of freedom, for chi-square tests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dof: Option<f64>,
    /// Its p-value.
    pub p_value: f64,
    /// How the p-value was computed: `exact` (from the statistic's exact
    /// law), `chi-square doubled` (twice the chi-square tail, where the
    /// cells expect enough for that to bound the exact tail), `poisson`,
    /// `chernoff bound`, `union bound` or, for the family tests,
    /// `likelihood ratio (chernoff, union)` (never below the exact tail).
    pub method: &'static str,
    /// The law the test compared, as run: for a histogram test its pooled
    /// bins ("fixed points in bins 0 | 1 | 2+").
    pub law: String,
    /// Whether it passed at the per-test alpha.
    pub passed: bool,
}

/// A test not run, and why.
#[derive(Debug, Serialize)]
pub struct Skipped {
    /// The test's name.
    pub name: &'static str,
    /// Why it was not run.
    pub reason: String,
}

/// What `fairdeck audit --format json` prints.
#[derive(Serialize)]
pub struct Report {
    /// The algorithm's name, or `input FILE`.
    pub source: String,
    /// Items per permutation.
    pub n: usize,
    /// Permutations counted.
    pub trials: u64,
    /// The key of simulated shuffles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The verdict and what backs it.
    #[serde(flatten)]
    pub verdict: Summary,
    /// The family-wise false-alarm rate.
    pub alpha: f64,
    /// Each test's share of it (Bonferroni).
    pub per_test_alpha: f64,
    /// The tests run.
    pub tests: Vec<TestRow>,
    /// The names of the tests that rejected.
    pub failed: Vec<&'static str>,
    /// The tests not run.
    pub skipped: Vec<Skipped>,
    /// The rounds of a run until decided.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<Round>,
    /// The card × position counts, when asked for (`positions[card][pos]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<Vec<u64>>>,
    /// DFH's card-guessing game on these decks, where the test ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guessing: Option<Guessing>,
    /// Which named machine the decks behave like (decks of 3 to 64 cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
    /// The decks by rising sequences and by valleys, against the uniform
    /// law and the estimated machine's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub histograms: Option<Histograms>,
}

/// One round of a run until decided.
#[derive(Debug, Serialize)]
pub struct Round {
    /// Shuffles counted so far.
    pub trials: u64,
    /// The round's false-alarm rate.
    pub alpha: f64,
    /// The round's confidence of the tolerance intervals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// The round's verdict.
    pub verdict: &'static str,
}

pub(super) fn report(
    source: String,
    seed: Option<String>,
    audit: &Audit,
    verdict: Summary,
) -> Report {
    let threshold = audit.threshold();
    let guessing = Guessing::of(audit);
    Report {
        source,
        n: audit.n,
        trials: audit.trials,
        seed,
        verdict,
        alpha: audit.alpha,
        per_test_alpha: threshold,
        tests: audit
            .tests
            .iter()
            .map(|t| TestRow {
                name: t.name,
                statistic: t.statistic,
                dof: t.dof,
                p_value: t.p_value,
                method: t.method.label(),
                law: t.law.clone(),
                passed: t.p_value >= threshold,
            })
            .collect(),
        failed: audit.failed().iter().map(|t| t.name).collect(),
        skipped: audit
            .skipped
            .iter()
            .map(|(name, reason)| Skipped {
                name,
                reason: reason.clone(),
            })
            .collect(),
        rounds: Vec::new(),
        positions: None,
        guessing,
        estimate: None,
        histograms: None,
    }
}
