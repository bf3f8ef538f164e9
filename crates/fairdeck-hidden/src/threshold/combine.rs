//! Decrypting a position from `t` or more checked shares (§23.3):
//! community cards, the owner's own hole card, opened cards.

use curve25519_dalek::ristretto::RistrettoPoint;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};

use super::{Blinding, interpolate, share_message, verify_share};
use crate::dkg::KeyShare;
use crate::dleq::ShareMessage;
use crate::elgamal::Ciphertext;
use crate::keys::{Proof, PublicKey};
use crate::signature::{Context, message};
use crate::wire::Hex32;
use crate::{Error, Table};

/// A hole card opened at the showdown by its owner (§28.1): its share of
/// `b'_p` with the proof, and `z`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenMessage {
    /// The hand `n`.
    pub hand: u64,
    /// The owner `i`.
    pub seat: u64,
    /// The position `p`.
    pub position: u64,
    /// `D_{i,p} = s_i·b'_p`.
    pub share: Hex32,
    /// The share's Chaum–Pedersen proof (§23.3).
    pub proof: Proof,
    /// `z`.
    pub blinding: Hex32,
    /// The seat's signature on the message's digest (§17, §28.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// The card of `X`, or [`Error::UnknownCard`].
fn card<'t>(table: &'t Table, x: &RistrettoPoint) -> Result<&'t str, Error> {
    table.card_of(x).ok_or(Error::UnknownCard)
}

/// A community card from checked shares `(j, D_{j,p})` of `e = (a, b)`
/// (no blind): `X = a − Σ_{j∈S} λ_{S,j}·D_{j,p}` (§23.3). O(#S).
///
/// # Errors
///
/// [`Error::DuplicateShare`]; [`Error::MissingShare`] with fewer than `t`
/// shares; [`Error::UnknownCard`].
pub fn community_card<'t>(
    table: &'t Table,
    e: &Ciphertext,
    shares: &[(u64, RistrettoPoint)],
) -> Result<&'t str, Error> {
    card(table, &(e.a - interpolate(table, shares)?))
}

/// The owner `seat`'s own hole card from the blinded `e = (a, b'_p)`, the
/// others' checked deal shares, its key share `s_i` and its `z` (§23.3):
/// `S = {i} ∪ {j}`, `D_{i,p} = s_i·b'_p` computed locally,
/// `X = a − Σ_{j∈S} λ_{S,j}·D_{j,p} + z·PK`. O(#S).
///
/// # Errors
///
/// As [`community_card`] (a share of `seat` itself among the others is
/// [`Error::DuplicateShare`]).
pub fn own_card<'t>(
    table: &'t Table,
    e: &Ciphertext,
    (seat, key_share, z): (u64, &KeyShare, &Blinding),
    key: &PublicKey,
    others: &[(u64, RistrettoPoint)],
) -> Result<&'t str, Error> {
    let mut shares = others.to_vec();
    shares.push((seat, key_share.0 * e.b));
    let x = e.a - interpolate(table, &shares)? + z.0 * key.0;
    card(table, &x)
}

/// The owner's open message for the showdown (§23.3): its share of the
/// blinded `e` with the proof, and `z`. O(1).
///
/// # Errors
///
/// As [`share_message`].
pub fn open<R: CryptoRng + ?Sized>(
    table: &Table,
    place: (u64, u64, u64),
    key_share: &KeyShare,
    z: &Blinding,
    e: &Ciphertext,
    rng: &mut R,
) -> Result<OpenMessage, Error> {
    let s = share_message(table, place, key_share, e, rng)?;
    Ok(OpenMessage {
        hand: s.hand,
        seat: s.seat,
        position: s.position,
        share: s.share,
        proof: s.proof,
        blinding: Hex32(*z.to_bytes()),
        signature: None,
    })
}

/// An opened card, as anyone reads it (§23.3): checks `z·G = Z_p` and the
/// owner's share proof against `y = Y_i`, then
/// `X = a − Σ_{j∈S} λ_{S,j}·D_{j,p} + z·PK` over the owner's share and the
/// others' checked deal shares of the blinded `e`. O(#S).
///
/// # Errors
///
/// [`Error::ScalarEncoding`]; [`Error::BlindProof`] naming the owner if
/// `z·G ≠ Z_p`; any error of [`verify_share`]; as [`community_card`].
pub fn opened_card<'t>(
    table: &'t Table,
    (e, blind): (&Ciphertext, &RistrettoPoint),
    (y, key): (&PublicKey, &PublicKey),
    msg: &OpenMessage,
    others: &[(u64, RistrettoPoint)],
) -> Result<&'t str, Error> {
    let z = Blinding::from_wire(&msg.blinding)?;
    if z.point() != *blind {
        return Err(Error::BlindProof(msg.seat));
    }
    let share = ShareMessage {
        hand: msg.hand,
        seat: msg.seat,
        position: msg.position,
        share: msg.share,
        proof: msg.proof,
        signature: None,
    };
    let mut shares = others.to_vec();
    shares.push((msg.seat, verify_share(table, y, e, &share)?));
    let x = e.a - interpolate(table, &shares)? + z.0 * key.0;
    card(table, &x)
}

/// `kind "open"`: `body = u64_be(n) ‖ u64_be(i) ‖ u64_be(p) ‖ share ‖ c ‖ s
/// ‖ z` (§28.3). O(1).
pub fn open_digest(ctx: &Context, m: &OpenMessage) -> Hex32 {
    let mut t = message(ctx, "open");
    t.u64(m.hand)
        .u64(m.seat)
        .u64(m.position)
        .element(&m.share)
        .element(&m.proof.c)
        .element(&m.proof.s)
        .element(&m.blinding);
    t.digest()
}
