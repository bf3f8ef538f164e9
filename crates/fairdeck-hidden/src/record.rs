//! The version-3 transcript: every message of one table in its place, read
//! strictly (`docs/hidden-dealing.md` §14).
//!
//! Reading refuses duplicate keys, unknown or missing fields and
//! non-canonical hex ([`Record::from_json`]); writing gives the same
//! document back ([`Record::to_json`]).

use fairdeck_fair::Manifest;
use serde::{Deserialize, Serialize};

use crate::dkg::{ComplaintMessage, DealingMessage, ReadyMessage};
use crate::dleq::ShareMessage;
use crate::head::{Attestation, SignedHead};
use crate::keys::KeyMessage;
use crate::shuffle::ShuffleMessage;
use crate::wire::Hex32;
use crate::{Error, VERSION};

/// The largest transcript [`Record::from_json`] reads (64 MiB).
pub const MAX_BYTES: usize = 64 << 20;

/// Why a text that begins with U+FEFF is refused.
const BOM: &str = "a byte order mark (U+FEFF) before the document: a transcript is UTF-8 JSON text without one (RFC 8259 section 8.1)";

/// What a JSON syntax error means for a transcript.
mod json;
#[cfg(test)]
mod tests;

/// The revision of version 3.2 (`docs/hidden-dealing-v3.2.md` §28).
pub const TOLERANT_REVISION: u64 = 2;

const NOT_JSON: &str =
    "not exactly one JSON document (RFC 8259: no NaN or Infinity, nothing after the document)";

/// A version-3 transcript of one table.
///
/// On the wire the manifest carries version 3.2's `tolerate` (§21.1) among
/// its fields; here it is [`Record::tolerate`] (see `record/json.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "json::RecordWire", into = "json::RecordWire")]
pub struct Record {
    /// Always 3.
    pub version: u64,
    /// 2 for version 3.2 (a threshold key, `docs/hidden-dealing-v3.2.md`),
    /// 1 for version 3.1 (messages signed, the room's log), 0 (left out)
    /// for plain version 3.
    pub revision: u64,
    /// The table's manifest (version 3).
    pub manifest: Manifest,
    /// Version 3.2: the manifest's `tolerate`, the number `D` of lost
    /// seats the table tolerates (§21.1); `None` when the field is absent.
    pub tolerate: Option<u64>,
    /// Version 3.1: the room's public signing key (none: a table without a
    /// room, played offline).
    pub room: Option<Hex32>,
    /// One key message per seat, in seat order.
    pub keys: Vec<KeyMessage>,
    /// Version 3.2: one dealing per seat, the k-th of seat k (§28.2).
    pub dealings: Vec<DealingMessage>,
    /// Version 3.2: one `ready` per seat, the k-th of seat k (§28.2).
    pub readies: Vec<ReadyMessage>,
    /// Version 3.2: the complaints, in any order (§22.5).
    pub complaints: Vec<ComplaintMessage>,
    /// The void record of a table whose keys (or, in version 3.2, whose
    /// dealings or readies) never all arrived.
    pub void: Option<Void>,
    /// The hands played, hand numbers increasing.
    pub hands: Vec<HandRecord>,
    /// Version 3.1: the digests of every message and void record, in the
    /// order the room accepted them (§18).
    pub log: Vec<Hex32>,
    /// Version 3.1: the room's signed head of the whole log.
    pub head: Option<SignedHead>,
    /// Version 3.1: the seats' signatures on the log they verified.
    pub attestations: Vec<Attestation>,
}

/// One hand's messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    /// The hand (deal number).
    pub hand: u64,
    /// The shuffles, in seat order.
    pub shuffles: Vec<ShuffleMessage>,
    /// The shares of private positions (from every seat but the owner).
    pub deal: Vec<ShareMessage>,
    /// The streets shown, in the layout's order.
    pub streets: Vec<StreetRecord>,
    /// The shares by which seats open their own private cards.
    pub showdown: Vec<ShareMessage>,
    /// The void record of a hand that stalled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub void: Option<Void>,
}

/// One street's shares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreetRecord {
    /// The street's name (`flop`, `turn`, `river`, `table`).
    pub street: String,
    /// Every seat's share of every position of the street.
    pub shares: Vec<ShareMessage>,
}

