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

use crate::elgamal::Ciphertext;
use crate::group::{decode_point, decode_scalar, encode_point, random_scalar};
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

/// Where a share belongs and what it claims: the proof's domain, the
/// table's bytes `M`, the coordinates, the seat's key (`PK_j` in version 3,
/// `Y_j` in version 3.2, §23.3), the ciphertext (whose `b` is `b'_p` in
/// version 3.2) and the share.
struct Statement<'a> {
    pub(crate) domain: &'static str,
    pub(crate) manifest: &'a [u8],
    pub(crate) hand: u64,
    pub(crate) seat: u64,
    pub(crate) position: u64,
    pub(crate) key: &'a RistrettoPoint,
    pub(crate) e: &'a Ciphertext,
    pub(crate) share: &'a Hex32,
}

/// The statement's part of the challenge: `lp(domain) ‖ lp(M) ‖ u64_be(n)
/// ‖ u64_be(j) ‖ u64_be(p) ‖ enc(key) ‖ enc(a) ‖ enc(b) ‖ enc(D_j)`; the
/// proof appends `enc(R_1) ‖ enc(R_2)` (§7.2, §23.3).
fn share_prefix(st: &Statement<'_>) -> Transcript {
    let mut t = Transcript::new(st.domain);
    t.bytes(st.manifest)
        .u64(st.hand)
        .u64(st.seat)
        .u64(st.position)
        .element(&encode_point(st.key))
        .element(&encode_point(&st.e.a))
        .element(&encode_point(&st.e.b))
        .element(st.share);
    t
}

/// A Chaum–Pedersen proof that `log_G(X) = log_H(Y)` with witness `x`, over
/// the statement in `prefix`: `k` random, `R_1 = k·G`, `R_2 = k·H`,
/// `c = H(prefix ‖ enc(R_1) ‖ enc(R_2))`, `s = k + c·x`. O(1). Shares
/// (§7.2, §23.3) and version 3.2's complaints (§22.5) use it.
pub(crate) fn prove_dleq<R: CryptoRng + ?Sized>(
    prefix: Transcript,
    base: &RistrettoPoint,
    x: &Scalar,
    rng: &mut R,
) -> Proof {
    let k = random_scalar(rng);
    let mut t = prefix;
    t.element(&encode_point(&(RISTRETTO_BASEPOINT_TABLE * &k)))
        .element(&encode_point(&(k * base)));
    let c = t.challenge();
    Proof::respond(k, &c, x)
}

/// Checks a proof of [`prove_dleq`] for `X = x·G` and `Y = x·H`:
/// `R_1' = s·G − c·X`, `R_2' = s·H − c·Y`, accept iff
/// `H(prefix ‖ enc(R_1') ‖ enc(R_2')) = c`. O(1).
///
/// # Errors
///
/// [`Error::ScalarEncoding`] for a non-canonical `c` or `s`.
pub(crate) fn verify_dleq(
    prefix: Transcript,
    (x_point, base, y_point): (&RistrettoPoint, &RistrettoPoint, &RistrettoPoint),
    proof: &Proof,
) -> Result<bool, Error> {
    let c = decode_scalar(&proof.c)?;
    let s = decode_scalar(&proof.s)?;
    let r1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, x_point, &s);
    let r2 = RistrettoPoint::vartime_multiscalar_mul([s, -c], [*base, *y_point]);
    let mut t = prefix;
    t.element(&encode_point(&r1)).element(&encode_point(&r2));
    Ok(t.challenge() == c)
}

/// Proves a share `D_j = x·b` of the statement: [`prove_dleq`] with `H = b`.
fn prove_share<R: CryptoRng + ?Sized>(st: &Statement<'_>, x: &Scalar, rng: &mut R) -> Proof {
    prove_dleq(share_prefix(st), &st.e.b, x, rng)
}

/// Checks a share's proof, returning `D_j`; `Ok(None)` when it fails.
///
/// # Errors
///
/// [`Error::PointEncoding`], [`Error::ScalarEncoding`].
fn check_share(st: &Statement<'_>, proof: &Proof) -> Result<Option<RistrettoPoint>, Error> {
    let d = decode_point(st.share)?;
    let holds = verify_dleq(share_prefix(st), (st.key, &st.e.b, &d), proof)?;
    Ok(holds.then_some(d))
}

pub(crate) fn check_place(table: &Table, hand: u64, seat: u64, position: u64) -> Result<(), Error> {
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
    let key = (&sk.0, &sk.public_key().0);
    make_share(SHARE_DOMAIN, table, (hand, seat, position), key, e, rng)
}

/// A share `D = x·b` of `e` with its Chaum–Pedersen proof against the key
/// `X = x·G` under `domain` (version 3's seat key, version 3.2's key share
/// and verifying share). O(1).
pub(crate) fn make_share<R: CryptoRng + ?Sized>(
    domain: &'static str,
    table: &Table,
    (hand, seat, position): (u64, u64, u64),
    (x, key): (&Scalar, &RistrettoPoint),
    e: &Ciphertext,
    rng: &mut R,
) -> Result<ShareMessage, Error> {
    check_place(table, hand, seat, position)?;
    let share = encode_point(&(x * e.b));
    let st = Statement {
        domain,
        manifest: table.manifest_bytes(),
        hand,
        seat,
        position,
        key,
        e,
        share: &share,
    };
    let proof = prove_share(&st, x, rng);
    Ok(ShareMessage {
        hand,
        seat,
        position,
        share,
        proof,
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
    check_share_message(SHARE_DOMAIN, table, &pk.0, e, msg)
}

/// Checks `msg`, a share of `e` against the key `key` under `domain`
/// ([`make_share`]); returns `D_j`. O(1).
pub(crate) fn check_share_message(
    domain: &'static str,
    table: &Table,
    key: &RistrettoPoint,
    e: &Ciphertext,
    msg: &ShareMessage,
) -> Result<RistrettoPoint, Error> {
    check_place(table, msg.hand, msg.seat, msg.position)?;
    let st = Statement {
        domain,
        manifest: table.manifest_bytes(),
        hand: msg.hand,
        seat: msg.seat,
        position: msg.position,
        key,
        e,
        share: &msg.share,
    };
    check_share(&st, &msg.proof)?.ok_or(Error::ShareProof(msg.seat))
}
