//! `fairdeck shuffle ALG -n N [--steps]`: run one catalogue algorithm on 1..N.

use std::io::Write;
use std::process::ExitCode;

use fairdeck::algorithms::{Action, Algorithm, Params, Step, hash_deal};
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::{RandomArgs, Randomness};
use fairdeck_audit::budget;

/// Largest deck an algorithm is run on (memory: a few words per card).
const MAX_N: u64 = 100_000_000;
/// Most insertions `--rounds` may ask for (each costs up to N moves).
const MAX_ROUNDS: u64 = 1_000_000_000;
/// Largest deck whose every intermediate state `--steps` prints.
const MAX_STEPS_N: u64 = 200;
/// Most insertions `--steps` records (each state is a copy of the deck).
const MAX_STEPS_ROUNDS: u64 = 100_000;

/// Flags of `fairdeck shuffle`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples: fairdeck shuffle naive-swap -n 3 --steps; \
    fairdeck shuffle hash-deal -n 90 --deal 5. List: fairdeck algorithms.")]
pub struct Args {
    /// The algorithm, by its catalogue name (see `fairdeck algorithms`).
    #[arg(value_name = "ALG")]
    pub algorithm: String,

    /// Shuffle the cards 1..N.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 10)]
    pub n: u64,

    /// Print every intermediate state (N at most 200), as the tables of “Shuffling a deck of cards” (2014) and “洗牌算法_最简单的洗牌方法” (2023).
    #[arg(long)]
    pub steps: bool,

    /// random-insertion only: number of insertions (default ceil(N*H(N))).
    #[arg(long, value_name = "K")]
    pub rounds: Option<u64>,

    /// knuth-deal and hash-deal only: deal K cards (default N). hash-deal allows N up to 2^64-1.
    #[arg(long, value_name = "K")]
    pub deal: Option<u64>,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

/// What `fairdeck shuffle --format json` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    algorithm: &'static str,
    n: u64,
    seed: String,
    generator: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deal: Option<u64>,
    result: Cards,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<StepOut>>,
}

/// The shuffled cards, 0-based as the algorithm returned them and written
/// 1-based (as numbers in JSON, as one line of text) without a second copy:
/// at N = 10^8 a copy is 800 MB and a line built in memory several GB
/// (issue 26).
pub(crate) enum Cards {
    /// The order of an algorithm run on 0..N.
    Order(Vec<usize>),
    /// hash-deal's K cards of an N beyond [`MAX_N`].
    Dealt(Vec<u64>),
}

impl Cards {
    /// The cards, 1-based.
    fn one_based(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self {
            Cards::Order(v) => Box::new(v.iter().map(|&c| c as u64 + 1)),
            Cards::Dealt(v) => Box::new(v.iter().map(|&c| c + 1)),
        }
    }
}

impl Serialize for Cards {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.one_based())
    }
}

/// Writes the cards 1-based on one line, as they are formatted (O(1) memory).
fn write_cards(w: &mut impl Write, cards: &Cards) -> std::io::Result<()> {
    for (i, card) in cards.one_based().enumerate() {
        match i {
            0 => write!(w, "{card}")?,
            _ => write!(w, " {card}")?,
        }
    }
    writeln!(w)
}

/// One recorded state, 1-based like the articles' tables.
#[derive(Serialize)]
struct StepOut {
    action: String,
    deck: Vec<u64>,
    pile: Vec<u64>,
}

