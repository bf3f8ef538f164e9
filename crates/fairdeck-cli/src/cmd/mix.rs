//! `fairdeck mix MODEL -n N`: how many hand shuffles make a deck random.
//!
//! The work is bounded up front: the report layer refuses a run whose
//! estimated steps (`fairdeck_audit::estimates::mix_steps`) are over the
//! budget of 10^10 (about a minute) unless `--allow-long` is given. A run
//! that takes a while shows on stderr that it is alive ([`heartbeat`]): a
//! spinner on a terminal, otherwise a plain line every few seconds.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use fairdeck_audit::estimates::{DEFAULT_STEPS, mix_steps};

use fairdeck_report::mix::{
    self, DEFAULT_MEAN_PACKET, DEFAULT_N, DEFAULT_TRIALS, Report, Request, Row,
};

use crate::limits::LongArgs;
use crate::output::{Format, Output, PlotFile};
use crate::random::RandomArgs;

/// Flags of `fairdeck mix`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Models: riffle (Gilbert-Shannon-Reeds, exact for any n), top-to-random,\n\
overhand (Pemantle's model: each gap breaks with probability 1/M), shelf (the\n\
Diaconis-Fulman-Holmes shelf machine: exact, one and two passes per number of shelves).\n\
For n <= 7 every model is exact; otherwise top-to-random and overhand give a simulated\n\
lower bound (one statistic's distance, with its sampling error) and top-to-random an\n\
exact upper bound (strong uniform time).\n\
Examples: fairdeck mix riffle -n 52\n  fairdeck mix shelf -n 52 --max-shelves 12"
)]
pub struct Args {
    /// riffle, top-to-random, overhand or shelf.
    #[arg(value_name = "MODEL")]
    pub model: String,

    /// Cards in the deck.
    #[arg(short, long, value_name = "N", default_value_t = DEFAULT_N)]
    pub n: usize,

    /// Largest number of shuffles shown (default: 12 riffles, 3·n·H(n)
    /// top-to-random moves, 4·n overhand shuffles).
    #[arg(long, value_name = "K")]
    pub max_shuffles: Option<u32>,

    /// Rows shown: every S shuffles (default: 1 for riffle, K/20 otherwise).
    #[arg(long, value_name = "S")]
    pub step: Option<u32>,

    /// Mean packet size M of the overhand model.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MEAN_PACKET)]
    pub mean_packet: u64,

    /// Simulated decks per row for the lower bound (at most 10^7).
    #[arg(long, value_name = "T", default_value_t = DEFAULT_TRIALS)]
    pub trials: u64,

    /// shelf: the largest number of shelves shown (default 20).
    #[arg(long, value_name = "M")]
    pub max_shelves: Option<u64>,

    /// Print N decks from the model instead (one per line, top first; card
    /// names at 52 cards), to rehearse an audit: ... | fairdeck audit --input -
    #[arg(long, value_name = "N")]
    pub decks: Option<u64>,

    /// With --decks: the shuffles each deck gets (default 1).
    #[arg(long, value_name = "K", requires = "decks")]
    pub shuffles: Option<u32>,

    /// With --decks, shelf: the machine's shelves (default 10).
    #[arg(long, value_name = "M", requires = "decks")]
    pub shelves: Option<u64>,

    /// With --decks, shelf: passes through the machine (default 1).
    #[arg(long, value_name = "P", requires = "decks")]
    pub passes: Option<u32>,

    /// Draw the curve as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

/// Runs `fairdeck mix`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    if args.decks.is_some() {
        return decks(args, out);
    }
    if args.model == "shelf" {
        return shelf(args, out);
    }
    let plot_file = args.plot.as_deref().map(PlotFile::open).transpose()?;
    let random = args.random.randomness()?;
    let request = args.request();
    let plan = request.validate()?;
    let steps = mix_steps(plan.model, request.n, &plan.ks, request.trials);
    let report = heartbeat(&working(steps), || mix::run(&request, &random))?;
    if let Some(file) = plot_file {
        plot(file, &report)?;
    }
    print(&report, out)
}

impl Args {
    /// The flags as a mixing request (the report layer validates it).
    pub fn request(&self) -> Request {
        Request {
            model: self.model.clone(),
            n: self.n,
            max_shuffles: self.max_shuffles,
            step: self.step,
            mean_packet: self.mean_packet,
            trials: self.trials,
            max_shelves: self.max_shelves,
            decks: self.decks,
            shuffles: self.shuffles,
            shelves: self.shelves,
            passes: self.passes,
            allow_long: self.long.allow_long,
            random: self.random.request(),
        }
    }
}

/// What the progress line says besides the time: the estimated work and
/// the budget it was checked against (never a guess at the time left).
fn working(steps: u64) -> String {
    let over = match steps > DEFAULT_STEPS {
        true => "over",
        false => "within",
    };
    format!(
        "estimated {steps:.1e} steps, {over} the budget of {DEFAULT_STEPS:.1e} (about a minute)"
    )
}

