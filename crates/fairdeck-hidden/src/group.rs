//! ristretto255: canonical encodings, random scalars, hash to group, the card
//! points and the shuffle proof's generators (`docs/hidden-dealing.md` §2–§3).

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use rand_core::CryptoRng;
use sha2::{Digest, Sha512};
use zeroize::Zeroize;

use crate::Error;
use crate::transcript::lp;
use crate::wire::Hex32;

/// Domain of the card points.
pub const CARD_DOMAIN: &str = "fairdeck-hidden-v3/card";
/// Domain of the commitment generators `h_i`.
pub const GENERATOR_DOMAIN: &str = "fairdeck-hidden-v3/generator";
/// Domain of the chain generator `H`.
pub const CHAIN_DOMAIN: &str = "fairdeck-hidden-v3/chain";

/// Decodes a canonical point (RFC 9496 §4.3.1). O(1).
///
/// # Errors
///
/// [`Error::PointEncoding`] for any non-canonical or invalid encoding.
pub fn decode_point(h: &Hex32) -> Result<RistrettoPoint, Error> {
    CompressedRistretto(h.0)
        .decompress()
        .ok_or(Error::PointEncoding)
}

/// Decodes a point that must not be the identity (a public key).
///
/// # Errors
///
/// [`Error::PointEncoding`], or [`Error::Identity`].
pub fn decode_nonidentity(h: &Hex32) -> Result<RistrettoPoint, Error> {
    let p = decode_point(h)?;
    if p == RistrettoPoint::identity() {
        return Err(Error::Identity);
    }
    Ok(p)
}

/// Decodes a canonical scalar: 32 little-endian bytes below `ℓ`, never reduced.
///
/// # Errors
///
/// [`Error::ScalarEncoding`] when the integer is `≥ ℓ`.
pub fn decode_scalar(h: &Hex32) -> Result<Scalar, Error> {
    Option::from(Scalar::from_canonical_bytes(h.0)).ok_or(Error::ScalarEncoding)
}

/// `enc(P)`: the 32-byte canonical encoding, as wire bytes.
pub fn encode_point(p: &RistrettoPoint) -> Hex32 {
    Hex32(p.compress().to_bytes())
}

/// `enc(s)`: 32 little-endian bytes, as wire bytes.
pub fn encode_scalar(s: &Scalar) -> Hex32 {
    Hex32(s.to_bytes())
}

/// A random scalar: 64 bytes of `rng` reduced mod `ℓ` (`wide`), within
/// statistical distance `2^-259` of uniform. The bytes are wiped.
pub fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Scalar {
    let mut wide = [0u8; 64];
    rng.fill_bytes(&mut wide);
    let s = Scalar::from_bytes_mod_order_wide(&wide);
    wide.zeroize();
    s
}

/// `H2G(domain, x) = from_uniform_bytes(SHA-512(lp(domain) ‖ x))`. O(1).
pub fn hash_to_group(domain: &str, x: &[u8]) -> RistrettoPoint {
    let mut input = Vec::with_capacity(8 + domain.len() + x.len());
    lp(&mut input, domain.as_bytes());
    input.extend_from_slice(x);
    RistrettoPoint::from_uniform_bytes(&Sha512::digest(&input).into())
}

/// The card point `P_c = H2G("fairdeck-hidden-v3/card", lp(name))`.
///
/// ```
/// use fairdeck_hidden::group::card_point;
/// assert_ne!(card_point("AS"), card_point("KS"));
/// ```
pub fn card_point(name: &str) -> RistrettoPoint {
    let mut x = Vec::new();
    lp(&mut x, name.as_bytes());
    hash_to_group(CARD_DOMAIN, &x)
}

/// The commitment generator `h_i = H2G("fairdeck-hidden-v3/generator", u64_be(i))`.
pub fn generator(i: u64) -> RistrettoPoint {
    hash_to_group(GENERATOR_DOMAIN, &i.to_be_bytes())
}

/// The chain generator `H = H2G("fairdeck-hidden-v3/chain", "")`.
pub fn chain_generator() -> RistrettoPoint {
    hash_to_group(CHAIN_DOMAIN, b"")
}

/// The shuffle proof's independent generators for decks of `N` cards:
/// `h_0 … h_{N−1}` and `H`. Computed once per table (O(N) hashes to group).
#[derive(Debug, Clone)]
pub struct Generators {
    /// `h_0 … h_{N−1}`.
    pub h: Vec<RistrettoPoint>,
    /// The chain's start `H`.
    pub chain: RistrettoPoint,
}

impl Generators {
    /// The generators for `n` cards.
    pub fn new(n: usize) -> Generators {
        Generators {
            h: (0..n as u64).map(generator).collect(),
            chain: chain_generator(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_at_or_above_the_order_are_refused() {
        // ℓ itself, little-endian.
        let l = Hex32::parse("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
            .unwrap();
        assert_eq!(decode_scalar(&l), Err(Error::ScalarEncoding));
        assert_eq!(
            decode_scalar(&Hex32([0xff; 32])),
            Err(Error::ScalarEncoding)
        );
        let mut below = l;
        below.0[0] -= 1;
        assert!(decode_scalar(&below).is_ok());
    }

    #[test]
    fn non_canonical_points_and_identity_keys_are_refused() {
        // The field element p = 2^255 − 19 encodes 0 non-canonically.
        let p = Hex32::parse("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
            .unwrap();
        assert_eq!(decode_point(&p), Err(Error::PointEncoding));
        // A negative field element (low bit set) is never canonical.
        assert_eq!(decode_point(&Hex32([1; 32])), Err(Error::PointEncoding));
        let zero = Hex32([0; 32]);
        assert_eq!(decode_point(&zero), Ok(RistrettoPoint::identity()));
        assert_eq!(decode_nonidentity(&zero), Err(Error::Identity));
    }

    #[test]
    fn generators_are_distinct_and_not_the_base_point() {
        let g = Generators::new(52);
        let mut all: Vec<_> = g.h.iter().map(|p| p.compress().to_bytes()).collect();
        all.push(g.chain.compress().to_bytes());
        all.push(curve25519_dalek::constants::RISTRETTO_BASEPOINT_COMPRESSED.to_bytes());
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 54);
    }
}
