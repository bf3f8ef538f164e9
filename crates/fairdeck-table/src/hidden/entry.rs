//! The log of a hidden table: every accepted change is one [`Entry`],
//! appended in the transaction that accepted it. The table's state is the
//! replay of its entries ([`super::Board::replay`]); nothing else is stored.

use fairdeck_fair::Manifest;
use fairdeck_hidden::dleq::ShareMessage;
use fairdeck_hidden::keys::KeyMessage;
use fairdeck_hidden::ledger::Attestation;
use fairdeck_hidden::record::Void;
use fairdeck_hidden::shuffle::ShuffleMessage;
use fairdeck_hidden::wire::Hex32;
use serde::{Deserialize, Serialize};

use crate::token::TokenHash;

/// One accepted change. `at` is the second (Unix time) it was accepted:
/// deadlines run from the last change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Entry {
    /// The table was opened: its manifest, the tokens' hashes, the window.
    Opened {
        /// The version-3 manifest.
        manifest: Manifest,
        /// The operator token's hash.
        operator: TokenHash,
        /// Each seat token's hash, in seat order.
        seats: Vec<TokenHash>,
        /// Seconds a seat may take for a message the table waits for.
        step_seconds: u64,
        /// Version 3.1: the room's secret signing key for this table (it
        /// signs receipts and heads; it opens no card). Absent: a version-3
        /// table opened before 3.1, served unsigned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<Hex32>,
        /// When.
        at: u64,
    },
    /// A seat's key message, checked.
    Key {
        /// The message as sent.
        message: KeyMessage,
        /// When.
        at: u64,
    },
    /// A seat's shuffle, its proof checked.
    Shuffle {
        /// The message as sent.
        message: Box<ShuffleMessage>,
        /// When.
        at: u64,
    },
    /// A seat's shares of one stage (`deal`, a street, or `showdown`), checked.
    Shares {
        /// Where they go in the transcript.
        stage: String,
        /// The messages as sent.
        shares: Vec<ShareMessage>,
        /// When.
        at: u64,
    },
    /// The operator moved hand `hand` on: to a street, the showdown, or its end.
    Advance {
        /// The hand.
        hand: u64,
        /// A street's name, `showdown` or `end`.
        to: String,
        /// When.
        at: u64,
    },
    /// Version 3.1: a seat signed the whole log it verified, once the table
    /// was over (§18 check 4).
    Attestation {
        /// The attestation as sent.
        attestation: Attestation,
        /// When.
        at: u64,
    },
    /// A deadline passed with a seat's message missing: the table or hand is void.
    Void {
        /// The hand, or `None` for the keys (the whole table).
        hand: Option<u64>,
        /// The void record.
        void: Void,
        /// When.
        at: u64,
    },
}

impl Entry {
    /// The entry's kind, as the log's `kind` column stores it.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Opened { .. } => "opened",
            Entry::Key { .. } => "key",
            Entry::Shuffle { .. } => "shuffle",
            Entry::Shares { .. } => "shares",
            Entry::Advance { .. } => "advance",
            Entry::Void { .. } => "void",
            Entry::Attestation { .. } => "attestation",
        }
    }

    /// When it was accepted.
    pub fn at(&self) -> u64 {
        match self {
            Entry::Opened { at, .. }
            | Entry::Key { at, .. }
            | Entry::Shuffle { at, .. }
            | Entry::Shares { at, .. }
            | Entry::Advance { at, .. }
            | Entry::Void { at, .. }
            | Entry::Attestation { at, .. } => *at,
        }
    }
}
