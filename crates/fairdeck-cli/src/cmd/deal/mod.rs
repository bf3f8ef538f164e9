//! `fairdeck deal`: shuffle a deck and deal it — one deal, a set of bridge
//! boards (`boards.rs`), or the boards of a PBN file.

pub(crate) mod boards;
mod source;
mod text;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use fairdeck::cards::{Card, DealPlan, DealShape, DeckKind, Game, high_card_points};
use fairdeck::entropy::{BigUint, SymbolKind};
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::RandomArgs;
use source::{Entropy, Shuffled};
pub use text::{CardStyle, print_diagram, print_text};

/// Flags of `fairdeck deal`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Games: bridge (default), holdem, draw, skat, scopa.\n\
Decks: standard, jokers, piquet (32), italian (40), shoe:K.\n\
Bridge boards: --boards 1-32 deals each board from its own stream (seed, board number), \
with the dealer and vulnerability of the 16-board cycle; --format pbn writes PBN 2.1.\n\
A deal number (--number, --show-number) names one of the game's D distinct deals, \
0 ≤ N < D (bridge: D = 52!/(13!)^4). With --number or --entropy, cards nobody sees \
(hold'em's burns and stock) come out in deck order.")]
pub struct Args {
    /// A game preset: its deck and dealing order.
    #[arg(long, short, value_name = "GAME", conflicts_with = "cards")]
    pub game: Option<String>,

    /// Number of players (for --cards, or to change a game's default).
    #[arg(long, short, value_name = "P")]
    pub players: Option<usize>,

    /// Cards to each player, one at a time around the table (needs --players).
    #[arg(long, short, value_name = "C", requires = "players")]
    pub cards: Option<usize>,

    /// Deck kind (default: the game's deck, or standard).
    #[arg(long, short, value_name = "KIND")]
    pub deck: Option<String>,

    /// Print cards as ASCII text (AS, TH) instead of suit symbols.
    #[arg(long, conflicts_with = "glyphs")]
    pub ascii: bool,

    /// Print cards as Unicode playing-card glyphs (🂡 🂾).
    #[arg(long)]
    pub glyphs: bool,

    /// Sort each hand as the game's players hold it (bridge: ♠ ♥ ♦ ♣, high to low).
    #[arg(long)]
    pub sort: bool,

    /// Refuse (exit 2) when the key holds fewer bits than a deal needs
    /// (e.g. `--seed 42`, or any 256-bit key for a 6-deck shoe).
    #[arg(long)]
    pub strict: bool,

    /// Deal from physical randomness read from stdin instead of a generator:
    /// dice (d6 faces 1-6), coins (H/T) or hex (0-9, a-f). One uniform deal
    /// number is drawn (bridge: about 37 d6 rolls).
    #[arg(long, value_name = "KIND", value_enum, conflicts_with_all = ["seed", "generator"])]
    pub entropy: Option<EntropyKind>,

    /// Bridge boards to deal: N or A-B (e.g. 1-32). Each board's cards depend
    /// only on the seed and its number.
    #[arg(long, value_name = "RANGE", conflicts_with_all = ["cards", "number"])]
    pub boards: Option<String>,

    /// Read the boards of a PBN file and print them (text, json or pbn).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["boards", "number", "entropy", "seed", "cards", "game", "deck"])]
    pub from_pbn: Option<PathBuf>,

    /// Deal the deal with this number, 0 ≤ N < D (no randomness).
    #[arg(long, value_name = "N", conflicts_with_all = ["entropy", "seed", "generator"])]
    pub number: Option<String>,

    /// Print each deal's number (0 ≤ N < D): the deal as one integer.
    #[arg(long)]
    pub show_number: bool,

