//! `mix`: how many hand shuffles make a deck random — the distance from
//! uniform after k shuffles, exact where it can be, otherwise a simulated
//! lower bound with its band and noise floor.

use fairdeck_audit::estimates;
use fairdeck_audit::mix::{self, Model};
use fairdeck_audit::stats::MAX_TRIALS;
use num_traits::ToPrimitive;
use serde::{Deserialize, Serialize};

use crate::random::{RandomRequest, Randomness};
use crate::{Field, budget, message, refuse};

mod shelf;

pub use shelf::{MAX_SHELF_N, MAX_SHELVES, ShelfReport, ShelfRow, shelf};

/// Which curve to compute. The defaults are the CLI's.
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    /// riffle, top-to-random or overhand.
    pub model: String,
    /// Cards in the deck.
    #[serde(default = "fifty_two")]
    pub n: usize,
    /// Largest number of shuffles shown (default: the model's).
    #[serde(default)]
    pub max_shuffles: Option<u32>,
    /// Rows shown: every `step` shuffles (default: the model's).
    #[serde(default)]
    pub step: Option<u32>,
    /// Mean packet size of the overhand model.
    #[serde(default = "six")]
    pub mean_packet: u64,
    /// Simulated decks per row for the lower bound.
    #[serde(default = "four_thousand")]
    pub trials: u64,
    /// `shelf`: the largest number of shelves shown (default 20).
    #[serde(default)]
    pub max_shelves: Option<u64>,
    /// Print this many decks from the model instead of the curve
    /// ([`crate::rehearsal`]).
    #[serde(default)]
    pub decks: Option<u64>,
    /// With `decks`: the shuffles each deck gets (default 1).
    #[serde(default)]
    pub shuffles: Option<u32>,
    /// With `decks`, `shelf`: the machine's shelves (default 10).
    #[serde(default)]
    pub shelves: Option<u64>,
    /// With `decks`, `shelf`: the passes through it (default 1).
    #[serde(default)]
    pub passes: Option<u32>,
    /// Run even when the work is over the budget.
    #[serde(skip)]
    pub allow_long: bool,
    /// The key and generator of the simulated rows.
    #[serde(flatten)]
    pub random: RandomRequest,
}

/// The CLI's default `-n`.
pub const DEFAULT_N: usize = 52;
/// The CLI's default `--mean-packet`.
pub const DEFAULT_MEAN_PACKET: u64 = 6;
/// The CLI's default `--trials`.
pub const DEFAULT_TRIALS: u64 = 4000;

fn fifty_two() -> usize {
    DEFAULT_N
}

fn six() -> u64 {
    DEFAULT_MEAN_PACKET
}

fn four_thousand() -> u64 {
    DEFAULT_TRIALS
}

/// A validated request: the model, the largest number of shuffles, and the
/// numbers of shuffles shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The shuffle model.
    pub model: Model,
    /// The largest number of shuffles.
    pub k_max: u32,
    /// The numbers of shuffles shown, one row each.
    pub ks: Vec<u32>,
}

impl Plan {
    /// Whether the rows are simulated (a lower bound) rather than exact.
    pub fn simulated(&self, n: usize) -> bool {
        self.model != Model::Riffle && n > mix::MAX_EXACT_N
    }
}

/// One row of the curve: the distance after `shuffles` shuffles.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct Row {
    /// Shuffles done.
    pub shuffles: u32,
    /// Exact distance from uniform.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_variation: Option<f64>,
    /// Simulated lower bound on the distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
    /// Sampling error of the lower bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<f64>,
    /// The simulated point's band and noise floor (`mix::Estimate`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// Exact upper bound (top-to-random: separation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_bound: Option<f64>,
}

/// A simulated row's uncertainty: the band that holds the statistic's true
/// distance at `mix::BAND_CONFIDENCE`, the value a uniform deck would show,
/// and whether the band stays above 0 (`resolved`: the deck is shown to be
/// at least `band_low` from uniform; otherwise the point is noise).
#[derive(Debug, Serialize, Clone, Copy)]
pub struct Band {
    /// Low end of the band.
    pub band_low: f64,
    /// High end of the band.
    pub band_high: f64,
    /// What a perfectly shuffled deck would show at these trials.
    pub noise_floor: f64,
    /// Whether the band stays above 0.
    pub resolved: bool,
}

/// What `fairdeck mix --format json` prints.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The shuffle model.
    pub model: &'static str,
    /// Cards in the deck.
    pub n: usize,
    /// How the rows were found (exact, or simulated).
    pub method: &'static str,
    /// One row per number of shuffles shown.
    pub rows: Vec<Row>,
    /// The key of the simulated rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

