//! Game presets: the deck, the dealing plan and the hand order of real games.

use core::fmt;
use core::str::FromStr;

use super::{Card, DealPlan, DeckKind, PileRole, Rank, Suit};
use crate::Error;

/// Game presets: the deck and the dealing plan of real games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Game {
    /// Contract bridge: 52 cards, four hands of 13 (North, East, South,
    /// West), one card at a time clockwise. No stock.
    Bridge,
    /// Texas hold'em: 52 cards, 2–22 players (default 6). Two hole cards
    /// each, one at a time; then, as in a casino, one card burned before the
    /// flop (3 cards), one before the turn and one before the river, so the
    /// board has 5 cards and the burn pile 3.
    Holdem,
    /// Five-card draw: 52 cards, 2–10 players (default 4), five cards each,
    /// one at a time; the rest is the stock for the draw.
    Draw,
    /// Skat: the 32-card deck, three players of 10 dealt in packets of
    /// 3, then 2 to the skat, then 4, then 3 (the official Skat order).
    Skat,
    /// Scopa: the 40-card Italian deck, 2–4 players (default 2), three cards
    /// each, one at a time, then four face up on the table; the rest is
    /// the stock for later rounds.
    Scopa,
}

impl Game {
    /// All presets.
    pub const ALL: [Game; 5] = [
        Game::Bridge,
        Game::Holdem,
        Game::Draw,
        Game::Skat,
        Game::Scopa,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Game::Bridge => "bridge",
            Game::Holdem => "holdem",
            Game::Draw => "draw",
            Game::Skat => "skat",
            Game::Scopa => "scopa",
        }
    }

    /// The deck the game is played with.
    pub fn deck(self) -> DeckKind {
        match self {
            Game::Bridge | Game::Holdem | Game::Draw => DeckKind::Standard,
            Game::Skat => DeckKind::Piquet,
            Game::Scopa => DeckKind::Italian,
        }
    }

    /// The allowed numbers of players and the default.
    pub fn players(self) -> (core::ops::RangeInclusive<usize>, usize) {
        match self {
            Game::Bridge => (4..=4, 4),
            Game::Holdem => (2..=22, 6),
            Game::Draw => (2..=10, 4),
            Game::Skat => (3..=3, 3),
            Game::Scopa => (2..=4, 2),
        }
    }

    /// The dealing plan for `players` (or the default number).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if the game cannot be played by that many.
    pub fn plan(self, players: Option<usize>) -> Result<DealPlan, Error> {
        let (range, default) = self.players();
        let p = players.unwrap_or(default);
        if !range.contains(&p) {
            let by = match (range.start(), range.end()) {
                (a, b) if a == b => format!("{a}"),
                (a, b) => format!("{a} to {b}"),
            };
            return Err(Error::InvalidDeal(format!(
                "{} is played by {by} players, not {p}",
                self.name()
            )));
        }
        let numbered = |p: usize| (1..=p).map(|i| format!("Player {i}")).collect::<Vec<_>>();
        let plan = match self {
            Game::Bridge => {
                let names = ["North", "East", "South", "West"]
                    .map(String::from)
                    .to_vec();
                DealPlan::rounds(names, 13)
            }
            Game::Holdem => {
                let mut plan = DealPlan::rounds(numbered(p), 2);
                let board = plan.add_pile("Board", PileRole::Board);
                let burn = plan.add_pile("Burn", PileRole::Burn);
                plan.packets.extend([
                    (burn, 1),
                    (board, 3),
                    (burn, 1),
                    (board, 1),
                    (burn, 1),
                    (board, 1),
                ]);
                plan
            }
            Game::Draw => DealPlan::rounds(numbered(p), 5),
            Game::Skat => {
                let names = ["Forehand", "Middlehand", "Rearhand"]
                    .map(String::from)
                    .to_vec();
                let mut plan = DealPlan::rounds(names, 0);
                let skat = plan.add_pile("Skat", PileRole::Kitty);
                plan.packets = [
                    (0, 3),
                    (1, 3),
                    (2, 3),
                    (skat, 2),
                    (0, 4),
                    (1, 4),
                    (2, 4),
                    (0, 3),
                    (1, 3),
                    (2, 3),
                ]
                .to_vec();
                plan
            }
            Game::Scopa => {
                let mut plan = DealPlan::rounds(numbered(p), 3);
                let table = plan.add_pile("Table", PileRole::Board);
                plan.packets.push((table, 4));
                plan
            }
        };
        Ok(plan)
    }
}

