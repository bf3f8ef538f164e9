//! `fairdeck deal`: shuffle a deck and deal it — one deal, a set of bridge
//! boards (`boards.rs`), or the boards of a PBN file.

pub(crate) mod boards;
mod source;
mod text;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use fairdeck::entropy::SymbolKind;
pub use fairdeck_report::deal::{Hand, Plan, Request};

use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::RandomArgs;
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

impl Args {
    /// The flags as a deal request (the report layer validates it).
    pub fn request(&self) -> Request {
        Request {
            game: self.game.clone(),
            players: self.players,
            cards: self.cards,
            deck: self.deck.clone(),
            strict: self.strict,
            show_number: self.show_number,
            number: self.number.clone(),
            physical: self.entropy.is_some(),
            allow_long: self.long.allow_long,
            random: self.random.request(),
        }
    }

    fn config(&self) -> anyhow::Result<Plan> {
        Ok(self.request().validate()?)
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
        (None, Some(n)) => config.from_number(n)?,
        (None, None) => {
            let mut random = args.random.randomness()?;
            let (shuffled, shortfall) = config.from_seed(&mut random, args.strict)?;
            source::show(shortfall);
            shuffled
        }
    };
    if out.pbn() {
        return boards::single_pbn(args, &config, &shuffled, out);
    }
    let number = (args.show_number || args.number.is_some())
        .then(|| config.shape.number(&shuffled.deck))
        .transpose()?;
    match out.format() {
        Format::Json => out.json(&config.report(shuffled, number))?,
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
