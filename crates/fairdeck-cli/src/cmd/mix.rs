//! `fairdeck mix MODEL -n N`: how many hand shuffles make a deck random.

use std::io::Write;
use std::process::ExitCode;

use fairdeck_audit::budget;
use fairdeck_audit::mix::{self, Model};
use fairdeck_audit::stats::MAX_TRIALS;
use num_traits::ToPrimitive;
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output, PlotFile};
use crate::random::RandomArgs;

/// Flags of `fairdeck mix`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Models: riffle (Gilbert-Shannon-Reeds, exact for any n), top-to-random,\n\
overhand (Pemantle's model: each gap breaks with probability 1/M).\n\
For n <= 7 every model is exact; otherwise top-to-random and overhand give a simulated\n\
lower bound (one statistic's distance, with its sampling error) and top-to-random an\n\
exact upper bound (strong uniform time).\n\
Example: fairdeck mix riffle -n 52"
)]
pub struct Args {
    /// riffle, top-to-random or overhand.
    #[arg(value_name = "MODEL")]
    pub model: String,

    /// Cards in the deck.
    #[arg(short, long, value_name = "N", default_value_t = 52)]
    pub n: usize,

    /// Largest number of shuffles shown (default: 12 riffles, 3·n·H(n)
    /// top-to-random moves, 4·n overhand shuffles).
    #[arg(long, value_name = "K")]
    pub max_shuffles: Option<u32>,

    /// Rows shown: every S shuffles (default: 1 for riffle, K/20 otherwise).
    #[arg(long, value_name = "S")]
    pub step: Option<u32>,

    /// Mean packet size M of the overhand model.
    #[arg(long, value_name = "M", default_value_t = 6)]
    pub mean_packet: u64,

    /// Simulated decks per row for the lower bound (at most 10^7).
    #[arg(long, value_name = "T", default_value_t = 4000)]
    pub trials: u64,

    /// Draw the curve as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

#[derive(Serialize, Clone, Copy)]
struct Row {
    shuffles: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_variation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<f64>,
    /// The simulated point's band and noise floor (`mix::Estimate`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    band: Option<Band>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper_bound: Option<f64>,
}

/// A simulated row's uncertainty: the band that holds the statistic's true
/// distance at `mix::BAND_CONFIDENCE`, the value a uniform deck would show,
/// and whether the band stays above 0 (`resolved`: the deck is shown to be
/// at least `band_low` from uniform; otherwise the point is noise).
#[derive(Serialize, Clone, Copy)]
struct Band {
    band_low: f64,
    band_high: f64,
    noise_floor: f64,
    resolved: bool,
}

/// What `fairdeck mix --format json` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    model: &'static str,
    n: usize,
    method: &'static str,
    rows: Vec<Row>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
}

fn parse_model(name: &str, mean_packet: u64) -> anyhow::Result<Model> {
    match name {
        "riffle" | "gsr" => Ok(Model::Riffle),
        "top-to-random" => Ok(Model::TopToRandom),
        "overhand" if mean_packet >= 1 => Ok(Model::Overhand { mean_packet }),
        "overhand" => Err(usage("--mean-packet must be at least 1")),
        other => Err(usage(format!(
            "unknown model {other:?} (known: riffle, top-to-random, overhand)"
        ))),
    }
}

/// Runs `fairdeck mix`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let plot_file = args.plot.as_deref().map(PlotFile::open).transpose()?;
    let report = report(args)?;
    if let Some(file) = plot_file {
        plot(file, &report)?;
    }
    print(&report, out)
}

/// Builds what `--format json` prints (the web page's `/api/mix`).
///
/// # Errors
///
/// Unknown model, flags out of range (usage errors).
pub(crate) fn report(args: &Args) -> anyhow::Result<Report> {
    let (model, k_max, ks) = plan(args)?;
    let n = args.n;
    Ok(if model == Model::Riffle && n > mix::MAX_EXACT_N {
        riffle_rows(n, &ks)
    } else if n <= mix::MAX_EXACT_N {
        exact_rows(model, n, k_max, &ks)?
    } else {
        simulated_rows(model, n, &ks, args)?
    })
}