impl Game {
    /// Whether the order of the undealt stock matters to the game: yes when
    /// players later draw from it (draw, scopa), no when it is never seen
    /// (hold'em's stock and burns; bridge and skat leave none).
    pub fn stock_is_drawn(self) -> bool {
        matches!(self, Game::Draw | Game::Scopa)
    }

    /// Sorts a hand the way the game's players hold it. O(n log n).
    ///
    /// * bridge, hold'em, draw: by suit ♠ ♥ ♦ ♣, each ace high to two;
    /// * skat: the four jacks first (♣ ♠ ♥ ♦), then the suits ♣ ♠ ♥ ♦, each
    ///   A 10 K Q 9 8 7;
    /// * scopa: by suit (coppe ♥, denari ♦, bastoni ♣, spade ♠), each by
    ///   value from re (K) down to asso (A).
    ///
    /// Jokers go last. Use `None` for a deal that is no preset (bridge order).
    ///
    /// ```
    /// use fairdeck::cards::{Card, Game};
    ///
    /// let mut hand: Vec<Card> = ["2C", "AS", "TH", "KS"].map(|c| c.parse().unwrap()).to_vec();
    /// Game::sort_hand(Some(Game::Bridge), &mut hand);
    /// let text: Vec<String> = hand.iter().map(Card::to_string).collect();
    /// assert_eq!(text, ["AS", "KS", "TH", "2C"]);
    /// ```
    pub fn sort_hand(game: Option<Game>, cards: &mut [Card]) {
        cards.sort_by_key(|&c| hand_key(game, c));
    }
}

/// The sort key of [`Game::sort_hand`]: smaller comes first.
fn hand_key(game: Option<Game>, card: Card) -> (u8, u8) {
    let Card::Suited(rank, suit) = card else {
        return (9, card.to_byte());
    };
    let high = |r: Rank| if r == Rank::Ace { 14 } else { r.code() };
    match game {
        Some(Game::Skat) if rank == Rank::Jack => (0, skat_suit(suit)),
        Some(Game::Skat) => {
            let order = [
                Rank::Ace,
                Rank::Ten,
                Rank::King,
                Rank::Queen,
                Rank::Nine,
                Rank::Eight,
            ];
            let pos = order.iter().position(|&r| r == rank).unwrap_or(6);
            (1 + skat_suit(suit), pos as u8)
        }
        Some(Game::Scopa) => (suit as u8, 14 - rank.code()),
        _ => (bridge_suit(suit), 15 - high(rank)),
    }
}

/// ♠ ♥ ♦ ♣: the order of bridge diagrams and PBN.
pub(super) fn bridge_suit(suit: Suit) -> u8 {
    match suit {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    }
}

/// ♣ ♠ ♥ ♦: skat's suit ranking.
fn skat_suit(suit: Suit) -> u8 {
    match suit {
        Suit::Clubs => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Diamonds => 3,
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = Error;

    fn from_str(s: &str) -> Result<Game, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bridge" => Ok(Game::Bridge),
            "holdem" | "hold'em" | "texas" | "texas-holdem" => Ok(Game::Holdem),
            "draw" | "five-card-draw" | "poker" => Ok(Game::Draw),
            "skat" => Ok(Game::Skat),
            "scopa" => Ok(Game::Scopa),
            _ => Err(Error::UnknownGame(s.to_string())),
        }
    }
}
