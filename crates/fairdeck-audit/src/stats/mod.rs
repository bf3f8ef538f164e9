//! Statistical audit: many shuffles in, p-values and a verdict out.
//!
//! Counts go into a [`Tally`] (from [`run::shuffles`] or from permutations
//! read from any program); [`evaluate`] turns them into goodness-of-fit tests
//! against the exact laws of a uniform permutation, and a verdict at a
//! family-wise false-alarm rate `alpha` (Bonferroni: each of the m tests run
//! is held to `alpha / m`, so a uniform shuffle is called biased with
//! probability at most `alpha`). Each p-value is exact — from every outcome
//! of the statistic's multinomial law — or, where the cells expect enough,
//! twice the chi-square tail, which bounds the exact one ([`tails`]); a test
//! with neither is skipped, with the reason ([`Evaluator`]). Tests that are
//! the same test at small n (all six at n = 2, three at n = 3) run once and
//! count once in m ([`distinct`]).
//!
//! The tests:
//! * `positions` — card × position counts (the experiment of
//!   “洗牌算法_最简单的洗牌方法” (2023) done for every card). For a uniform permutation the n² indicators
//!   have covariance P/(n−1), P the projection on doubly-centred matrices, so
//!   Pearson's X² is (n/(n−1))·χ²((n−1)²); we report X²·(n−1)/n with
//!   (n−1)² degrees of freedom. Needs T/n ≥ 5; exact only for n ≤ 3 and few
//!   trials, so at small n it may be skipped until T/n is large.
//! * `permutations` — all n! orders (n ≤ 8, T/n! ≥ 5), n! − 1 dof.
//! * `fixed-points`, `cycles`, `rising-sequences`, `successions` — histograms
//!   against their exact laws ([`laws`]), tails pooled so each bin expects ≥ 5
//!   (more where the exact law of that many bins is too large to enumerate;
//!   [`TestResult::law`] names the bins).
//! * `birthday` — pairs of identical decks (n ≥ 9, where the expected number
//!   of pairs λ = C(T,2)/n! is at most 1): p = P(Poisson(λ) ≥ pairs).
//! * `repeated-orders` — the most decks in one order, at every n ≥ 3
//!   ([`repeats`]).
//! * the model tests ([`model`]) — `valleys-low`, `valleys` (the shelf
//!   machines' statistic, one- and two-sided), `rising-low` (the riffles'),
//!   `guessing` (cards a run-following player guesses right, [`guess`]):
//!   sums over the decks, against their exact laws or Chernoff's bound.
//! * the family tests ([`likelihood`]) — `riffles-lr`, `shelf-lr`,
//!   `shelf-twice-lr`, `shelf-biased-lr`, `top-to-random-lr`: the
//!   likelihood ratio of each named family of machines ([`families`])
//!   against uniform, its p-value by Chernoff's bound on each machine
//!   and the union bound over the family ([`family_tails`]).

pub mod distinct;
pub mod equivalence;
pub mod families;
pub mod family_tails;
pub mod gof;
pub mod guess;
pub mod input;
pub mod laws;
pub mod likelihood;
pub mod memory;
pub mod model;
pub mod pearson;
pub mod power;
pub mod repeats;
pub mod run;
pub mod tails;
mod tally;
pub mod verdict;

pub use tally::{
    MAX_N_FOR_JOINT, MAX_N_FOR_PERMUTATION_TABLE, MIN_N_FOR_BIRTHDAY, Tally, bottom_run,
    count_cycles, rank,
};

use gof::{Histogram, MAX_TESTS, Plan};
use likelihood::FamilyTest;
use model::{Side, SumTest};
use repeats::Repeats;

/// Default family-wise false-alarm rate.
pub const DEFAULT_ALPHA: f64 = 1e-6;

/// Most items per permutation an audit takes: the card × position table of
/// n = 10 000 is already 800 MB.
pub const MAX_N: usize = 10_000;

/// Most trials an audit takes (the birthday test keeps 16 bytes per deck:
/// 160 MB at this limit).
pub const MAX_TRIALS: u64 = 10_000_000;

/// How a test's p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// From the statistic's exact law under uniform shuffling.
    Exact,
    /// Twice the chi-square tail, where the cells expect enough for that to
    /// bound the exact tail ([`tails`]).
    ChiSquare,
    /// The Poisson tail of the number of duplicate decks.
    Poisson,
    /// Chernoff's bound on the tail of a sum, never below the exact tail
    /// ([`model`]).
    Chernoff,
    /// The union bound over the n! orders, never below the exact tail
    /// ([`repeats`]).
    UnionBound,
    /// Chernoff's bound on each machine's likelihood ratio, joined over
    /// its family by the union bound, never below the exact tail
    /// ([`family_tails`]).
    LikelihoodRatio,
}

