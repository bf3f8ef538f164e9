//! `Generator.deal`: the document `fairdeck deal --format json` prints, as a dict.

use fairdeck::cards::{Card, DealPlan, DealShape, DeckKind, Game, high_card_points};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::value_error;
use crate::seed::Key;
use crate::stream::Stream;

/// What to deal: the CLI's `--game`, `--players`, `--cards`, `--deck`.
pub struct DealArgs<'a> {
    pub game: Option<&'a str>,
    pub players: Option<usize>,
    pub cards: Option<usize>,
    pub deck: Option<&'a str>,
}

/// The validated plan, with the same defaults and rules as the CLI.
struct Config {
    game: Option<Game>,
    deck: DeckKind,
    plan: DealPlan,
}

impl DealArgs<'_> {
    fn config(&self) -> PyResult<Config> {
        let deck = self
            .deck
            .map(str::parse::<DeckKind>)
            .transpose()
            .map_err(value_error)?;
        if let Some(cards) = self.cards {
            if self.game.is_some() {
                return Err(PyValueError::new_err(
                    "give either game= or cards= (with players=), not both",
                ));
            }
            let Some(players) = self.players else {
                return Err(PyValueError::new_err("cards= needs players="));
            };
            let deck = deck.unwrap_or_default();
            return Ok(Config {
                game: None,
                deck,
                plan: DealPlan::round_robin_in(deck, players, cards).map_err(value_error)?,
            });
        }
        if self.game.is_none() && self.players.is_some() {
            return Err(PyValueError::new_err("players= needs cards= or game="));
        }
        let game: Game = self.game.unwrap_or("bridge").parse().map_err(value_error)?;
        Ok(Config {
            game: Some(game),
            deck: deck.unwrap_or(game.deck()),
            plan: game.plan(self.players).map_err(value_error)?,
        })
    }
}

/// Shuffles a deck and deals it; returns the CLI's JSON document as a dict
/// (keys in the CLI's order).
pub fn deal<'py>(
    py: Python<'py>,
    (key, stream): (&Key, &Stream),
    args: &DealArgs<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = args.config()?;
    // What the game can tell apart (its distinct deals), as the CLI counts it.
    let shape = DealShape::for_game(config.game, &config.plan, config.deck).map_err(value_error)?;
    let needed = shape.bits();
    warn_short_key(py, key, &shape)?;
    let dealt = stream
        .with(|dice| config.plan.shuffle_and_deal(config.deck, dice))
        .map_err(value_error)?;
    let text = |cards: &[Card]| -> Vec<String> { cards.iter().map(Card::to_string).collect() };
    let hands = PyList::empty(py);
    for pile in &dealt.piles {
        let hand = PyDict::new(py);
        hand.set_item("name", &pile.name)?;
        hand.set_item("role", pile.role.name())?;
        hand.set_item("cards", text(&pile.cards))?;
        if config.game == Some(Game::Bridge) {
            hand.set_item("hcp", high_card_points(&pile.cards))?;
        }
        hands.append(hand)?;
    }
    let doc = PyDict::new(py);
    doc.set_item("seed", key.seed.to_hex())?;
    doc.set_item("generator", stream.kind.name())?;
    doc.set_item("game", config.game.map(Game::name))?;
    doc.set_item("deck", config.deck.to_string())?;
    doc.set_item("deck_size", config.deck.len())?;
    doc.set_item("hands", hands)?;
    doc.set_item("stock", text(&dealt.stock))?;
    doc.set_item("entropy_needed_bits", needed)?;
    doc.set_item("entropy_key_bits", key.bits)?;
    doc.set_item("entropy_source", key.origin)?;
    doc.set_item("entropy_deals", shape.formula())?;
    doc.set_item("entropy_order_bits", config.deck.entropy_bits())?;
    Ok(doc)
}

/// A `UserWarning` when a seed text holds fewer bits than the deal needs,
/// as the CLI warns on stderr: most deals can never come out.
fn warn_short_key(py: Python<'_>, key: &Key, shape: &DealShape) -> PyResult<()> {
    let needed = shape.bits();
    if key.origin != "seed-text" || key.bits >= needed {
        return Ok(());
    }
    let message = format!(
        "the seed text holds at most {:.1} bits but a deal ({} deals) needs {needed:.1}: at \
         most 1 in 2^{:.0} of the deals can ever be dealt; use a 64-hex-digit key or seed=None",
        key.bits,
        shape.formula(),
        needed - key.bits
    );
    let message = std::ffi::CString::new(message).map_err(value_error)?;
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}
