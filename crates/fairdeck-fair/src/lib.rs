//! # fairdeck-fair
//!
//! Fair dealing versions 1, 2 and 2.1 (`docs/fair-dealing.md`): commit–reveal
//! ("provably fair") deals that anyone can verify — the deal key and its
//! shuffle, tables and their locks, the naming rules of their texts, board
//! sessions, transcripts and their strict reading, and the verdict with its
//! failure kinds. Version 3 (hidden hands) is `fairdeck-hidden`, built on it.
//!
//! Cargo feature `serde`: records and manifests as JSON, the strict reader
//! of documents ([`read_document`]), which document a file holds
//! ([`detect`]), the version 1 verifier ([`verify_v1`]) and the verdict
//! reports ([`VerdictReport`], [`SessionReport`]). The seat-collection rules
//! a room and the table service share are in [`collect`].
//!
//! ## Version 1
//!
//! The card room draws a 256-bit [`ServerSecret`] and publishes its
//! [`Commitment`] (SHA-256 of the 32 secret bytes) *before* play. The player
//! then chooses a client seed. Each deal `nonce` (0, 1, 2, … — never reused)
//! is shuffled from a key that neither side controls alone:
//!
//! ```text
//! message = "fairdeck-fair-v1"            (16 ASCII bytes, the version tag)
//!         ‖ u64 big-endian: byte length of the client seed
//!         ‖ the client seed, UTF-8 bytes
//!         ‖ u64 big-endian: the nonce
//! key     = HMAC-SHA256(key = the 32 secret bytes, message)
//! deck    = durstenfeld(unshuffled deck, KeyStream(key))
//! ```
//!
//! The length prefix makes the message injective: client seed `"ab"` with one
//! nonce can never produce the bytes of client seed `"a"` with another. After
//! play the room reveals the secret; the player checks it against the
//! commitment and recomputes every deal with [`verify`]. The commitment
//! reveals nothing about the deals (it hashes only the secret, and the deals
//! also depend on the client seed, chosen after it). The shuffle itself
//! ([`durstenfeld`] over [`KeyStream`]) is specified on [`KeyStream`] and in
//! `docs/fair-dealing.md`, with test vectors.
//!
//! ```
//! use fairdeck::cards::DeckKind;
//! use fairdeck_fair::{self as fair, ServerSecret};
//!
//! let secret = ServerSecret::from_bytes([42; 32]);
//! let published = secret.commitment();
//! let deck = fair::shuffled_deck(&secret, "alice", 0, DeckKind::Standard);
//! assert!(fair::verify(&published, &secret, "alice", 0, DeckKind::Standard, &deck).is_ok());
//! assert!(fair::verify(&published, &secret, "alice", 1, DeckKind::Standard, &deck).is_err());
//! ```

#![forbid(unsafe_code)]

pub mod collect;
#[cfg(feature = "serde")]
mod deck_line;
#[cfg(feature = "serde")]
pub mod detect;
#[cfg(feature = "serde")]
mod document;
mod lock;
mod mismatch;
mod naming;
mod record;
mod recorded;
#[cfg(feature = "serde")]
mod report;
mod session;
#[cfg(feature = "serde")]
mod session_report;
mod spelling;
mod stream;
mod table;
mod transcript;
#[cfg(feature = "serde")]
mod v1;
mod verdict;
mod version;
mod void;

#[cfg(feature = "serde")]
pub use deck_line::{DeckLineVerdict, VALID_DECK_LINE};
#[cfg(feature = "serde")]
pub use document::{Document, DocumentError, V1Deal, V1Hand, parse_json, read_document};
pub use mismatch::Mismatch;
pub use naming::{
    BRIDGE_SEATS, FORBIDDEN, MAX_TEXT, PILE_NAMES, check_seed, check_text, is_forbidden,
};
pub use record::{Record, VoidPhase, VoidRecord};
pub use recorded::{Evidence, OwnSeed, Unchecked, Verdict, verify_record, verify_transcript};
#[cfg(feature = "serde")]
pub use report::{DifferenceReport, VerdictReport, checked_v2, refused};
pub use session::{BoardCheck, session_board, verify_session};
#[cfg(feature = "serde")]
pub use session_report::{BoardReport, SessionInputs, SessionReport};
pub use spelling::{ByName, Given, Spelling};
pub use stream::{KeyStream, durstenfeld};
pub use table::{MAX_DEALS, MAX_SHOE_DECKS, Manifest, Table, TableGame, VERSION};
pub use transcript::{DealRecord, PileRecord, SeatRecord, Transcript, deal_record};
#[cfg(feature = "serde")]
pub use v1::{V1Error, v1_verdict, verify_v1};
pub use verdict::{Difference, Kind, Verification, compare_deal};
pub use version::TranscriptVersion;
pub use void::void_of;

use core::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use fairdeck::Error;
use fairdeck::cards::{Card, DeckKind};

