//! The audit's request: what to audit and what to ask of the verdict,
//! and its validation (one set of rules for every front end).

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::estimates;
use fairdeck_audit::stats::gof::MAX_TESTS;
use fairdeck_audit::stats::power::Effect;
use fairdeck_audit::stats::tails::CHI_SQUARE_FACTOR;
use fairdeck_audit::stats::verdict::{self, Ask};
use fairdeck_audit::stats::{self, MAX_N, MAX_TRIALS, equivalence};
use serde::Deserialize;

use crate::input::LogRequest;
use crate::random::RandomRequest;
use crate::{Field, budget, message, refuse};

/// What to audit and what to ask of the verdict. The defaults are the CLI's.
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    /// The algorithm, by its catalogue name (none when judging read permutations).
    #[serde(rename = "alg", default)]
    pub algorithm: Option<String>,
    /// Items per shuffle.
    #[serde(default = "fifty_two")]
    pub n: usize,
    /// Number of shuffles.
    #[serde(default = "hundred_thousand")]
    pub trials: u64,
    /// Family-wise false-alarm rate.
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Also report the shuffles that would catch a card × position bias of this size.
    #[serde(default)]
    pub detect: Option<f64>,
    /// Equivalence mode: say "uniform within" only when every card ×
    /// position probability is shown to lie in 1/n ± this.
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Simultaneous confidence of the tolerance intervals.
    #[serde(default = "default_confidence")]
    pub confidence: f64,
    /// With a tolerance: run in rounds, doubling the shuffles, until decided.
    #[serde(default)]
    pub until_decided: bool,
    /// Add the card × position counts to the report (`positions[card][pos]`).
    #[serde(default)]
    pub positions: bool,
    /// Run even when the work is over the budget.
    #[serde(skip)]
    pub allow_long: bool,
    /// The key and generator of the simulated shuffles.
    #[serde(flatten)]
    pub random: RandomRequest,
    /// How a log of decks is read (`base`, `order`), when one is audited.
    #[serde(flatten)]
    pub log: LogRequest,
}

/// The CLI's default `-n`.
pub const DEFAULT_N: usize = 52;
/// The CLI's default `--trials`.
pub const DEFAULT_TRIALS: u64 = 100_000;
/// The CLI's default `--confidence`.
pub const DEFAULT_CONFIDENCE: f64 = 0.999;

fn fifty_two() -> usize {
    DEFAULT_N
}

fn hundred_thousand() -> u64 {
    DEFAULT_TRIALS
}

fn default_alpha() -> f64 {
    stats::DEFAULT_ALPHA
}

fn default_confidence() -> f64 {
    DEFAULT_CONFIDENCE
}

impl Request {
    /// Checks the verdict's parameters that do not depend on the
    /// permutations' size (common to simulated and read permutations; a
    /// front end may call it before reading any): alpha in (0, 1) with every
    /// test's share representable ([`stats::check_alpha`]), detect,
    /// tolerance and confidence in (0, 1), `until_decided` only with a
    /// tolerance and an algorithm to draw more shuffles from.
    ///
    /// # Errors
    ///
    /// A [`crate::RequestError`] naming the parameter at fault.
    pub fn validate_verdict(&self) -> crate::Result<()> {
        let open = |x: f64| x > 0.0 && x < 1.0;
        stats::check_alpha(self.alpha)
            .map_err(|e| refuse(Field::Alpha, message![Field::Alpha, ": ", why(&e)]))?;
        if self.detect.is_some_and(|d| !open(d)) {
            return Err(refuse(
                Field::Detect,
                message![Field::Detect, " must be between 0 and 1 (exclusive)"],
            ));
        }
        if self.tolerance.is_some_and(|e| !open(e)) {
            return Err(refuse(
                Field::Tolerance,
                message![Field::Tolerance, " must be between 0 and 1 (exclusive)"],
            ));
        }
        if !open(self.confidence) {
            return Err(refuse(
                Field::Confidence,
                message![Field::Confidence, " must be between 0 and 1 (exclusive)"],
            ));
        }
        if self.until_decided && self.tolerance.is_none() {
            return Err(refuse(
                Field::UntilDecided,
                message![Field::UntilDecided, " needs ", Field::Tolerance],
            ));
        }
        if self.until_decided && self.algorithm.is_none() {
            return Err(refuse(
                Field::UntilDecided,
                message![
                    Field::UntilDecided,
                    " draws more shuffles: give an algorithm, not ",
                    Field::Input
                ],
            ));
        }
        Ok(())
    }

    /// Checks the verdict's parameters for permutations of `n` items:
    /// [`Request::validate_verdict`], and a tolerance that says something
    /// about `n` cards ([`equivalence::check_tolerance`]: one at or above
    /// 1 − 1/n is met by every shuffle).
    ///
    /// # Errors
    ///
    /// A [`crate::RequestError`] naming the parameter at fault.
    pub fn validate_for(&self, n: usize) -> crate::Result<()> {
        self.validate_verdict()?;
        if let Some(d) = self.detect
            && needed_for(n, d, self.alpha) > MOST_NEEDED
        {
            return Err(refuse(
                Field::Detect,
                message![
                    Field::Detect,
                    format!(" {d:e} is too small a bias to plan for at "),
                    Field::N,
                    format!(" {n}: catching it would take more than {MOST_NEEDED:.0e} shuffles"),
                ],
            ));
        }
        if let Some(eps) = self.tolerance {
            equivalence::check_tolerance(n, eps)
                .map_err(|e| refuse(Field::Tolerance, message![Field::Tolerance, ": ", why(&e)]))?;
        }
        Ok(())
    }

