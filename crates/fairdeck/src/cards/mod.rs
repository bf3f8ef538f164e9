//! Playing cards: suits, ranks, cards, decks and deals.
//!
//! A [`Card`] is a suited card or a joker. It converts both ways to
//! * the byte encoding of “洗牌算法_最简单的洗牌方法” (2023) — high nibble the suit (1 ♥, 2 ♦, 3 ♣,
//!   4 ♠; the article fixes only "suit 1 is hearts"), low nibble the rank
//!   (1 = ace … 13 = king), so 0x11 is the ace of hearts and 0x4D the king of
//!   spades; jokers are 0x51 (red) and 0x52 (black);
//! * text notation, read case-insensitively: rank then suit, `AS`, `10h` or
//!   `Th`, `qd`, `7c`; suit symbols are accepted too (`A♠`); jokers are
//!   `RJ`/`BJ` (or `JR`, `joker`); printed as `AS`, `TH`, `QD`, `RJ`;
//! * Unicode: suit symbols (`A♠`) and the playing-card glyphs (🂡), with the
//!   ASCII text form for terminals that lack them.
//!
//! ```
//! use fairdeck::cards::{Card, Rank, Suit};
//!
//! let card: Card = "10h".parse()?;
//! assert_eq!(card, Card::new(Rank::Ten, Suit::Hearts));
//! assert_eq!(card.to_string(), "TH");
//! assert_eq!(card.to_byte(), 0x1A);
//! assert_eq!(Card::from_byte(0x4D)?.to_string(), "KS");
//! assert_eq!(card.symbol(), "10♥");
//! # Ok::<(), fairdeck::Error>(())
//! ```

mod board;
mod deal;
mod deck;
mod game;
pub mod number;
pub mod pbn;
#[cfg(feature = "serde")]
mod serde_impls;

pub use board::{Board, Seat, Vulnerability, high_card_points};
pub use deal::{Deal, DealPlan, Pile, PileRole};
pub use deck::DeckKind;
pub use game::Game;
pub use number::DealShape;

use core::fmt;
use core::str::FromStr;

use crate::Error;

/// The four French suits, in the order of their byte code (1–4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Suit {
    /// ♥, byte code 1.
    Hearts = 1,
    /// ♦, byte code 2.
    Diamonds = 2,
    /// ♣, byte code 3.
    Clubs = 3,
    /// ♠, byte code 4.
    Spades = 4,
}

impl Suit {
    /// All suits in byte-code order.
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    /// The one-letter ASCII name: `H`, `D`, `C`, `S`.
    pub fn letter(self) -> char {
        match self {
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
        }
    }

    /// The Unicode suit symbol: ♥ ♦ ♣ ♠.
    pub fn symbol(self) -> char {
        match self {
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
            Suit::Spades => '♠',
        }
    }

    /// Whether the suit is printed in red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    fn from_code(code: u8) -> Option<Suit> {
        Suit::ALL.get(usize::from(code).checked_sub(1)?).copied()
    }

    fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'H' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | '♣' | '♧' => Some(Suit::Clubs),
            'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// The thirteen ranks, ace low, with their byte code (1–13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[allow(missing_docs)]
pub enum Rank {
    Ace = 1,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    /// All ranks, ace to king.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The byte code, 1 (ace) to 13 (king).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The one-character ASCII name: `A 2 … 9 T J Q K`.
    pub fn letter(self) -> char {
        b"A23456789TJQK"[usize::from(self.code() - 1)] as char
    }

    fn from_code(code: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(code).checked_sub(1)?).copied()
    }

    fn from_text(s: &str) -> Option<Rank> {
        if s == "10" {
            return Some(Rank::Ten);
        }
        let mut chars = s.chars();
        let c = chars.next()?.to_ascii_uppercase();
        if chars.next().is_some() {
            return None;
        }
        "A23456789TJQK"
            .find(c)
            .and_then(|i| Rank::from_code(i as u8 + 1))
    }
}

/// One playing card: a rank of a suit, or a joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    /// An ordinary card.
    Suited(Rank, Suit),
    /// The red joker (byte 0x51).
    RedJoker,
    /// The black joker (byte 0x52).
    BlackJoker,
}