/// A stall: the stage, the seat, and what it did not send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Void {
    /// `keys`, `shuffle`, `deal` or a street's name.
    pub stage: String,
    /// The stalled seat (the lowest, if several stalled).
    pub seat: u64,
    /// Exactly the messages of that seat the stage needed and did not get.
    pub missing: Vec<Missing>,
}

/// A message that was not sent: on the wire `{"message": "key"}`,
/// `{"message": "shuffle"}` or `{"message": "share", "position": p}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "MissingWire", into = "MissingWire")]
pub enum Missing {
    /// The seat's key message.
    Key,
    /// The seat's shuffle.
    Shuffle,
    /// Version 3.2: the seat's dealing (§22.3).
    Dealing,
    /// Version 3.2: the seat's `ready` (§22.4).
    Ready,
    /// The seat's share of a position.
    Share {
        /// The position in the dealt deck.
        position: u64,
    },
}

/// The wire form of [`Missing`], read strictly (serde's tagged enums let
/// unknown fields of unit variants through).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MissingWire {
    message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    position: Option<u64>,
}

impl TryFrom<MissingWire> for Missing {
    type Error = String;
    fn try_from(w: MissingWire) -> Result<Missing, String> {
        match (w.message.as_str(), w.position) {
            ("key", None) => Ok(Missing::Key),
            ("shuffle", None) => Ok(Missing::Shuffle),
            ("dealing", None) => Ok(Missing::Dealing),
            ("ready", None) => Ok(Missing::Ready),
            ("share", Some(position)) => Ok(Missing::Share { position }),
            (m, _) => Err(format!(
                "a missing message is key, shuffle, dealing, ready (no position) or share (a position), not {m:?}"
            )),
        }
    }
}

impl From<Missing> for MissingWire {
    fn from(m: Missing) -> MissingWire {
        let (message, position) = match m {
            Missing::Key => ("key", None),
            Missing::Shuffle => ("shuffle", None),
            Missing::Dealing => ("dealing", None),
            Missing::Ready => ("ready", None),
            Missing::Share { position } => ("share", Some(position)),
        };
        MissingWire {
            message: message.into(),
            position,
        }
    }
}

impl core::fmt::Display for Missing {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Missing::Key => f.write_str("its key"),
            Missing::Shuffle => f.write_str("its shuffle"),
            Missing::Dealing => f.write_str("its dealing"),
            Missing::Ready => f.write_str("its ready"),
            Missing::Share { position } => write!(f, "its share of position {position}"),
        }
    }
}

impl Record {
    /// An empty version-3 transcript for `manifest`: no keys, no hands,
    /// messages not signed (see [`Record::signed`]).
    pub fn new(manifest: Manifest) -> Record {
        Record {
            version: VERSION,
            revision: 0,
            manifest,
            tolerate: None,
            room: None,
            keys: Vec::new(),
            dealings: Vec::new(),
            readies: Vec::new(),
            complaints: Vec::new(),
            void: None,
            hands: Vec::new(),
            log: Vec::new(),
            head: None,
            attestations: Vec::new(),
        }
    }

    /// An empty version-3.1 transcript (§17–§19): every message signed by
    /// its seat and logged; `room` is the room's public signing key, or
    /// `None` for a table without a room.
    pub fn signed(manifest: Manifest, room: Option<Hex32>) -> Record {
        Record {
            revision: crate::REVISION,
            room,
            ..Record::new(manifest)
        }
    }

    /// An empty version-3.2 transcript (`docs/hidden-dealing-v3.2.md`
    /// §28) of a table tolerating `tolerate` lost seats: signed and logged
    /// as version 3.1, with a table stage of dealings and one of readies
    /// after the keys. The manifest's rules (§21.1) are the verifier's.
    pub fn tolerant(manifest: Manifest, tolerate: u64, room: Option<Hex32>) -> Record {
        Record {
            revision: TOLERANT_REVISION,
            tolerate: Some(tolerate),
            ..Record::signed(manifest, room)
        }
    }

