//! Verdicts that claim only what the data shows.
//!
//! * [`Verdict::Biased`] — a test rejected at the family-wise false-alarm rate.
//! * [`Verdict::NoBiasDetected`] — no test rejected. Never read as "uniform":
//!   it comes with the smallest bias of each kind the run would have caught
//!   with probability ≥ 0.8 ([`Detectable`]), so a reader sees how blunt the
//!   run was.
//! * [`Verdict::UniformWithin`] — asked for with a tolerance ε: no test
//!   rejected *and* every card × position probability is inside `1/n ± ε`
//!   with the stated simultaneous confidence ([`super::equivalence`]).
//! * [`Verdict::Undecided`] — a tolerance was asked for and neither of the
//!   two above could be shown; [`Equivalence::trials_needed`] says how many
//!   permutations would settle it.
//! * [`Verdict::Inconclusive`] — too few permutations for any test to run.
//!
//! Sequential runs (`--until-decided`) spend the error rates over rounds:
//! round k (from 1) runs at `alpha / 2^k` and `(1 − confidence) / 2^k`, so
//! over all rounds the chance of any false alarm stays below `alpha` and all
//! intervals of all rounds hold at once with probability ≥ `confidence`
//! (Bonferroni over the rounds — an alpha-spending schedule that is valid
//! however many rounds are looked at, unlike repeated peeking at fixed α).

use serde::Serialize;

use super::equivalence::{self, Equivalence, INTERVALS};
use super::power::{Effect, POWER};
use super::tails::CHI_SQUARE_FACTOR;
use super::{Audit, Method, Tally};

/// The verdict on a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// A test rejected uniformity at the family-wise false-alarm rate.
    Biased,
    /// No test rejected; see the detectable biases for what that means.
    NoBiasDetected,
    /// Every card × position probability is within the tolerance.
    UniformWithin,
    /// A tolerance was asked for; neither it nor a bias could be shown.
    Undecided,
    /// Too few permutations for any test.
    Inconclusive,
}

impl Verdict {
    /// The verdict's name in reports (lowercase; the text output upper-cases it).
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Biased => "biased",
            Verdict::NoBiasDetected => "no bias detected",
            Verdict::UniformWithin => "uniform within tolerance",
            Verdict::Undecided => "undecided",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// `true` for the verdicts that end a sequential run.
    pub fn is_decisive(self) -> bool {
        matches!(self, Verdict::Biased | Verdict::UniformWithin)
    }
}

/// The smallest bias one test would have caught.
#[derive(Debug, Clone, PartialEq)]
pub struct Detectable {
    /// The test.
    pub test: &'static str,
    /// What the size measures.
    pub effect: Effect,
    /// The law it is measured on, as the test ran it (for a histogram test,
    /// its pooled bins: a bias the pooling hides is not covered).
    pub law: String,
    /// Every bias of at least this size is caught with probability ≥ [`POWER`].
    pub size: f64,
    /// `true` when `size` is at or above the largest bias of its kind: the
    /// run could not be sure of catching any bias at all.
    pub too_few: bool,
}

/// A bias the user names, and the permutations needed to catch it.
#[derive(Debug, Clone, PartialEq)]
pub struct Needed {
    /// The named largest `|P(card at position) − 1/n|`.
    pub size: f64,
    /// Permutations for the card × position test to catch every such bias
    /// with probability ≥ [`POWER`] at this run's per-test false-alarm rate.
    pub trials: u64,
}

/// What the caller asks of the verdict beyond the tests.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ask {
    /// A card × position bias to compute the needed permutations for.
    pub detect: Option<f64>,
    /// Equivalence: the tolerance ε and the simultaneous confidence.
    pub tolerance: Option<(f64, f64)>,
}

/// The verdict with the figures behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// The verdict.
    pub verdict: Verdict,
    /// For each chi-square test run: the smallest bias it would have caught.
    pub detectable: Vec<Detectable>,
    /// The answer to [`Ask::detect`].
    pub needed: Option<Needed>,
    /// The answer to [`Ask::tolerance`].
    pub equivalence: Option<Equivalence>,
}

/// Judges a run: the tests of `audit` (made from `tally`) and what `ask`
/// asks for. O(tests · power solve + n²) time.
///
/// ```
/// use fairdeck_audit::stats::{evaluate, verdict::{judge, Ask, Verdict}, Tally};
///
/// let mut t = Tally::new(3);
/// for p in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
///     for _ in 0..20 {
///         t.add(&p)?; // every order equally often
///     }
/// }
/// let f = judge(&evaluate(&t, 1e-6), &t, Ask::default());
/// assert_eq!(f.verdict, Verdict::NoBiasDetected); // never "uniform"
/// assert!(f.detectable[0].size > 0.1); // 120 shuffles are blunt
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
pub fn judge(audit: &Audit, tally: &Tally, ask: Ask) -> Findings {
    let detectable = audit
        .tests
        .iter()
        .filter_map(|t| {
            let effect = Effect::of_test(t.name);
            let tail = chi_square_level(audit.threshold(), t.method);
            let size = effect.detectable(audit.n, audit.trials, t.dof?, tail);
            Some(Detectable {
                test: t.name,
                effect,
                law: t.law.clone(),
                size,
                too_few: size >= largest_possible(effect, audit.n),
            })
        })
        .collect();
    let needed = ask.detect.map(|size| needed(audit, size));
    let equivalence = ask.tolerance.map(|(eps, confidence)| {
        equivalence::check(tally.n, &tally.positions, tally.trials, eps, confidence)
    });
    let verdict = if audit.tests.is_empty() {
        Verdict::Inconclusive
    } else if !audit.no_test_rejected() {
        Verdict::Biased
    } else {
        match &equivalence {
            None => Verdict::NoBiasDetected,
            Some(e) if e.within => Verdict::UniformWithin,
            Some(_) => Verdict::Undecided,
        }
    };
    Findings {
        verdict,
        detectable,
        needed,
        equivalence,
    }
}