/// The model, the largest number of shuffles, and the numbers of shuffles
/// shown, after checking the flags and the work budget.
///
/// # Errors
///
/// Unknown model, flags out of range, a run over the work budget without
/// `--allow-long` (usage errors).
pub(crate) fn plan(args: &Args) -> anyhow::Result<(Model, u32, Vec<u32>)> {
    let model = parse_model(&args.model, args.mean_packet)?;
    let n = args.n;
    if !(2..=10_000).contains(&n) {
        return Err(usage("-n must be between 2 and 10000"));
    }
    let (k_max, ks) = shuffle_counts(model, n, args);
    if k_max == 0 || k_max > 1_000_000 || !(1..=MAX_TRIALS).contains(&args.trials) {
        return Err(usage(format!(
            "--max-shuffles must be 1..=1000000 and --trials 1..={MAX_TRIALS}"
        )));
    }
    check_work(model, n, &ks, args)?;
    Ok((model, k_max, ks))
}

/// The largest number of shuffles and the rows shown, from the flags or
/// the model's defaults for `n` cards.
fn shuffle_counts(model: Model, n: usize, args: &Args) -> (u32, Vec<u32>) {
    let harmonic: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
    let k_max = args.max_shuffles.unwrap_or(match model {
        Model::Riffle => 12,
        Model::TopToRandom => (3.0 * n as f64 * harmonic).ceil() as u32,
        Model::Overhand { .. } => (4 * n).min(100_000) as u32,
    });
    let default_step = if model == Model::Riffle {
        1
    } else {
        (k_max / 20).max(1)
    };
    let step = args.step.unwrap_or(default_step).max(1);
    let ks = (1..=k_max.min(1_000_000))
        .filter(|k| k % step == 0 || *k == 1)
        .collect();
    (k_max, ks)
}

/// Refuses a run over the work budget, saying which -n (and, where the
/// model is simulated, which --trials) would be accepted.
fn check_work(model: Model, n: usize, ks: &[u32], args: &Args) -> anyhow::Result<()> {
    let steps = budget::mix_steps(model, n, ks, args.trials);
    args.long.check(steps, |budget| {
        let most_n = budget::largest(n as u64, budget, |m| {
            let (_, ks) = shuffle_counts(model, m as usize, args);
            budget::mix_steps(model, m as usize, &ks, args.trials)
        });
        let simulated = model != Model::Riffle && n > mix::MAX_EXACT_N;
        let most_t = budget::largest(args.trials, budget, |t| budget::mix_steps(model, n, ks, t));
        let fewer_n = format!("-n at most {most_n}, or fewer --max-shuffles");
        match simulated {
            true if most_t > 0 => format!("--trials at most {most_t} at -n {n}, or {fewer_n}"),
            _ => fewer_n,
        }
    })
}

fn riffle_rows(n: usize, ks: &[u32]) -> Report {
    let rows = ks
        .iter()
        .map(|&k| Row {
            shuffles: k,
            total_variation: mix::riffle_total_variation(n, k).to_f64(),
            lower_bound: None,
            error: None,
            band: None,
            upper_bound: None,
        })
        .collect();
    Report {
        model: "riffle",
        n,
        method: "exact (Bayer-Diaconis rising sequences)",
        rows,
        seed: None,
    }
}

fn exact_rows(model: Model, n: usize, k_max: u32, ks: &[u32]) -> anyhow::Result<Report> {
    let all = mix::exact_small(model, n, k_max)?;
    let rows = ks
        .iter()
        .map(|&k| Row {
            shuffles: k,
            total_variation: Some(all[k as usize - 1]),
            lower_bound: None,
            error: None,
            band: None,
            upper_bound: None,
        })
        .collect();
    Ok(Report {
        model: model.name(),
        n,
        method: "exact (law on all n! orders)",
        rows,
        seed: None,
    })
}

fn simulated_rows(model: Model, n: usize, ks: &[u32], args: &Args) -> anyhow::Result<Report> {
    let seed = args.random.randomness()?.seed;
    let rows = ks
        .iter()
        .map(|&k| {
            let row_seed = fairdeck::rng::Seed::from_text(&format!("{}/{k}", seed.to_hex()));
            let e = mix::statistic_lower_bound(model, n, k, args.trials, &row_seed);
            Row {
                shuffles: k,
                total_variation: None,
                lower_bound: Some(e.lower_bound),
                error: Some(e.error),
                band: Some(Band {
                    band_low: e.band_low,
                    band_high: e.band_high,
                    noise_floor: e.noise_floor,
                    resolved: e.resolved(),
                }),
                upper_bound: (model == Model::TopToRandom)
                    .then(|| mix::top_to_random_separation(n, k)),
            }
        })
        .collect();
    Ok(Report {
        model: model.name(),
        n,
        method: match model {
            Model::TopToRandom => {
                "simulated lower bound (one statistic, 95% band) and exact upper bound"
            }
            _ => "simulated lower bound (one statistic, 95% band)",
        },
        rows,
        seed: Some(seed.to_hex()),
    })
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