    /// The table this record's manifest (and, in version 3.2, its
    /// `tolerate`) describes.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] naming the broken rule (§4.1, §21.1: `tolerate`
    /// present exactly in revision 2, between 1 and `P − 2`, a game with
    /// folds).
    pub fn table(&self) -> Result<crate::Table, Error> {
        match (self.revision == TOLERANT_REVISION, self.tolerate) {
            (false, None) => crate::Table::new(self.manifest.clone()),
            (true, Some(d)) => crate::Table::with_tolerance(self.manifest.clone(), d),
            (true, None) => Err(Error::Manifest(
                "a revision-2 table has the field tolerate (§21.1 rule 1)".into(),
            )),
            (false, Some(_)) => Err(Error::Manifest(
                "the field tolerate belongs to revision 2 only (§21.1 rule 1)".into(),
            )),
        }
    }

    /// The stage of the table's void record, if it has one.
    pub fn void_stage(&self) -> Option<&str> {
        self.void.as_ref().map(|v| v.stage.as_str())
    }

    /// Whether messages are signed and logged (version 3.1).
    pub fn is_signed(&self) -> bool {
        self.revision >= crate::REVISION
    }

    /// Reads a transcript strictly: a text that is not exactly one JSON
    /// document (RFC 8259: a byte order mark before it, `NaN` or
    /// `Infinity`, anything after it such as a second document), duplicate
    /// keys, unknown or missing fields, numbers that are not `u64`, and
    /// 32-byte fields that are not 64 lowercase hex digits are refused.
    /// O(length).
    ///
    /// # Errors
    ///
    /// [`Error::Document`] saying what is wrong and where.
    pub fn from_json(text: &str) -> Result<Record, Error> {
        if text.len() > MAX_BYTES {
            return Err(Error::Document("larger than 64 MiB".into()));
        }
        if text.starts_with('\u{feff}') {
            return Err(Error::Document(BOM.into()));
        }
        serde_json::from_str(text).map_err(|e| {
            Error::Document(match e.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    format!("{NOT_JSON}: {e}")
                }
                _ => e.to_string(),
            })
        })
    }

    /// [`Record::from_json`] of bytes: bytes that are not UTF-8 are
    /// refused first. O(length).
    ///
    /// ```
    /// use fairdeck_hidden::record::Record;
    ///
    /// let err = Record::from_bytes(b"{\"version\": 3, \xff}").unwrap_err();
    /// assert_eq!(err.kind(), "document");
    /// assert!(err.to_string().contains("not UTF-8"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Document`] saying what is wrong and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<Record, Error> {
        if bytes.len() > MAX_BYTES {
            return Err(Error::Document("larger than 64 MiB".into()));
        }
        let text = core::str::from_utf8(bytes).map_err(|e| {
            Error::Document(format!(
                "not UTF-8 text: the byte at offset {} begins no UTF-8 character",
                e.valid_up_to()
            ))
        })?;
        Record::from_json(text)
    }

    /// The document as JSON, two-space indented.
    pub fn to_json(&self) -> String {
        // Serialising plain structs of strings and integers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The record of hand `hand`, if present.
    pub fn hand(&self, hand: u64) -> Option<&HandRecord> {
        self.hands.iter().find(|h| h.hand == hand)
    }

    /// The record of hand `hand`, added (empty) at the end if absent.
    ///
    /// # Errors
    ///
    /// [`Error::HandOrder`] if the hand is absent and not greater than the
    /// last hand of the record (hands are played in increasing order).
    pub fn hand_mut(&mut self, hand: u64) -> Result<&mut HandRecord, Error> {
        if let Some(i) = self.hands.iter().position(|h| h.hand == hand) {
            return Ok(&mut self.hands[i]);
        }
        if self.hands.last().is_some_and(|h| h.hand >= hand) {
            return Err(Error::HandOrder(hand));
        }
        self.hands.push(HandRecord::new(hand));
        Ok(self.hands.last_mut().expect("just pushed"))
    }
}

impl HandRecord {
    /// An empty record of hand `hand`.
    pub fn new(hand: u64) -> HandRecord {
        HandRecord {
            hand,
            shuffles: Vec::new(),
            deal: Vec::new(),
            streets: Vec::new(),
            showdown: Vec::new(),
            void: None,
        }
    }

    /// Every share message of the hand, wherever it is.
    pub fn all_shares(&self) -> impl Iterator<Item = &ShareMessage> {
        let streets = self.streets.iter().flat_map(|s| &s.shares);
        self.deal.iter().chain(streets).chain(&self.showdown)
    }
}
