//! The events a table's log records: one per state change, in order.

use core::fmt;

use fairdeck_fair::Manifest;
use serde::{Deserialize, Serialize};

use crate::hex;
use crate::token::TokenHash;

/// The room's 256-bit secret `S`. Its `Debug` never shows it.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secret(#[serde(with = "hex::bytes32")] pub(crate) [u8; 32]);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// A community-card release: the next hold'em street, or bridge's dummy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "street", rename_all = "lowercase", deny_unknown_fields)]
pub enum Street {
    /// Hold'em: the first three board cards.
    Flop,
    /// Hold'em: the fourth board card (after the flop).
    Turn,
    /// Hold'em: the fifth board card (after the turn).
    River,
    /// Bridge: the dummy's hand, face up after the opening lead.
    Dummy {
        /// The dummy's seat index (0 = North, 1 = East, 2 = South, 3 = West).
        seat: usize,
    },
}

/// One state change of a table, as its log records it.
// Events live one at a time (decided, applied, written), never in bulk, so
// the large `Created` variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Event {
    /// The table was opened: the manifest, the room's secret and its
    /// commitment, the hashes of the tokens, and the deadlines.
    Created {
        /// The checked manifest.
        manifest: Manifest,
        /// The room's secret (kept in the service's own record only).
        secret: Secret,
        /// The v2 room commitment, 64 hex digits, published at once.
        commitment: String,
        /// SHA-256 of the operator's token.
        operator: TokenHash,
        /// SHA-256 of each seat's token, in seat order.
        seats: Vec<TokenHash>,
        /// Every seat must commit by this time (seconds since the epoch).
        commit_deadline: u64,
        /// Seconds every seat has to reveal once the last one committed.
        reveal_seconds: u64,
        /// When (seconds since the epoch).
        at: u64,
    },
    /// A seat published its commitment to its seed.
    Committed {
        /// The seat's index.
        seat: usize,
        /// `c_i`, 64 lowercase hex digits.
        commitment: String,
        /// The last commitment: the seat lock `L` it sets (version 2.1),
        /// published with it before any reveal. Absent for the others, and
        /// in logs written before version 2.1 (replay computes it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<String>,
        /// When.
        at: u64,
    },
    /// A seat revealed its seed (checked against its commitment).
    Revealed {
        /// The seat's index.
        seat: usize,
        /// The seed.
        seed: String,
        /// When.
        at: u64,
    },
    /// The operator dealt every deal of the manifest.
    Dealt {
        /// When.
        at: u64,
    },
    /// The operator released community cards of one deal.
    Released {
        /// The deal number.
        deal: u64,
        /// What was released.
        street: Street,
        /// When.
        at: u64,
    },
    /// The operator closed the table: the secret and the transcript are public.
    Closed {
        /// When.
        at: u64,
    },
    /// A seat's holder claimed it on one device (the seat page's "claim"):
    /// from now on only requests that show that device's secret act for the
    /// seat.
    Claimed {
        /// The seat's index.
        seat: usize,
        /// SHA-256 of the device's secret (the secret itself is never stored).
        device: TokenHash,
        /// When.
        at: u64,
    },
    /// The operator re-issued a seat's link before the commitments closed:
    /// a new token, the old one refused from now on, the claim reset and any
    /// commitment of the seat withdrawn (nothing is revealed before the lock,
    /// so a withdrawn commitment tells nobody anything).
    Reissued {
        /// The seat's index.
        seat: usize,
        /// SHA-256 of the new token.
        token: TokenHash,
        /// When.
        at: u64,
    },
    /// A deadline passed with seats missing: the table is void (spec 8.1).
    Voided {
        /// The seats that did not commit or reveal in time, by index.
        late: Vec<usize>,
        /// When.
        at: u64,
    },
}

impl Event {
    /// The event's name as the log's `kind` column holds it.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Created { .. } => "created",
            Event::Committed { .. } => "committed",
            Event::Revealed { .. } => "revealed",
            Event::Dealt { .. } => "dealt",
            Event::Released { .. } => "released",
            Event::Closed { .. } => "closed",
            Event::Claimed { .. } => "claimed",
            Event::Reissued { .. } => "reissued",
            Event::Voided { .. } => "voided",
        }
    }
}
