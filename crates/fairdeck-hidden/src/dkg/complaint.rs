//! Complaints and blame (§22.5).

use curve25519_dalek::ristretto::RistrettoPoint;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};

use super::shares::decrypt_share;
use super::{COMPLAINT_DOMAIN, Dealing};
use crate::dleq::{prove_dleq, verify_dleq};
use crate::group::{decode_point, encode_point};
use crate::keys::{Proof, PublicKey, SecretKey};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Seat `seat`'s complaint against dealer `against` on the wire (§28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComplaintMessage {
    /// The complainer `j`.
    pub seat: u64,
    /// The dealer `i`.
    pub against: u64,
    /// `K_{i,j} = sk_j·E_i`.
    pub key: Hex32,
    /// The Chaum–Pedersen proof that `log_G(PK_j) = log_{E_i}(K_{i,j})`.
    pub proof: Proof,
    /// The seat's signature on the message's digest (§17, §28.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// `lp(D_complaint) ‖ lp(M) ‖ u64_be(j) ‖ u64_be(i) ‖ enc(PK_j) ‖ enc(E_i)
/// ‖ enc(K_{i,j})`; the proof appends `enc(R_1) ‖ enc(R_2)` (§22.5).
fn complaint_prefix(
    table: &Table,
    (seat, against): (u64, u64),
    seat_key: &PublicKey,
    ephemeral: &RistrettoPoint,
    key: &Hex32,
) -> Transcript {
    let mut t = Transcript::new(COMPLAINT_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(seat)
        .u64(against)
        .element(&encode_point(&seat_key.0))
        .element(&encode_point(ephemeral))
        .element(key);
    t
}

/// Seat `seat`'s complaint against the dealer of `dealing`: `K_{i,j} =
/// sk_j·E_i` and the Chaum–Pedersen proof (`k` random, `R_1 = k·G`,
/// `R_2 = k·E_i`, `s = k + c·sk_j`), §22.5. O(1).
///
/// # Errors
///
/// [`Error::Seat`].
pub fn complaint<R: CryptoRng + ?Sized>(
    table: &Table,
    seat: u64,
    dealing: &Dealing,
    sk: &SecretKey,
    rng: &mut R,
) -> Result<ComplaintMessage, Error> {
    table.check_seat(seat)?;
    let key = encode_point(&(sk.0 * dealing.ephemeral));
    let prefix = complaint_prefix(
        table,
        (seat, dealing.seat),
        &sk.public_key(),
        &dealing.ephemeral,
        &key,
    );
    Ok(ComplaintMessage {
        seat,
        against: dealing.seat,
        key,
        proof: prove_dleq(prefix, &dealing.ephemeral, &sk.0, rng),
        signature: None,
    })
}

/// Judges a complaint (§22.5), as anyone can, given the seat keys and the
/// checked dealings (one per seat, in seat order), and returns the fault:
/// [`Error::Complaint`] naming the complainer `j` if the proof
/// (`R_1' = s·G − c·PK_j`, `R_2' = s·E_i − c·K_{i,j}`) fails, names no
/// dealer, or the revealed share is right; [`Error::DealingShare`] naming
/// the dealer `i` if the share does not match its commitments; or
/// [`Error::Seat`] for a complainer outside the table. O(t).
pub fn judge(
    table: &Table,
    keys: &[PublicKey],
    dealings: &[Dealing],
    msg: &ComplaintMessage,
) -> Error {
    let j = msg.seat;
    let Some(seat_key) = table.check_seat(j).ok().and_then(|s| keys.get(s)) else {
        return Error::Seat(j);
    };
    let Some(dealing) = dealings.iter().find(|d| d.seat == msg.against) else {
        return Error::Complaint(j);
    };
    let Ok(dh) = decode_point(&msg.key) else {
        return Error::Complaint(j);
    };
    let prefix = complaint_prefix(
        table,
        (j, msg.against),
        seat_key,
        &dealing.ephemeral,
        &msg.key,
    );
    let statement = (&seat_key.0, &dealing.ephemeral, &dh);
    if verify_dleq(prefix, statement, &msg.proof) != Ok(true) {
        return Error::Complaint(j);
    }
    match decrypt_share(table, dealing, (j, seat_key), &dh) {
        Some(_) => Error::Complaint(j),
        None => Error::DealingShare(msg.against),
    }
}
