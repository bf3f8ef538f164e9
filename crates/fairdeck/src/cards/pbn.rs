//! Portable Bridge Notation (PBN 2.1, Tis Veugen and Kaj G Backas, eds.,
//! 2017), the import format that bridge software and dealing machines
//! read: per board the tags `Event`, `Site`, `Date`, `Board`, `Dealer`,
//! `Vulnerable` and `Deal`.
//!
//! Over 400 lines on purpose: the writer and the strict reader stay side by
//! side, so that what one writes the other reads (tests in `pbn/tests.rs`).
//!
//! A deal is written `N:` and the four hands clockwise from North, each as
//! spades, hearts, diamonds, clubs separated by dots, ranks `AKQJT98765432`
//! high to low: `N:AK73.T94.Q52.K83 …`.
//!
//! ```
//! use fairdeck::cards::pbn::{self, PbnBoard};
//! use fairdeck::cards::{Board, DeckKind};
//!
//! let deck = DeckKind::Standard.cards();
//! let hands: [Vec<_>; 4] = core::array::from_fn(|h| deck[13 * h..13 * h + 13].to_vec());
//! let board = PbnBoard::new(Board::new(3)?, hands);
//! let text = pbn::write(&[board.clone()]);
//! assert!(text.contains("[Deal \"N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...\"]"));
//! assert_eq!(pbn::read(&text)?, vec![board]);
//! # Ok::<(), fairdeck::Error>(())
//! ```

use std::collections::HashSet;

use super::{Board, Card, Game, Rank, Seat, Suit, Vulnerability};
use crate::Error;

/// One board as PBN carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PbnBoard {
    /// The board number.
    pub board: Board,
    /// Who deals (`[Dealer]`).
    pub dealer: Seat,
    /// Who is vulnerable (`[Vulnerable]`).
    pub vulnerable: Vulnerability,
    /// North, East, South, West: 13 cards each.
    pub hands: [Vec<Card>; 4],
    /// `[Event]`, `[Site]`, `[Date]` (PBN dates are `YYYY.MM.DD`).
    pub event: String,
    /// See `event`.
    pub site: String,
    /// See `event`.
    pub date: String,
}

impl PbnBoard {
    /// A board with the dealer and vulnerability of its number, the hands
    /// sorted ♠ ♥ ♦ ♣ high to low, and empty event, site and date.
    pub fn new(board: Board, mut hands: [Vec<Card>; 4]) -> PbnBoard {
        hands
            .iter_mut()
            .for_each(|h| Game::sort_hand(Some(Game::Bridge), h));
        PbnBoard {
            board,
            dealer: board.dealer(),
            vulnerable: board.vulnerable(),
            hands,
            event: String::new(),
            site: String::new(),
            date: String::new(),
        }
    }
}

const RANKS: &str = "AKQJT98765432";
const SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