/// The 16-byte version tag that opens every derivation message.
pub const DOMAIN_TAG: &[u8; 16] = b"fairdeck-fair-v1";

/// The card room's 256-bit secret, revealed after play.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ServerSecret([u8; 32]);

/// SHA-256 of the 32 secret bytes: published before play.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment([u8; 32]);

impl ServerSecret {
    /// A secret from 32 bytes (draw them from the operating system).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Parses exactly 64 hex digits (either case); surrounding whitespace,
    /// such as a secret file's final newline, is ignored.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidHex`] for any other text.
    pub fn from_hex(text: &str) -> Result<Self, Error> {
        parse_hex32(text, "server secret").map(Self)
    }

    /// The secret as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Its commitment: SHA-256 of the 32 raw bytes. O(1).
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for ServerSecret {
    /// Never prints the secret itself, only its commitment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ServerSecret(committed as {})", self.commitment())
    }
}

impl Commitment {
    /// Parses exactly 64 hex digits (either case).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidHex`] for any other text.
    pub fn from_hex(text: &str) -> Result<Self, Error> {
        parse_hex32(text, "commitment").map(Self)
    }

    /// The commitment as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", self.to_hex())
    }
}

/// The bytes HMAC-SHA256 signs for one deal (layout in the module docs).
///
/// O(len) time.
///
/// ```
/// let m = fairdeck_fair::derivation_message("ab", 7);
/// assert_eq!(m.len(), 16 + 8 + 2 + 8);
/// assert_ne!(m, fairdeck_fair::derivation_message("a", 7));
/// ```
pub fn derivation_message(client_seed: &str, nonce: u64) -> Vec<u8> {
    let seed = client_seed.as_bytes();
    let mut m = Vec::with_capacity(DOMAIN_TAG.len() + 16 + seed.len());
    m.extend_from_slice(DOMAIN_TAG);
    m.extend_from_slice(&(seed.len() as u64).to_be_bytes());
    m.extend_from_slice(seed);
    m.extend_from_slice(&nonce.to_be_bytes());
    m
}

/// The deal key: HMAC-SHA256(server secret, derivation message). O(len).
///
/// ```
/// use fairdeck_fair::{deal_key, ServerSecret};
///
/// // Test vector 1 of docs/fair-dealing.md.
/// let secret = ServerSecret::from_bytes(core::array::from_fn(|i| i as u8));
/// let key = deal_key(&secret, "alice", 0);
/// assert_eq!(key[..4], [0x0c, 0x42, 0x22, 0xc8]);
/// ```
pub fn deal_key(secret: &ServerSecret, client_seed: &str, nonce: u64) -> [u8; 32] {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(&secret.0).expect("HMAC takes keys of any size");
    mac.update(&derivation_message(client_seed, nonce));
    mac.finalize().into_bytes().into()
}

/// The shuffled deck of one deal, top card first: the unshuffled deck of
/// `kind` (see [`DeckKind`]) shuffled by [`durstenfeld`] over the
/// [`KeyStream`] of [`deal_key`].
///
/// O(n) for a deck of n cards. Uniform over all n! orders when the key is
/// uniform; reproducible on every platform (pinned by test vectors).
pub fn shuffled_deck(
    secret: &ServerSecret,
    client_seed: &str,
    nonce: u64,
    kind: DeckKind,
) -> Vec<Card> {
    let mut deck = kind.cards();
    durstenfeld(
        &mut deck,
        &mut KeyStream::new(deal_key(secret, client_seed, nonce)),
    );
    deck
}

/// Checks a revealed deal: that `secret` matches `published` and that
/// `deal` is exactly the deck its inputs derive.
///
/// O(n) for a deck of n cards.
///
/// # Errors
///
/// The first [`Mismatch`] found, checked in this order: the commitment, the
/// number of cards, whether the deal is a rearrangement of the deck at all,
/// the order of the cards.
pub fn verify(
    published: &Commitment,
    secret: &ServerSecret,
    client_seed: &str,
    nonce: u64,
    kind: DeckKind,
    deal: &[Card],
) -> Result<(), Mismatch> {
    let computed = secret.commitment();
    if computed != *published {
        return Err(Mismatch::Commitment {
            published: *published,
            computed,
        });
    }
    let expected = shuffled_deck(secret, client_seed, nonce, kind);
    Mismatch::compare(kind, &expected, deal)
}

fn parse_hex32(text: &str, what: &str) -> Result<[u8; 32], Error> {
    let t = text.trim();
    if t.len() != 64 || !t.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(Error::InvalidHex(format!(
            "the {what} must be 64 hex digits, got {:?}",
            text
        )));
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(t.as_bytes().chunks_exact(2)) {
        let pair = core::str::from_utf8(pair).expect("ASCII hex digits");
        *o = u8::from_str_radix(pair, 16).expect("checked hex digits");
    }
    Ok(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod testing;
