//! Where a deal's randomness comes from — a seeded generator, physical
//! symbols on stdin, or a given deal number — and the entropy it carries.

use std::io::{self, IsTerminal, Write};

use anyhow::anyhow;
use fairdeck::cards::{Card, Deal, DealShape, DeckKind};
use fairdeck::entropy::{BigUint, SymbolDice, SymbolKind, SymbolReader};
use serde::Serialize;

use super::Config;
use crate::failure::usage;
use crate::random::{KeyEntropy, RandomArgs};

/// How much entropy a deal needs and how much the run's key supplied.
#[derive(Serialize, Clone)]
pub struct Entropy {
    /// log2 of the number of distinct deals (what the key must cover).
    pub entropy_needed_bits: f64,
    /// Upper bound on the key's entropy (or the bits read from symbols).
    pub entropy_key_bits: f64,
    /// `os`, `hex-key`, `seed-text`, `deal-number`, `pbn`, or the symbol
    /// kind (`d6`, `coin`, `hex`).
    pub entropy_source: &'static str,
    /// The number of distinct deals as a formula, e.g. `52!/(13!)^4`.
    pub entropy_deals: String,
    /// log2 of the deck's distinguishable orders (more than a deal needs
    /// wherever hands are unordered).
    pub entropy_order_bits: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolls_needed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolls_used: Option<u64>,
}

impl Entropy {
    /// The figures of `shape` with the key's part filled in.
    pub fn new(shape: &DealShape, config: &Config, key_bits: f64, source: &'static str) -> Self {
        Entropy {
            entropy_needed_bits: shape.bits(),
            entropy_key_bits: key_bits,
            entropy_source: source,
            entropy_deals: shape.formula(),
            entropy_order_bits: config.deck.entropy_bits(),
            rolls_needed: None,
            rolls_used: None,
        }
    }
}

/// A finished deal and where its randomness came from.
pub struct Shuffled {
    pub deal: Deal,
    /// The deck order (top first) that the plan dealt.
    pub deck: Vec<Card>,
    pub seed: Option<String>,
    pub generator: Option<&'static str>,
    pub entropy: Entropy,
    /// What one symbol is called, when the deal came from symbols.
    pub noun: Option<&'static str>,
}

/// "a bridge deal", "a deal from a shoe:6 deck": what the entropy is for.
pub fn what(config: &Config) -> String {
    match config.game {
        Some(g) => format!("a {g} deal"),
        None => format!("a deal from a {} deck", config.deck),
    }
}

/// What the deal count means, for the `entropy:` line.
fn deals_note(config: &Config, e: &Entropy) -> String {
    if matches!(config.deck, DeckKind::Shoe(2..)) {
        format!("{} distinguishable orders", e.entropy_deals)
    } else if config.shape.keeps_order() {
        format!("{} deals: the stock's order counts", e.entropy_deals)
    } else {
        format!("{} deals", e.entropy_deals)
    }
}

/// The `seed:`/`rolls:` and `entropy:` lines under a deal.
pub fn print_source(w: &mut impl Write, s: &Shuffled, config: &Config) -> io::Result<()> {
    let e = &s.entropy;
    let needs = format!(
        "{} needs {:.1} bits ({})",
        what(config),
        e.entropy_needed_bits,
        deals_note(config, e)
    );
    if let Some(seed) = &s.seed {
        writeln!(w, "seed: {seed}")?;
        let bound = if e.entropy_source == "seed-text" {
            "at most "
        } else {
            ""
        };
        return writeln!(
            w,
            "entropy: {needs}, the key holds {bound}{}",
            bits(e.entropy_key_bits)
        );
    }
    match (e.rolls_used, s.noun) {
        (Some(used), Some(noun)) => writeln!(
            w,
            "rolls: {used} {noun}s used ({} needed up front), {:.1} bits; {needs}",
            e.rolls_needed.unwrap_or(0),
            e.entropy_key_bits,
        ),
        _ => writeln!(w, "entropy: {needs}"),
    }
}

/// Checks the key against what a deal needs: a warning, a note, or (with
/// `--strict`) a usage error.
pub fn check_key(key: KeyEntropy, needed: f64, what: &str, strict: bool) -> anyhow::Result<()> {
    check_key_quietly(key, needed, what, strict, false)
}

/// [`check_key`], printing the warning or note on stderr unless `quiet`
/// (the web page shows it from the report's entropy fields instead).
fn check_key_quietly(
    key: KeyEntropy,
    needed: f64,
    what: &str,
    strict: bool,
    quiet: bool,
) -> anyhow::Result<()> {
    if let Some((level, message)) = shortfall(key, needed, what) {
        if strict {
            return Err(usage(format!("--strict: {message}")));
        }
        if !quiet {
            crate::failure::note(format_args!("{level}: {message}"));
        }
    }
    Ok(())
}

