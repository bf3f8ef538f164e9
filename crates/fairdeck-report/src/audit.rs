//! `audit`: a statistical audit of a catalogue algorithm (simulated here)
//! or of permutations a front end read ([`judge`]): the tests, their
//! p-values, and a verdict that never claims more than the evidence.
//! The request and its rules are in `audit_request.rs`, the report in
//! `audit_report.rs`.

use fairdeck::rng::Seed;
use fairdeck_audit::stats::verdict;
use fairdeck_audit::stats::{self, Tally, run::shuffles};

use crate::estimate::Estimate;
use crate::histograms::Histograms;
use crate::random::Randomness;
use crate::{Field, refuse};

#[path = "audit_report.rs"]
mod report;
#[path = "audit_request.rs"]
mod request;

pub use report::{Report, Round, Skipped, TestRow};
pub use request::{DEFAULT_CONFIDENCE, DEFAULT_N, DEFAULT_TRIALS, MOST_NEEDED, Request};

/// The tests and the verdict on counted permutations (from `source`, e.g.
/// `input FILE`), at the request's alpha; `seed` is reported when given.
/// The request's algorithm, `n`, `trials` and key are not read (the tally
/// has its own).
///
/// # Errors
///
/// What [`Request::validate_for`] refuses at the tally's n; no
/// permutations, or permutations of fewer than 2 items (`input`).
pub fn judge(
    request: &Request,
    source: String,
    seed: Option<String>,
    tally: &Tally,
) -> crate::Result<Report> {
    if tally.trials == 0 || tally.n < 2 {
        return Err(refuse(
            Field::Input,
            "no permutations of at least 2 items to audit",
        ));
    }
    request.validate_for(tally.n)?;
    Ok(judged(request, 0, source, seed, tally))
}

fn judged(r: &Request, round: u32, source: String, seed: Option<String>, t: &Tally) -> Report {
    let (ask, alpha) = r.ask(round);
    let audit = stats::evaluate(t, alpha);
    let findings = verdict::judge(&audit, t, ask);
    let mut report = report::report(source, seed, &audit, verdict::Summary::new(&findings));
    report.estimate = Estimate::of(t);
    report.histograms = Histograms::of(t, report.estimate.as_ref());
    if r.positions {
        report.positions = Some(t.positions.chunks(t.n).map(<[u64]>::to_vec).collect());
    }
    report
}

/// Simulates and judges: one run, or rounds until decided (each round
/// doubles the shuffles; round k > 1 draws its new shuffles from the key
/// SHA-256("fairdeck-audit-round/SEED/k"), so the whole run replays from
/// SEED). `tick` is told of every shuffle done (a progress bar).
///
/// # Errors
///
/// What [`Request::validate`] refuses.
pub fn run(
    request: &Request,
    random: &Randomness,
    tick: &(dyn Fn(u64) + Sync),
) -> crate::Result<(Report, Tally)> {
    let alg = request.validate()?;
    let (source, seed) = (alg.name().to_string(), Some(random.seed.to_hex()));
    let simulate = |trials, key: &Seed| -> crate::Result<Tally> {
        let permute = |n, dice: &mut _| alg.permute(n, dice);
        Ok(shuffles(
            request.n,
            trials,
            key,
            random.generator,
            permute,
            tick,
        )?)
    };
    let mut tally = simulate(request.trials, &random.seed)?;
    if !request.until_decided {
        return Ok((judged(request, 0, source, seed, &tally), tally));
    }
    let mut rounds = Vec::new();
    for round in 1.. {
        let mut report = judged(request, round, source.clone(), seed.clone(), &tally);
        let (ask, alpha) = request.ask(round);
        rounds.push(Round {
            trials: tally.trials,
            alpha,
            confidence: ask.tolerance.map(|t| t.1),
            verdict: report.verdict.verdict,
        });
        if report.verdict.decided || !request.fits(alg, 2 * tally.trials) {
            spent_over(&mut report, rounds, request);
            return Ok((report, tally));
        }
        let key = Seed::from_text(&format!(
            "fairdeck-audit-round/{}/{}",
            random.seed.to_hex(),
            round + 1
        ));
        tally.merge(simulate(tally.trials, &key)?);
    }
    unreachable!("the rounds end when the budget is spent")
}

/// The report of a run spent over `rounds`: the false-alarm rate and the
/// intervals' confidence that hold over all of them together are the
/// requested ones (each round's own levels stay in `rounds`).
fn spent_over(report: &mut Report, rounds: Vec<Round>, request: &Request) {
    report.rounds = rounds;
    report.alpha = request.alpha;
    if let Some(e) = &mut report.verdict.equivalence {
        e.confidence = request.confidence;
    }
}
