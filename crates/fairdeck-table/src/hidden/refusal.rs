//! Why a hidden table refuses a request: a message that fails its check
//! (the failure kind of `docs/hidden-dealing.md` §12/§15 and the seat
//! named), a message that is not due yet, or a table-level refusal.

use core::fmt;

/// A refused request to a hidden table.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// The message fails a check of the protocol: never accepted, whenever sent.
    Message {
        /// The failure, whose [`kind`](fairdeck_hidden::Error::kind) the answer names.
        error: fairdeck_hidden::Error,
        /// The seat that sent it.
        seat: u64,
        /// The hand, when the message is of one.
        hand: Option<u64>,
    },
    /// The message may be right, but not now (not the seat's turn, the
    /// stage not open, the hand or table over): the client waits and reads
    /// the table again.
    NotNow(String),
    /// A refusal of the service itself: token, table id, request, storage.
    Table(crate::Error),
}

impl Refused {
    /// A message's failure, for `seat` in `hand`.
    pub fn message(error: fairdeck_hidden::Error, seat: u64, hand: Option<u64>) -> Refused {
        Refused::Message { error, seat, hand }
    }

    /// The failure kind of a refused message (`shuffle-proof`, `replay`, …).
    pub fn kind(&self) -> Option<&'static str> {
        match self {
            Refused::Message { error, .. } => Some(error.kind()),
            _ => None,
        }
    }
}

impl From<crate::Error> for Refused {
    fn from(e: crate::Error) -> Refused {
        Refused::Table(e)
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Message { error, seat, hand } => {
                let at = hand.map_or(String::new(), |h| format!(" in hand {h}"));
                write!(f, "refused: seat {seat}'s message{at}: {error}")
            }
            Refused::NotNow(why) => write!(f, "not now: {why}"),
            Refused::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Refused {}
