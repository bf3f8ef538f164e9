//! A hand under a threshold key (`docs/hidden-dealing-v3.2.md` §23–§24):
//! Lagrange weights, the owner's blind of a hole card, decryption shares
//! against the verifying shares `Y_j`, and combining any `t` of them.
//!
//! Threshold ElGamal decryption (Desmedt & Frankel 1989, "Threshold
//! Cryptosystems"; Pedersen 1991): seat `j` publishes `D_{j,p} = s_j·b'_p`
//! with a Chaum–Pedersen proof against `Y_j = s_j·G` (§7.2's proof, its
//! own domain), and `Σ_{j∈S} λ_{S,j}·D_{j,p} = sk·b'_p` for any set `S` of
//! at least `t` seats. What fairdeck adds (§23.2): the owner of a hole card
//! first publishes a blind `Z_p = z·G` with a proof of knowledge of `z`,
//! and the seats share `b'_p = b + Z_p`; `t − 1` colluders holding every
//! published share get `a − sk·b'_p = P_c − z·PK`, an ElGamal encryption of
//! the card under fresh randomness that only the owner knows (§24).
//!
//! ```
//! use fairdeck_hidden::threshold::lagrange_weights;
//! use curve25519_dalek::scalar::Scalar;
//!
//! // §23.3: with nobody lost of 4 seats, λ = 4, −6, 4, −1.
//! let w = lagrange_weights(&[0, 1, 2, 3])?;
//! assert_eq!(w, [Scalar::from(4u64), -Scalar::from(6u64), Scalar::from(4u64), -Scalar::ONE]);
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;
use rand_core::CryptoRng;

use crate::dkg::{KeyShare, evaluation_point};
use crate::dleq::{ShareMessage, check_share_message, make_share};
use crate::elgamal::Ciphertext;
use crate::keys::PublicKey;
use crate::{Error, Table};

mod blind;
mod combine;
#[cfg(test)]
mod tests;

pub use blind::{BLIND_DOMAIN, BlindMessage, Blinding, blind, blind_digest, blinded, check_blind};
pub use combine::{OpenMessage, community_card, open, open_digest, opened_card, own_card};

/// Domain of version 3.2's share proofs (§23.3).
pub const SHARE_DOMAIN: &str = "fairdeck-hidden-v3.2/share";

/// The Lagrange weights at 0 of a set `S` of seats (§23.3):
/// `λ_{S,j} = Π_{m ∈ S, m ≠ j} x_m · (x_m − x_j)^(−1)  (mod ℓ)`, in the
/// order of `seats`. O(#S²) multiplications and #S inversions.
///
/// # Errors
///
/// [`Error::DuplicateShare`] naming a seat listed twice.
pub fn lagrange_weights(seats: &[u64]) -> Result<Vec<Scalar>, Error> {
    for (k, j) in seats.iter().enumerate() {
        if seats[..k].contains(j) {
            return Err(Error::DuplicateShare(*j));
        }
    }
    let weight = |j: u64| {
        let x_j = evaluation_point(j);
        let (num, den) =
            seats
                .iter()
                .filter(|&&m| m != j)
                .fold((Scalar::ONE, Scalar::ONE), |(num, den), &m| {
                    let x_m = evaluation_point(m);
                    (num * x_m, den * (x_m - x_j)) // §23.3: x_m · (x_m − x_j)^(−1)
                });
        num * den.invert()
    };
    Ok(seats.iter().map(|&j| weight(j)).collect())
}

/// `Σ_{j∈S} λ_{S,j}·D_j` over the checked shares `(j, D_j)`, which must
/// number at least `t` (§23.3). O(#S) (one multiscalar multiplication).
///
/// # Errors
///
/// [`Error::DuplicateShare`]; [`Error::MissingShare`] naming the first seat
/// without a share when there are fewer than `t`.
pub(crate) fn interpolate(
    table: &Table,
    shares: &[(u64, RistrettoPoint)],
) -> Result<RistrettoPoint, Error> {
    let seats: Vec<u64> = shares.iter().map(|(j, _)| *j).collect();
    let weights = lagrange_weights(&seats)?;
    if shares.len() < table.threshold() {
        let missing = (0..table.seats() as u64).find(|j| !seats.contains(j));
        return Err(Error::MissingShare(missing.unwrap_or(0)));
    }
    Ok(RistrettoPoint::vartime_multiscalar_mul(
        weights,
        shares.iter().map(|(_, d)| d),
    ))
}

/// Seat `seat`'s decryption share of position `position` of hand `hand`
/// (§23.3): `D_{j,p} = s_j·b'_p` of the blinded ciphertext `(a, b'_p)`,
/// with the Chaum–Pedersen proof against `Y_j` under [`SHARE_DOMAIN`]. On
/// the wire it is §8's share message. O(1).
///
/// # Errors
///
/// [`Error::Hand`], [`Error::Seat`] or [`Error::Position`] out of range.
pub fn share_message<R: CryptoRng + ?Sized>(
    table: &Table,
    (hand, seat, position): (u64, u64, u64),
    key_share: &KeyShare,
    e: &Ciphertext,
    rng: &mut R,
) -> Result<ShareMessage, Error> {
    let y = key_share.verifying_share();
    let place = (hand, seat, position);
    make_share(SHARE_DOMAIN, table, place, (&key_share.0, &y.0), e, rng)
}

/// Checks a version-3.2 share of the blinded `e` by the seat whose
/// verifying share is `y` (§23.3): `R_1' = s·G − c·Y_j`,
/// `R_2' = s·b'_p − c·D_{j,p}`, accept iff `H(…) = c`. Returns `D_{j,p}`. O(1).
///
/// # Errors
///
/// Range errors as [`share_message`]; [`Error::PointEncoding`],
/// [`Error::ScalarEncoding`]; [`Error::ShareProof`].
pub fn verify_share(
    table: &Table,
    y: &PublicKey,
    e: &Ciphertext,
    msg: &ShareMessage,
) -> Result<RistrettoPoint, Error> {
    check_share_message(SHARE_DOMAIN, table, &y.0, e, msg)
}
