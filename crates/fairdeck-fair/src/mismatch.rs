//! What exactly does not match when a revealed deal fails verification.

use core::fmt;
use std::collections::BTreeMap;

use super::Commitment;
use fairdeck::cards::{Card, DeckKind};

/// Why a deal failed verification: the first problem found, precisely.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// SHA-256 of the revealed secret is not the published commitment: the
    /// secret was changed (or the commitment misquoted).
    Commitment {
        /// The commitment published before play.
        published: Commitment,
        /// SHA-256 of the secret revealed after play.
        computed: Commitment,
    },
    /// The deal has a different number of cards than the deck.
    CardCount {
        /// The deck kind verified against.
        deck: DeckKind,
        /// Cards in the claimed deal.
        claimed: usize,
        /// Cards in the deck.
        expected: usize,
    },
    /// The deal is not a rearrangement of the deck: some card appears more
    /// (or fewer) times than the deck holds it. A card shown too often is
    /// reported before a missing one.
    NotTheDeck {
        /// The deck kind verified against.
        deck: DeckKind,
        /// The first such card (in card order).
        card: Card,
        /// How often the deal shows it.
        claimed: usize,
        /// How often the deck holds it.
        expected: usize,
    },
    /// The deal holds the right cards in another order than the derivation.
    Order {
        /// The first differing place, 1-based (card 1 is the top card).
        first: usize,
        /// The claimed card there.
        claimed: Card,
        /// The derived card there.
        expected: Card,
        /// How many places differ in all.
        differing: usize,
        /// Cards in the deck.
        total: usize,
    },
}

impl Mismatch {
    /// Compares a claimed deal with the derived deck (top card first).
    pub(super) fn compare(kind: DeckKind, expected: &[Card], deal: &[Card]) -> Result<(), Self> {
        if deal.len() != expected.len() {
            return Err(Mismatch::CardCount {
                deck: kind,
                claimed: deal.len(),
                expected: expected.len(),
            });
        }
        let tally = |cards: &[Card]| {
            let mut m = BTreeMap::new();
            for &c in cards {
                *m.entry(c).or_insert(0usize) += 1;
            }
            m
        };
        let (want, got) = (tally(expected), tally(deal));
        // Report a card shown too often before one that is missing.
        let count = |m: &BTreeMap<Card, usize>, c: &Card| m.get(c).copied().unwrap_or(0);
        let extra = got.keys().find(|c| count(&got, c) > count(&want, c));
        let missing = want.keys().find(|c| count(&got, c) < count(&want, c));
        if let Some(&card) = extra.or(missing) {
            return Err(Mismatch::NotTheDeck {
                deck: kind,
                card,
                claimed: count(&got, &card),
                expected: count(&want, &card),
            });
        }
        let mut diffs = expected
            .iter()
            .zip(deal)
            .enumerate()
            .filter(|(_, (e, d))| e != d);
        let Some((first, (&e, &d))) = diffs.next() else {
            return Ok(());
        };
        Err(Mismatch::Order {
            first: first + 1,
            claimed: d,
            expected: e,
            differing: 1 + diffs.count(),
            total: expected.len(),
        })
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Commitment {
                published,
                computed,
            } => write!(
                f,
                "the server secret does not match the commitment: its SHA-256 is {computed}, \
                 the published commitment is {published}"
            ),
            Mismatch::CardCount {
                deck,
                claimed,
                expected,
            } => write!(
                f,
                "the deal has {claimed} cards but a {deck} deck has {expected}"
            ),
            Mismatch::NotTheDeck {
                deck,
                card,
                claimed,
                expected,
            } => write!(
                f,
                "the deal is not a {deck} deck: it shows {card} {claimed} times, the deck holds it {expected} times"
            ),
            Mismatch::Order {
                first,
                claimed,
                expected,
                differing,
                total,
            } => write!(
                f,
                "the deal differs from the derived deck at {differing} of {total} places, \
                 first at card {first}: {claimed} where the derivation gives {expected} ({})",
                if *differing * 4 < *total {
                    "cards were moved after the deal"
                } else {
                    "wrong client seed, nonce or deck, or a different deal"
                }
            ),
        }
    }
}

impl std::error::Error for Mismatch {}