impl Method {
    /// The method's name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::ChiSquare => "chi-square doubled",
            Method::Poisson => "poisson",
            Method::Chernoff => "chernoff bound",
            Method::UnionBound => "union bound",
            Method::LikelihoodRatio => "likelihood ratio (chernoff, union)",
        }
    }
}

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
    /// How `p_value` was computed.
    pub method: Method,
    /// The law the test compares, as run ("fixed points in bins 0 | 1 | 2+").
    pub law: String,
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

/// The smallest family-wise false-alarm rate an audit takes: every test's
/// share, down to `alpha / (12 · 2^40)` in a run spent over rounds, stays a
/// normal float (p-values below 10⁻³⁰⁸ cannot be told apart from 0).
pub const SMALLEST_ALPHA: f64 = f64::MIN_POSITIVE * (MAX_TESTS as f64) * 1_099_511_627_776.0;

/// Checks that `alpha` is in (0, 1) and that its per-test shares are
/// representable ([`SMALLEST_ALPHA`]).
///
/// # Errors
///
/// [`crate::Error::OutOfRange`] naming the bound.
pub fn check_alpha(alpha: f64) -> Result<(), crate::Error> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(crate::Error::OutOfRange(
            "alpha must be between 0 and 1".into(),
        ));
    }
    if alpha < SMALLEST_ALPHA {
        return Err(crate::Error::OutOfRange(format!(
            "alpha {alpha:e} is too small: each test's share would underflow; the smallest taken is {SMALLEST_ALPHA:.3e}"
        )));
    }
    Ok(())
}

/// The tests of an audit planned for `n` items, `trials` permutations and a
/// family-wise rate `alpha`: which law each statistic is read against. Build
/// once, run on many tallies of that size ([`Evaluator::evaluate`]).
#[derive(Debug, Clone)]
pub struct Evaluator {
    n: usize,
    trials: u64,
    positions: Plan,
    permutations: Plan,
    histograms: Vec<Histogram>,
    models: Vec<SumTest>,
    repeats: Repeats,
    families: Vec<FamilyTest>,
    /// Tests that are the same test as an earlier one at this n, and which.
    pub(crate) same: Vec<(&'static str, &'static str)>,
}

impl Evaluator {
    /// Plans the tests: exact laws where they can be enumerated, chi-square
    /// where it carries the tail `alpha / 12`, the rest skipped. O(2·10⁶
    /// outcomes) time per exact law at most.
    pub fn new(n: usize, trials: u64, alpha: f64) -> Self {
        Self::planned(n, trials, alpha, false)
    }

    /// The tests as they were before exact tails: bins pooled to 5 expected
    /// and every statistic read against the bare chi-square tail. Its
    /// false-alarm rate exceeds alpha on small samples; kept to show that.
    pub fn chi_square_only(n: usize, trials: u64) -> Self {
        Self::planned(n, trials, 0.5, true)
    }

    fn planned(n: usize, trials: u64, alpha: f64, legacy: bool) -> Self {
        let tail = alpha / MAX_TESTS as f64;
        let histograms = gof::histogram_laws(n)
            .iter()
            .map(|(name, what, law)| Histogram::plan(name, what, law, trials, tail, legacy))
            .collect::<Vec<_>>();
        let positions = gof::plan_positions(n, trials, tail, legacy);
        let permutations = gof::plan_permutations(n, trials, tail, legacy);
        let runs = [&positions, &permutations].map(|p| !matches!(p, Plan::Skip(_)));
        Self {
            same: if legacy {
                Vec::new()
            } else {
                distinct::same_as(n, runs, &histograms)
            },
            n,
            trials,
            positions,
            permutations,
            histograms,
            // The comparison of old tails has none of the later tests.
            models: if legacy {
                Vec::new()
            } else {
                model_tests(n, trials, tail)
            },
            repeats: Repeats::plan(n, trials, if legacy { 0.0 } else { tail }),
            families: if legacy {
                Vec::new()
            } else {
                likelihood::family_tests(n, trials, tail)
            },
        }
    }

    /// The exact law the all-orders test reads, if it has one.
    pub fn permutations_law(&self) -> Option<&tails::ExactLaw> {
        match &self.permutations {
            Plan::Exact(law) => Some(law),
            _ => None,
        }
    }

    /// Runs every applicable test on `t` (which must be of this evaluator's
    /// n and trials) at family-wise rate `alpha`.
    ///
    /// # Panics
    ///
    /// When `t` is of another size than planned.
    pub fn evaluate(&self, t: &Tally, alpha: f64) -> Audit {
        assert_eq!(
            (t.n, t.trials),
            (self.n, self.trials),
            "tally of another size"
        );
        let mut audit = Audit {
            n: t.n,
            trials: t.trials,
            alpha,
            tests: Vec::new(),
            skipped: Vec::new(),
        };
        let mut record = |name, result: Result<TestResult, String>| {
            let folded = self.same.iter().find(|(test, _)| *test == name);
            match (folded, result) {
                (Some((_, first)), _) => audit.skipped.push((
                    name,
                    format!("the same test as {first} at n = {} (counted once)", t.n),
                )),
                (None, Ok(r)) => audit.tests.push(r),
                (None, Err(why)) => audit.skipped.push((name, why)),
            }
        };
        record("positions", gof::run_positions(&self.positions, t));
        record("permutations", gof::run_permutations(&self.permutations, t));
        for (h, o) in self.histograms.iter().zip(distinct::histogram_counts(t)) {
            record(h.name, h.run(o, t.trials));
        }
        let mut sorted = t.fingerprints.clone();
        sorted.sort_unstable();
        record("birthday", birthday(t, &sorted));
        record("repeated-orders", self.repeats.run(t, &sorted));
        for m in &self.models {
            record(
                m.name,
                self.model_test(m.name, t).expect("a planned model test"),
            );
        }
        for f in &self.families {
            record(f.name, f.run(t));
        }
        audit
    }

