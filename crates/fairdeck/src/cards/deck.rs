//! Deck kinds: which cards a fresh, unshuffled deck holds, in which order.

use core::fmt;
use core::str::FromStr;

use super::{Card, Rank, Suit};
use crate::Error;

/// The kinds of deck fairdeck can shuffle.
///
/// The unshuffled order is suit by suit in byte-code order (♥ ♦ ♣ ♠), each
/// suit ace (or lowest rank) to king, jokers last: exactly the byte order of
/// “洗牌算法_最简单的洗牌方法” (2023). A deal is reproducible only together with this order, so it is
/// part of the value-stability promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DeckKind {
    /// The standard 52-card French deck.
    #[default]
    Standard,
    /// 52 cards and two jokers (red and black): 54 cards.
    Jokers,
    /// 32 cards, 7 to ace of each suit: the piquet/skat deck. The Hungarian
    /// (Tell) and German decks have the same structure with other suit
    /// names (hearts, bells, acorns, leaves; VII–X, under, over, king, ace);
    /// we print them with French suits.
    Piquet,
    /// 40 cards, ace to 7 and the three figures of each suit: the Italian
    /// deck (Scopa, Briscola). Italian suits map to French ones as
    /// coppe → ♥, denari → ♦, bastoni → ♣, spade → ♠, and fante, cavallo,
    /// re print as J, Q, K.
    Italian,
    /// A shoe of `k` standard decks (k ≥ 1), as used for blackjack and baccarat.
    Shoe(u16),
}

impl DeckKind {
    /// The largest shoe accepted (a 1 000-deck shoe has 52 000 cards).
    pub const MAX_SHOE: u16 = 1000;

    /// The most cards any deck kind holds (the largest shoe).
    pub const MAX_LEN: usize = 52 * DeckKind::MAX_SHOE as usize;

    /// The cards of a fresh deck, in the documented unshuffled order.
    pub fn cards(self) -> Vec<Card> {
        let suited = |ranks: &[Rank]| -> Vec<Card> {
            Suit::ALL
                .iter()
                .flat_map(|&s| ranks.iter().map(move |&r| Card::new(r, s)))
                .collect()
        };
        match self {
            DeckKind::Standard => suited(&Rank::ALL),
            DeckKind::Jokers => {
                let mut deck = suited(&Rank::ALL);
                deck.extend([Card::RedJoker, Card::BlackJoker]);
                deck
            }
            DeckKind::Piquet => suited(&[
                Rank::Ace,
                Rank::Seven,
                Rank::Eight,
                Rank::Nine,
                Rank::Ten,
                Rank::Jack,
                Rank::Queen,
                Rank::King,
            ]),
            DeckKind::Italian => suited(&[
                Rank::Ace,
                Rank::Two,
                Rank::Three,
                Rank::Four,
                Rank::Five,
                Rank::Six,
                Rank::Seven,
                Rank::Jack,
                Rank::Queen,
                Rank::King,
            ]),
            DeckKind::Shoe(k) => {
                let one = suited(&Rank::ALL);
                (0..k).flat_map(|_| one.iter().copied()).collect()
            }
        }
    }

    /// How many cards the deck holds.
    pub fn len(self) -> usize {
        match self {
            DeckKind::Standard => 52,
            DeckKind::Jokers => 54,
            DeckKind::Piquet => 32,
            DeckKind::Italian => 40,
            DeckKind::Shoe(k) => 52 * usize::from(k),
        }
    }

    /// Whether the deck is empty (never, for the kinds that exist).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// log2 of the number of *distinguishable* orders of the deck: the
    /// entropy a shuffle must supply. For a shoe of k decks, identical
    /// cards cannot be told apart, so this is log2((52k)! / (k!)^52).
    pub fn entropy_bits(self) -> f64 {
        let log2_factorial = |n: usize| (2..=n).map(|i| (i as f64).log2()).sum::<f64>();
        match self {
            DeckKind::Shoe(k) => log2_factorial(self.len()) - 52.0 * log2_factorial(usize::from(k)),
            _ => log2_factorial(self.len()),
        }
    }
}

