//! The verdict part of `fairdeck audit`: the flags that shape it
//! (`--detect`, `--tolerance`, `--confidence`, `--until-decided`), its JSON,
//! and its text. The statistics are the library's
//! ([`fairdeck_audit::stats::verdict`]).

use std::io::Write;

use fairdeck_audit::stats::power::POWER;
use fairdeck_audit::stats::verdict::{EquivalenceRow, Summary, Verdict};

use fairdeck_audit::stats::equivalence::INTERVALS;

/// Flags that shape the verdict.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct VerdictArgs {
    /// Also report how many shuffles would catch a card x position bias of D
    /// (the largest |P(card at position) - 1/n|) with probability >= 0.8.
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub detect: Option<f64>,

    /// Equivalence mode: say UNIFORM WITHIN EPS only when every card x
    /// position probability is shown to lie in 1/n +- EPS.
    #[arg(long, value_name = "EPS", allow_negative_numbers = true)]
    pub tolerance: Option<f64>,

    /// Simultaneous confidence of the --tolerance intervals.
    #[arg(
        long,
        value_name = "C",
        allow_negative_numbers = true,
        default_value_t = fairdeck_report::audit::DEFAULT_CONFIDENCE,
        requires = "tolerance"
    )]
    pub confidence: f64,

    /// With --tolerance: run in rounds, doubling the shuffles, until the
    /// verdict is BIASED or UNIFORM WITHIN EPS or the work budget is spent
    /// (alpha spending: round k runs at alpha/2^k and (1-C)/2^k).
    #[arg(long, requires = "tolerance")]
    pub until_decided: bool,
}

/// The text rendering of a [`Summary`].
pub trait WriteSummary {
    /// Writes the verdict line and what backs it. `n` is the items per
    /// permutation, `family` the line's "(family-wise …)" part.
    fn write(&self, w: &mut dyn Write, family: &str) -> std::io::Result<()>;
}

impl WriteSummary for Summary {
    fn write(&self, w: &mut dyn Write, family: &str) -> std::io::Result<()> {
        match (self.verdict, &self.equivalence) {
            ("uniform within tolerance", Some(e)) => writeln!(
                w,
                "verdict: UNIFORM WITHIN {} IN CARD x POSITION PROBABILITIES, not over the n! \
                 orders (every P(card at position) in 1/n +- {} at simultaneous confidence {}; \
                 {INTERVALS}; no test rejected at {family})",
                e.tolerance, e.tolerance, e.confidence
            ),
            (label, _) => writeln!(w, "verdict: {} ({family})", label.to_uppercase()),
        }?;
        if let Some(e) = &self.equivalence
            && !e.within
        {
            write_undecided(w, e)?;
        }
        if self.verdict == Verdict::NoBiasDetected.label() || self.verdict == "undecided" {
            write_detectable(self, w)?;
        }
        if let Some(d) = &self.detect {
            writeln!(
                w,
                "to catch a card x position bias of {} with probability >= {POWER}: {} shuffles",
                d.size, d.trials
            )?;
        }
        Ok(())
    }
}

fn write_detectable(s: &Summary, w: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        w,
        "not evidence of uniformity: this run would have caught, with probability >= {POWER}, \
         only biases at least"
    )?;
    for d in &s.detectable {
        if d.too_few {
            writeln!(w, "  {:<18} none for sure: too few shuffles", d.test)?;
        } else {
            writeln!(w, "  {:<18} {} = {:.4}", d.test, d.measure, d.size)?;
        }
    }
    writeln!(
        w,
        "  (--detect D: shuffles needed for a bias D; --tolerance EPS: a positive claim)"
    )
}

fn write_undecided(w: &mut dyn Write, e: &EquivalenceRow) -> std::io::Result<()> {
    write!(
        w,
        "card x position probabilities within {}? the {} intervals reach {:.4} from 1/n; ",
        e.tolerance, e.confidence, e.worst
    )?;
    match e.trials_needed {
        Some(t) => writeln!(w, "about {t} shuffles in all would settle it"),
        None => writeln!(
            w,
            "some cell's whole interval lies more than {} from 1/n: more shuffles will not \
             show it",
            e.tolerance
        ),
    }
}
