//! Tournament boards: the board number fixes the dealer and the
//! vulnerability (the standard 16-board cycle) and, in fairdeck, the
//! board's own random stream.

use core::fmt;
use core::ops::RangeInclusive;

use sha2::{Digest, Sha256};

use super::{Card, Rank};
use crate::Error;
use crate::rng::Seed;

/// A seat at the bridge table, clockwise from North.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// North (deals board 1).
    North,
    /// East.
    East,
    /// South.
    South,
    /// West.
    West,
}

impl Seat {
    /// All seats clockwise from North: the order of the four hands of a deal.
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    /// `N`, `E`, `S` or `W`.
    pub fn letter(self) -> char {
        b"NESW"[self as usize] as char
    }

    /// `North`, `East`, `South`, `West`.
    pub fn name(self) -> &'static str {
        ["North", "East", "South", "West"][self as usize]
    }

    /// Reads `N`, `E`, `S`, `W` (either case).
    pub fn from_letter(c: char) -> Option<Seat> {
        "NESW".find(c.to_ascii_uppercase()).map(|i| Seat::ALL[i])
    }

    /// The seat `k` places clockwise from this one.
    pub fn clockwise(self, k: usize) -> Seat {
        Seat::ALL[(self as usize + k) % 4]
    }
}

/// Which sides are vulnerable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vulnerability {
    /// Neither side.
    None,
    /// North–South.
    NorthSouth,
    /// East–West.
    EastWest,
    /// Both sides.
    All,
}

impl Vulnerability {
    /// The PBN spelling: `None`, `NS`, `EW`, `All`.
    pub fn pbn(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::NorthSouth => "NS",
            Vulnerability::EastWest => "EW",
            Vulnerability::All => "All",
        }
    }

    /// Reads the PBN spellings, also `Love`/`-` (none) and `Both` (all).
    pub fn from_pbn(text: &str) -> Option<Vulnerability> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "love" | "-" => Some(Vulnerability::None),
            "ns" => Some(Vulnerability::NorthSouth),
            "ew" => Some(Vulnerability::EastWest),
            "all" | "both" => Some(Vulnerability::All),
            _ => None,
        }
    }
}

impl fmt::Display for Vulnerability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pbn())
    }
}

/// A board number (1, 2, …) and what it fixes.
///
/// ```
/// use fairdeck::cards::{Board, Seat, Vulnerability};
///
/// let b = Board::new(7)?;
/// assert_eq!((b.dealer(), b.vulnerable()), (Seat::South, Vulnerability::All));
/// assert_eq!(Board::new(17)?.vulnerable(), Board::new(1)?.vulnerable());
/// # Ok::<(), fairdeck::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board(u64);

/// Vulnerability of boards 1–16; the cycle repeats from board 17.
const CYCLE: [Vulnerability; 16] = {
    use Vulnerability::{All, EastWest as EW, None, NorthSouth as NS};
    [
        None, NS, EW, All, NS, EW, All, None, EW, All, None, NS, All, None, NS, EW,
    ]
};

/// The tag that opens every board-stream derivation.
const BOARD_TAG: &[u8; 17] = b"fairdeck-board-v1";

impl Board {
    /// Board `number`, counted from 1.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] for board 0.
    pub fn new(number: u64) -> Result<Board, Error> {
        if number == 0 {
            return Err(Error::InvalidDeal("boards are numbered from 1".into()));
        }
        Ok(Board(number))
    }

    /// The board number.
    pub fn number(self) -> u64 {
        self.0
    }

    /// The dealer: N, E, S, W in turn from board 1.
    pub fn dealer(self) -> Seat {
        Seat::ALL[((self.0 - 1) % 4) as usize]
    }

    /// The vulnerability of the standard 16-board cycle.
    pub fn vulnerable(self) -> Vulnerability {
        CYCLE[((self.0 - 1) % 16) as usize]
    }

    /// The key of this board's own random stream:
    /// SHA-256("fairdeck-board-v1" ‖ the 32 session key bytes ‖ board
    /// number as u64 big-endian). Each board depends only on the session
    /// seed and its number, so dealing boards 1–32 or 17–20 gives board 18
    /// the same cards. O(1).
    ///
    /// ```
    /// use fairdeck::cards::Board;
    /// use fairdeck::rng::Seed;
    ///
    /// let session = Seed::parse("club night");
    /// assert_ne!(Board::new(1)?.seed(&session), Board::new(2)?.seed(&session));
    /// assert_eq!(Board::new(2)?.seed(&session), Board::new(2)?.seed(&session));
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    pub fn seed(self, session: &Seed) -> Seed {
        let mut h = Sha256::new();
        h.update(BOARD_TAG);
        h.update(session.as_bytes());
        h.update(self.0.to_be_bytes());
        Seed::from_bytes(h.finalize().into())
    }

    /// Reads a board range: `N` or `A-B` with 1 ≤ A ≤ B.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] for anything else.
    pub fn parse_range(text: &str) -> Result<RangeInclusive<u64>, Error> {
        let bad = || Error::InvalidDeal(format!("boards {text:?}: write N or A-B, e.g. 1-32"));
        let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
        let (a, b) = match text.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(text)?, num(text)?),
        };
        if a == 0 || a > b {
            return Err(bad());
        }
        Ok(a..=b)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// High-card points (Milton Work count): ace 4, king 3, queen 2, jack 1.
///
/// ```
/// let hand: Vec<fairdeck::cards::Card> = ["AS", "KH", "QD", "JC", "TS"].map(|c| c.parse().unwrap()).to_vec();
/// assert_eq!(fairdeck::cards::high_card_points(&hand), 10);
/// ```
pub fn high_card_points(cards: &[Card]) -> u32 {
    cards
        .iter()
        .map(|c| match c {
            Card::Suited(Rank::Ace, _) => 4,
            Card::Suited(Rank::King, _) => 3,
            Card::Suited(Rank::Queen, _) => 2,
            Card::Suited(Rank::Jack, _) => 1,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixteen_board_cycle() {
        let vul: String = (1..=16)
            .map(|b| Board::new(b).unwrap().vulnerable().pbn())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            vul,
            "None NS EW All NS EW All None EW All None NS All None NS EW"
        );
        let dealers: String = (1..=8)
            .map(|b| Board::new(b).unwrap().dealer().letter())
            .collect();
        assert_eq!(dealers, "NESWNESW");
        for b in 1..=64 {
            let (x, y) = (Board::new(b).unwrap(), Board::new(b + 16).unwrap());
            assert_eq!((x.dealer(), x.vulnerable()), (y.dealer(), y.vulnerable()));
        }
    }

    #[test]
    fn ranges() {
        assert_eq!(Board::parse_range("1-32").unwrap(), 1..=32);
        assert_eq!(Board::parse_range("5").unwrap(), 5..=5);
        for bad in ["", "0", "0-3", "4-2", "a-b", "1-", "-3", "1-2-3"] {
            assert!(Board::parse_range(bad).is_err(), "{bad}");
        }
        assert!(Board::new(0).is_err());
    }
}
