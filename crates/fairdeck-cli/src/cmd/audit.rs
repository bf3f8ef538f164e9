//! `fairdeck audit`: a statistical audit of a catalogue algorithm, or of
//! permutations produced by any other program (`--input`).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use fairdeck::algorithms::Algorithm;
use fairdeck::rng::Seed;
use fairdeck_audit::stats::verdict::judge;
use fairdeck_audit::stats::{self, Audit, Tally, run::shuffles};
use serde::Serialize;

use super::audit_verdict::{VerdictArgs, WriteSummary};
use fairdeck_audit::stats::verdict::Summary;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output, PlotFile};
use crate::random::RandomArgs;

use fairdeck_audit::budget;
use fairdeck_audit::plot::{self, MAX_HEATMAP_SIDE};
use fairdeck_audit::stats::{MAX_N, MAX_TRIALS};

/// Flags of `fairdeck audit`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Tests: card x position chi-square, all n! orders (n <= 8), fixed points,\n\
cycles, rising sequences, successions, duplicate decks (birthday). Verdict at a\n\
family-wise false-alarm rate --alpha (Bonferroni over the tests run):\n\
BIASED (a test rejected), NO BIAS DETECTED (with the smallest bias the run would\n\
have caught), or with --tolerance EPS: UNIFORM WITHIN EPS / UNDECIDED.\n\
Examples:\n  fairdeck audit naive-swap -n 52 --trials 100000 --seed demo\n  \
fairdeck audit fisher-yates -n 8 --tolerance 0.01 --until-decided\n  \
my-shuffler | fairdeck audit --input -"
)]
pub struct Args {
    /// Algorithm to audit (see `fairdeck algorithms`); omit with --input.
    #[arg(
        value_name = "ALG",
        required_unless_present = "input",
        conflicts_with = "input"
    )]
    pub algorithm: Option<String>,

    /// Items per shuffle.
    #[arg(short, long, value_name = "N", default_value_t = 52)]
    pub n: usize,

    /// Number of shuffles.
    #[arg(long, short, value_name = "T", default_value_t = 100_000)]
    pub trials: u64,

    /// Family-wise false-alarm rate.
    #[arg(long, value_name = "A", default_value_t = stats::DEFAULT_ALPHA)]
    pub alpha: f64,

    /// Read permutations, one per line (whitespace-separated), from FILE or - (stdin).
    #[arg(long, value_name = "FILE")]
    pub input: Option<std::path::PathBuf>,

    /// Numbering of --input: 0 or 1 (default: detected from the first line).
    #[arg(long, value_name = "B", requires = "input")]
    pub base: Option<usize>,

    /// Draw the card x position deviation heatmap (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub verdict: VerdictArgs,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

#[derive(Serialize)]
struct TestRow {
    name: &'static str,
    statistic: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dof: Option<f64>,
    p_value: f64,
    passed: bool,
}

#[derive(Serialize)]
struct Skipped {
    name: &'static str,
    reason: String,
}

/// What `fairdeck audit --format json` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    source: String,
    n: usize,
    trials: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
    #[serde(flatten)]
    verdict: Summary,
    alpha: f64,
    per_test_alpha: f64,
    tests: Vec<TestRow>,
    failed: Vec<&'static str>,
    skipped: Vec<Skipped>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rounds: Vec<Round>,
}

/// One round of `--until-decided`.
#[derive(Serialize)]
struct Round {
    trials: u64,
    alpha: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    confidence: Option<f64>,
    verdict: &'static str,
}

/// Runs `fairdeck audit`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    check(args)?;
    let plot_file = args.plot.as_deref().map(PlotFile::open).transpose()?;
    let (report, tally) = match &args.input {
        Some(path) => {
            let tally = super::audit_input::read(path, args.base)?;
            if tally.trials == 0 || tally.n < 2 {
                return Err(usage("no permutations of at least 2 items to audit"));
            }
            let source = format!("input {}", path.display());
            (judged(args, 0, source, None, &tally), tally)
        }
        None => audited(args, true)?,
    };
    if let Some(file) = plot_file {
        plot(file, &tally, &report.source)?;
    }
    print(&report, out)
}