    /// Runs the histogram test `name` (`fixed-points`, `cycles`,
    /// `rising-sequences` or `successions`) alone on `t`, as
    /// [`Evaluator::evaluate`] runs it, or `None` for another name. A test
    /// that `evaluate` folds into an earlier one still runs here.
    ///
    /// # Panics
    ///
    /// When `t` is of another size than planned.
    pub fn histogram_test(&self, name: &str, t: &Tally) -> Option<Result<TestResult, String>> {
        assert_eq!(
            (t.n, t.trials),
            (self.n, self.trials),
            "tally of another size"
        );
        let (h, counts) = self
            .histograms
            .iter()
            .zip(distinct::histogram_counts(t))
            .find(|(h, _)| h.name == name)?;
        Some(h.run(counts, t.trials))
    }

    /// Runs the family test `name` alone on `t` (as [`Evaluator::evaluate`]
    /// runs it), or `None` for a name that is not a planned family test.
    pub fn family_test(&self, name: &str, t: &Tally) -> Option<Result<TestResult, String>> {
        let test = self.families.iter().find(|f| f.name == name)?;
        Some(test.run(t))
    }

    /// The family planned for the test `name`, if it runs one.
    pub fn family(&self, name: &str) -> Option<&families::Family> {
        self.families.iter().find(|f| f.name == name)?.family()
    }

    /// Runs the model test `name` alone on `t` (as [`Evaluator::evaluate`]
    /// runs it), or `None` for a name that is not a model test. O(n).
    ///
    /// # Panics
    ///
    /// When `t` is of another size than planned.
    pub fn model_test(&self, name: &str, t: &Tally) -> Option<Result<TestResult, String>> {
        assert_eq!(
            (t.n, t.trials),
            (self.n, self.trials),
            "tally of another size"
        );
        let test = self.models.iter().find(|m| m.name == name)?;
        let counts = match name {
            "rising-low" => &t.rising_sequences,
            "guessing" => &t.guesses,
            _ => &t.valleys,
        };
        Some(test.run(counts))
    }
}

/// The model tests, in the order [`Evaluator::evaluate`] feeds them their
/// histograms. At n = 2 every test is the swap count, which `positions`
/// reads two-sided with the whole alpha, so these do not run there.
fn model_tests(n: usize, trials: u64, share: f64) -> Vec<SumTest> {
    let plan = |name, what, law: Vec<f64>, side| {
        let law = if n < 3 { vec![1.0] } else { law };
        SumTest::plan(name, what, &law, (side, trials), share)
    };
    vec![
        plan("valleys-low", "valleys", laws::valleys(n), Side::Low),
        plan("valleys", "valleys", laws::valleys(n), Side::Both),
        plan(
            "rising-low",
            "rising sequences",
            laws::rising_sequences(n),
            Side::Low,
        ),
        plan(
            "guessing",
            "cards guessed right",
            laws::guesses(n),
            Side::High,
        ),
    ]
}

/// Runs every applicable test on the counts ([`Evaluator`] planned for
/// them). O(n² + n! + T log T) time, plus the exact laws (at most 2·10⁶
/// outcomes each).
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
    Evaluator::new(t.n, t.trials, alpha).evaluate(t, alpha)
}

fn birthday(t: &Tally, prints: &[u128]) -> Result<TestResult, String> {
    if t.n < MIN_N_FOR_BIRTHDAY {
        return Err("the permutations test covers n <= 8".into());
    }
    let pairs_possible = t.trials as f64 * (t.trials as f64 - 1.0) / 2.0;
    let log_lambda = pairs_possible.ln() - ln_factorial(t.n);
    if log_lambda > 0.0 || t.trials < 2 {
        return Err("too many trials for this n: duplicates are expected".into());
    }
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
        method: Method::Poisson,
        law: "duplicate decks".into(),
    })
}

/// ln(n!), O(1) (a degenerate input has k = C(T, 2) duplicate pairs, and
/// the Poisson tail needs ln k! for 60 values of k from there).
fn ln_factorial(n: usize) -> f64 {
    statrs::function::gamma::ln_gamma(n as f64 + 1.0)
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