    /// The event name of the PBN file (its Event tag).
    #[arg(long, value_name = "TEXT", default_value = "fairdeck board set")]
    pub event: String,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

/// Nanoseconds per card and word (and per card face, when dealing a
/// number) of numbering a deal ([0]) and of dealing a number ([1]),
/// measured (release build, CPU time) on the largest deck, shoe:1000
/// (52 000 cards, 4 628 words): `deal --deck shoe:1000 --show-number` 5.3 s
/// (about 3.7 s of it the number: 15 ns), `--number 12345` 5.8 s (0.45 ns
/// per card, face and word); rounded up. Both are far within the budget,
/// so no deck the tool accepts is refused today; the check keeps it so
/// if the decks grow.
const NUMBER_NANOS: [f64; 2] = [25.0, 0.5];

/// The validated plan: what to deal and how.
pub struct Config {
    game: Option<Game>,
    deck: DeckKind,
    plan: DealPlan,
    shape: DealShape,
}

impl Args {
    fn config(&self) -> anyhow::Result<Config> {
        let deck_flag = self
            .deck
            .as_deref()
            .map(str::parse::<DeckKind>)
            .transpose()?;
        let (game, deck, plan) = if let Some(cards) = self.cards {
            let players = self.players.unwrap_or(0);
            let deck = deck_flag.unwrap_or_default();
            let plan = DealPlan::round_robin_in(deck, players, cards)?;
            (None, deck, plan)
        } else {
            if self.game.is_none() && self.players.is_some() {
                return Err(usage("--players needs --cards or --game"));
            }
            let game: Game = self.game.as_deref().unwrap_or("bridge").parse()?;
            let deck = deck_flag.unwrap_or(game.deck());
            (Some(game), deck, game.plan(self.players)?)
        };
        let shape = DealShape::for_game(game, &plan, deck)?;
        self.check_work(&shape, deck.len() as u64)?;
        Ok(Config {
            game,
            deck,
            plan,
            shape,
        })
    }

    /// Refuses a deal number over the work budget. Numbering a deal (`--show-number`)
    /// takes one big-number product per card; dealing a number (`--number`,
    /// `--entropy`) one per card and card face. A product of a b-bit number
    /// costs about b/64 word steps; the constants are measured
    /// ([`NUMBER_NANOS`]). A deck of distinct cards is cheap; a large shoe is
    /// not: shoe:1000 has 52 000 cards and 2^296104 deals.
    fn check_work(&self, shape: &DealShape, cards: u64) -> anyhow::Result<()> {
        let unrank = self.number.is_some() || self.entropy.is_some();
        if !unrank && !self.show_number {
            return Ok(());
        }
        let steps = |cards: u64, bits: f64| {
            let words = bits / 64.0 + 1.0;
            let faces = if unrank { 53.0 } else { 1.0 };
            let nanos = cards as f64 * faces * words * NUMBER_NANOS[usize::from(unrank)];
            (nanos / fairdeck::algorithms::NANOS_PER_STEP as f64) as u64
        };
        let here = steps(cards, shape.bits());
        self.long.check(here, |budget| {
            // Steps grow as cards² (bits per card barely change with the
            // shoe's size), so this many cards fit the budget.
            let fits = cards as f64 * (budget as f64 / here as f64).sqrt();
            let shoe = (fits / 52.0).floor().max(1.0);
            let flag = if unrank {
                "--number/--entropy"
            } else {
                "--show-number"
            };
            format!("{flag} on {cards} cards: --deck shoe:{shoe} at most")
        })
    }

    fn style(&self, out: &Output) -> CardStyle {
        CardStyle {
            ascii: self.ascii,
            glyphs: self.glyphs,
            color: out.color(),
        }
    }
}

/// The physical symbols `--entropy` reads.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum EntropyKind {
    /// Six-sided dice: faces 1-6.
    Dice,
    /// Coin flips: H or T (also 1 or 0).
    Coins,
    /// Hex digits 0-9, a-f.
    Hex,
}

impl EntropyKind {
    fn symbols(self) -> SymbolKind {
        match self {
            EntropyKind::Dice => SymbolKind::D6,
            EntropyKind::Coins => SymbolKind::Coin,
            EntropyKind::Hex => SymbolKind::Hex,
        }
    }
}