/// The `[Deal]` value: `N:` and the hands clockwise from North. O(52).
pub fn deal_value(hands: &[Vec<Card>; 4]) -> String {
    let hand = |cards: &[Card]| {
        let mut sorted = cards.to_vec();
        Game::sort_hand(Some(Game::Bridge), &mut sorted);
        SUITS
            .iter()
            .map(|&s| {
                sorted
                    .iter()
                    .filter_map(|c| match c {
                        Card::Suited(r, t) if *t == s => Some(r.letter()),
                        _ => None,
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    let hands: Vec<String> = hands.iter().map(|h| hand(h)).collect();
    format!("N:{}", hands.join(" "))
}

/// Reads a `[Deal]` value: a first seat, `:`, four hands clockwise.
///
/// # Errors
///
/// A message (without the line) when the value is not a full, valid deal.
pub fn parse_deal(value: &str) -> Result<[Vec<Card>; 4], String> {
    let (first, rest) = value
        .trim()
        .split_once(':')
        .ok_or("the deal must start with the first hand's seat, e.g. \"N:\"")?;
    let mut letters = first.trim().chars();
    let first = match (letters.next().and_then(Seat::from_letter), letters.next()) {
        (Some(s), None) => s,
        _ => return Err(format!("{first:?} is not a seat (N, E, S or W)")),
    };
    let parts: Vec<&str> = rest.split_whitespace().collect();
    if parts.len() != 4 {
        return Err(format!("a deal has 4 hands, found {}", parts.len()));
    }
    let mut hands: [Vec<Card>; 4] = Default::default();
    let mut seen = HashSet::new();
    for (k, part) in parts.iter().enumerate() {
        let seat = first.clockwise(k);
        let hand = parse_hand(part).map_err(|e| format!("{}'s hand: {e}", seat.name()))?;
        if let Some(c) = hand.iter().find(|c| !seen.insert(**c)) {
            return Err(format!("{} appears twice", c.symbol()));
        }
        hands[seat as usize] = hand;
    }
    Ok(hands)
}

fn parse_hand(text: &str) -> Result<Vec<Card>, String> {
    if text == "-" {
        return Err("unknown hands (\"-\") are not supported: give all 52 cards".into());
    }
    let suits: Vec<&str> = text.split('.').collect();
    if suits.len() != 4 {
        return Err(format!("{text:?} needs 4 suits separated by dots"));
    }
    let mut cards = Vec::with_capacity(13);
    for (&suit, ranks) in SUITS.iter().zip(suits) {
        for c in ranks.chars() {
            let i = RANKS
                .find(c.to_ascii_uppercase())
                .ok_or_else(|| format!("{c:?} is not a rank (AKQJT98765432)"))?;
            let rank = Rank::ALL[(13 - i) % 13];
            cards.push(Card::new(rank, suit));
        }
    }
    if cards.len() != 13 {
        return Err(format!("{text:?} holds {} cards, not 13", cards.len()));
    }
    Ok(cards)
}

/// A PBN 2.1 file (import format) of `boards`: one game per board,
/// separated by blank lines. O(total cards).
pub fn write(boards: &[PbnBoard]) -> String {
    write_with_notes(boards, &[])
}

/// [`write()`] with `notes` as `%` comment lines after the header (e.g. the
/// commitment of a verifiable session). Line breaks in a note are dropped.
pub fn write_with_notes(boards: &[PbnBoard], notes: &[String]) -> String {
    let mut out = String::from("% PBN 2.1\n% Portable Bridge Notation, written by fairdeck\n");
    for note in notes {
        out.push_str(&format!("% {}\n", note.replace(['\n', '\r'], " ")));
    }
    for b in boards {
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        };
        tag("Event", &b.event);
        tag("Site", &b.site);
        tag("Date", &b.date);
        tag("Board", &b.board.to_string());
        tag("Dealer", &b.dealer.letter().to_string());
        tag("Vulnerable", b.vulnerable.pbn());
        tag("Deal", &deal_value(&b.hands));
        out.push('\n');
    }
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tags of one game, with the line each came from.
#[derive(Default)]
struct Tags {
    tags: Vec<(String, String, usize)>,
}

/// Reads every game of a PBN file that has a `[Deal]` tag. `%` lines,
/// `{…}` comments and sections after the tags (auction, play) are skipped;
/// a tag value `#` repeats the previous game's value (PBN's inheritance);
/// a missing `[Dealer]` or `[Vulnerable]` follows from the board number.
/// O(length of the text).
///
/// # Errors
///
/// [`Error::InvalidPbn`] naming the first bad line.
pub fn read(text: &str) -> Result<Vec<PbnBoard>, Error> {
    read_lenient(text).map(|(boards, _)| boards)
}

/// [`read()`], also saying what it skipped: one line per game without a
/// `[Deal]` tag and per stretch of lines that are not tags (auction, play
/// and other sections). O(length of the text).
///
/// # Errors
///
/// As [`read()`].
pub fn read_lenient(text: &str) -> Result<(Vec<PbnBoard>, Vec<String>), Error> {
    let mut skipped = Vec::new();
    let mut games = Vec::new();
    let mut current = Tags::default();
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let mut line = raw.trim();
        if in_comment {
            match line.find('}') {
                Some(end) => (in_comment, line) = (false, line[end + 1..].trim()),
                None => continue,
            }
        }
        if line.starts_with('%') || line.starts_with(';') {
            continue;
        }
        if line.is_empty() {
            if !current.tags.is_empty() {
                games.push(std::mem::take(&mut current));
            }
            continue;
        }
        if line.starts_with('{') && !line.contains('}') {
            in_comment = true;
            continue;
        }
        if let Some(tag) = line.strip_prefix('[') {
            let (name, value) =
                parse_tag(tag).map_err(|why| Error::InvalidPbn { line: line_no, why })?;
            current.tags.push((name, value, line_no));
        } else {
            skipped.push(format!("line {line_no}: not a tag (a section's data)"));
        }
    }
    if !current.tags.is_empty() {
        games.push(current);
    }
    let mut boards: Vec<PbnBoard> = Vec::new();
    for game in games {
        match board_of(&game, boards.last(), boards.len())? {
            Some(b) => boards.push(b),
            None => skipped.push(format!(
                "line {}: a game without a [Deal] tag",
                game.tags.first().map_or(0, |t| t.2)
            )),
        }
    }
    Ok((boards, skipped))
}

/// `Name "value"]` (the `[` already taken) → (name, value).
fn parse_tag(tag: &str) -> Result<(String, String), String> {
    let (name, rest) = tag
        .split_once(char::is_whitespace)
        .ok_or("a tag is written [Name \"value\"]")?;
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix("\"]"))
        .ok_or_else(|| format!("the {name} tag's value must be in quotes, then ]"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or("a \\ ends the value")?),
            '"' => return Err(format!("an unescaped quote in the {name} tag")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// The board of one game; `None` for a game without a `[Deal]` tag.
fn board_of(
    game: &Tags,
    previous: Option<&PbnBoard>,
    index: usize,
) -> Result<Option<PbnBoard>, Error> {
    let get = |name: &str| {
        game.tags
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v, l)| (v.as_str(), *l))
    };
    let Some((deal, deal_line)) = get("Deal") else {
        return Ok(None);
    };
    let bad = |line: usize, why: String| Error::InvalidPbn { line, why };
    let inherit = |name: &str, old: Option<String>| match get(name) {
        Some(("#", _)) => old.unwrap_or_default(),
        Some((v, _)) => v.to_string(),
        None => String::new(),
    };
    let board = match get("Board") {
        Some((v, l)) => v
            .trim()
            .parse::<u64>()
            .ok()
            .and_then(|n| Board::new(n).ok())
            .ok_or_else(|| bad(l, format!("board {v:?} is not a number from 1"))),
        None => Ok(Board::new(index as u64 + 1)?),
    }?;
    let hands = parse_deal(deal).map_err(|why| bad(deal_line, why))?;
    let mut parsed = PbnBoard::new(board, hands);
    if let Some((v, l)) = get("Dealer") {
        let mut c = v.trim().chars();
        parsed.dealer = match (c.next().and_then(Seat::from_letter), c.next()) {
            (Some(s), None) => s,
            _ => return Err(bad(l, format!("dealer {v:?} is not N, E, S or W"))),
        };
    }
    if let Some((v, l)) = get("Vulnerable") {
        parsed.vulnerable = Vulnerability::from_pbn(v)
            .ok_or_else(|| bad(l, format!("vulnerable {v:?} is not None, NS, EW or All")))?;
    }
    parsed.event = inherit("Event", previous.map(|p| p.event.clone()));
    parsed.site = inherit("Site", previous.map(|p| p.site.clone()));
    parsed.date = inherit("Date", previous.map(|p| p.date.clone()));
    Ok(Some(parsed))
}

mod forbidden;
mod strict;

pub use forbidden::{FORBIDDEN, is_forbidden};
pub use strict::read_strict;

#[cfg(test)]
mod tests;
