//! The failure kinds of version 3 (`docs/hidden-dealing.md` §12).

use core::fmt;

/// Which group of the shuffle proof's equations failed (§8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShuffleCheck {
    /// E1, E2 or E5: the commitments are not those of a permutation.
    Permutation,
    /// E3: the permutation commitment does not open to the permuted challenges.
    Challenges,
    /// E4: the output deck is not a re-encryption of the permuted input under the joint key.
    Reencryption,
}

impl ShuffleCheck {
    /// The name used in reports: `permutation`, `challenges`, `reencryption`.
    pub fn name(self) -> &'static str {
        match self {
            ShuffleCheck::Permutation => "permutation",
            ShuffleCheck::Challenges => "challenges",
            ShuffleCheck::Reencryption => "reencryption",
        }
    }
}

/// Everything that can make a version-3 message or table unacceptable.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A field is not exactly 64 lowercase hex digits.
    Hex,
    /// 32 bytes that are not a canonical ristretto255 encoding.
    PointEncoding,
    /// 32 bytes whose little-endian integer is not below the group order.
    ScalarEncoding,
    /// A secret key of zero (its public key would be the identity); of the
    /// kind `scalar-encoding`. Secret keys are never in a transcript: only
    /// a seat's own key file holds one.
    ZeroSecret,
    /// A public key is the identity point.
    Identity,
    /// The manifest breaks a rule (the text says which).
    Manifest(String),
    /// Two different card names of the deck map to the same point (or to the identity).
    Deck,
    /// A hand number outside the manifest's `first ..= last`.
    Hand(u64),
    /// A seat index outside the manifest's seats.
    Seat(u64),
    /// A deck position outside `0 .. N`.
    Position(u64),
    /// A deck or a list of the proof does not have the expected number of entries.
    DeckSize {
        /// The number the table requires.
        expected: usize,
        /// The number found.
        found: usize,
    },
    /// A key proof fails for the seat.
    KeyProof(u64),
    /// A shuffle proof fails for the seat, in the named group of equations.
    ShuffleProof(u64, ShuffleCheck),
    /// A decryption-share proof fails for the seat.
    ShareProof(u64),
    /// A seat gave two shares for one position.
    DuplicateShare(u64),
    /// The share of this seat is needed to open the card and is absent.
    MissingShare(u64),
    /// A decryption is not the point of any card of the deck.
    UnknownCard,
    /// A transcript that is not strictly readable (the text says why).
    Document(String),
    /// A message a stage needs is absent (the seat and the message).
    MissingMessage(u64, String),
    /// A message where the protocol has none (the text says which).
    UnexpectedMessage(String),
    /// A message whose hand or seat is not that of its place (the text says which).
    Replay(String),
    /// A hand number not greater than the one before it.
    HandOrder(u64),
    /// A void record that does not describe the stall (the text says why).
    Void(String),
    /// A secret key that is not the named seat's.
    WrongKey(u64),
    /// Version 3.1: the message in seat `0`'s place is not signed by seat `0`
    /// (the text says which message).
    Signature(u64, String),
    /// Version 3.1: the messages and the room's log disagree (the text says how).
    Log(String),
    /// Version 3.1: a head, receipt or room key not signed by the table's room.
    RoomSignature(String),
    /// Version 3.1: the room's own signed heads or receipts contradict what it
    /// published (it rewrote, dropped or reordered messages, or equivocated).
    Room(String),
    /// Version 3.1: a seat's attestation does not hold (the text says why).
    Attestation(u64, String),
    /// Version 3.2: a dealing without exactly `t` commitments and `P` shares
    /// (the dealer).
    Dealing(u64),
    /// Version 3.2: a dealing's proof of knowledge fails (the dealer).
    DealingProof(u64),
    /// Version 3.2: a complaint holds: the dealer's share to the complainer
    /// does not match its commitments (the dealer).
    DealingShare(u64),
    /// Version 3.2: a complaint whose proof fails, or whose share is right
    /// (the complainer).
    Complaint(u64),
    /// Version 3.2: a `ready` whose verifying share is not the computed one,
    /// or whose proof fails (the seat).
    Ready(u64),
    /// Version 3.2: a blind's proof fails, or an opened `z` does not give
    /// `Z_p` (the owner).
    BlindProof(u64),
}

