//! `fairdeck shuffle ALG -n N [--steps]`: run one catalogue algorithm on 1..N.

use std::io::Write;
use std::process::ExitCode;

use fairdeck_report::shuffle::{self, Cards, Report, Request};

use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

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

/// Runs `fairdeck shuffle`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let request = args.request();
    let mut random = request.random.randomness()?;
    let report = shuffle::run(&request, &mut random)?;
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => text(out.stdout(), &report)?,
    }
    Ok(ExitCode::SUCCESS)
}

impl Args {
    /// The flags as a shuffle request (the report layer validates it).
    pub fn request(&self) -> Request {
        Request {
            algorithm: self.algorithm.clone(),
            n: self.n,
            steps: self.steps,
            rounds: self.rounds,
            deal: self.deal,
            allow_long: self.long.allow_long,
            random: self.random.request(),
        }
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
