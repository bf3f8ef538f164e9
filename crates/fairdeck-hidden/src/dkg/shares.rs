//! A seat's check of its shares, the public results and `ready` (§22.4).

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::Zeroize;

use super::{Dealing, KeyShare, READY_DOMAIN, evaluation_point, horner, share_pad};
use crate::group::encode_point;
use crate::keys::{Proof, PublicKey, SecretKey};
use crate::signature::{schnorr_prove, schnorr_verify};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Seat `seat`'s `ready` on the wire (§28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadyMessage {
    /// The seat `j`.
    pub seat: u64,
    /// `Y_j`.
    pub verifying_share: Hex32,
    /// The proof of knowledge of `s_j`.
    pub proof: Proof,
    /// The seat's signature on the message's digest (§17, §28.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// The key generation's public results (§22.4), computable by anyone from
/// the commitments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyResult {
    /// The joint card key `PK = Â_0`.
    pub key: PublicKey,
    /// Every seat's verifying share `Y_m`, in seat order.
    pub verifying_shares: Vec<PublicKey>,
}

/// What seat `j` makes of its shares: its key share, or the dealers whose
/// shares to it do not match their commitments (one complaint each, §22.5).
#[derive(Debug, Clone)]
pub enum Received {
    /// Every share checked: `s_j`.
    Ready(KeyShare),
    /// The dealers to complain against, in seat order.
    Complain(Vec<u64>),
}

/// `s_{i,j} = e_{i,j} − pad_{i,j}` with `K_{i,j}` (§22.4), or `None` if
/// `s_{i,j}·G ≠ Σ_k x_j^k·A_{i,k}`. O(t).
pub(crate) fn decrypt_share(
    table: &Table,
    dealing: &Dealing,
    (seat, seat_key): (u64, &PublicKey),
    dh: &RistrettoPoint,
) -> Option<Scalar> {
    let e = dealing.shares.get(usize::try_from(seat).ok()?)?;
    let pad = share_pad(
        table,
        (dealing.seat, seat),
        &dealing.ephemeral,
        seat_key,
        dh,
    );
    let s = e - pad;
    // §22.4: s_{i,j}·G = Σ_{k=0}^{t−1} x_j^k · A_{i,k}
    let expected = horner(&dealing.commitments, &evaluation_point(seat));
    (RISTRETTO_BASEPOINT_TABLE * &s == expected).then_some(s)
}

/// Seat `seat` decrypts and checks its share of every dealing (checked
/// dealings, one per seat in seat order, itself included) with its seat key
/// `sk`, and sums them: `s_j = Σ_i s_{i,j}` (§22.4). O(P·t).
pub fn receive(table: &Table, dealings: &[Dealing], seat: u64, sk: &SecretKey) -> Received {
    let pk = sk.public_key();
    let mut sum = KeyShare(Scalar::ZERO);
    let mut bad = Vec::new();
    for d in dealings {
        let dh = sk.0 * d.ephemeral; // K_{i,j} = sk_j·E_i
        match decrypt_share(table, d, (seat, &pk), &dh) {
            Some(mut s) => {
                sum.0 += s;
                s.zeroize();
            }
            None => bad.push(d.seat),
        }
    }
    if bad.is_empty() {
        Received::Ready(sum)
    } else {
        Received::Complain(bad)
    }
}

/// The public results of the checked dealings (one per seat, in seat
/// order), §22.4: `Â_k = Σ_i A_{i,k}`, `PK = Â_0`, `Y_m = Σ_k x_m^k·Â_k`.
/// O(P·t).
///
/// # Errors
///
/// [`Error::Seat`] naming the first seat whose dealing is missing or out of
/// place; [`Error::Identity`] if `PK` is the identity.
pub fn public_result(table: &Table, dealings: &[Dealing]) -> Result<KeyResult, Error> {
    let p = table.seats();
    if let Some(j) = (0..p).find(|&j| dealings.get(j).is_none_or(|d| d.seat != j as u64)) {
        return Err(Error::Seat(j as u64));
    }
    if dealings.len() > p {
        return Err(Error::Seat(p as u64));
    }
    let mut sums = vec![RistrettoPoint::identity(); table.threshold()];
    for d in dealings {
        for (acc, a) in sums.iter_mut().zip(&d.commitments) {
            *acc += a; // Â_k = Σ_i A_{i,k}
        }
    }
    if sums[0] == RistrettoPoint::identity() {
        return Err(Error::Identity);
    }
    let verifying_shares = (0..p as u64)
        .map(|m| PublicKey(horner(&sums, &evaluation_point(m)))) // Y_m
        .collect();
    Ok(KeyResult {
        key: PublicKey(sums[0]),
        verifying_shares,
    })
}

/// `lp(D_ready) ‖ lp(M) ‖ u64_be(j) ‖ enc(PK) ‖ enc(Y_j)`; the proof appends
/// `enc(R)` (§22.4).
fn ready_prefix(table: &Table, seat: u64, key: &PublicKey, y: &Hex32) -> Transcript {
    let mut t = Transcript::new(READY_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(seat)
        .element(&encode_point(&key.0))
        .element(y);
    t
}

/// Seat `seat`'s `ready`: `Y_j = s_j·G` and the Schnorr proof of `s_j`
/// (§22.4). O(1).
///
/// # Errors
///
/// [`Error::Seat`].
pub fn ready<R: CryptoRng + ?Sized>(
    table: &Table,
    seat: u64,
    key: &PublicKey,
    share: &KeyShare,
    rng: &mut R,
) -> Result<ReadyMessage, Error> {
    table.check_seat(seat)?;
    let verifying_share = encode_point(&share.verifying_share().0);
    let proof = schnorr_prove(
        ready_prefix(table, seat, key, &verifying_share),
        &share.0,
        rng,
    );
    Ok(ReadyMessage {
        seat,
        verifying_share,
        proof,
        signature: None,
    })
}

/// Checks a `ready` against the public results (§22.4): `Y_j` is the
/// computed one and the proof holds. O(1).
///
/// # Errors
///
/// [`Error::Seat`]; [`Error::Ready`] naming the seat.
pub fn check_ready(table: &Table, result: &KeyResult, msg: &ReadyMessage) -> Result<(), Error> {
    let j = table.check_seat(msg.seat)?;
    let y = result
        .verifying_shares
        .get(j)
        .ok_or(Error::Seat(msg.seat))?;
    if encode_point(&y.0) != msg.verifying_share {
        return Err(Error::Ready(msg.seat));
    }
    let prefix = ready_prefix(table, msg.seat, &result.key, &msg.verifying_share);
    if !schnorr_verify(prefix, &y.0, &msg.proof) {
        return Err(Error::Ready(msg.seat));
    }
    Ok(())
}
