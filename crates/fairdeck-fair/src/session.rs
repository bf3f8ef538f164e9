//! Board sessions: one commitment covers every board of an event.
//!
//! Board `b` of a session is the version-1 deal with nonce `b` (section 7
//! of `docs/fair-dealing.md`): the standard deck shuffled from
//! `(secret, client seed, b)`, dealt one card at a time to North, East,
//! South, West, so deck position `p` goes to seat `p mod 4`. Dealer and
//! vulnerability follow the board number (the 16-board cycle). Nothing of
//! the version-1 derivation changes: a board is checkable by any v1
//! verifier given its nonce.
//!
//! ```
//! use fairdeck::cards::Board;
//! use fairdeck_fair::{self as fair, ServerSecret};
//!
//! let secret = ServerSecret::from_bytes([7; 32]);
//! let boards: Vec<_> = (1..=4)
//!     .map(|b| fair::session_board(&secret, "players", Board::new(b).unwrap()))
//!     .collect();
//! let checks = fair::verify_session(&secret, "players", &boards);
//! assert!(checks.iter().all(|c| c.differences.is_empty()));
//! ```

use super::{ServerSecret, shuffled_deck};
use fairdeck::cards::pbn::PbnBoard;
use fairdeck::cards::{Board, Card, DeckKind, Seat};

/// Board `board` of the session fixed by `secret` and `client_seed`: the
/// v1 deck of nonce = board number, dealt round the table from North.
/// O(52).
pub fn session_board(secret: &ServerSecret, client_seed: &str, board: Board) -> PbnBoard {
    let deck = shuffled_deck(secret, client_seed, board.number(), DeckKind::Standard);
    let hands: [Vec<Card>; 4] =
        core::array::from_fn(|seat| deck.iter().skip(seat).step_by(4).copied().collect());
    PbnBoard::new(board, hands)
}

/// The result of checking one board of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardCheck {
    /// The board number.
    pub board: u64,
    /// What differs from the derivation; empty when the board is valid.
    pub differences: Vec<String>,
}

/// Checks every board against the session's derivation: each hand (as a
/// set of cards), the dealer and the vulnerability. The commitment is
/// checked separately (see [`ServerSecret::commitment`]). O(52) per board.
pub fn verify_session(
    secret: &ServerSecret,
    client_seed: &str,
    boards: &[PbnBoard],
) -> Vec<BoardCheck> {
    boards
        .iter()
        .map(|claimed| {
            let expected = session_board(secret, client_seed, claimed.board);
            BoardCheck {
                board: claimed.board.number(),
                differences: differences(claimed, &expected),
            }
        })
        .collect()
}

/// Each difference in words, e.g. "North's hand: 2 cards differ (has AS KH, derivation gives 2C 3D)".
fn differences(claimed: &PbnBoard, expected: &PbnBoard) -> Vec<String> {
    let mut out = Vec::new();
    for seat in Seat::ALL {
        let (c, e) = (
            &claimed.hands[seat as usize],
            &expected.hands[seat as usize],
        );
        let extra: Vec<String> = c
            .iter()
            .filter(|x| !e.contains(x))
            .map(Card::to_string)
            .collect();
        let missing: Vec<String> = e
            .iter()
            .filter(|x| !c.contains(x))
            .map(Card::to_string)
            .collect();
        if !extra.is_empty() || !missing.is_empty() {
            out.push(format!(
                "{}'s hand: {} card(s) differ (has {}, the derivation gives {})",
                seat.name(),
                extra.len().max(missing.len()),
                list(&extra),
                list(&missing)
            ));
        }
    }
    if claimed.dealer != expected.dealer {
        out.push(format!(
            "dealer {} (board {} is dealt by {})",
            claimed.dealer.letter(),
            claimed.board,
            expected.dealer.letter()
        ));
    }
    if claimed.vulnerable != expected.vulnerable {
        out.push(format!(
            "vulnerable {} (board {} is {})",
            claimed.vulnerable, claimed.board, expected.vulnerable
        ));
    }
    out
}

fn list(cards: &[String]) -> String {
    if cards.is_empty() {
        "none".into()
    } else {
        cards.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ServerSecret, shuffled_deck};

    #[test]
    fn a_board_is_the_v1_deal_of_its_nonce() {
        let secret = ServerSecret::from_bytes([3; 32]);
        let b = session_board(&secret, "c", Board::new(5).unwrap());
        let deck = shuffled_deck(&secret, "c", 5, DeckKind::Standard);
        assert!(b.hands[Seat::West as usize].contains(&deck[3]));
        assert!(b.hands[Seat::North as usize].contains(&deck[48]));
        assert_eq!(b.dealer, Seat::North);
    }

    #[test]
    fn tampered_boards_are_listed() {
        let secret = ServerSecret::from_bytes([9; 32]);
        let mut boards: Vec<PbnBoard> = (1..=6)
            .map(|n| session_board(&secret, "c", Board::new(n).unwrap()))
            .collect();
        // Swap a card between North and South on board 2; move the dealer on board 5.
        let (n, s) = (Seat::North as usize, Seat::South as usize);
        let card = boards[1].hands[n].pop().unwrap();
        let other = boards[1].hands[s].pop().unwrap();
        boards[1].hands[n].push(other);
        boards[1].hands[s].push(card);
        boards[4].dealer = Seat::South;
        let checks = verify_session(&secret, "c", &boards);
        let bad: Vec<u64> = checks
            .iter()
            .filter(|c| !c.differences.is_empty())
            .map(|c| c.board)
            .collect();
        assert_eq!(bad, [2, 5]);
        assert_eq!(checks[1].differences.len(), 2);
        assert!(checks[1].differences[0].starts_with("North's hand: 1 card(s) differ"));
        // Another client seed: every board differs.
        assert!(
            verify_session(&secret, "d", &boards)
                .iter()
                .all(|c| !c.differences.is_empty())
        );
    }
}
