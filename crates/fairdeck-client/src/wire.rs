//! What the table service and its clients exchange over HTTP, beyond the
//! protocol's own messages (which are [`fairdeck_hidden`]'s): a hidden
//! table's [`Status`] and [`SeatLink`], a seat's [`Post`], and the table
//! ids the service accepts. The service (`fairdeck-table`) builds and reads
//! these same types, so the two sides cannot drift apart; they live on the
//! client's side so that a client links no server code.
//!
//! Everything on a hidden table is public — the messages open no card
//! without the seats' keys, which the service never holds — so one status
//! serves the seats, the operator and onlookers alike.

use fairdeck_fair::Manifest;
use fairdeck_hidden::dleq::ShareMessage;
use fairdeck_hidden::head::{Evidence, SignedHead};
use fairdeck_hidden::keys::KeyMessage;
use fairdeck_hidden::ledger::{Attestation, Receipt};
use fairdeck_hidden::record::Missing;
use fairdeck_hidden::shuffle::ShuffleMessage;
use serde::{Deserialize, Serialize};

/// The table ids the service accepts, as an HTML `pattern` (and a
/// JavaScript `v`-flag regular expression): 1 to 64 of letters, digits,
/// `_`, `.` and `-`, not starting with `.` or `-`. An id is a path segment
/// of every URL of its table, so `/`, `?`, `#`, `%`, spaces and `..` are
/// out. The table page's form uses this very pattern.
pub const TABLE_ID_PATTERN: &str = r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}";

/// Whether `id` matches [`TABLE_ID_PATTERN`]. O(id).
///
/// ```
/// use fairdeck_client::wire::table_id_ok;
/// assert!(table_id_ok("table-2026.11_b"));
/// assert!(!table_id_ok("../x"));
/// ```
pub fn table_id_ok(id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut chars = id.chars();
    id.len() <= 64
        && chars.next().is_some_and(word)
        && chars.all(|c| word(c) || c == '.' || c == '-')
}

/// `GET /api/hidden/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// The table id.
    pub table: String,
    /// The manifest (version 3).
    pub manifest: Manifest,
    /// Seconds a seat may take for each message the table waits for.
    pub step_seconds: u64,
    /// `keys` (waiting for keys), `playing`, `finished` or `void`.
    pub state: String,
    /// The hand in play (`null` once the table is over).
    pub hand: Option<u64>,
    /// The stage that waits for messages (`keys`, `shuffle`, `deal`, a
    /// street), or `null` when the table waits for the operator or is over.
    pub stage: Option<String>,
    /// What each seat still owes in that stage.
    pub owed: Vec<SeatOwes>,
    /// When the stage's window closes (Unix seconds): a seat that still
    /// owes a message then voids the table.
    pub deadline: Option<u64>,
    /// The streets of the hand in play the operator has opened.
    pub streets_open: usize,
    /// Whether the operator has opened the showdown of the hand in play.
    pub showdown: bool,
    /// What the operator may do next (`flop`, `showdown`, `end`, …), when
    /// nothing is owed.
    pub next: Vec<String>,
    /// The number of accepted changes (a new one changes the status).
    pub entries: u64,
    /// Version 3.1, in the answer to a seat's message: the room's receipt
    /// for each message it accepted (§18). The seat keeps them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub receipts: Vec<Receipt>,
}

/// One seat's missing messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOwes {
    /// The seat.
    pub seat: u64,
    /// What it has not sent.
    pub missing: Vec<Missing>,
}

impl Status {
    /// What seat `seat` owes now, if anything.
    pub fn owed_by(&self, seat: u64) -> Option<&[Missing]> {
        let owes = self.owed.iter().find(|o| o.seat == seat)?;
        Some(&owes.missing)
    }
}

/// `GET /api/hidden/{id}/seats/{seat}` with the seat's token: the link is
/// good. A seat page asks this before it makes a key, so a bad link stops
/// it with nothing made or kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLink {
    /// The table id.
    pub table: String,
    /// The seat.
    pub seat: u64,
    /// The seat's name in the manifest.
    pub name: String,
    /// Whether the table holds the seat's key message.
    pub key_sent: bool,
}

/// A seat's message, posted to `/api/hidden/{id}/seats/{seat}/{route}`.
#[derive(Debug, Clone)]
pub enum Post {
    /// Its key with the key proof.
    Key(KeyMessage),
    /// Its shuffle of the hand in play with the shuffle proof.
    Shuffle(Box<ShuffleMessage>),
    /// Its shares of one stage, each with its proof.
    Shares(Vec<ShareMessage>),
    /// Version 3.1: its signature on the whole log, once the table is over.
    Attestation(Attestation),
}

impl Post {
    /// The last segment of the route it is posted to: `key`, `shuffle`,
    /// `shares`, `attestation`.
    pub fn route(&self) -> &'static str {
        match self {
            Post::Key(_) => "key",
            Post::Shuffle(_) => "shuffle",
            Post::Shares(_) => "shares",
            Post::Attestation(_) => "attestation",
        }
    }

    /// The request body: the message (or the list of shares) as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let value = match self {
            Post::Key(m) => serde_json::to_value(m),
            Post::Shuffle(m) => serde_json::to_value(m),
            Post::Shares(m) => serde_json::to_value(m),
            Post::Attestation(a) => serde_json::to_value(a),
        };
        // Plain structs of strings and integers always serialize.
        value.unwrap_or_default()
    }
}

/// What the room signed for a seat in one answer (version 3.1, §19): the
/// receipts in the answer to a post (`posted`), the head of a served
/// transcript otherwise. Anything else in the answer is ignored; an answer
/// without them holds none. O(answer).
pub fn evidence_in(answer: &serde_json::Value, posted: bool) -> Vec<Evidence> {
    if posted {
        return receipts_in(answer)
            .into_iter()
            .map(Evidence::Receipt)
            .collect();
    }
    let head = answer.get("head").cloned().unwrap_or_default();
    serde_json::from_value::<SignedHead>(head)
        .map(Evidence::Head)
        .into_iter()
        .collect()
}

/// The receipts in the answer to a seat's post (none if it holds none). O(answer).
pub fn receipts_in(answer: &serde_json::Value) -> Vec<Receipt> {
    let receipts = answer.get("receipts").cloned().unwrap_or_default();
    serde_json::from_value(receipts).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_ids() {
        for ok in ["t1", "a", "_x", "table-2026.11_b", &"x".repeat(64)] {
            assert!(table_id_ok(ok), "{ok}");
        }
        for bad in [
            "",
            "..",
            ".",
            ".hidden",
            "-x",
            "a/b?c#d",
            "a b",
            "a%2F",
            "é",
            &"x".repeat(65),
        ] {
            assert!(!table_id_ok(bad), "{bad}");
        }
    }

    #[test]
    fn answers_without_signed_items_hold_no_evidence() {
        let none = serde_json::json!({"receipts": "not a list", "head": 7});
        assert!(evidence_in(&none, true).is_empty());
        assert!(evidence_in(&none, false).is_empty());
        assert!(receipts_in(&serde_json::json!({})).is_empty());
    }
}
