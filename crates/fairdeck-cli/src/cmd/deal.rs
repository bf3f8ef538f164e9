//! `fairdeck deal`: shuffle a deck and deal it.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::anyhow;
use fairdeck::cards::{Card, Deal, DealPlan, DeckKind, Game};
use fairdeck::entropy::{self, BigUint, SymbolDice, SymbolKind, SymbolReader};
use serde::Serialize;

use crate::failure::usage;
use crate::output::{Format, Output};
use crate::random::{KeyEntropy, RandomArgs};

/// Flags of `fairdeck deal`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Games: bridge (default), holdem, draw, skat, scopa.\n\
Decks: standard, jokers, piquet (32), italian (40), shoe:K.")]
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
    #[arg(long)]
    pub ascii: bool,

    /// Refuse (exit 2) when the key holds fewer bits than the deck needs
    /// (e.g. `--seed 42`, or any 256-bit key for a 6-deck shoe).
    #[arg(long)]
    pub strict: bool,

    /// Shuffle from physical randomness read from stdin instead of a
    /// generator: dice (d6 faces 1-6), coins (H/T) or hex (0-9, a-f).
    #[arg(long, value_name = "KIND", value_enum, conflicts_with_all = ["seed", "generator"])]
    pub entropy: Option<EntropyKind>,

    #[command(flatten)]
    pub random: RandomArgs,
}

/// The validated plan: what to deal and how.
struct Config {
    game: Option<Game>,
    deck: DeckKind,
    plan: DealPlan,
}