/// Audits the algorithm of `args` (never `--input`) and builds what
/// `--format json` prints (the web page's `/api/audit`), with the counts.
///
/// # Errors
///
/// Unknown algorithm, flags out of range (usage errors), no OS entropy.
pub(crate) fn simulated_report(args: &Args) -> anyhow::Result<(Report, Tally)> {
    check(args)?;
    audited(args, false)
}

fn check(args: &Args) -> anyhow::Result<()> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(usage("--alpha must be between 0 and 1"));
    }
    if args.verdict.until_decided && args.input.is_some() {
        return Err(usage(
            "--until-decided draws more shuffles: give an algorithm, not --input",
        ));
    }
    args.verdict.validate()
}

/// The tests and the verdict on `tally` at round `round` (0: a single run).
fn judged(args: &Args, round: u32, source: String, seed: Option<String>, t: &Tally) -> Report {
    let (ask, alpha) = args.verdict.ask(round, args.alpha);
    let audit = stats::evaluate(t, alpha);
    let findings = judge(&audit, t, ask);
    report(source, seed, &audit, Summary::new(&findings))
}

/// Simulates and judges: one run, or rounds until decided (each round
/// doubles the shuffles; round k > 1 draws its new shuffles from the key
/// SHA-256("fairdeck-audit-round/SEED/k"), so the whole run replays from SEED).
fn audited(args: &Args, progress: bool) -> anyhow::Result<(Report, Tally)> {
    let alg = algorithm(args)?;
    let random = args.random.randomness()?;
    let (source, seed) = (alg.name().to_string(), Some(random.seed.to_hex()));
    let mut tally = simulate(
        args,
        alg,
        args.trials,
        &random.seed,
        random.generator,
        progress,
    )?;
    if !args.verdict.until_decided {
        return Ok((judged(args, 0, source, seed, &tally), tally));
    }
    let mut rounds = Vec::new();
    for round in 1.. {
        let mut report = judged(args, round, source.clone(), seed.clone(), &tally);
        let (ask, alpha) = args.verdict.ask(round, args.alpha);
        rounds.push(Round {
            trials: tally.trials,
            alpha,
            confidence: ask.tolerance.map(|t| t.1),
            verdict: report.verdict.verdict,
        });
        if report.verdict.decided || !fits(args, alg, 2 * tally.trials) {
            report.rounds = rounds;
            report.alpha = args.alpha;
            return Ok((report, tally));
        }
        let key = Seed::from_text(&format!(
            "fairdeck-audit-round/{}/{}",
            random.seed.to_hex(),
            round + 1
        ));
        let more = simulate(args, alg, tally.trials, &key, random.generator, progress)?;
        tally.merge(more);
    }
    unreachable!("the rounds end when the budget is spent")
}

/// `true` when a run of `trials` shuffles is within the limits and the work
/// budget (or `--allow-long`).
fn fits(args: &Args, alg: Algorithm, trials: u64) -> bool {
    trials <= MAX_TRIALS
        && (args.long.allow_long
            || budget::audit_steps(alg, args.n, trials) <= budget::DEFAULT_STEPS)
}

fn algorithm(args: &Args) -> anyhow::Result<Algorithm> {
    let name = args.algorithm.as_deref().unwrap_or_default();
    let alg: Algorithm = name.parse()?;
    if !(2..=MAX_N).contains(&args.n) {
        return Err(usage(format!("-n must be between 2 and {MAX_N}")));
    }
    if !(1..=MAX_TRIALS).contains(&args.trials) {
        return Err(usage(format!(
            "--trials must be between 1 and {MAX_TRIALS}"
        )));
    }
    let (n, trials) = (args.n, args.trials);
    args.long
        .check(budget::audit_steps(alg, n, trials), |steps| {
            let most = budget::largest(MAX_TRIALS, steps, |t| budget::audit_steps(alg, n, t));
            format!("--trials at most {most} for {} at -n {n}", alg.name())
        })?;
    Ok(alg)
}

