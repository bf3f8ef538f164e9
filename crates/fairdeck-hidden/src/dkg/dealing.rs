//! The dealing of seat `i` and what every party checks of it (§22.3).

use core::fmt;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{DEALING_DOMAIN, PAD_DOMAIN, evaluation_point};
use crate::group::{decode_point, decode_scalar, encode_point, encode_scalar, random_scalar};
use crate::keys::{Proof, PublicKey};
use crate::signature::{schnorr_prove, schnorr_verify};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Seat `seat`'s dealing on the wire (§28.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealingMessage {
    /// The dealer `i`.
    pub seat: u64,
    /// `A_{i,0} … A_{i,t−1}`.
    pub commitments: Vec<Hex32>,
    /// `E_i`.
    pub ephemeral: Hex32,
    /// `e_{i,0} … e_{i,P−1}`.
    pub shares: Vec<Hex32>,
    /// The proof of knowledge of `a_{i,0}`.
    pub proof: Proof,
    /// The seat's signature on the message's digest (§17, §28.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// A dealing that passed §22.3's checks, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dealing {
    /// The dealer `i`.
    pub seat: u64,
    /// `A_{i,0} … A_{i,t−1}`.
    pub commitments: Vec<RistrettoPoint>,
    /// `E_i`.
    pub ephemeral: RistrettoPoint,
    /// `e_{i,0} … e_{i,P−1}`.
    pub shares: Vec<Scalar>,
}

/// A dealer's secrets: the coefficients `a_{i,0} … a_{i,t−1}` and the
/// ephemeral scalar `r_i`. Wiped on drop, never printed.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct DealingSecrets {
    coefficients: Vec<Scalar>,
    ephemeral: Scalar,
}

impl fmt::Debug for DealingSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DealingSecrets(<redacted>)")
    }
}

impl DealingSecrets {
    /// Draws `a_{i,0} … a_{i,t−1}`, then `r_i` (§22.3's draw order), each by
    /// [`random_scalar`]; `a_{i,0}` is redrawn in the impossible case 0. O(t).
    pub fn draw<R: CryptoRng + ?Sized>(table: &Table, rng: &mut R) -> DealingSecrets {
        let coefficients = (0..table.threshold())
            .map(|k| {
                loop {
                    let a = random_scalar(rng);
                    if k > 0 || a != Scalar::ZERO {
                        break a;
                    }
                }
            })
            .collect();
        let ephemeral = random_scalar(rng);
        DealingSecrets {
            coefficients,
            ephemeral,
        }
    }

    /// Secrets given (a test oracle's coefficients). `None` unless there is
    /// at least one coefficient and the constant is not 0.
    pub fn new(coefficients: Vec<Scalar>, ephemeral: Scalar) -> Option<DealingSecrets> {
        (coefficients.first().is_some_and(|a| *a != Scalar::ZERO)).then_some(DealingSecrets {
            coefficients,
            ephemeral,
        })
    }

    /// The coefficients (for test vectors; never publish them).
    pub fn coefficients(&self) -> &[Scalar] {
        &self.coefficients
    }

    /// `r_i` (for test vectors; never publish it).
    pub fn ephemeral(&self) -> &Scalar {
        &self.ephemeral
    }

    /// `f_i(x) = a_{i,0} + a_{i,1}·x + … + a_{i,t−1}·x^{t−1}` (§22.3), by Horner. O(t).
    fn evaluate(&self, x: &Scalar) -> Scalar {
        self.coefficients
            .iter()
            .rev()
            .fold(Scalar::ZERO, |acc, a| acc * x + a)
    }
}

