//! What a verifier reports about a transcript (`docs/hidden-dealing.md` §15):
//! what it checked, every difference by kind, the cards it could open and
//! the cards that stay hidden. A serde document: front ends render it.

use serde::Serialize;

use crate::Error;
use crate::record::Missing;

/// The verdict on a whole transcript.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// The protocol version checked: 3.
    pub version: u64,
    /// `valid` (no difference) or `invalid`.
    pub verdict: &'static str,
    /// Whether the messages are signed by their authors (version 3.1).
    /// A valid version-3 transcript shows that every proof holds, not who
    /// sent each message.
    pub signed: bool,
    /// Version 3.2: the number `D` of lost seats the table tolerates
    /// (`docs/hidden-dealing-v3.2.md` §29.3); absent before version 3.2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerate: Option<u64>,
    /// Version 3.2: the threshold `t = P − D`, the number of seats whose
    /// shares open a card; absent before version 3.2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<u64>,
    /// Version 3.1: the seats that attested the whole log (§18 check 4).
    pub attested_by: Vec<u64>,
    /// The fingerprint of each key in the transcript (§17), in the order of
    /// its `keys` list, for players to compare outside the room: a seat
    /// that shows another fingerprint for its own key was played by
    /// someone else.
    pub key_fingerprints: Vec<String>,
    /// The table id, when the manifest could be read.
    pub table: Option<String>,
    /// What was checked, one line each.
    pub checked: Vec<String>,
    /// One report per hand of the transcript.
    pub hands: Vec<HandReport>,
    /// Every difference found, in the order of the checks.
    pub differences: Vec<Difference>,
}

/// One failure, by kind, with the hand it is in.
#[derive(Debug, Clone, Serialize)]
pub struct Difference {
    /// The failure kind (`shuffle-proof`, `missing-message`, `replay`, …).
    pub kind: &'static str,
    /// The hand, for a failure inside one.
    pub hand: Option<u64>,
    /// One line saying what differs.
    pub message: String,
    /// Who is at fault, where the transcript shows it: `the room`, or
    /// `seat j` for a failed proof under the seat's own valid signature
    /// (version 3.1). None where the evidence names nobody (an unsigned
    /// message, a missing message without a receipt).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_fault: Option<String>,
    /// The failure as a value.
    #[serde(skip)]
    pub error: Error,
}

/// What one hand showed and what it still hides.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HandReport {
    /// The hand (deal number).
    pub hand: u64,
    /// `complete`, `in progress`, `void` or `not checked further`, with the reason.
    pub status: String,
    /// Shuffle proofs that hold.
    pub shuffles_verified: usize,
    /// Share proofs that hold.
    pub shares_verified: usize,
    /// The community cards shown, street by street.
    pub community: Vec<CardAt>,
    /// The private cards opened at the showdown.
    pub opened: Vec<CardAt>,
    /// The reading seat's own private cards (only with its secret key).
    pub own: Vec<CardAt>,
    /// The positions nobody can read from this transcript, and why.
    pub hidden: Vec<Hidden>,
    /// In progress: the messages each seat still owes for the current stage.
    pub owed: Vec<Owed>,
}

/// A card read from the transcript at a position of the dealt deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardAt {
    /// The position in the dealt deck.
    pub position: u64,
    /// The card's name (`AS`, `TH`, …).
    pub card: String,
    /// The seat it was dealt to (private cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u64>,
    /// The street it was shown on (community cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
}

/// Positions that stay hidden, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hidden {
    /// Whose or what they are, and why nobody reads them.
    pub what: String,
    /// The positions.
    pub positions: Vec<u64>,
}

/// What one seat still owes in the current stage of a hand in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Owed {
    /// The seat.
    pub seat: u64,
    /// The stage's name.
    pub stage: String,
    /// The messages it has not sent yet.
    pub missing: Vec<Missing>,
}

impl Difference {
    /// A difference from a failure, in a hand or at the table's level.
    pub fn new(hand: Option<u64>, error: Error) -> Difference {
        let message = match hand {
            Some(n) => format!("hand {n}: {error}"),
            None => error.to_string(),
        };
        Difference {
            kind: error.kind(),
            hand,
            message,
            at_fault: None,
            error,
        }
    }
}

impl Verdict {
    /// Whether nothing differs.
    pub fn is_valid(&self) -> bool {
        self.differences.is_empty()
    }

    /// The kinds of the differences, each once, in order of appearance.
    pub fn kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<&'static str> = Vec::new();
        for d in &self.differences {
            if !kinds.contains(&d.kind) {
                kinds.push(d.kind);
            }
        }
        kinds
    }

    /// The one-line summary: `valid: …` or `invalid: N difference(s): kinds`.
    pub fn summary(&self) -> String {
        if self.is_valid() && self.signed {
            return "valid: every message is in its place, signed by its seat, and every proof listed holds".into();
        }
        if self.is_valid() {
            return "valid: every message is in its place and every proof listed holds (version 3: messages are not signed, so this does not show who sent each)".into();
        }
        format!(
            "invalid: {} difference(s): {}",
            self.differences.len(),
            self.kinds().join(", ")
        )
    }
}