/// What `fairdeck deal --format json` prints (one deal).
#[derive(Serialize)]
pub(crate) struct Report {
    seed: Option<String>,
    generator: Option<&'static str>,
    game: Option<&'static str>,
    deck: String,
    deck_size: usize,
    hands: Vec<Hand>,
    stock: Vec<String>,
    /// The deal's number, in decimal (it can exceed 2^64).
    #[serde(skip_serializing_if = "Option::is_none")]
    deal_number: Option<String>,
    #[serde(flatten)]
    entropy: Entropy,
}

/// One pile in JSON.
#[derive(Serialize)]
pub struct Hand {
    name: String,
    role: &'static str,
    cards: Vec<String>,
    /// High-card points (bridge hands only).
    #[serde(skip_serializing_if = "Option::is_none")]
    hcp: Option<u32>,
}

impl Hand {
    fn new(name: &str, role: &'static str, cards: &[Card], bridge: bool) -> Hand {
        Hand {
            name: name.to_string(),
            role,
            cards: cards.iter().map(Card::to_string).collect(),
            hcp: bridge.then(|| high_card_points(cards)),
        }
    }
}

/// Runs `fairdeck deal`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.from_pbn {
        return boards::from_pbn(args, path, out);
    }
    let config = args.config()?;
    if let Some(range) = &args.boards {
        return boards::deal_boards(args, &config, range, out);
    }
    let shuffled = match (args.entropy, &args.number) {
        (Some(kind), _) => source::from_symbols(kind.symbols(), &config)?,
        (None, Some(n)) => source::from_number(n, &config)?,
        (None, None) => source::from_seed(&args.random, args.strict, false, &config)?,
    };
    if out.pbn() {
        return boards::single_pbn(args, &config, &shuffled, out);
    }
    let number = (args.show_number || args.number.is_some())
        .then(|| config.shape.number(&shuffled.deck))
        .transpose()?;
    match out.format() {
        Format::Json => out.json(&report(&config, shuffled, number))?,
        Format::Text => {
            let title = match config.game {
                Some(g) => format!("{g}, {} deck", config.deck),
                None => format!("{} deck", config.deck),
            };
            let deal = match args.sort {
                true => text::sorted(&shuffled.deal, config.game),
                false => shuffled.deal.clone(),
            };
            let style = args.style(out);
            let w = out.stdout();
            print_text(w, &title, &deal, style)?;
            source::print_source(w, &shuffled, &config)?;
            if let Some(n) = number {
                writeln!(w, "deal number: {n} (of {})", config.shape.formula())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The report of a deal from `--seed` (or a fresh key), as `--format json`
/// prints it: what the web page's `/api/deal` answers. A short key's warning
/// is not printed (the report's entropy fields carry it).
///
/// # Errors
///
/// Bad flags (usage errors), `--strict` with a short key, no OS entropy.
pub(crate) fn seeded_report(args: &Args) -> anyhow::Result<Report> {
    let config = args.config()?;
    let shuffled = source::from_seed(&args.random, args.strict, true, &config)?;
    let number = args
        .show_number
        .then(|| config.shape.number(&shuffled.deck))
        .transpose()?;
    Ok(report(&config, shuffled, number))
}

fn report(config: &Config, shuffled: Shuffled, number: Option<BigUint>) -> Report {
    let bridge = config.game == Some(Game::Bridge);
    Report {
        seed: shuffled.seed,
        generator: shuffled.generator,
        game: config.game.map(Game::name),
        deck: config.deck.to_string(),
        deck_size: config.deck.len(),
        hands: (shuffled.deal.piles.iter())
            .map(|p| Hand::new(&p.name, p.role.name(), &p.cards, bridge))
            .collect(),
        stock: shuffled.deal.stock.iter().map(Card::to_string).collect(),
        deal_number: number.map(|n| n.to_string()),
        entropy: shuffled.entropy,
    }
}