/// `pad_{i,j} = wide(SHA-512(lp(D_pad) ‖ lp(M) ‖ u64_be(i) ‖ u64_be(j) ‖ enc(E_i)
/// ‖ enc(PK_j) ‖ enc(K_{i,j})))` (§22.3), with `K_{i,j} = r_i·PK_j = sk_j·E_i`. O(1).
pub fn share_pad(
    table: &Table,
    (dealer, seat): (u64, u64),
    ephemeral: &RistrettoPoint,
    seat_key: &PublicKey,
    dh: &RistrettoPoint,
) -> Scalar {
    let mut t = Transcript::new(PAD_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(dealer)
        .u64(seat)
        .element(&encode_point(ephemeral))
        .element(&encode_point(&seat_key.0))
        .element(&encode_point(dh));
    t.challenge()
}

/// The dealing proof's statement: `lp(D_dealing) ‖ lp(M) ‖ u64_be(i) ‖ u64_be(t)
/// ‖ enc(A_{i,0}) ‖ … ‖ enc(E_i) ‖ u64_be(P) ‖ enc(e_{i,0}) ‖ …` (§22.3); the
/// proof appends `enc(R)`.
fn dealing_prefix(table: &Table, m: &DealingMessage) -> Transcript {
    let mut t = Transcript::new(DEALING_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(m.seat)
        .u64(m.commitments.len() as u64)
        .elements(&m.commitments)
        .element(&m.ephemeral)
        .u64(m.shares.len() as u64)
        .elements(&m.shares);
    t
}

/// Seat `seat`'s dealing (§22.3) to the seat keys `keys` (in seat order):
/// [`deal_shares`], then [`prove_dealing`] (its nonce drawn from `rng`).
/// O(t + P) scalar multiplications.
///
/// # Errors
///
/// As [`deal_shares`].
pub fn dealing<R: CryptoRng + ?Sized>(
    table: &Table,
    seat: u64,
    keys: &[PublicKey],
    secrets: &DealingSecrets,
    rng: &mut R,
) -> Result<DealingMessage, Error> {
    let mut msg = deal_shares(table, seat, keys, secrets)?;
    prove_dealing(table, &mut msg, secrets, rng);
    Ok(msg)
}

/// The dealing's values, not yet proven (its proof all zeros):
/// `A_{i,k} = a_{i,k}·G`, `E_i = r_i·G`, `e_{i,j} = f_i(x_j) + pad_{i,j}`
/// (§22.3). O(t + P) scalar multiplications.
///
/// # Errors
///
/// [`Error::Seat`] for a seat outside the table; [`Error::Dealing`] unless
/// there is one key per seat and `t` coefficients.
pub fn deal_shares(
    table: &Table,
    seat: u64,
    keys: &[PublicKey],
    secrets: &DealingSecrets,
) -> Result<DealingMessage, Error> {
    table.check_seat(seat)?;
    if keys.len() != table.seats() || secrets.coefficients.len() != table.threshold() {
        return Err(Error::Dealing(seat));
    }
    let r = &secrets.ephemeral;
    let ephemeral = RISTRETTO_BASEPOINT_TABLE * r; // E_i = r_i·G
    let shares = keys.iter().zip(0u64..).map(|(pk, j)| {
        let dh = r * pk.0; // K_{i,j} = r_i·PK_j
        let mut s = secrets.evaluate(&evaluation_point(j)); // s_{i,j} = f_i(x_j)
        let e = s + share_pad(table, (seat, j), &ephemeral, pk, &dh); // e_{i,j}
        s.zeroize();
        encode_scalar(&e)
    });
    let commitments = secrets
        .coefficients
        .iter()
        .map(|a| encode_point(&(RISTRETTO_BASEPOINT_TABLE * a))); // A_{i,k} = a_{i,k}·G
    Ok(DealingMessage {
        seat,
        commitments: commitments.collect(),
        ephemeral: encode_point(&ephemeral),
        shares: shares.collect(),
        proof: Proof {
            c: Hex32([0; 32]),
            s: Hex32([0; 32]),
        },
        signature: None,
    })
}

/// Proves knowledge of `a_{i,0}` over the whole dealing as it stands
/// (§22.3): `k` random, `R = k·G`, `c = H(lp(D_dealing) ‖ lp(M) ‖ u64_be(i)
/// ‖ u64_be(t) ‖ enc(A_{i,0}) ‖ … ‖ enc(E_i) ‖ u64_be(P) ‖ enc(e_{i,0}) ‖ …
/// ‖ enc(R))`, `s = k + c·a_{i,0}`. O(t + P) hashing. A test of a bad share
/// changes a share of [`deal_shares`] and then proves it, as a cheating
/// dealer would.
pub fn prove_dealing<R: CryptoRng + ?Sized>(
    table: &Table,
    msg: &mut DealingMessage,
    secrets: &DealingSecrets,
    rng: &mut R,
) {
    msg.proof = schnorr_prove(dealing_prefix(table, msg), &secrets.coefficients[0], rng);
}

/// What every party checks of a dealing (§22.3), in this order: the seat,
/// `t` commitments and `P` shares, the encodings, `A_{i,0} ≠ 0`, the proof
/// (`R' = s·G − c·A_{i,0}`, accept iff `H(…R') = c`). The envelope and the
/// signature are the caller's. O(t + P).
///
/// # Errors
///
/// [`Error::Seat`], [`Error::Dealing`], [`Error::PointEncoding`],
/// [`Error::ScalarEncoding`], [`Error::Identity`], [`Error::DealingProof`].
pub fn check_dealing(table: &Table, msg: &DealingMessage) -> Result<Dealing, Error> {
    table.check_seat(msg.seat)?;
    if msg.commitments.len() != table.threshold() || msg.shares.len() != table.seats() {
        return Err(Error::Dealing(msg.seat));
    }
    let commitments = msg
        .commitments
        .iter()
        .map(decode_point)
        .collect::<Result<Vec<_>, _>>()?;
    let ephemeral = decode_point(&msg.ephemeral)?;
    let shares = msg
        .shares
        .iter()
        .map(decode_scalar)
        .collect::<Result<Vec<_>, _>>()?;
    decode_scalar(&msg.proof.c)?;
    decode_scalar(&msg.proof.s)?;
    if commitments[0] == RistrettoPoint::identity() {
        return Err(Error::Identity);
    }
    if !schnorr_verify(dealing_prefix(table, msg), &commitments[0], &msg.proof) {
        return Err(Error::DealingProof(msg.seat));
    }
    Ok(Dealing {
        seat: msg.seat,
        commitments,
        ephemeral,
        shares,
    })
}
