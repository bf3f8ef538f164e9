//! Seat keys, their Schnorr proofs of knowledge, and the joint key
//! (`docs/hidden-dealing.md` §5 step 1, §7.1).
//!
//! Schnorr 1991, "Efficient Signature Generation by Smart Cards", made
//! non-interactive by Fiat–Shamir over a transcript that binds the table's
//! bytes `M` and the seat index, so a proof cannot be moved to another seat
//! or table and nobody can publish a rogue key `X − Σ others` (it would need
//! its discrete logarithm).

use core::fmt;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::group::{decode_nonidentity, decode_scalar, encode_point, encode_scalar, random_scalar};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

/// Domain of key proofs.
pub const KEY_DOMAIN: &str = "fairdeck-hidden-v3/key";

/// The domain of a key's fingerprint (§17, "Key fingerprints").
pub const FINGERPRINT_DOMAIN: &str = "fairdeck-hidden-v3.1/key-fingerprint";

/// A public key's fingerprint, for players to compare outside the room
/// (§17): the first 10 bytes of `SHA-512(lp(D_fp) ‖ enc(PK))` as 20
/// lowercase hex digits in five groups of four joined by `-`
/// (`3f2a-…`). A room that played a seat with a key of its own cannot
/// give it the seat's fingerprint short of a 2^80 search. O(1).
pub fn fingerprint(public_key: &Hex32) -> String {
    let mut t = Transcript::new(FINGERPRINT_DOMAIN);
    t.element(public_key);
    let digest = t.digest();
    let hex: String = digest.0[..10].iter().map(|b| format!("{b:02x}")).collect();
    let groups: Vec<&str> = (0..5).map(|i| &hex[4 * i..4 * i + 4]).collect();
    groups.join("-")
}

/// A seat's secret key `sk`: wiped on drop, never printed.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SecretKey(pub(crate) Scalar);

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretKey(<redacted>)")
    }
}

/// A seat's (or the joint) public key `PK = sk·G`, never the identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(pub RistrettoPoint);

/// A proof `(c, s)` of a challenge and a response, on the wire
/// `{"c": "<scalar>", "s": "<scalar>"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proof {
    /// The challenge `c`.
    pub c: Hex32,
    /// The response `s`.
    pub s: Hex32,
}

impl Proof {
    /// The proof `(c, s = k + c·x)` for the nonce `k`, which it wipes: the
    /// last step of every Schnorr and Chaum–Pedersen proof here. O(1).
    pub(crate) fn respond(mut k: Scalar, c: &Scalar, x: &Scalar) -> Proof {
        let s = k + c * x;
        k.zeroize();
        Proof {
            c: encode_scalar(c),
            s: encode_scalar(&s),
        }
    }
}

/// Seat `seat`'s public key with its proof of knowledge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyMessage {
    /// The seat index (0-based, manifest order).
    pub seat: u64,
    /// `enc(PK_j)`.
    pub public_key: Hex32,
    /// The Schnorr proof.
    pub proof: Proof,
    /// Version 3.1: the seat's signature on the message's digest (§17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

impl SecretKey {
    /// Draws `sk` by [`random_scalar`] (redrawn in the impossible case 0).
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> SecretKey {
        loop {
            let s = random_scalar(rng);
            if s != Scalar::ZERO {
                return SecretKey(s);
            }
        }
    }

    /// A key from 64 uniformly random bytes, reduced by `wide` (§2), for a
    /// caller whose generator can fail (the table service's room key).
    /// `None` in the impossible case 0.
    pub fn from_uniform_bytes(bytes: &[u8; 64]) -> Option<SecretKey> {
        let s = Scalar::from_bytes_mod_order_wide(bytes);
        (s != Scalar::ZERO).then_some(SecretKey(s))
    }

    /// The secret's 32 canonical bytes, for the seat to store; wiped when
    /// the returned value is dropped. Never publish them.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.to_bytes())
    }

    /// Reads a stored secret.
    ///
    /// # Errors
    ///
    /// [`Error::ScalarEncoding`] if the bytes are not a canonical scalar,
    /// [`Error::ZeroSecret`] if they are zero.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<SecretKey, Error> {
        let s = decode_scalar(&Hex32(*bytes))?;
        if s == Scalar::ZERO {
            return Err(Error::ZeroSecret);
        }
        Ok(SecretKey(s))
    }

    /// `PK = sk·G`.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(RISTRETTO_BASEPOINT_TABLE * &self.0)
    }
}