/// Seconds between progress lines off a terminal (default 5; the hidden
/// `FAIRDECK_PROGRESS_SECONDS` sets it, for the tests).
fn progress_interval() -> Duration {
    std::env::var("FAIRDECK_PROGRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .filter(|d| !d.is_zero())
        .unwrap_or(Duration::from_secs(5))
}

/// Runs `work` while another thread shows that it is alive: on a terminal
/// a spinner with the elapsed time from the first second on, otherwise
/// `fairdeck: mix: working for N s; WHAT` every [`progress_interval`]. A
/// run shorter than that shows nothing. Cleared or silent when `work` ends.
fn heartbeat<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || match std::io::stderr().is_terminal() {
            true => spin(what, &finished),
            false => beat(what, &finished, progress_interval()),
        });
        let result = work();
        drop(done);
        result
    })
}

/// Off a terminal: one plain line every `interval` until `finished`.
fn beat(what: &str, finished: &mpsc::Receiver<()>, interval: Duration) {
    let start = Instant::now();
    while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(interval) {
        let seconds = start.elapsed().as_secs_f64();
        crate::failure::note(format_args!("mix: working for {seconds:.0} s; {what}"));
    }
}

/// On a terminal: a spinner after the first second, cleared at the end.
fn spin(what: &str, finished: &mpsc::Receiver<()>) {
    if finished.recv_timeout(Duration::from_secs(1)) != Err(RecvTimeoutError::Timeout) {
        return;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} mix: {elapsed}; {msg}") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    let _ = finished.recv();
    bar.finish_and_clear();
}

fn plot(file: PlotFile, r: &Report) -> anyhow::Result<()> {
    let mut series = Vec::new();
    let pick = |f: fn(&Row) -> Option<f64>| -> Vec<(u32, f64)> {
        r.rows
            .iter()
            .filter_map(|row| f(row).map(|v| (row.shuffles, v)))
            .collect()
    };
    for (name, f) in [
        (
            "total variation",
            (|row: &Row| row.total_variation) as fn(&Row) -> Option<f64>,
        ),
        ("lower bound", |row: &Row| row.lower_bound),
        ("95% band, low", |row: &Row| row.band.map(|b| b.band_low)),
        ("95% band, high", |row: &Row| row.band.map(|b| b.band_high)),
        ("noise floor", |row: &Row| row.band.map(|b| b.noise_floor)),
        ("upper bound", |row: &Row| row.upper_bound),
    ] {
        let points = pick(f);
        if !points.is_empty() {
            series.push((name.to_string(), points));
        }
    }
    let title = format!("{} shuffles of {} cards", r.model, r.n);
    file.write(&fairdeck_audit::plot::curves(&title, &series)?)
}

/// `fairdeck mix MODEL --decks N`: the decks, after a `# ` line naming the
/// model and the seed (the audit's reader skips it).
fn decks(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let random = args.random.randomness()?;
    let r = fairdeck_report::rehearsal::decks(&args.request(), &random)?;
    if out.format() == Format::Json {
        out.json(&r)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(
        w,
        "# {} decks of {} cards: {}; seed: {}",
        r.decks.len(),
        r.n,
        r.model,
        r.seed
    )?;
    for deck in &r.decks {
        writeln!(w, "{}", deck.join(" "))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `fairdeck mix shelf`: the exact table, one pass then two per number of
/// shelves.
fn shelf(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let r = mix::shelf(&args.request())?;
    if out.format() == Format::Json {
        out.json(&r)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(w, "shelf machine, {} cards — {}", r.n, r.method)?;
    writeln!(
        w,
        "{:>8}  {:>12}  {:>12}",
        "shelves", "one pass", "two passes"
    )?;
    let half = r.rows.len() / 2;
    for (one, two) in r.rows[..half].iter().zip(&r.rows[half..]) {
        writeln!(
            w,
            "{:>8}  {:>12.4}  {:>12.4}",
            one.shelves, one.total_variation, two.total_variation
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print(r: &Report, out: &mut Output) -> anyhow::Result<ExitCode> {
    if out.format() == Format::Json {
        out.json(r)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(w, "{} shuffles of {} cards — {}", r.model, r.n, r.method)?;
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.4}"));
    writeln!(
        w,
        "{:>8}  {:>10}  {:>32}  {:>10}",
        "k", "distance", "lower bound [95% band]", "upper"
    )?;
    let mut noisy = 0;
    for row in &r.rows {
        let lower = match (row.lower_bound, row.band) {
            (Some(l), Some(b)) => {
                noisy += usize::from(!b.resolved);
                let mark = if b.resolved { "" } else { " noise" };
                format!("{l:.4} [{:.4}, {:.4}]{mark}", b.band_low, b.band_high)
            }
            _ => "-".into(),
        };
        writeln!(
            w,
            "{:>8}  {:>10}  {:>32}  {:>10}",
            row.shuffles,
            cell(row.total_variation),
            lower,
            cell(row.upper_bound)
        )?;
    }
    if let Some(floor) = r
        .rows
        .iter()
        .find_map(|row| row.band.map(|b| b.noise_floor))
    {
        writeln!(
            w,
            "noise floor: {floor:.4} (what a perfectly shuffled deck shows at these trials)"
        )?;
    }
    if noisy > 0 {
        writeln!(
            w,
            "{noisy} row(s) marked noise: the band reaches 0, so these trials cannot tell the deck \
             from a shuffled one; this does not say it is mixed (more --trials narrow the band)"
        )?;
    }
    if let Some(seed) = &r.seed {
        writeln!(w, "seed: {seed}")?;
    }
    Ok(ExitCode::SUCCESS)
}
