//! ElGamal over ristretto255 in additive notation (`docs/hidden-dealing.md` §6).
//!
//! A ciphertext of the point `M` under the key `PK` is
//! `(a, b) = (M + r·PK, r·G)`; re-encryption adds an encryption of zero,
//! `ReEnc((a, b), ρ) = (a + ρ·PK, b + ρ·G)`, which changes the pair and
//! keeps the point: `a − sk·b = M`. The starting deck is the trivial
//! encryption (`r = 0`) of the card points.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::{RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::group::{decode_point, encode_point};
use crate::wire::Hex32;

/// An ElGamal ciphertext `(a, b) = (M + r·PK, r·G)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ciphertext {
    /// `a = M + r·PK`.
    pub a: RistrettoPoint,
    /// `b = r·G`.
    pub b: RistrettoPoint,
}

/// A deck of ciphertexts, top (position 0) first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck(pub Vec<Ciphertext>);

/// A ciphertext on the wire: `{"a": "<point>", "b": "<point>"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CiphertextWire {
    /// `enc(a)`.
    pub a: Hex32,
    /// `enc(b)`.
    pub b: Hex32,
}

/// A public key with its fixed-base table, for fast `ρ·PK`.
pub struct KeyTable(RistrettoBasepointTable);

impl KeyTable {
    /// Precomputes multiples of `pk` (about the cost of 4 scalar multiplications).
    pub fn new(pk: &RistrettoPoint) -> KeyTable {
        KeyTable(RistrettoBasepointTable::create(pk))
    }
}

impl Ciphertext {
    /// Encrypts the point `m` under `pk` with the factor `r`: `(m + r·PK, r·G)`.
    pub fn encrypt(m: &RistrettoPoint, pk: &KeyTable, r: &Scalar) -> Ciphertext {
        Ciphertext {
            a: m + &pk.0 * r,
            b: RISTRETTO_BASEPOINT_TABLE * r,
        }
    }

    /// `ReEnc((a, b), ρ) = (a + ρ·PK, b + ρ·G)`. O(1).
    pub fn reencrypt(&self, pk: &KeyTable, rho: &Scalar) -> Ciphertext {
        Ciphertext {
            a: self.a + &pk.0 * rho,
            b: self.b + RISTRETTO_BASEPOINT_TABLE * rho,
        }
    }

    /// The wire form (two compressions).
    pub fn to_wire(&self) -> CiphertextWire {
        CiphertextWire {
            a: encode_point(&self.a),
            b: encode_point(&self.b),
        }
    }

    /// Decodes the wire form; either point may be the identity.
    ///
    /// # Errors
    ///
    /// [`Error::PointEncoding`].
    pub fn from_wire(w: &CiphertextWire) -> Result<Ciphertext, Error> {
        Ok(Ciphertext {
            a: decode_point(&w.a)?,
            b: decode_point(&w.b)?,
        })
    }
}

impl Deck {
    /// The number of cards.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the deck has no card.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The wire form of every ciphertext. O(N) compressions.
    pub fn to_wire(&self) -> Vec<CiphertextWire> {
        self.0.iter().map(Ciphertext::to_wire).collect()
    }

    /// Decodes a wire deck.
    ///
    /// # Errors
    ///
    /// [`Error::PointEncoding`] for the first bad point.
    pub fn from_wire(w: &[CiphertextWire]) -> Result<Deck, Error> {
        w.iter()
            .map(Ciphertext::from_wire)
            .collect::<Result<_, _>>()
            .map(Deck)
    }
}

/// A deck as published: its points and their encodings, kept together so
/// that transcripts hash the encodings without compressing again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedDeck {
    /// The ciphertexts.
    pub deck: Deck,
    /// Their encodings.
    pub wire: Vec<CiphertextWire>,
}

impl PublishedDeck {
    /// Encodes a deck (2N compressions).
    pub fn from_deck(deck: Deck) -> PublishedDeck {
        PublishedDeck {
            wire: deck.to_wire(),
            deck,
        }
    }

    /// Decodes a wire deck (2N decompressions).
    ///
    /// # Errors
    ///
    /// [`Error::PointEncoding`] for the first bad point.
    pub fn from_wire(wire: Vec<CiphertextWire>) -> Result<PublishedDeck, Error> {
        Ok(PublishedDeck {
            deck: Deck::from_wire(&wire)?,
            wire,
        })
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.wire.len()
    }

    /// Whether the deck has no card.
    pub fn is_empty(&self) -> bool {
        self.wire.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{card_point, random_scalar};
    use crate::testing::rng;

    #[test]
    fn reencryption_keeps_the_point_and_changes_the_pair() {
        let mut rng = rng(1);
        let sk = random_scalar(&mut rng);
        let pk = RISTRETTO_BASEPOINT_TABLE * &sk;
        let table = KeyTable::new(&pk);
        let m = card_point("QH");
        let e = Ciphertext::encrypt(&m, &table, &random_scalar(&mut rng));
        let e2 = e.reencrypt(&table, &random_scalar(&mut rng));
        assert_ne!(e, e2);
        assert_eq!(e.a - sk * e.b, m);
        assert_eq!(e2.a - sk * e2.b, m);
        assert_eq!(Ciphertext::from_wire(&e2.to_wire()), Ok(e2));
    }
}