impl Args {
    fn config(&self) -> anyhow::Result<Config> {
        let deck_flag = self
            .deck
            .as_deref()
            .map(str::parse::<DeckKind>)
            .transpose()?;
        if let Some(cards) = self.cards {
            let players = self.players.unwrap_or(0);
            let plan = DealPlan::round_robin(players, cards)?;
            return Ok(Config {
                game: None,
                deck: deck_flag.unwrap_or_default(),
                plan,
            });
        }
        if self.game.is_none() && self.players.is_some() {
            return Err(usage("--players needs --cards or --game"));
        }
        let game: Game = self.game.as_deref().unwrap_or("bridge").parse()?;
        Ok(Config {
            game: Some(game),
            deck: deck_flag.unwrap_or(game.deck()),
            plan: game.plan(self.players)?,
        })
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

/// How much entropy the deck needs and how much the run's key supplied.
#[derive(Serialize, Clone)]
struct Entropy {
    /// log2 of the deck's distinguishable orders.
    entropy_needed_bits: f64,
    /// Upper bound on the key's entropy (or the bits read from symbols).
    entropy_key_bits: f64,
    /// `os`, `hex-key`, `seed-text`, or the symbol kind (`d6`, `coin`, `hex`).
    entropy_source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rolls_needed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rolls_used: Option<u64>,
}

/// A finished deal and where its randomness came from.
struct Shuffled {
    deal: Deal,
    seed: Option<String>,
    generator: Option<&'static str>,
    entropy: Entropy,
    /// The warning or note of [`shortfall`], printed on stderr by `run`.
    shortfall: Option<(&'static str, String)>,
}

/// What `fairdeck deal --format json` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    seed: Option<String>,
    generator: Option<&'static str>,
    game: Option<&'static str>,
    deck: String,
    deck_size: usize,
    hands: Vec<Hand>,
    stock: Vec<String>,
    #[serde(flatten)]
    entropy: Entropy,
}

#[derive(Serialize)]
struct Hand {
    name: String,
    role: &'static str,
    cards: Vec<String>,
}

/// Runs `fairdeck deal`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let config = args.config()?;
    let shuffled = match args.entropy {
        Some(kind) => from_symbols(kind.symbols(), &config)?,
        None => from_seed(args, &config)?,
    };
    if let Some((level, message)) = &shuffled.shortfall {
        eprintln!("fairdeck: {level}: {message}");
    }
    let deal = &shuffled.deal;
    match out.format() {
        Format::Json => out.json(&report(&config, &shuffled))?,
        Format::Text => {
            let title = match config.game {
                Some(g) => format!("{g}, {} deck", config.deck),
                None => format!("{} deck", config.deck),
            };
            let style = CardStyle {
                ascii: args.ascii,
                color: out.color(),
            };
            print_text(out.stdout(), &title, deal, style)?;
            print_source(out.stdout(), &shuffled, args.entropy)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The report of a deal from `--seed` (or a fresh key), as `--format json`
/// prints it: what the web page's `/api/deal` answers.
///
/// # Errors
///
/// Bad flags (usage errors), `--strict` with a short key, no OS entropy.
pub(crate) fn seeded_report(args: &Args) -> anyhow::Result<Report> {
    let config = args.config()?;
    Ok(report(&config, &from_seed(args, &config)?))
}

fn report(config: &Config, shuffled: &Shuffled) -> Report {
    let text = |cards: &[Card]| cards.iter().map(Card::to_string).collect::<Vec<_>>();
    let deal = &shuffled.deal;
    Report {
        seed: shuffled.seed.clone(),
        generator: shuffled.generator,
        game: config.game.map(Game::name),
        deck: config.deck.to_string(),
        deck_size: config.deck.len(),
        hands: deal
            .piles
            .iter()
            .map(|p| Hand {
                name: p.name.clone(),
                role: p.role.name(),
                cards: text(&p.cards),
            })
            .collect(),
        stock: text(&deal.stock),
        entropy: shuffled.entropy.clone(),
    }
}

fn print_source(w: &mut impl Write, s: &Shuffled, kind: Option<EntropyKind>) -> io::Result<()> {
    let e = &s.entropy;
    match (&s.seed, kind) {
        (Some(seed), _) => {
            writeln!(w, "seed: {seed}")?;
            let bound = if e.entropy_source == "seed-text" {
                "at most "
            } else {
                ""
            };
            writeln!(
                w,
                "entropy: the deck needs {:.1} bits, the key holds {bound}{}",
                e.entropy_needed_bits,
                bits(e.entropy_key_bits)
            )
        }
        (None, kind) => {
            let noun = kind.map_or("symbol", |k| k.symbols().noun());
            writeln!(
                w,
                "rolls: {} {noun}s used ({} needed up front), {:.1} bits for a deck that needs {:.1}",
                e.rolls_used.unwrap_or(0),
                e.rolls_needed.unwrap_or(0),
                e.entropy_key_bits,
                e.entropy_needed_bits
            )
        }
    }
}

/// Shuffles with the seeded generator, after checking the key's entropy.
fn from_seed(args: &Args, config: &Config) -> anyhow::Result<Shuffled> {
    let mut random = args.random.randomness()?;
    let needed = config.deck.entropy_bits();
    let key = random.key;
    let shortfall = shortfall(key, needed, config.deck);
    if let Some((_, message)) = &shortfall
        && args.strict
    {
        return Err(usage(format!("--strict: {message}")));
    }
    let deal = config
        .plan
        .shuffle_and_deal(config.deck, &mut random.dice)?;
    Ok(Shuffled {
        deal,
        seed: Some(random.seed.to_hex()),
        generator: Some(random.generator.name()),
        entropy: Entropy {
            entropy_needed_bits: needed,
            entropy_key_bits: key.bits,
            entropy_source: key.origin,
            rolls_needed: None,
            rolls_used: None,
        },
        shortfall,
    })
}

/// The warning (guessable seed text) or note (a full key, a deck that needs
/// more) when the key holds fewer bits than the deck needs.
fn shortfall(key: KeyEntropy, needed: f64, deck: DeckKind) -> Option<(&'static str, String)> {
    if key.bits >= needed {
        return None;
    }
    let gap = needed - key.bits;
    Some(if key.origin == "seed-text" {
        let message = format!(
            "the seed text holds at most {} bits but a {deck} deck needs {needed:.1}: \
             at most 1 in 2^{gap:.0} of its orders can ever be dealt, and a guesser tries \
             likely texts first; use a 64-hex-digit key, no --seed, or --entropy dice",
            bits(key.bits)
        );
        ("warning", message)
    } else {
        let message = format!(
            "a {deck} deck needs {needed:.1} bits; a {}-bit key reaches at most 2^{0} of its \
             2^{needed:.0} orders: no one can predict or steer which, but most orders can \
             never be dealt; --entropy dice reaches them all",
            bits(key.bits)
        );
        ("note", message)
    })
}

/// Bits for people: `256`, `6.6`.
fn bits(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Shuffles from symbols on stdin (prompting on stderr at a terminal).
fn from_symbols(kind: SymbolKind, config: &Config) -> anyhow::Result<Shuffled> {
    let product = entropy::factorial(config.deck.len() as u64);
    let needed = kind.symbols_needed(&product);
    let stdin = io::stdin();
    let tty = stdin.is_terminal();
    announce(kind, config.deck, &product, tty);
    let prompt = |read: u64| {
        if tty {
            eprint!("{}s {read}/{needed}> ", kind.noun());
        }
    };
    let mut dice = SymbolDice::new(kind, SymbolReader::new(stdin.lock(), kind, prompt));
    let short = |e: fairdeck::Error| match e {
        fairdeck::Error::EntropyExhausted { used } => anyhow!(
            "the input ended after {used} {}s; a {} deck needs at least {needed}",
            kind.noun(),
            config.deck
        ),
        other => anyhow!(other),
    };
    dice.reserve(&product).map_err(short)?;
    let deal = config.plan.shuffle_and_deal(config.deck, &mut dice)?;
    if let Some(e) = dice.error() {
        return Err(short(e.clone()));
    }
    let used = dice.symbols_used();
    Ok(Shuffled {
        deal,
        seed: None,
        generator: None,
        entropy: Entropy {
            entropy_needed_bits: config.deck.entropy_bits(),
            entropy_key_bits: used as f64 * f64::from(kind.base()).log2(),
            entropy_source: kind.name(),
            rolls_needed: Some(needed),
            rolls_used: Some(used),
        },
        shortfall: None,
    })
}

/// Tells on stderr how many symbols the deck needs, before any is read.
fn announce(kind: SymbolKind, deck: DeckKind, product: &BigUint, tty: bool) {
    eprintln!(
        "fairdeck: a {deck} deck needs {} {}s (log_{} {}! = {:.2}); more only if a \
         rejection asks for them",
        kind.symbols_needed(product),
        kind.noun(),
        kind.base(),
        deck.len(),
        kind.symbols_exact(product)
    );
    if let DeckKind::Shoe(2..) = deck {
        let distinct = (deck.entropy_bits() / f64::from(kind.base()).log2()).ceil();
        eprintln!(
            "fairdeck: (the shuffle treats the {} cards as distinct; the shoe's distinguishable \
             orders alone would need {distinct} {}s)",
            deck.len(),
            kind.noun()
        );
    }
    if tty {
        eprintln!(
            "fairdeck: {}, as many per line as you like, then Enter",
            kind.hint()
        );
    }
}

/// How cards are drawn in text output.
#[derive(Clone, Copy)]
pub struct CardStyle {
    /// ASCII letters instead of suit symbols.
    pub ascii: bool,
    /// Red suits in red (ANSI).
    pub color: bool,
}

impl CardStyle {
    /// One card in this style.
    pub fn render(self, card: Card) -> String {
        let s = if self.ascii {
            card.to_string()
        } else {
            card.symbol()
        };
        if self.color && card.is_red() {
            format!("\x1b[31m{s}\x1b[0m")
        } else {
            s
        }
    }
}

pub(crate) fn print_text(
    w: &mut impl Write,
    title: &str,
    deal: &Deal,
    style: CardStyle,
) -> std::io::Result<()> {
    writeln!(w, "{title}")?;
    let width = deal
        .piles
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let line = |cards: &[Card]| {
        cards
            .iter()
            .map(|&c| style.render(c))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for pile in &deal.piles {
        writeln!(w, "{:width$}  {}", pile.name, line(&pile.cards))?;
    }
    if !deal.stock.is_empty() {
        writeln!(
            w,
            "{:width$}  {} cards: {}",
            "Stock",
            deal.stock.len(),
            line(&deal.stock)
        )?;
    }
    Ok(())
}
