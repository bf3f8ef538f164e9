//! `fairdeck audit`: a statistical audit of a catalogue algorithm, or of
//! permutations produced by any other program (`--input`).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use fairdeck_audit::stats::{self, Tally, equivalence};
use fairdeck_report::audit::{self, Report, Request};
use fairdeck_report::input::LogRequest;

use super::audit_verdict::{VerdictArgs, WriteSummary};

use crate::limits::LongArgs;
use crate::output::{Format, Output, PlotFile};
use crate::random::RandomArgs;

use fairdeck_audit::plot::{self, MAX_HEATMAP_SIDE};

/// Flags of `fairdeck audit`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Tests: card x position chi-square, all n! orders (n <= 8), fixed points,\n\
cycles, rising sequences, successions, duplicate decks (birthday), the most\n\
repeated order, and the machines' statistics: valleys (shelf shufflers, one- and\n\
two-sided), too few rising sequences (riffles), cards guessed right. Verdict at a\n\
family-wise false-alarm rate --alpha (Bonferroni over the tests run):\n\
BIASED (a test rejected), NO BIAS DETECTED (with the smallest bias the run would\n\
have caught), or with --tolerance EPS: UNIFORM WITHIN EPS / UNDECIDED.\n\
Examples:\n  fairdeck audit naive-swap -n 52 --trials 100000 --seed demo\n  \
fairdeck audit fisher-yates -n 8 --tolerance 0.01 --until-decided\n  \
my-shuffler | fairdeck audit --input -\n  \
fairdeck audit --input machine.log --order standard"
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
    #[arg(short, long, value_name = "N", default_value_t = audit::DEFAULT_N)]
    pub n: usize,

    /// Number of shuffles.
    #[arg(long, short, value_name = "T", default_value_t = audit::DEFAULT_TRIALS)]
    pub trials: u64,

    /// Family-wise false-alarm rate.
    #[arg(long, value_name = "A", allow_negative_numbers = true, default_value_t = stats::DEFAULT_ALPHA)]
    pub alpha: f64,

    /// Read decks, one per line, from FILE or - (stdin): integers (a
    /// permutation) or card names (AS, As, TS, 10S, A♠, 10♠).
    #[arg(long, value_name = "FILE")]
    pub input: Option<std::path::PathBuf>,

    /// Numbering of --input: 0 or 1 (default: detected from the first line).
    #[arg(long, value_name = "B", requires = "input")]
    pub base: Option<usize>,

    /// The order the cards went into the machine, numbering a log of card
    /// names: standard, piquet, italian, jokers, or the cards ("AS,2S,...").
    /// Default: the standard deck, hearts diamonds clubs spades, each A to K.
    #[arg(long, value_name = "ORDER", requires = "input")]
    pub order: Option<String>,

    /// Draw the card x position deviation heatmap (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,

    /// Add the card x position counts to the JSON (`positions[card][pos]`),
    /// as the web page's audit answer has them.
    #[arg(long)]
    pub positions: bool,

    #[command(flatten)]
    pub verdict: VerdictArgs,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

/// Runs `fairdeck audit`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let request = args.request();
    request.validate_verdict()?;
    let plot_file = args.plot.as_deref().map(PlotFile::open).transpose()?;
    let (report, tally) = match &args.input {
        Some(path) => {
            let tally = super::audit_input::read(path, &request.log)?;
            let source = format!("input {}", path.display());
            (audit::judge(&request, source, None, &tally)?, tally)
        }
        None => {
            let alg = request.validate()?;
            let random = request.random.randomness()?;
            let progress = Progress::new(request.reachable(alg).0);
            let tick = |done: u64| progress.add(done);
            let (report, tally) = audit::run(&request, &random, &tick)?;
            progress.finish();
            (report, tally)
        }
    };
    if let Some(file) = plot_file {
        plot(file, &tally, &report)?;
    }
    print(&report, out)
}

impl Args {
    /// The flags as an audit request (the report layer validates it).
    pub fn request(&self) -> Request {
        Request {
            algorithm: self.algorithm.clone(),
            n: self.n,
            trials: self.trials,
            alpha: self.alpha,
            detect: self.verdict.detect,
            tolerance: self.verdict.tolerance,
            confidence: self.verdict.confidence,
            until_decided: self.verdict.until_decided,
            positions: self.positions,
            allow_long: self.long.allow_long,
            random: self.random.request(),
            log: LogRequest {
                base: self.base,
                order: self.order.clone(),
            },
        }
    }
}