/// The key proof's challenge:
/// `wide(SHA-512(lp(D_key) ‖ lp(M) ‖ u64_be(j) ‖ enc(PK_j) ‖ enc(R)))`.
fn key_challenge(table: &Table, seat: u64, pk: &Hex32, r: &RistrettoPoint) -> Scalar {
    let mut t = Transcript::new(KEY_DOMAIN);
    t.bytes(table.manifest_bytes())
        .u64(seat)
        .element(pk)
        .element(&encode_point(r));
    t.challenge()
}

/// Publishes seat `seat`'s key: `R = k·G`, `c = H(…)`, `s = k + c·sk`. O(1).
///
/// # Errors
///
/// [`Error::Seat`] if the seat is not one of the manifest's.
pub fn key_message<R: CryptoRng + ?Sized>(
    table: &Table,
    seat: u64,
    sk: &SecretKey,
    rng: &mut R,
) -> Result<KeyMessage, Error> {
    table.check_seat(seat)?;
    let public_key = encode_point(&sk.public_key().0);
    let k = random_scalar(rng);
    let c = key_challenge(table, seat, &public_key, &(RISTRETTO_BASEPOINT_TABLE * &k));
    Ok(KeyMessage {
        seat,
        public_key,
        proof: Proof::respond(k, &c, &sk.0),
        signature: None,
    })
}

/// Verifies a key message: `R' = s·G − c·PK_j`, accept iff `H(…R'…) = c`.
///
/// # Errors
///
/// [`Error::Seat`]; the encoding failures
/// ([`Error::PointEncoding`], [`Error::Identity`], [`Error::ScalarEncoding`]),
/// or [`Error::KeyProof`].
pub fn verify_key(table: &Table, msg: &KeyMessage) -> Result<PublicKey, Error> {
    table.check_seat(msg.seat)?;
    let pk = decode_nonidentity(&msg.public_key)?;
    let c = decode_scalar(&msg.proof.c)?;
    let s = decode_scalar(&msg.proof.s)?;
    let r = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, &pk, &s);
    if key_challenge(table, msg.seat, &msg.public_key, &r) != c {
        return Err(Error::KeyProof(msg.seat));
    }
    Ok(PublicKey(pk))
}

/// Verifies one key message per seat, in seat order, and returns the keys
/// and the joint key `PK = Σ PK_j`.
///
/// # Errors
///
/// [`Error::Seat`] naming the first seat whose message is missing or out of
/// place; any error of [`verify_key`]; [`Error::Identity`] if the sum is
/// the identity.
pub fn joint_key(table: &Table, msgs: &[KeyMessage]) -> Result<(Vec<PublicKey>, PublicKey), Error> {
    let mut keys = Vec::with_capacity(table.seats());
    for j in 0..table.seats() as u64 {
        match msgs.get(j as usize) {
            Some(m) if m.seat == j => keys.push(verify_key(table, m)?),
            _ => return Err(Error::Seat(j)),
        }
    }
    if msgs.len() > keys.len() {
        return Err(Error::Seat(keys.len() as u64));
    }
    let sum: RistrettoPoint = keys.iter().map(|k| k.0).sum();
    if sum == RistrettoPoint::identity() {
        return Err(Error::Identity);
    }
    Ok((keys, PublicKey(sum)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_secret_is_named_as_such_not_as_a_large_scalar() {
        let zero = SecretKey::from_bytes(&[0; 32]).map(|_| ()).unwrap_err();
        assert_eq!(zero, Error::ZeroSecret);
        assert_eq!(zero.kind(), "scalar-encoding");
        assert_eq!(zero.to_string(), "scalar-encoding: a secret key of zero");
        let large = SecretKey::from_bytes(&[0xff; 32]).map(|_| ()).unwrap_err();
        assert_eq!(large, Error::ScalarEncoding);
    }
}