impl Card {
    /// A suited card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited(rank, suit)
    }

    /// The byte code of “洗牌算法_最简单的洗牌方法” (2023): suit in the high nibble, rank in the low nibble.
    pub fn to_byte(self) -> u8 {
        match self {
            Card::Suited(r, s) => (s as u8) << 4 | r.code(),
            Card::RedJoker => 0x51,
            Card::BlackJoker => 0x52,
        }
    }

    /// Reads the byte code of “洗牌算法_最简单的洗牌方法” (2023).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidCard`] for a byte that encodes no card (e.g. 0x10, 0x1E, 0x61).
    pub fn from_byte(byte: u8) -> Result<Card, Error> {
        match byte {
            0x51 => Ok(Card::RedJoker),
            0x52 => Ok(Card::BlackJoker),
            _ => match (Rank::from_code(byte & 0x0f), Suit::from_code(byte >> 4)) {
                (Some(r), Some(s)) => Ok(Card::Suited(r, s)),
                _ => Err(Error::InvalidCard(format!("0x{byte:02X} encodes no card"))),
            },
        }
    }

    /// The suit symbol form: `A♠`, `10♥`, and `🃏R`/`🃏B` for jokers.
    pub fn symbol(self) -> String {
        match self {
            Card::Suited(Rank::Ten, s) => format!("10{}", s.symbol()),
            Card::Suited(r, s) => format!("{}{}", r.letter(), s.symbol()),
            Card::RedJoker => "🃏R".to_string(),
            Card::BlackJoker => "🃏B".to_string(),
        }
    }

    /// The single Unicode playing-card glyph (block U+1F0A0), e.g. 🂡 for
    /// the ace of spades. The block's knight (C) is skipped, as in French decks.
    pub fn glyph(self) -> char {
        let code = match self {
            Card::Suited(r, s) => {
                let base = match s {
                    Suit::Spades => 0x1F0A0,
                    Suit::Hearts => 0x1F0B0,
                    Suit::Diamonds => 0x1F0C0,
                    Suit::Clubs => 0x1F0D0,
                };
                let rank = u32::from(r.code());
                base + if rank >= 12 { rank + 1 } else { rank }
            }
            Card::RedJoker => 0x1F0BF,
            Card::BlackJoker => 0x1F0CF,
        };
        char::from_u32(code).unwrap_or('?')
    }

    /// The suit, if the card is not a joker.
    pub fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited(_, s) => Some(s),
            _ => None,
        }
    }

    /// Whether the card is printed in red.
    pub fn is_red(self) -> bool {
        match self {
            Card::Suited(_, s) => s.is_red(),
            Card::RedJoker => true,
            Card::BlackJoker => false,
        }
    }
}

impl fmt::Display for Card {
    /// The ASCII text form: `AS`, `TH`, `QD`, `RJ`, `BJ`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited(r, s) => write!(f, "{}{}", r.letter(), s.letter()),
            Card::RedJoker => f.write_str("RJ"),
            Card::BlackJoker => f.write_str("BJ"),
        }
    }
}

impl FromStr for Card {
    type Err = Error;

    fn from_str(text: &str) -> Result<Card, Error> {
        let s = text.trim();
        match s.to_ascii_uppercase().as_str() {
            "RJ" | "JR" | "JOKER" | "REDJOKER" | "🃏R" => return Ok(Card::RedJoker),
            "BJ" | "JB" | "BLACKJOKER" | "🃏B" => return Ok(Card::BlackJoker),
            _ => {}
        }
        let bad =
            || Error::InvalidCard(format!("{text:?} (write rank then suit, e.g. AS, 10h, qd)"));
        let suit_char = s.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_char(suit_char).ok_or_else(bad)?;
        let rank = Rank::from_text(&s[..s.len() - suit_char.len_utf8()]).ok_or_else(bad)?;
        Ok(Card::Suited(rank, suit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing (fuzz/fuzz_targets/card_codes.rs): the jokers'
    /// symbol form did not parse back, though every suited card's did.
    #[test]
    fn every_printed_form_parses_back() {
        let deck = super::DeckKind::Jokers.cards();
        for card in deck {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(card.symbol().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn bytes_round_trip_and_match_seed_002() {
        let all: Vec<u8> = (1u8..=4)
            .flat_map(|s| (1u8..=13).map(move |r| s << 4 | r))
            .collect();
        assert_eq!((all[0], all[51]), (0x11, 0x4D));
        for b in all.iter().copied().chain([0x51, 0x52]) {
            assert_eq!(Card::from_byte(b).unwrap().to_byte(), b);
        }
        assert_eq!(
            Card::from_byte(0x11).unwrap(),
            Card::new(Rank::Ace, Suit::Hearts)
        );
        for bad in [0x00, 0x10, 0x1E, 0x1F, 0x50, 0x53, 0x61, 0xFF] {
            assert!(Card::from_byte(bad).is_err(), "{bad:#x}");
        }
    }

    #[test]
    fn text_parses_case_insensitively() {
        let cases = [
            ("AS", Card::new(Rank::Ace, Suit::Spades)),
            ("as", Card::new(Rank::Ace, Suit::Spades)),
            ("10h", Card::new(Rank::Ten, Suit::Hearts)),
            ("Th", Card::new(Rank::Ten, Suit::Hearts)),
            ("qd", Card::new(Rank::Queen, Suit::Diamonds)),
            ("7♣", Card::new(Rank::Seven, Suit::Clubs)),
            ("rj", Card::RedJoker),
            ("Joker", Card::RedJoker),
            ("bj", Card::BlackJoker),
        ];
        for (text, card) in cases {
            assert_eq!(text.parse::<Card>().unwrap(), card, "{text}");
        }
        for bad in ["", "A", "1S", "11h", "ZS", "AX", "10", "A S", "♠"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn every_card_prints_and_parses_back() {
        for b in (1u8..=4).flat_map(|s| (1u8..=13).map(move |r| s << 4 | r)) {
            let c = Card::from_byte(b).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(c.symbol().parse::<Card>().unwrap(), c);
        }
    }

    #[test]
    fn glyphs() {
        assert_eq!(Card::new(Rank::Ace, Suit::Spades).glyph(), '🂡');
        assert_eq!(Card::new(Rank::Queen, Suit::Hearts).glyph(), '🂽');
        assert_eq!(Card::new(Rank::King, Suit::Clubs).glyph(), '🃞');
        assert_eq!(Card::new(Rank::Jack, Suit::Diamonds).glyph(), '🃋');
        assert_eq!(Card::BlackJoker.glyph(), '🃏');
    }
}
