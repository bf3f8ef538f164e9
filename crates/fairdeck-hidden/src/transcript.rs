//! Fiat–Shamir transcripts (`docs/hidden-dealing.md` §7).
//!
//! A transcript is the byte string `T = lp(domain) ‖ …` fed to SHA-512 as it
//! is built; a challenge is `wide(SHA-512(T))`. Byte strings are appended as
//! `lp(x) = u64_be(len(x)) ‖ x`, integers as `u64_be(n)`, points as their
//! 32-byte encodings, lists of points as `u64_be(len)` and the encodings. A
//! strong Fiat–Shamir proof appends every element of its statement
//! (Bernhard, Pereira & Warinschi 2012, "How Not to Prove Yourself").

use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha512};

use crate::wire::Hex32;

/// Appends `lp(x) = u64_be(len(x)) ‖ x` to `out`.
pub(crate) fn lp(out: &mut Vec<u8>, x: &[u8]) {
    out.extend_from_slice(&(x.len() as u64).to_be_bytes());
    out.extend_from_slice(x);
}

/// A running SHA-512 transcript.
#[derive(Clone)]
pub struct Transcript {
    hash: Sha512,
}

impl Transcript {
    /// Starts `T = lp(domain)`.
    pub fn new(domain: &str) -> Transcript {
        let mut t = Transcript {
            hash: Sha512::new(),
        };
        t.bytes(domain.as_bytes());
        t
    }

    /// Appends `lp(x)`.
    pub fn bytes(&mut self, x: &[u8]) -> &mut Self {
        self.hash.update((x.len() as u64).to_be_bytes());
        self.hash.update(x);
        self
    }

    /// Appends `u64_be(n)`.
    pub fn u64(&mut self, n: u64) -> &mut Self {
        self.hash.update(n.to_be_bytes());
        self
    }

    /// Appends a point's (or scalar's) 32-byte encoding, without a prefix.
    pub fn element(&mut self, e: &Hex32) -> &mut Self {
        self.hash.update(e.0);
        self
    }

    /// Appends each encoding in turn, without a count (the count is
    /// appended separately where the spec says so).
    pub fn elements<'a>(&mut self, list: impl IntoIterator<Item = &'a Hex32>) -> &mut Self {
        for e in list {
            self.hash.update(e.0);
        }
        self
    }

    /// The challenge `wide(SHA-512(T))`; the transcript is left as it was.
    pub fn challenge(&self) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&self.hash.clone().finalize().into())
    }

    /// The 32-byte digest `first32(SHA-512(T))` (version 3.1's message
    /// digests and chain heads); the transcript is left as it was.
    pub fn digest(&self) -> Hex32 {
        let full: [u8; 64] = self.hash.clone().finalize().into();
        let mut out = [0u8; 32];
        out.copy_from_slice(&full[..32]);
        Hex32(out)
    }

    /// The indexed challenge `wide(SHA-512(T ‖ u64_be(k)))`.
    pub fn challenge_at(&self, k: u64) -> Scalar {
        let mut h = self.hash.clone();
        h.update(k.to_be_bytes());
        Scalar::from_bytes_mod_order_wide(&h.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_is_wide_sha512_of_the_bytes() {
        let mut t = Transcript::new("d");
        t.u64(7).bytes(b"xy").element(&Hex32([3; 32]));
        let mut raw = Vec::new();
        lp(&mut raw, b"d");
        raw.extend_from_slice(&7u64.to_be_bytes());
        lp(&mut raw, b"xy");
        raw.extend_from_slice(&[3; 32]);
        let want = Scalar::from_bytes_mod_order_wide(&Sha512::digest(&raw).into());
        assert_eq!(t.challenge(), want);
        raw.extend_from_slice(&5u64.to_be_bytes());
        let want5 = Scalar::from_bytes_mod_order_wide(&Sha512::digest(&raw).into());
        assert_eq!(t.challenge_at(5), want5);
    }

    #[test]
    fn length_prefixes_separate_fields() {
        let mut a = Transcript::new("d");
        a.bytes(b"ab").bytes(b"c");
        let mut b = Transcript::new("d");
        b.bytes(b"a").bytes(b"bc");
        assert_ne!(a.challenge(), b.challenge());
    }
}
