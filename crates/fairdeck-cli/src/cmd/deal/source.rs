//! Where a deal's randomness comes from — a seeded generator, physical
//! symbols on stdin, or a given deal number — and the entropy it carries.

use std::io::{self, IsTerminal, Write};

use anyhow::anyhow;
use fairdeck::cards::{Card, Deal, DeckKind};
use fairdeck::entropy::{SymbolDice, SymbolKind, SymbolReader};

use fairdeck_report::deal::{Entropy, Plan, Shortfall, Shuffled, bits};

/// What the deal count means, for the `entropy:` line.
fn deals_note(config: &Plan, e: &Entropy) -> String {
    if matches!(config.deck, DeckKind::Shoe(2..)) {
        format!("{} distinguishable orders", e.entropy_deals)
    } else if config.shape.keeps_order() {
        format!("{} deals: the stock's order counts", e.entropy_deals)
    } else {
        format!("{} deals", e.entropy_deals)
    }
}

/// The `seed:`/`rolls:` and `entropy:` lines under a deal.
pub fn print_source(w: &mut impl Write, s: &Shuffled, config: &Plan) -> io::Result<()> {
    let e = &s.entropy;
    let needs = format!(
        "{} needs {:.1} bits ({})",
        config.what(),
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

/// Shows a key's shortfall on stderr (`warning: …` or `note: …`).
pub fn show(shortfall: Option<Shortfall>) {
    if let Some(s) = shortfall {
        crate::failure::note(format_args!(
            "{}: {}",
            s.level,
            s.message.render(&crate::failure::flag)
        ));
    }
}

/// A [`SymbolDice`] over stdin (prompting on stderr at a terminal), after
/// announcing how many symbols `deals` deals need.
pub fn stdin_dice(
    kind: SymbolKind,
    config: &Plan,
    deals: u64,
) -> SymbolDice<impl Iterator<Item = Result<u8, fairdeck::Error>>> {
    let count = config.shape.count();
    let needed = kind.symbols_needed(&count);
    let stdin = io::stdin();
    let tty = stdin.is_terminal();
    let each = if deals > 1 {
        format!("{deals} deals need {needed} {}s each", kind.noun())
    } else {
        format!("{} needs {needed} {}s", config.what(), kind.noun())
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
    config: &Plan,
) -> anyhow::Result<(Deal, Vec<Card>)> {
    let count = config.shape.count();
    let number = dice.draw_below(&count).map_err(|e| match e {
        fairdeck::Error::EntropyExhausted { used } => anyhow!(
            "the input ended after {used} {}s; {} needs at least {}",
            kind.noun(),
            config.what(),
            kind.symbols_needed(&count)
        ),
        other => anyhow!(other),
    })?;
    let deck = config.shape.deck(&number)?;
    Ok((config.plan.deal(&deck)?, deck))
}

/// Deals from symbols on stdin: one uniform deal number, about
/// log_b(D) symbols (37 d6 rolls for bridge, not 88 for a deck order).
pub fn from_symbols(kind: SymbolKind, config: &Plan) -> anyhow::Result<Shuffled> {
    let mut dice = stdin_dice(kind, config, 1);
    let (deal, deck) = draw_deal(&mut dice, kind, config)?;
    let used = dice.symbols_used();
    let mut entropy = config.entropy(used as f64 * f64::from(kind.base()).log2(), kind.name());
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