impl fmt::Display for DeckKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeckKind::Standard => f.write_str("standard"),
            DeckKind::Jokers => f.write_str("jokers"),
            DeckKind::Piquet => f.write_str("piquet"),
            DeckKind::Italian => f.write_str("italian"),
            DeckKind::Shoe(k) => write!(f, "shoe:{k}"),
        }
    }
}

impl FromStr for DeckKind {
    type Err = Error;

    /// Reads `standard` (`52`), `jokers` (`54`), `piquet` (`32`, `skat`,
    /// `hungarian`), `italian` (`40`), `shoe:K` (`shoe6`, `6-deck`), in any case.
    fn from_str(s: &str) -> Result<DeckKind, Error> {
        let lower = s.trim().to_ascii_lowercase();
        let kind = match lower.as_str() {
            "standard" | "52" | "french" => DeckKind::Standard,
            "jokers" | "54" => DeckKind::Jokers,
            "piquet" | "32" | "skat" | "hungarian" | "german" => DeckKind::Piquet,
            "italian" | "40" => DeckKind::Italian,
            _ => {
                let k = lower
                    .strip_prefix("shoe:")
                    .or_else(|| lower.strip_prefix("shoe"))
                    .or_else(|| lower.strip_suffix("-deck"))
                    .ok_or_else(|| Error::UnknownDeck(s.to_string()))?;
                match k.parse::<u16>() {
                    Ok(k) if (1..=DeckKind::MAX_SHOE).contains(&k) => DeckKind::Shoe(k),
                    _ => {
                        return Err(Error::UnknownDeck(format!(
                            "{s} (a shoe holds 1 to {} decks)",
                            DeckKind::MAX_SHOE
                        )));
                    }
                }
            }
        };
        Ok(kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_contents() {
        for kind in [
            DeckKind::Standard,
            DeckKind::Jokers,
            DeckKind::Piquet,
            DeckKind::Italian,
            DeckKind::Shoe(6),
        ] {
            let cards = kind.cards();
            assert_eq!(cards.len(), kind.len(), "{kind}");
            assert_eq!(kind.to_string().parse::<DeckKind>().unwrap(), kind);
            if !matches!(kind, DeckKind::Shoe(_)) {
                let mut unique = cards.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), cards.len(), "{kind} has duplicates");
            }
        }
        let piquet = DeckKind::Piquet.cards();
        assert!(
            piquet
                .iter()
                .all(|c| !matches!(c, Card::Suited(r, _) if *r >= Rank::Two && *r <= Rank::Six))
        );
        let italian = DeckKind::Italian.cards();
        assert!(
            italian
                .iter()
                .all(|c| !matches!(c, Card::Suited(r, _) if *r >= Rank::Eight && *r <= Rank::Ten))
        );
        assert_eq!(DeckKind::Standard.cards()[0].to_byte(), 0x11);
    }

    #[test]
    fn parsing() {
        assert_eq!("SHOE6".parse::<DeckKind>().unwrap(), DeckKind::Shoe(6));
        assert_eq!("6-deck".parse::<DeckKind>().unwrap(), DeckKind::Shoe(6));
        assert_eq!("40".parse::<DeckKind>().unwrap(), DeckKind::Italian);
        for bad in ["", "tarot", "shoe:0", "shoe:1001", "shoe:x"] {
            assert!(bad.parse::<DeckKind>().is_err(), "{bad}");
        }
    }

    #[test]
    fn entropy() {
        // log2(52!) ≈ 225.58 (Juhász, “Keverjük a kártyát”); a six-deck shoe needs about 1 650 bits.
        assert!((DeckKind::Standard.entropy_bits() - 225.58).abs() < 0.01);
        let shoe = DeckKind::Shoe(6).entropy_bits();
        assert!((1600.0..1700.0).contains(&shoe), "{shoe}");
    }
}
