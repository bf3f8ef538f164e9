//! `shuffle`: run one catalogue algorithm on the cards 1..N, optionally
//! recording every intermediate state (the tables of the articles).

use fairdeck::algorithms::{Action, Algorithm, Params, Step, hash_deal};
use fairdeck_audit::estimates;
use serde::{Deserialize, Serialize};

use crate::budget;
use crate::random::{RandomRequest, Randomness};
use crate::{Field, message, refuse};

/// Largest deck an algorithm is run on (memory: a few words per card).
pub const MAX_N: u64 = 100_000_000;
/// Most insertions `--rounds` may ask for (each costs up to N moves).
const MAX_ROUNDS: u64 = 1_000_000_000;
/// Largest deck whose every intermediate state `--steps` prints.
const MAX_STEPS_N: u64 = 200;
/// Most insertions `--steps` records (each state is a copy of the deck).
const MAX_STEPS_ROUNDS: u64 = 100_000;

/// What to run. The defaults are the CLI's (`-n 10`).
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    /// The algorithm, by its catalogue name.
    #[serde(rename = "alg")]
    pub algorithm: String,
    /// Shuffle the cards 1..n.
    #[serde(default = "ten")]
    pub n: u64,
    /// Record every intermediate state (n at most 200).
    #[serde(default)]
    pub steps: bool,
    /// random-insertion only: the number of insertions.
    #[serde(default)]
    pub rounds: Option<u64>,
    /// knuth-deal and hash-deal only: deal this many cards.
    #[serde(default)]
    pub deal: Option<u64>,
    /// Run even when the work is over the budget.
    #[serde(skip)]
    pub allow_long: bool,
    /// The key and generator.
    #[serde(flatten)]
    pub random: RandomRequest,
}

fn ten() -> u64 {
    10
}

/// What `fairdeck shuffle --format json` prints.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The algorithm's catalogue name.
    pub algorithm: &'static str,
    /// Cards 1..n shuffled.
    pub n: u64,
    /// The key, in hex.
    pub seed: String,
    /// The generator.
    pub generator: &'static str,
    /// random-insertion's insertions, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u64>,
    /// Cards dealt, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal: Option<u64>,
    /// The result, 1-based.
    pub result: Cards,
    /// Every recorded state, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepOut>>,
}

/// The shuffled cards, 0-based as the algorithm returned them and written
/// 1-based (as numbers in JSON, as one line of text) without a second copy:
/// at N = 10^8 a copy is 800 MB and a line built in memory several GB
/// (issue 26).
#[derive(Debug)]
pub enum Cards {
    /// The order of an algorithm run on 0..N.
    Order(Vec<usize>),
    /// hash-deal's K cards of an N beyond [`MAX_N`].
    Dealt(Vec<u64>),
}

