//! Decryption shares with Chaum–Pedersen proofs (`docs/hidden-dealing.md` §7.2).
//!
//! Chaum & Pedersen 1992, "Wallet Databases with Observers": seat `j` shows
//! `log_G(PK_j) = log_b(D_j)` for its share `D_j = sk_j·b` of the ciphertext
//! `(a, b)`, without revealing `sk_j`. The challenge hashes the table, hand,
//! seat, position, key, the whole ciphertext and the share, so the proof
//! answers for that one ciphertext only.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::Zeroize;

use crate::elgamal::Ciphertext;
use crate::group::{decode_point, decode_scalar, encode_point, encode_scalar, random_scalar};
use crate::keys::{Proof, PublicKey, SecretKey};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Domain of share proofs.
pub const SHARE_DOMAIN: &str = "fairdeck-hidden-v3/share";

/// Seat `seat`'s decryption share of position `position` of hand `hand`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareMessage {
    /// The hand (deal number).
    pub hand: u64,
    /// The seat index.
    pub seat: u64,
    /// The position in the dealt deck.
    pub position: u64,
    /// `enc(D_j)`, `D_j = sk_j·b`.
    pub share: Hex32,
    /// The Chaum–Pedersen proof.
    pub proof: Proof,
    /// Version 3.1: the seat's signature on the message's digest (§17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// Where a share belongs and what it claims.
struct Statement<'a> {
    table: &'a Table,
    hand: u64,
    seat: u64,
    position: u64,
    pk: &'a PublicKey,
    e: &'a Ciphertext,
    share: &'a Hex32,
}

/// `c = wide(SHA-512(lp(D_share) ‖ lp(M) ‖ u64_be(n) ‖ u64_be(j) ‖ u64_be(p)
/// ‖ enc(PK_j) ‖ enc(a) ‖ enc(b) ‖ enc(D_j) ‖ enc(R_1) ‖ enc(R_2)))`.
fn share_challenge(st: &Statement<'_>, r1: &RistrettoPoint, r2: &RistrettoPoint) -> Scalar {
    let mut t = Transcript::new(SHARE_DOMAIN);
    t.bytes(st.table.manifest_bytes())
        .u64(st.hand)
        .u64(st.seat)
        .u64(st.position)
        .element(&encode_point(&st.pk.0))
        .element(&encode_point(&st.e.a))
        .element(&encode_point(&st.e.b))
        .element(st.share)
        .element(&encode_point(r1))
        .element(&encode_point(r2));
    t.challenge()
}

fn check_place(table: &Table, hand: u64, seat: u64, position: u64) -> Result<(), Error> {
    table.check_hand(hand)?;
    table.check_seat(seat)?;
    if position >= table.deck_size() as u64 {
        return Err(Error::Position(position));
    }
    Ok(())
}

/// Makes seat `seat`'s share of `e` (position `position` of hand `hand`):
/// `D = sk·b`; `k` random, `R_1 = k·G`, `R_2 = k·b`, `c = H(…)`, `s = k + c·sk`.
///
/// # Errors
///
/// [`Error::Hand`], [`Error::Seat`] or [`Error::Position`] out of range.
#[allow(clippy::too_many_arguments)] // the statement's coordinates, each needed
pub fn share_message<R: CryptoRng + ?Sized>(
    table: &Table,
    hand: u64,
    seat: u64,
    position: u64,
    sk: &SecretKey,
    e: &Ciphertext,
    rng: &mut R,
) -> Result<ShareMessage, Error> {
    check_place(table, hand, seat, position)?;
    let share = encode_point(&(sk.0 * e.b));
    let pk = sk.public_key();
    let st = Statement {
        table,
        hand,
        seat,
        position,
        pk: &pk,
        e,
        share: &share,
    };
    let mut k = random_scalar(rng);
    let c = share_challenge(&st, &(RISTRETTO_BASEPOINT_TABLE * &k), &(k * e.b));
    let s = k + c * sk.0;
    k.zeroize();
    Ok(ShareMessage {
        hand,
        seat,
        position,
        share,
        proof: Proof {
            c: encode_scalar(&c),
            s: encode_scalar(&s),
        },
        signature: None,
    })
}

/// Verifies a share of `e` by the seat whose key is `pk`:
/// `R_1' = s·G − c·PK_j`, `R_2' = s·b − c·D_j`, accept iff `H(…) = c`.
/// Returns `D_j`.
///
/// # Errors
///
/// Range errors as [`share_message`]; [`Error::PointEncoding`],
/// [`Error::ScalarEncoding`]; [`Error::ShareProof`].
pub fn verify_share(
    table: &Table,
    pk: &PublicKey,
    e: &Ciphertext,
    msg: &ShareMessage,
) -> Result<RistrettoPoint, Error> {
    check_place(table, msg.hand, msg.seat, msg.position)?;
    let d = decode_point(&msg.share)?;
    let c = decode_scalar(&msg.proof.c)?;
    let s = decode_scalar(&msg.proof.s)?;
    let r1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, &pk.0, &s);
    let r2 = RistrettoPoint::vartime_multiscalar_mul([s, -c], [e.b, d]);
    let st = Statement {
        table,
        hand: msg.hand,
        seat: msg.seat,
        position: msg.position,
        pk,
        e,
        share: &msg.share,
    };
    if share_challenge(&st, &r1, &r2) != c {
        return Err(Error::ShareProof(msg.seat));
    }
    Ok(d)
}