impl Error {
    /// The failure kind's name as the spec writes it (`shuffle-proof`, `key-proof`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Hex => "hex",
            Error::PointEncoding => "point-encoding",
            Error::ScalarEncoding | Error::ZeroSecret => "scalar-encoding",
            Error::Identity => "identity",
            Error::Manifest(_) => "manifest",
            Error::Deck => "deck",
            Error::Hand(_) => "hand",
            Error::Seat(_) => "seat",
            Error::Position(_) => "position",
            Error::DeckSize { .. } => "deck-size",
            Error::KeyProof(_) => "key-proof",
            Error::ShuffleProof(..) => "shuffle-proof",
            Error::ShareProof(_) => "share-proof",
            Error::DuplicateShare(_) => "duplicate-share",
            Error::MissingShare(_) => "missing-share",
            Error::UnknownCard => "unknown-card",
            Error::Document(_) => "document",
            Error::MissingMessage(..) => "missing-message",
            Error::UnexpectedMessage(_) => "unexpected-message",
            Error::Replay(_) => "replay",
            Error::HandOrder(_) => "hand-order",
            Error::Void(_) => "void",
            Error::WrongKey(_) => "wrong-key",
            Error::Signature(..) => "signature",
            Error::Log(_) => "log",
            Error::RoomSignature(_) => "room-signature",
            Error::Room(_) => "room",
            Error::Attestation(..) => "attestation",
            Error::Dealing(_) => "dealing",
            Error::DealingProof(_) => "dealing-proof",
            Error::DealingShare(_) => "dealing-share",
            Error::Complaint(_) => "complaint",
            Error::Ready(_) => "ready",
            Error::BlindProof(_) => "blind-proof",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Hex => f.write_str("hex: expected 64 lowercase hex digits"),
            Error::PointEncoding => {
                f.write_str("point-encoding: not a canonical ristretto255 point")
            }
            Error::ScalarEncoding => {
                f.write_str("scalar-encoding: scalar not below the group order")
            }
            Error::ZeroSecret => f.write_str("scalar-encoding: a secret key of zero"),
            Error::Identity => f.write_str("identity: a public key is the identity point"),
            Error::Manifest(why) => write!(f, "manifest: {why}"),
            Error::Deck => f.write_str("deck: two cards of the deck share a point"),
            Error::Hand(n) => write!(f, "hand: {n} is outside the manifest's range"),
            Error::Seat(j) => write!(f, "seat: {j} is not a seat of the manifest"),
            Error::Position(p) => write!(f, "position: {p} is outside the deck"),
            Error::DeckSize { expected, found } => {
                write!(f, "deck-size: expected {expected} entries, found {found}")
            }
            Error::KeyProof(j) => write!(f, "key-proof: seat {j}'s key proof fails"),
            Error::ShuffleProof(j, check) => {
                write!(
                    f,
                    "shuffle-proof: seat {j}'s shuffle proof fails ({})",
                    check.name()
                )
            }
            Error::ShareProof(j) => write!(f, "share-proof: seat {j}'s share proof fails"),
            Error::DuplicateShare(j) => write!(f, "duplicate-share: seat {j} shared twice"),
            Error::MissingShare(j) => write!(f, "missing-share: seat {j}'s share is missing"),
            Error::UnknownCard => {
                f.write_str("unknown-card: the decryption is no card of the deck")
            }
            Error::Document(why) => write!(f, "document: {why}"),
            Error::MissingMessage(j, what) => {
                write!(f, "missing-message: seat {j} did not send {what}")
            }
            Error::UnexpectedMessage(why) => write!(f, "unexpected-message: {why}"),
            Error::Replay(why) => write!(f, "replay: {why}"),
            Error::HandOrder(n) => {
                write!(f, "hand-order: hand {n} does not follow the hand before it")
            }
            Error::Void(why) => write!(f, "void: {why}"),
            Error::WrongKey(j) => write!(f, "wrong-key: the secret key is not seat {j}'s"),
            Error::Signature(j, what) => {
                write!(f, "signature: {what} is not signed by seat {j}")
            }
            Error::Log(why) => write!(f, "log: {why}"),
            Error::RoomSignature(why) => write!(f, "room-signature: {why}"),
            Error::Room(why) => write!(f, "room: {why}"),
            Error::Attestation(j, why) => write!(f, "attestation: seat {j}'s {why}"),
            Error::Dealing(i) => write!(
                f,
                "dealing: seat {i}'s dealing has the wrong number of commitments or shares"
            ),
            Error::DealingProof(i) => {
                write!(f, "dealing-proof: seat {i}'s dealing proof fails")
            }
            Error::DealingShare(i) => write!(
                f,
                "dealing-share: seat {i} dealt a share that does not match its commitments"
            ),
            Error::Complaint(j) => write!(f, "complaint: seat {j}'s complaint is false"),
            Error::Ready(j) => write!(f, "ready: seat {j}'s ready does not hold"),
            Error::BlindProof(i) => write!(f, "blind-proof: seat {i}'s blind does not hold"),
        }
    }
}

impl std::error::Error for Error {}