impl Cards {
    /// The cards, 1-based.
    pub fn one_based(&self) -> Box<dyn Iterator<Item = u64> + '_> {
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

/// One recorded state, 1-based like the articles' tables.
#[derive(Debug, Serialize)]
pub struct StepOut {
    /// What the step did, 1-based.
    pub action: String,
    /// The deck after it.
    pub deck: Vec<u64>,
    /// The second sequence (a pile or the struck cards), if any.
    pub pile: Vec<u64>,
}

/// Runs the algorithm with `random` and builds what `--format json` prints
/// (the web page's `/api/shuffle-steps` with `steps` set).
///
/// # Errors
///
/// Unknown algorithm or flags that do not fit it (usage errors), no OS entropy.
pub fn run(args: &Request, random: &mut Randomness) -> crate::Result<Report> {
    let alg = args.validate()?;
    let (result, steps) = execute(args, alg, random)?;
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

impl Request {
    /// The one place the run's limits live: the algorithm, and flags that
    /// fit it and the size.
    ///
    /// # Errors
    ///
    /// An unknown algorithm, flags that do not fit it, a run over the work
    /// budget or over the memory there is.
    pub fn validate(&self) -> crate::Result<Algorithm> {
        let alg: Algorithm = (self.algorithm.parse())
            .map_err(|e: fairdeck::Error| refuse(Field::Alg, e.to_string()))?;
        check(self, alg)?;
        Ok(alg)
    }
}

/// Flags that do not fit the algorithm or the size.
fn check(args: &Request, alg: Algorithm) -> crate::Result<()> {
    let is_deal = matches!(alg, Algorithm::KnuthDeal | Algorithm::HashDeal);
    if args.rounds.is_some() && alg != Algorithm::RandomInsertion {
        return Err(refuse(
            Field::Rounds,
            message![Field::Rounds, " applies to random-insertion only"],
        ));
    }
    if args.deal.is_some() && !is_deal {
        return Err(refuse(
            Field::Deal,
            message![Field::Deal, " applies to knuth-deal and hash-deal only"],
        ));
    }
    if let Some(k) = args.deal
        && k > args.n
    {
        return Err(refuse(
            Field::Deal,
            format!("cannot deal {k} cards from {}", args.n),
        ));
    }
    sizes(args, alg)?;
    check_work(args, alg)
}

/// Sizes over the limits: N, the cards dealt, the rounds, and what
/// `steps` can print.
fn sizes(args: &Request, alg: Algorithm) -> crate::Result<()> {
    let huge_hash_deal = alg == Algorithm::HashDeal && args.deal.is_some() && !args.steps;
    if args.n > MAX_N && !huge_hash_deal {
        return Err(refuse(
            Field::N,
            message![
                format!(
                    "N = {} is too large (at most {MAX_N}; hash-deal with ",
                    args.n
                ),
                Field::Deal,
                " K takes any N)",
            ],
        ));
    }
    if args.deal.is_some_and(|k| k > MAX_N) {
        return Err(refuse(
            Field::Deal,
            message![Field::Deal, format!(" is at most {MAX_N}")],
        ));
    }
    if args.rounds.is_some_and(|r| r > MAX_ROUNDS) {
        return Err(refuse(
            Field::Rounds,
            message![Field::Rounds, format!(" is at most {MAX_ROUNDS}")],
        ));
    }
    if args.steps && args.n > MAX_STEPS_N {
        return Err(refuse(
            Field::N,
            message![
                Field::Steps,
                format!(" prints every state: N at most {MAX_STEPS_N}")
            ],
        ));
    }
    if args.steps && args.rounds.is_some_and(|r| r > MAX_STEPS_ROUNDS) {
        return Err(refuse(
            Field::Rounds,
            message![
                Field::Steps,
                " prints every state: ",
                Field::Rounds,
                format!(" at most {MAX_STEPS_ROUNDS}"),
            ],
        ));
    }
    Ok(())
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
fn check_work(args: &Request, alg: Algorithm) -> crate::Result<()> {
    let n = args.n;
    let k = args.deal.unwrap_or(n);
    let output = |cards: u64| cards.saturating_mul(OUTPUT_STEPS_PER_CARD);
    match (alg, args.rounds, args.deal) {
        (Algorithm::RandomInsertion, Some(rounds), _) => {
            let per_round = n.saturating_mul(alg.weight(n));
            let steps = rounds.saturating_mul(per_round).saturating_add(output(n));
            budget::check(args.allow_long, Field::Rounds, steps, |budget| {
                let most = budget.saturating_sub(output(n)) / per_round.max(1);
                message![
                    Field::Rounds,
                    format!(" at most {most} at "),
                    Field::N,
                    format!(" {n}")
                ]
            })?
        }
        (Algorithm::HashDeal, _, Some(k)) => {
            let steps = |k| alg.cost(k).saturating_add(output(k));
            budget::check(args.allow_long, Field::Deal, steps(k), |budget| {
                let most = estimates::largest(MAX_N, budget, steps);
                message![Field::Deal, format!(" at most {most}")]
            })?
        }
        _ => {
            let steps = |n| alg.cost(n).saturating_add(output(n));
            budget::check(args.allow_long, Field::N, steps(n), |budget| {
                let most = estimates::largest(MAX_N, budget, steps);
                let (name, time) = (alg.name(), alg.time());
                message![Field::N, format!(" at most {most} for {name} ({time})")]
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
    budget::reserve(alg.peak_bytes(sized, k), || {
        format!("{} on {n} cards", alg.name())
    })
}

/// Runs the algorithm; returns the 1-based result and, with `--steps`, the recorded states.
fn execute(
    args: &Request,
    alg: Algorithm,
    random: &mut Randomness,
) -> crate::Result<(Cards, Option<Vec<Step>>)> {
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
