//! The verdict on a version 1 deck line alone (`fair verify --deal CARDS`):
//! the order of the cards checked against the commitment, the secret, the
//! client seed and the nonce; the hands are not.

use fairdeck::cards::{Card, DeckKind};

use crate::{Commitment, Mismatch, ServerSecret};

/// What `fair verify --deal CARDS --format json` prints.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeckLineVerdict {
    /// Whether the deck line is the deck the inputs derive.
    pub valid: bool,
    /// Always `deck-line`: what was checked.
    pub checked: &'static str,
    /// The kind of the first difference: `commitment`, `card-count`,
    /// `not-the-deck` or `order`.
    pub mismatch: Option<&'static str>,
    /// One line: the verdict and what it covers.
    pub message: String,
}

/// What a valid deck line covers, in its one line.
pub const VALID_DECK_LINE: &str =
    "valid (the deck line only: the hands were not checked; verify the transcript for those)";

impl DeckLineVerdict {
    /// Checks `deal` with [`crate::verify`]: the commitment, then the
    /// cards. O(n) for a deck of n cards.
    pub fn check(
        published: &Commitment,
        secret: &ServerSecret,
        (client_seed, nonce): (&str, u64),
        kind: DeckKind,
        deal: &[Card],
    ) -> DeckLineVerdict {
        match crate::verify(published, secret, client_seed, nonce, kind, deal) {
            Ok(()) => DeckLineVerdict {
                valid: true,
                checked: "deck-line",
                mismatch: None,
                message: VALID_DECK_LINE.to_string(),
            },
            Err(m) => DeckLineVerdict {
                valid: false,
                checked: "deck-line",
                mismatch: Some(match m {
                    Mismatch::Commitment { .. } => "commitment",
                    Mismatch::CardCount { .. } => "card-count",
                    Mismatch::NotTheDeck { .. } => "not-the-deck",
                    _ => "order",
                }),
                message: format!("invalid: {m}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_line_is_valid_or_names_its_first_difference() {
        let secret = ServerSecret::from_bytes([7; 32]);
        let published = secret.commitment();
        let kind = DeckKind::Standard;
        let deck = crate::shuffled_deck(&secret, "seed", 3, kind);
        let ok = DeckLineVerdict::check(&published, &secret, ("seed", 3), kind, &deck);
        assert_eq!((ok.valid, ok.mismatch), (true, None));
        assert_eq!(ok.message, VALID_DECK_LINE);
        let mut swapped = deck.clone();
        swapped.swap(0, 1);
        let bad = DeckLineVerdict::check(&published, &secret, ("seed", 3), kind, &swapped);
        assert_eq!((bad.valid, bad.mismatch), (false, Some("order")));
        assert!(bad.message.starts_with("invalid: "), "{}", bad.message);
        let other = ServerSecret::from_bytes([8; 32]).commitment();
        let c = DeckLineVerdict::check(&other, &secret, ("seed", 3), kind, &deck);
        assert_eq!(c.mismatch, Some("commitment"));
        let short = DeckLineVerdict::check(&published, &secret, ("seed", 3), kind, &deck[1..]);
        assert_eq!(short.mismatch, Some("card-count"));
        let mut doubled = deck.clone();
        doubled[0] = doubled[1];
        let d = DeckLineVerdict::check(&published, &secret, ("seed", 3), kind, &doubled);
        assert_eq!(d.mismatch, Some("not-the-deck"));
    }
}