/// Shuffles with the seeded generator, after checking the key's entropy
/// (the warning goes to stderr unless `quiet`).
pub fn from_seed(
    random: &RandomArgs,
    strict: bool,
    quiet: bool,
    config: &Config,
) -> anyhow::Result<Shuffled> {
    let mut random = random.randomness()?;
    let needed = config.shape.bits();
    check_key_quietly(random.key, needed, &what(config), strict, quiet)?;
    let deal = config
        .plan
        .shuffle_and_deal(config.deck, &mut random.dice)?;
    Ok(Shuffled {
        deck: config.plan.undeal(&deal)?,
        deal,
        seed: Some(random.seed.to_hex()),
        generator: Some(random.generator.name()),
        entropy: Entropy::new(&config.shape, config, random.key.bits, random.key.origin),
        noun: None,
    })
}

/// The deal numbered `text` (decimal, below the game's count of deals).
pub fn from_number(text: &str, config: &Config) -> anyhow::Result<Shuffled> {
    let number: BigUint = text.trim().parse().map_err(|_| {
        usage(format!(
            "--number {text:?}: write a whole number, e.g. 12345"
        ))
    })?;
    let deck = config
        .shape
        .deck(&number)
        .map_err(|e| usage(format!("--number: {e} ({})", config.shape.formula())))?;
    let deal = config.plan.deal(&deck)?;
    let bits = config.shape.bits();
    Ok(Shuffled {
        deal,
        deck,
        seed: None,
        generator: None,
        entropy: Entropy::new(&config.shape, config, bits, "deal-number"),
        noun: None,
    })
}

/// The warning (guessable seed text) or note (a full key, a deal that needs
/// more) when the key holds fewer bits than the deal needs.
fn shortfall(key: KeyEntropy, needed: f64, what: &str) -> Option<(&'static str, String)> {
    if key.bits >= needed {
        return None;
    }
    let gap = needed - key.bits;
    Some(if key.origin == "seed-text" {
        let message = format!(
            "the seed text holds at most {} bits but {what} needs {needed:.1}: at most 1 in \
             2^{gap:.0} of its deals can ever be dealt, and a guesser tries likely texts first; \
             use a 64-hex-digit key, no --seed, or --entropy dice",
            bits(key.bits)
        );
        ("warning", message)
    } else {
        let message = format!(
            "{what} needs {needed:.1} bits; a {}-bit key reaches at most 2^{0} of its \
             2^{needed:.0} deals: no one can predict or steer which, but most can never be \
             dealt; --entropy dice reaches them all",
            bits(key.bits)
        );
        ("note", message)
    })
}

/// Bits for people: `256`, `6.6`.
pub fn bits(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A [`SymbolDice`] over stdin (prompting on stderr at a terminal), after
/// announcing how many symbols `deals` deals need.
pub fn stdin_dice(
    kind: SymbolKind,
    config: &Config,
    deals: u64,
) -> SymbolDice<impl Iterator<Item = Result<u8, fairdeck::Error>>> {
    let count = config.shape.count();
    let needed = kind.symbols_needed(&count);
    let stdin = io::stdin();
    let tty = stdin.is_terminal();
    let each = if deals > 1 {
        format!("{deals} deals need {needed} {}s each", kind.noun())
    } else {
        format!("{} needs {needed} {}s", what(config), kind.noun())
    };
    crate::failure::note(format_args!(
        "{each} (log_{} of {} = {:.2}); more only if a rejection asks for them",
        kind.base(),
        config.shape.formula(),
        kind.symbols_exact(&count)
    ));
    if tty {
        crate::failure::note(format_args!(
            "{}, as many per line as you like, then Enter",
            kind.hint()
        ));
    }
    let prompt = move |read: u64| {
        if tty {
            let _ = write!(std::io::stderr(), "{}s {read}> ", kind.noun());
        }
    };
    SymbolDice::new(kind, SymbolReader::new(stdin.lock(), kind, prompt))
}

/// Draws one uniform deal number from the symbols and deals it.
pub fn draw_deal<I: Iterator<Item = Result<u8, fairdeck::Error>>>(
    dice: &mut SymbolDice<I>,
    kind: SymbolKind,
    config: &Config,
) -> anyhow::Result<(Deal, Vec<Card>)> {
    let count = config.shape.count();
    let number = dice.draw_below(&count).map_err(|e| match e {
        fairdeck::Error::EntropyExhausted { used } => anyhow!(
            "the input ended after {used} {}s; {} needs at least {}",
            kind.noun(),
            what(config),
            kind.symbols_needed(&count)
        ),
        other => anyhow!(other),
    })?;
    let deck = config.shape.deck(&number)?;
    Ok((config.plan.deal(&deck)?, deck))
}

/// Deals from symbols on stdin: one uniform deal number, about
/// log_b(D) symbols (37 d6 rolls for bridge, not 88 for a deck order).
pub fn from_symbols(kind: SymbolKind, config: &Config) -> anyhow::Result<Shuffled> {
    let mut dice = stdin_dice(kind, config, 1);
    let (deal, deck) = draw_deal(&mut dice, kind, config)?;
    let used = dice.symbols_used();
    let mut entropy = Entropy::new(
        &config.shape,
        config,
        used as f64 * f64::from(kind.base()).log2(),
        kind.name(),
    );
    entropy.rolls_needed = Some(kind.symbols_needed(&config.shape.count()));
    entropy.rolls_used = Some(used);
    Ok(Shuffled {
        deal,
        deck,
        seed: None,
        generator: None,
        entropy,
        noun: Some(kind.noun()),
    })
}