fn parse_model(name: &str, mean_packet: u64) -> crate::Result<Model> {
    match name {
        "riffle" | "gsr" => Ok(Model::Riffle),
        "top-to-random" => Ok(Model::TopToRandom),
        "overhand" if mean_packet >= 1 => Ok(Model::Overhand { mean_packet }),
        "overhand" => Err(refuse(
            Field::MeanPacket,
            message![Field::MeanPacket, " must be at least 1"],
        )),
        "shelf" => Err(refuse(
            Field::Model,
            "shelf rows go by shelves, not shuffles: its table is mix::shelf (`fairdeck mix shelf`)",
        )),
        other => Err(refuse(
            Field::Model,
            format!("unknown model {other:?} (known: riffle, top-to-random, overhand, shelf)"),
        )),
    }
}

/// Builds what `--format json` prints (the web page's `/api/mix`).
///
/// # Errors
///
/// Unknown model, flags out of range, a run over the work budget.
pub fn run(args: &Request, random: &Randomness) -> crate::Result<Report> {
    let Plan { model, ks, .. } = args.validate()?;
    let n = args.n;
    Ok(if model == Model::Riffle && n > mix::MAX_EXACT_N {
        riffle_rows(n, &ks)
    } else if n <= mix::MAX_EXACT_N {
        exact_rows(model, n, &ks)?
    } else {
        simulated_rows(model, n, &ks, args, random)
    })
}

impl Request {
    /// The one place the curve's defaults and limits live: the model, the
    /// largest number of shuffles, and the numbers of shuffles shown.
    ///
    /// # Errors
    ///
    /// Unknown model, flags out of range, a run over the work budget.
    pub fn validate(&self) -> crate::Result<Plan> {
        plan(self)
    }
}

fn plan(args: &Request) -> crate::Result<Plan> {
    let model = parse_model(&args.model, args.mean_packet)?;
    let n = args.n;
    if !(2..=10_000).contains(&n) {
        return Err(refuse(
            Field::N,
            message![Field::N, " must be between 2 and 10000"],
        ));
    }
    let (k_max, ks) = shuffle_counts(model, n, args);
    if k_max == 0 || k_max > 1_000_000 || !(1..=MAX_TRIALS).contains(&args.trials) {
        let field = if k_max == 0 || k_max > 1_000_000 {
            Field::MaxShuffles
        } else {
            Field::Trials
        };
        return Err(refuse(
            field,
            message![
                Field::MaxShuffles,
                " must be 1..=1000000 and ",
                Field::Trials,
                format!(" 1..={MAX_TRIALS}"),
            ],
        ));
    }
    check_work(model, n, &ks, args)?;
    Ok(Plan { model, k_max, ks })
}

/// The largest number of shuffles and the rows shown, from the flags or
/// the model's defaults for `n` cards.
fn shuffle_counts(model: Model, n: usize, args: &Request) -> (u32, Vec<u32>) {
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
fn check_work(model: Model, n: usize, ks: &[u32], args: &Request) -> crate::Result<()> {
    let steps = estimates::mix_steps(model, n, ks, args.trials);
    budget::check(args.allow_long, Field::N, steps, |budget| {
        let most_n = estimates::largest(n as u64, budget, |m| {
            let (_, ks) = shuffle_counts(model, m as usize, args);
            estimates::mix_steps(model, m as usize, &ks, args.trials)
        });
        let simulated = model != Model::Riffle && n > mix::MAX_EXACT_N;
        let most_t = estimates::largest(args.trials, budget, |t| {
            estimates::mix_steps(model, n, ks, t)
        });
        let fewer_n = message![
            Field::N,
            format!(" at most {most_n}, or fewer "),
            Field::MaxShuffles
        ];
        match simulated {
            true if most_t > 0 => {
                let mut m = message![Field::Trials, format!(" at most {most_t} at "), Field::N];
                m.append(message![format!(" {n}, or ")]);
                m.append(fewer_n);
                m
            }
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

/// The exact rows: the law is carried up to the last row shown, not to
/// `--max-shuffles` (with a `--step` beyond the last row those shuffles
/// would be computed, unshown and outside the work estimate, which counts
/// the rows shown).
fn exact_rows(model: Model, n: usize, ks: &[u32]) -> crate::Result<Report> {
    let last = ks.iter().copied().max().unwrap_or(1);
    let all = mix::exact_small(model, n, last)?;
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

fn simulated_rows(
    model: Model,
    n: usize,
    ks: &[u32],
    args: &Request,
    random: &Randomness,
) -> Report {
    let seed = random.seed;
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
    Report {
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
    }
}