/// Permutations for the card × position test to catch a bias of `size`.
fn needed(audit: &Audit, size: f64) -> Needed {
    let n = audit.n;
    let dof = ((n - 1) * (n - 1)) as f64;
    // Runs that large read the card × position test against the doubled
    // chi-square tail.
    let tail = chi_square_level(audit.threshold(), Method::ChiSquare);
    let by_power = Effect::CardPosition.trials_needed(n, size, dof, tail);
    // The test itself needs 5 expected per cell.
    Needed {
        size,
        trials: by_power.max(5 * n as u64),
    }
}

/// The chi-square tail a test at per-test level `threshold` rejects beyond:
/// the level itself, halved where the p-value is twice the chi-square tail.
/// (For exact tests the chi-square law is the power's approximation.)
fn chi_square_level(threshold: f64, method: Method) -> f64 {
    match method {
        Method::ChiSquare => threshold / CHI_SQUARE_FACTOR,
        _ => threshold,
    }
}

/// The false-alarm rate and the confidence of round `round` (from 1) of a
/// sequential run: `alpha / 2^round` and `1 − (1 − confidence) / 2^round`.
pub fn spending(round: u32, alpha: f64, confidence: f64) -> (f64, f64) {
    let share = 0.5_f64.powi(round as i32);
    (alpha * share, 1.0 - (1.0 - confidence) * share)
}

/// The largest a bias of this kind can be for `n` items: a detectable size
/// at or above it means the run could not be sure of catching any bias.
pub fn largest_possible(effect: Effect, n: usize) -> f64 {
    match effect {
        Effect::CardPosition => 1.0 - 1.0 / n as f64,
        Effect::TotalVariation => 1.0,
    }
}

/// Re-exported planning figure: see [`equivalence::planned_trials`].
pub use equivalence::planned_trials;

/// One test's detectable bias, in JSON.
#[derive(Serialize)]
pub struct DetectableRow {
    /// The test.
    pub test: &'static str,
    /// What `size` measures, on which law ("total variation of fixed
    /// points in bins 0 | 1 | 2+").
    pub measure: String,
    /// The smallest bias caught with probability ≥ `power`.
    pub size: f64,
    /// The detection probability.
    pub power: f64,
    /// The run could not be sure of catching any bias of this kind.
    pub too_few: bool,
}

/// The shuffles `--detect` asked for, in JSON.
#[derive(Serialize)]
pub struct NeededRow {
    /// The named bias.
    pub size: f64,
    /// Permutations needed.
    pub trials: u64,
    /// The detection probability.
    pub power: f64,
}

/// The equivalence result, in JSON.
#[derive(Serialize)]
pub struct EquivalenceRow {
    /// ε.
    pub tolerance: f64,
    /// Simultaneous confidence.
    pub confidence: f64,
    /// How the intervals were made.
    pub method: &'static str,
    /// Lowest interval end.
    pub lowest: f64,
    /// Highest interval end.
    pub highest: f64,
    /// Largest distance of an interval end from 1/n.
    pub worst: f64,
    /// Every interval inside 1/n ± ε.
    pub within: bool,
    /// Permutations estimated to settle an undecided run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials_needed: Option<u64>,
}

/// The verdict's figures as reports print them (`fairdeck audit --format
/// json`, the web page, Python's `audit`): one serde type for all.
#[derive(Serialize)]
pub struct Summary {
    /// [`Verdict::label`].
    pub verdict: &'static str,
    /// `true` for a verdict that ends a sequential run.
    #[serde(skip)]
    pub decided: bool,
    /// Per chi-square test: the smallest bias it would have caught.
    pub detectable: Vec<DetectableRow>,
    /// The shuffles needed for a named bias.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detect: Option<NeededRow>,
    /// The equivalence check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equivalence: Option<EquivalenceRow>,
}

impl Summary {
    /// The summary of `findings`.
    pub fn new(f: &Findings) -> Summary {
        Summary {
            verdict: f.verdict.label(),
            decided: f.verdict.is_decisive(),
            detectable: f
                .detectable
                .iter()
                .map(|d| DetectableRow {
                    test: d.test,
                    measure: d.effect.describe_on(&d.law),
                    size: d.size,
                    power: POWER,
                    too_few: d.too_few,
                })
                .collect(),
            detect: f.needed.as_ref().map(|d| NeededRow {
                size: d.size,
                trials: d.trials,
                power: POWER,
            }),
            equivalence: f.equivalence.as_ref().map(equivalence_row),
        }
    }
}

fn equivalence_row(e: &Equivalence) -> EquivalenceRow {
    EquivalenceRow {
        tolerance: e.tolerance,
        confidence: e.confidence,
        method: INTERVALS,
        lowest: e.lowest,
        highest: e.highest,
        worst: e.worst,
        within: e.within,
        trials_needed: e.trials_needed,
    }
}