    /// The one place a simulated audit's limits live: the algorithm, n,
    /// trials, the verdict's parameters, and the work budget.
    ///
    /// # Errors
    ///
    /// What [`Request::validate_verdict`] refuses, an unknown or missing
    /// algorithm, n or trials out of range, a run over the work budget.
    pub fn validate(&self) -> crate::Result<Algorithm> {
        self.validate_verdict()?;
        let name = self.algorithm.as_deref().unwrap_or_default();
        let alg: Algorithm =
            (name.parse()).map_err(|e: fairdeck::Error| refuse(Field::Alg, e.to_string()))?;
        if !(2..=MAX_N).contains(&self.n) {
            return Err(refuse(
                Field::N,
                message![Field::N, format!(" must be between 2 and {MAX_N}")],
            ));
        }
        if !(1..=MAX_TRIALS).contains(&self.trials) {
            return Err(refuse(
                Field::Trials,
                message![
                    Field::Trials,
                    format!(" must be between 1 and {MAX_TRIALS}")
                ],
            ));
        }
        self.validate_for(self.n)?;
        let (n, trials) = (self.n, self.trials);
        let steps = estimates::audit_steps(alg, n, trials);
        budget::check(self.allow_long, Field::Trials, steps, |steps| {
            let most = estimates::largest(MAX_TRIALS, steps, |t| estimates::audit_steps(alg, n, t));
            let name = alg.name();
            message![
                Field::Trials,
                format!(" at most {most} for {name} at "),
                Field::N,
                format!(" {n}")
            ]
        })?;
        self.check_decidable(alg)?;
        Ok(alg)
    }

    /// The shuffles the last round of a run until decided can reach (the
    /// whole run's count; the request's trials for a single run), and
    /// that round's number (1 for a single run).
    pub fn reachable(&self, alg: Algorithm) -> (u64, u32) {
        let (mut trials, mut rounds) = (self.trials, 1);
        while self.until_decided && self.fits(alg, 2 * trials) {
            (trials, rounds) = (2 * trials, rounds + 1);
        }
        (trials, rounds)
    }

    /// Refuses a run until decided that its own plan says cannot decide:
    /// the shuffles [`equivalence::planned_trials`] asks for at the last
    /// round's confidence are more than the rounds can reach.
    fn check_decidable(&self, alg: Algorithm) -> crate::Result<()> {
        let (Some(eps), true) = (self.tolerance, self.until_decided) else {
            return Ok(());
        };
        let (most, rounds) = self.reachable(alg);
        let (_, confidence) = verdict::spending(rounds, self.alpha, self.confidence);
        let planned = equivalence::planned_trials(self.n, eps, confidence);
        if planned <= most {
            return Ok(());
        }
        let n = self.n;
        let mut m = message![
            Field::Tolerance,
            format!(" {eps} at "),
            Field::N,
            format!(
                " {n} needs about {:.2e} shuffles by the plan, ",
                planned as f64
            ),
            format!("more than the {most} the rounds can reach"),
        ];
        if !self.allow_long {
            m.append(message![" in the work budget"]);
            m.append(message![message![" (", Field::AllowLong, " lifts it)"]]);
        }
        m.append(message![": give a larger ", Field::Tolerance]);
        Err(refuse(Field::Tolerance, m))
    }

    /// What to ask of the verdict at round `round` (0 for a single run; from
    /// 1 in a run until decided), and that round's alpha.
    pub(super) fn ask(&self, round: u32) -> (Ask, f64) {
        let (alpha, confidence) = if round == 0 {
            (self.alpha, self.confidence)
        } else {
            verdict::spending(round, self.alpha, self.confidence)
        };
        let ask = Ask {
            detect: self.detect,
            tolerance: self.tolerance.map(|e| (e, confidence)),
        };
        (ask, alpha)
    }

    /// `true` when a run of `trials` shuffles is within the limits and the
    /// work budget (or a long run is allowed).
    pub(super) fn fits(&self, alg: Algorithm, trials: u64) -> bool {
        trials <= MAX_TRIALS
            && (self.allow_long
                || estimates::audit_steps(alg, self.n, trials) <= estimates::DEFAULT_STEPS)
    }
}
/// The most shuffles `--detect` is answered with (10¹⁸; beyond, the
/// figure would not fit the report's integer, and no run could be made).
pub const MOST_NEEDED: u64 = 1_000_000_000_000_000_000;

/// About the shuffles the card × position test needs to catch a bias `d`
/// at -n `n` (at the smallest per-test share of `alpha`, so at least what
/// the report will say); saturates at `u64::MAX`.
fn needed_for(n: usize, d: f64, alpha: f64) -> u64 {
    let dof = ((n - 1) * (n - 1)) as f64;
    let tail = alpha / MAX_TESTS as f64 / CHI_SQUARE_FACTOR;
    Effect::CardPosition.trials_needed(n, d, dof, tail)
}

/// The message of an audit error without its kind ("out of range: ").
fn why(e: &fairdeck_audit::Error) -> String {
    match e {
        fairdeck_audit::Error::OutOfRange(why) => why.clone(),
        other => other.to_string(),
    }
}