/// Runs `trials` shuffles keyed with `seed`; `progress` shows a bar on a
/// terminal's stderr.
fn simulate(
    args: &Args,
    alg: Algorithm,
    trials: u64,
    seed: &Seed,
    generator: fairdeck::rng::Generator,
    progress: bool,
) -> anyhow::Result<Tally> {
    let bar = if progress {
        progress_bar(trials)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tick = |done: u64| bar.inc(done);
    let permute = |n, dice: &mut _| alg.permute(n, dice);
    let tally = shuffles(args.n, trials, seed, generator, permute, &tick)?;
    bar.finish_and_clear();
    Ok(tally)
}

/// A progress bar on stderr, hidden unless stderr is a terminal.
fn progress_bar(total: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} shuffles {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// Draws the heatmap; above [`MAX_HEATMAP_SIDE`] cards in blocks, which a
/// note on stderr (and the picture's title) says.
fn plot(file: PlotFile, tally: &Tally, source: &str) -> anyhow::Result<()> {
    let title = format!(
        "{source}: where each card lands (n = {}, {} shuffles; red above 1/n, blue below)",
        tally.n, tally.trials
    );
    let block = plot::heatmap_block(tally.n);
    if block > 1 {
        crate::failure::note(format_args!(
            "note: --plot draws at most {MAX_HEATMAP_SIDE} × {MAX_HEATMAP_SIDE} squares: \
             each is the mean of {block} × {block} cards × positions"
        ));
    }
    file.write(&plot::heatmap(
        tally.n,
        &tally.positions,
        tally.trials,
        0.5,
        &title,
    )?)
}

fn report(source: String, seed: Option<String>, audit: &Audit, verdict: Summary) -> Report {
    let threshold = audit.threshold();
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
    }
}

fn print(r: &Report, out: &mut Output) -> anyhow::Result<ExitCode> {
    if out.format() == Format::Json {
        out.json(r)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(
        w,
        "audit of {}: n = {}, {} shuffles",
        r.source, r.n, r.trials
    )?;
    writeln!(
        w,
        "{:<18} {:>14} {:>8} {:>12}  result",
        "test", "statistic", "dof", "p-value"
    )?;
    for t in &r.tests {
        let dof = t.dof.map_or("-".to_string(), |d| format!("{d}"));
        let result = if t.passed { "pass" } else { "FAIL" };
        writeln!(
            w,
            "{:<18} {:>14.2} {:>8} {:>12.3e}  {result}",
            t.name, t.statistic, dof, t.p_value
        )?;
    }
    for s in &r.skipped {
        writeln!(w, "{:<18} skipped: {}", s.name, s.reason)?;
    }
    for round in &r.rounds {
        writeln!(
            w,
            "round: {} shuffles at alpha {:.1e}{}: {}",
            round.trials,
            round.alpha,
            round
                .confidence
                .map_or(String::new(), |c| format!(", confidence {c}")),
            round.verdict
        )?;
    }
    let family = format!(
        "family-wise false-alarm rate {:e}: each of {} tests at {:.1e}, Bonferroni{}",
        r.alpha,
        r.tests.len(),
        r.per_test_alpha,
        if r.rounds.is_empty() {
            ""
        } else {
            "; spent over rounds as alpha/2^k"
        }
    );
    r.verdict.write(w, &family)?;
    if !r.failed.is_empty() {
        writeln!(w, "failed: {}", r.failed.join(", "))?;
    }
    if let Some(seed) = &r.seed {
        writeln!(w, "seed: {seed}")?;
    }
    Ok(ExitCode::SUCCESS)
}
