//! The transcript's wire form (§14, §18, `docs/hidden-dealing-v3.2.md`
//! §28.2): [`super::Record`] as it is read and written. It differs only in
//! where `tolerate` sits: on the wire it is the manifest's eighth field
//! (§21.1), while the record keeps the manifest of §4.1 (the type every
//! version shares) and the tolerance beside it.

use fairdeck_fair::Manifest;
use serde::{Deserialize, Serialize};

use super::{HandRecord, Record, Void};
use crate::dkg::{ComplaintMessage, DealingMessage, ReadyMessage};
use crate::head::{Attestation, SignedHead};
use crate::keys::KeyMessage;
use crate::wire::Hex32;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The manifest of §4.1 with version 3.2's optional `tolerate`, read
/// strictly.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ManifestWire {
    version: u64,
    table: String,
    game: String,
    deck: String,
    seats: Vec<String>,
    first: u64,
    last: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tolerate: Option<u64>,
}

/// The whole document, read strictly.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RecordWire {
    version: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    revision: u64,
    manifest: ManifestWire,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    room: Option<Hex32>,
    keys: Vec<KeyMessage>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    dealings: Vec<DealingMessage>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    readies: Vec<ReadyMessage>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    complaints: Vec<ComplaintMessage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    void: Option<Void>,
    hands: Vec<HandRecord>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    log: Vec<Hex32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    head: Option<SignedHead>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attestations: Vec<Attestation>,
}

impl From<RecordWire> for Record {
    fn from(w: RecordWire) -> Record {
        let m = w.manifest;
        Record {
            version: w.version,
            revision: w.revision,
            manifest: Manifest {
                version: m.version,
                table: m.table,
                game: m.game,
                deck: m.deck,
                seats: m.seats,
                first: m.first,
                last: m.last,
            },
            tolerate: m.tolerate,
            room: w.room,
            keys: w.keys,
            dealings: w.dealings,
            readies: w.readies,
            complaints: w.complaints,
            void: w.void,
            hands: w.hands,
            log: w.log,
            head: w.head,
            attestations: w.attestations,
        }
    }
}

impl From<Record> for RecordWire {
    fn from(r: Record) -> RecordWire {
        let m = r.manifest;
        RecordWire {
            version: r.version,
            revision: r.revision,
            manifest: ManifestWire {
                version: m.version,
                table: m.table,
                game: m.game,
                deck: m.deck,
                seats: m.seats,
                first: m.first,
                last: m.last,
                tolerate: r.tolerate,
            },
            room: r.room,
            keys: r.keys,
            dealings: r.dealings,
            readies: r.readies,
            complaints: r.complaints,
            void: r.void,
            hands: r.hands,
            log: r.log,
            head: r.head,
            attestations: r.attestations,
        }
    }
}