/// Progress of the shuffles on stderr: a bar sized to the whole run (all
/// rounds of a run until decided) on a terminal; elsewhere (a log, CI) a
/// line every [`Progress::EVERY`] (or `FAIRDECK_PROGRESS_SECONDS`), the
/// first after that long.
enum Progress {
    Bar(indicatif::ProgressBar),
    Lines {
        total: u64,
        every: std::time::Duration,
        state: std::sync::Mutex<(u64, std::time::Instant)>,
    },
}

impl Progress {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    fn new(total: u64) -> Self {
        if !std::io::stderr().is_terminal() {
            let state = std::sync::Mutex::new((0, std::time::Instant::now()));
            let every = line_interval(std::env::var("FAIRDECK_PROGRESS_SECONDS").ok().as_deref());
            return Progress::Lines {
                total,
                every,
                state,
            };
        }
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} shuffles {eta}")
        {
            bar.set_style(style);
        }
        Progress::Bar(bar)
    }

    /// Counts `done` more shuffles (from any thread).
    fn add(&self, done: u64) {
        match self {
            Progress::Bar(bar) => bar.inc(done),
            Progress::Lines {
                total,
                every,
                state,
            } => {
                let Ok(mut state) = state.lock() else { return };
                state.0 += done;
                if state.1.elapsed() >= *every {
                    state.1 = std::time::Instant::now();
                    crate::failure::note(format_args!(
                        "audit: {} of at most {total} shuffles",
                        state.0
                    ));
                }
            }
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// Seconds between progress lines off a terminal: `FAIRDECK_PROGRESS_SECONDS`
/// when it is a number of seconds from 0 to a day, else [`Progress::EVERY`].
fn line_interval(setting: Option<&str>) -> std::time::Duration {
    setting
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| (0.0..=86_400.0).contains(s))
        .map_or(Progress::EVERY, std::time::Duration::from_secs_f64)
}

/// Draws the heatmap (above [`MAX_HEATMAP_SIDE`] cards in blocks, which a
/// note on stderr and the picture's title say) and below it the histograms
/// of rising sequences and valleys, with the estimated machine's curve.
fn plot(file: PlotFile, tally: &Tally, report: &Report) -> anyhow::Result<()> {
    let source = &report.source;
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
    let heatmap = plot::heatmap(tally.n, &tally.positions, tally.trials, 0.5, &title)?;
    let fitted = report.estimate.as_ref().and_then(|e| {
        let (family, value) = (e.family?, e.value?);
        plot::Fitted::of(family, value, tally.n)
    });
    let title = format!("{source}: decks by rising sequences and by valleys");
    let histograms = plot::histograms(tally, fitted.as_ref(), &title)?;
    file.write(&plot::stack(&[&heatmap, &histograms])?)
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
        "{:<18} {:>14} {:>8} {:>12}  {:<18}  result  law tested",
        "test", "statistic", "dof", "p-value", "p-value from"
    )?;
    for t in &r.tests {
        let dof = t.dof.map_or("-".to_string(), |d| format!("{d}"));
        let result = if t.passed { "pass" } else { "FAIL" };
        writeln!(
            w,
            "{:<18} {:>14.2} {:>8} {:>12.3e}  {:<18}  {result:<6}  {}",
            t.name, t.statistic, dof, t.p_value, t.method, t.law
        )?;
    }
    for s in &r.skipped {
        writeln!(w, "{:<18} skipped: {}", s.name, s.reason)?;
    }
    if let Some(g) = &r.guessing {
        writeln!(w, "card guessing: {}", g.sentence())?;
    }
    if let Some(e) = &r.estimate {
        writeln!(w, "model estimate: {}", e.sentence)?;
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
    if let Some(e) = &r.verdict.equivalence
        && equivalence::allows_unreachable_cells(r.n, e.tolerance)
    {
        writeln!(
            w,
            "note: a tolerance of {} is at least 1/n = {:.4}: it lets a card never reach a \
             position, so it is met by shuffles that never produce many orders",
            e.tolerance,
            1.0 / r.n as f64
        )?;
    }
    if !r.failed.is_empty() {
        writeln!(w, "failed: {}", r.failed.join(", "))?;
    }
    if let Some(seed) = &r.seed {
        writeln!(w, "seed: {seed}")?;
    }
    Ok(ExitCode::SUCCESS)
}
