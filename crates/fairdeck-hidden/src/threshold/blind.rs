//! The owner layer of a hole card (§23.2).

use core::fmt;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::dleq::check_place;
use crate::elgamal::Ciphertext;
use crate::group::{decode_point, decode_scalar, encode_point, random_scalar};
use crate::keys::Proof;
use crate::signature::{Context, message, schnorr_prove, schnorr_verify};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Domain of blind proofs (§23.2).
pub const BLIND_DOMAIN: &str = "fairdeck-hidden-v3.2/blind";

/// The owner's blinding scalar `z` of one position: wiped on drop, never
/// printed; published only when the card is opened (§23.3).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct Blinding(pub(crate) Scalar);

impl fmt::Debug for Blinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blinding(<redacted>)")
    }
}

impl Blinding {
    /// Draws `z` by [`random_scalar`] (redrawn in the impossible case 0,
    /// whose `Z_p` would be refused).
    pub fn draw<R: CryptoRng + ?Sized>(rng: &mut R) -> Blinding {
        loop {
            let z = random_scalar(rng);
            if z != Scalar::ZERO {
                return Blinding(z);
            }
        }
    }

    /// Reads an opened `z` (§28.1's `blinding`).
    ///
    /// # Errors
    ///
    /// [`Error::ScalarEncoding`].
    pub fn from_wire(z: &Hex32) -> Result<Blinding, Error> {
        decode_scalar(z).map(Blinding)
    }

    /// `enc(z)`, to open the card at the showdown (or for test vectors);
    /// wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.to_bytes())
    }

    /// `Z_p = z·G`. O(1).
    pub fn point(&self) -> RistrettoPoint {
        RISTRETTO_BASEPOINT_TABLE * &self.0
    }
}

/// Seat `seat`'s blind of position `position` of hand `hand` (§28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlindMessage {
    /// The hand `n`.
    pub hand: u64,
    /// The owner `i`.
    pub seat: u64,
    /// The position `p`.
    pub position: u64,
    /// `Z_p`.
    pub blind: Hex32,
    /// The proof of knowledge of `z`.
    pub proof: Proof,
    /// The seat's signature on the message's digest (§17, §28.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// `lp(D_blind) ‖ lp(M) ‖ u64_be(n) ‖ u64_be(i) ‖ u64_be(p) ‖ enc(a) ‖ enc(b)
/// ‖ enc(Z_p)`; the proof appends `enc(R)` (§23.2).
fn blind_prefix(
    table: &Table,
    (hand, seat, position): (u64, u64, u64),
    e: &Ciphertext,
    z: &Hex32,
) -> Transcript {
    let mut t = Transcript::new(BLIND_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(hand)
        .u64(seat)
        .u64(position)
        .element(&encode_point(&e.a))
        .element(&encode_point(&e.b))
        .element(z);
    t
}

/// The owner's blind of the shuffled `e = D_deck[p] = (a, b)`: `Z_p = z·G`
/// and the Schnorr proof of `z` (`k` drawn from `rng`), §23.2. O(1).
///
/// # Errors
///
/// [`Error::Hand`], [`Error::Seat`] or [`Error::Position`] out of range.
pub fn blind<R: CryptoRng + ?Sized>(
    table: &Table,
    (hand, seat, position): (u64, u64, u64),
    e: &Ciphertext,
    z: &Blinding,
    rng: &mut R,
) -> Result<BlindMessage, Error> {
    check_place(table, hand, seat, position)?;
    let blind = encode_point(&z.point());
    let prefix = blind_prefix(table, (hand, seat, position), e, &blind);
    Ok(BlindMessage {
        hand,
        seat,
        position,
        blind,
        proof: schnorr_prove(prefix, &z.0, rng),
        signature: None,
    })
}

/// Checks a blind of `e = D_deck[p]` (§23.2): its place, `Z_p ≠ 0`, and
/// the proof (`R' = s·G − c·Z_p`, accept iff `H(…R') = c`). Returns `Z_p`.
/// Whether the seat owns the position is the caller's (the layout). O(1).
///
/// # Errors
///
/// Range errors as [`blind`]; [`Error::PointEncoding`]; [`Error::Identity`];
/// [`Error::BlindProof`] naming the owner.
pub fn check_blind(
    table: &Table,
    e: &Ciphertext,
    msg: &BlindMessage,
) -> Result<RistrettoPoint, Error> {
    check_place(table, msg.hand, msg.seat, msg.position)?;
    let z = decode_point(&msg.blind)?;
    if z == RistrettoPoint::identity() {
        return Err(Error::Identity);
    }
    let prefix = blind_prefix(table, (msg.hand, msg.seat, msg.position), e, &msg.blind);
    if !schnorr_verify(prefix, &z, &msg.proof) {
        return Err(Error::BlindProof(msg.seat));
    }
    Ok(z)
}

/// The blinded ciphertext `(a, b'_p)` with `b'_p = b + Z_p` (§23.2); a
/// community position keeps `b`. O(1).
pub fn blinded(e: &Ciphertext, z: &RistrettoPoint) -> Ciphertext {
    Ciphertext { a: e.a, b: e.b + z }
}

/// `kind "blind"`: `body = u64_be(n) ‖ u64_be(i) ‖ u64_be(p) ‖ Z_p ‖ c ‖ s`
/// (§28.3). O(1).
pub fn blind_digest(ctx: &Context, m: &BlindMessage) -> Hex32 {
    let mut t = message(ctx, "blind");
    t.u64(m.hand)
        .u64(m.seat)
        .u64(m.position)
        .element(&m.blind)
        .element(&m.proof.c)
        .element(&m.proof.s);
    t.digest()
}
