//! What the room and the seats sign about the log (`docs/hidden-dealing.md`
//! §18): the room's signed heads and receipts, the seats' attestations,
//! and a seat's evidence. Plain wire types; [`crate::ledger`] makes and
//! checks them.

use serde::{Deserialize, Serialize};

use crate::keys::Proof;
use crate::wire::Hex32;

/// The room's signature on the head of its log at one length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedHead {
    /// `L`, the number of log entries the head covers.
    pub length: u64,
    /// `h_L`.
    pub head: Hex32,
    /// The room's signature on `u64_be(L) ‖ h_L`.
    pub signature: Proof,
}

/// The room's receipt for one accepted message: the signed head right after
/// it, with the message's index and digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    /// The message's index `i` in the log.
    pub index: u64,
    /// The message's digest `d_i`.
    pub digest: Hex32,
    /// `i + 1`.
    pub length: u64,
    /// `h_{i+1}`.
    pub head: Hex32,
    /// The room's signature on `u64_be(i + 1) ‖ h_{i+1}`.
    pub signature: Proof,
}

/// A seat's signature on the head of the log it verified (§18 check 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attestation {
    /// The attesting seat.
    pub seat: u64,
    /// The length of the log it verified.
    pub length: u64,
    /// The head of that log.
    pub head: Hex32,
    /// The seat's signature on the attestation digest.
    pub signature: Proof,
}

/// What a seat holds against the room: a receipt or a signed head, as
/// `fair verify --evidence` reads them (a JSON list of both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Evidence {
    /// A receipt (it has `index` and `digest`).
    Receipt(Receipt),
    /// A signed head.
    Head(SignedHead),
}

impl Evidence {
    /// The signed head the item carries.
    pub fn head(&self) -> SignedHead {
        match self {
            Evidence::Receipt(r) => SignedHead {
                length: r.length,
                head: r.head,
                signature: r.signature,
            },
            Evidence::Head(h) => *h,
        }
    }
}