/// Runs `fairdeck shuffle`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let report = report(args)?;
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => text(out.stdout(), &report)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the algorithm and builds what `--format json` prints (the web
/// page's `/api/shuffle-steps` with `steps` set).
///
/// # Errors
///
/// Unknown algorithm or flags that do not fit it (usage errors), no OS entropy.
pub(crate) fn report(args: &Args) -> anyhow::Result<Report> {
    let alg: Algorithm = args.algorithm.parse()?;
    check(args, alg)?;
    let mut random = args.random.randomness()?;
    let (result, steps) = execute(args, alg, &mut random)?;
    Ok(Report {
        algorithm: alg.name(),
        n: args.n,
        seed: random.seed.to_hex(),
        generator: random.generator.name(),
        rounds: args.rounds,
        deal: args.deal,
        result,
        steps: steps.map(|s| steps_out(args.n, &s)),
    })
}

/// Flags that do not fit the algorithm or the size.
fn check(args: &Args, alg: Algorithm) -> anyhow::Result<()> {
    let is_deal = matches!(alg, Algorithm::KnuthDeal | Algorithm::HashDeal);
    if args.rounds.is_some() && alg != Algorithm::RandomInsertion {
        return Err(usage("--rounds applies to random-insertion only"));
    }
    if args.deal.is_some() && !is_deal {
        return Err(usage("--deal applies to knuth-deal and hash-deal only"));
    }
    if let Some(k) = args.deal
        && k > args.n
    {
        return Err(usage(format!("cannot deal {k} cards from {}", args.n)));
    }
    let huge_hash_deal = alg == Algorithm::HashDeal && args.deal.is_some() && !args.steps;
    if args.n > MAX_N && !huge_hash_deal {
        return Err(usage(format!(
            "N = {} is too large (at most {MAX_N}; hash-deal with --deal K takes any N)",
            args.n
        )));
    }
    if args.deal.is_some_and(|k| k > MAX_N) {
        return Err(usage(format!("--deal is at most {MAX_N}")));
    }
    if args.rounds.is_some_and(|r| r > MAX_ROUNDS) {
        return Err(usage(format!("--rounds is at most {MAX_ROUNDS}")));
    }
    if args.steps && args.n > MAX_STEPS_N {
        return Err(usage(format!(
            "--steps prints every state: N at most {MAX_STEPS_N}"
        )));
    }
    if args.steps && args.rounds.is_some_and(|r| r > MAX_STEPS_ROUNDS) {
        return Err(usage(format!(
            "--steps prints every state: --rounds at most {MAX_STEPS_ROUNDS}"
        )));
    }
    check_work(args, alg)
}

/// Steps to write one card of the result (text or JSON), measured as the
/// algorithms' weights are ([`fairdeck::algorithms::Algorithm::weight`]):
/// `--format json shuffle fisher-yates -n 10000000` took 0.83 s of CPU,
/// of which about 0.25 s is the shuffle, so about 55 ns per card written;
/// 10 steps (60 ns).
const OUTPUT_STEPS_PER_CARD: u64 = 10;

/// Refuses a run over the work budget (each algorithm's -n limit follows
/// from its measured cost: an O(n^2) one stops near 10^4, an O(n) one near
/// MAX_N), or one whose memory cannot be had.
fn check_work(args: &Args, alg: Algorithm) -> anyhow::Result<()> {
    let n = args.n;
    let k = args.deal.unwrap_or(n);
    let output = |cards: u64| cards.saturating_mul(OUTPUT_STEPS_PER_CARD);
    match (alg, args.rounds, args.deal) {
        (Algorithm::RandomInsertion, Some(rounds), _) => {
            let per_round = n.saturating_mul(alg.weight(n));
            let steps = rounds.saturating_mul(per_round).saturating_add(output(n));
            args.long.check(steps, |budget| {
                let most = budget.saturating_sub(output(n)) / per_round.max(1);
                format!("--rounds at most {most} at -n {n}")
            })?
        }
        (Algorithm::HashDeal, _, Some(k)) => {
            let steps = |k| alg.cost(k).saturating_add(output(k));
            args.long.check(steps(k), |budget| {
                format!("--deal at most {}", budget::largest(MAX_N, budget, steps))
            })?
        }
        _ => {
            let steps = |n| alg.cost(n).saturating_add(output(n));
            args.long.check(steps(n), |budget| {
                format!(
                    "-n at most {} for {} ({})",
                    budget::largest(MAX_N, budget, steps),
                    alg.name(),
                    alg.time()
                )
            })?
        }
    }
    // Beyond MAX_N only hash-deal runs, with no deck of n: its table of at
    // most 2k entries and the k cards dealt.
    let sized = if n > MAX_N {
        n.min(k.saturating_mul(2))
    } else {
        n
    };
    crate::limits::reserve(alg.peak_bytes(sized, k), || {
        format!("{} on {n} cards", alg.name())
    })
}

/// Runs the algorithm; returns the 1-based result and, with `--steps`, the recorded states.
fn execute(
    args: &Args,
    alg: Algorithm,
    random: &mut Randomness,
) -> anyhow::Result<(Cards, Option<Vec<Step>>)> {
    let dice = &mut random.dice;
    if args.n > MAX_N {
        // Only hash-deal with --deal gets here (see `check`).
        let k = args.deal.unwrap_or(args.n);
        return Ok((Cards::Dealt(hash_deal(k, args.n, dice)?), None));
    }
    let n = args.n as usize;
    let params = Params {
        rounds: args.rounds,
        deal: args.deal.map(|k| k as usize),
    };
    let (order, steps) = if args.steps {
        let (order, steps) = alg.permute_with_steps(n, &params, dice);
        (order, Some(steps))
    } else {
        (alg.permute_with(n, &params, dice), None)
    };
    Ok((Cards::Order(order), steps))
}

fn steps_out(n: u64, steps: &[Step]) -> Vec<StepOut> {
    let start = StepOut {
        action: "start".into(),
        deck: (1..=n).collect(),
        pile: Vec::new(),
    };
    let one_based = |v: &[usize]| v.iter().map(|&c| c as u64 + 1).collect();
    std::iter::once(start)
        .chain(steps.iter().map(|s| StepOut {
            action: describe(&s.action),
            deck: one_based(&s.deck),
            pile: one_based(&s.pile),
        }))
        .collect()
}

/// The action in the articles' 1-based words.
fn describe(action: &Action) -> String {
    match *action {
        Action::Swap { i, j } => format!("swap {} and {}", i + 1, j + 1),
        Action::Redraw { i } => format!("drew {} twice: again", i + 1),
        Action::Move { from, to } => format!("move {} to {}", from + 1, to + 1),
        Action::Strike { k, card } => format!("strike #{} ({})", k + 1, card + 1),
        Action::Draw { card, fresh: true } => format!("draw {}: keep", card + 1),
        Action::Draw { card, fresh: false } => format!("draw {}: seen", card + 1),
        Action::Key { i, key } => format!("key[{}] = {key}", i + 1),
        Action::Sort => "sort by key".into(),
        other => format!("{other:?}"),
    }
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn text(w: &mut impl Write, r: &Report) -> anyhow::Result<()> {
    if let Some(steps) = &r.steps {
        let width = steps.iter().map(|s| s.action.len()).max().unwrap_or(5);
        let two_sequences = steps.iter().any(|s| !s.pile.is_empty());
        let deck_width = steps.iter().map(|s| join(&s.deck).len()).max().unwrap_or(0);
        for (number, s) in steps.iter().enumerate() {
            let deck = join(&s.deck);
            if two_sequences {
                let pile = join(&s.pile);
                let line = format!(
                    "{number:>4}  {:<width$}  {deck:<deck_width$} | {pile}",
                    s.action
                );
                writeln!(w, "{}", line.trim_end())?;
            } else {
                writeln!(w, "{number:>4}  {:<width$}  {deck}", s.action)?;
            }
        }
        writeln!(w)?;
    }
    write_cards(w, &r.result)?;
    writeln!(w, "{}, n = {}, seed: {}", r.algorithm, r.n, r.seed)?;
    Ok(())
}
