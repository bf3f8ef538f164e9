//! Version 3.2's threshold keys: Pedersen's joint-Feldman distributed key
//! generation (`docs/hidden-dealing-v3.2.md` §22).
//!
//! Pedersen 1991, "A Threshold Cryptosystem without a Trusted Party": every
//! seat deals a Feldman-verifiable (Feldman 1987) Shamir sharing (Shamir
//! 1979) of a random secret, and each seat's key share is the sum of the
//! shares dealt to it. Each dealer proves knowledge of its constant (a
//! Schnorr proof, as FROST's key generation does: Komlo & Goldberg 2020).
//! What fairdeck does differently (§22.1, §22.3–§22.5): the shares travel
//! published, encrypted by hashed ElGamal with a scalar pad to each seat's
//! key, so that a complaint carries the Diffie–Hellman value with a
//! Chaum–Pedersen proof and anybody can judge it; no dealer is ever
//! excluded (any fault ends the table), so the bias of Gennaro, Jarecki,
//! Krawczyk and Rabin (2007) does not arise.
//!
//! The table is a [`crate::Table::with_tolerance`]: `P` seats, `D` tolerated lost
//! seats, threshold `t = P − D`, seat `j`'s evaluation point `x_j = j + 1`
//! (§21). Messages carry no signature here: the caller signs the digests of
//! [`digest`].
//!
//! ```
//! use fairdeck_fair::Manifest;
//! use fairdeck_hidden::dkg::{self, Received};
//! use fairdeck_hidden::{Table, keys::SecretKey};
//! use chacha20::ChaCha20Rng;
//! use rand_core::SeedableRng;
//!
//! let manifest = Manifest {
//!     version: 3, table: "doc".into(), game: "holdem".into(), deck: "standard".into(),
//!     seats: vec!["ann".into(), "bob".into(), "cat".into()], first: 1, last: 1,
//! };
//! let table = Table::with_tolerance(manifest, 1)?; // any 2 of 3 seats open a card
//! let mut rng = ChaCha20Rng::from_seed([3; 32]);
//! let sks: Vec<SecretKey> = (0..3).map(|_| SecretKey::generate(&mut rng)).collect();
//! let keys: Vec<_> = sks.iter().map(SecretKey::public_key).collect();
//! let mut dealings = Vec::new();
//! for i in 0..3 {
//!     let secrets = dkg::DealingSecrets::draw(&table, &mut rng);
//!     let msg = dkg::dealing(&table, i, &keys, &secrets, &mut rng)?;
//!     dealings.push(dkg::check_dealing(&table, &msg)?); // anyone checks
//! }
//! let result = dkg::public_result(&table, &dealings)?;
//! let Received::Ready(s_1) = dkg::receive(&table, &dealings, 1, &sks[1]) else { panic!() };
//! assert_eq!(s_1.verifying_share(), result.verifying_shares[1]);
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```

use core::fmt;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::keys::PublicKey;

mod complaint;
mod dealing;
pub mod digest;
mod shares;
#[cfg(test)]
mod tests;

pub use complaint::{ComplaintMessage, complaint, judge};
pub use dealing::{
    Dealing, DealingMessage, DealingSecrets, check_dealing, deal_shares, dealing, prove_dealing,
    share_pad,
};
pub use shares::{KeyResult, ReadyMessage, Received, check_ready, public_result, ready, receive};

/// Domain of the share pads (§22.3).
pub const PAD_DOMAIN: &str = "fairdeck-hidden-v3.2/share-pad";
/// Domain of dealing proofs (§22.3).
pub const DEALING_DOMAIN: &str = "fairdeck-hidden-v3.2/dealing";
/// Domain of `ready` proofs (§22.4).
pub const READY_DOMAIN: &str = "fairdeck-hidden-v3.2/ready";
/// Domain of complaint proofs (§22.5).
pub const COMPLAINT_DOMAIN: &str = "fairdeck-hidden-v3.2/complaint";

/// Seat `j`'s evaluation point `x_j = j + 1` (§21). O(1).
pub fn evaluation_point(seat: u64) -> Scalar {
    Scalar::from(seat) + Scalar::ONE
}

/// `Σ_{k=0}^{t−1} x^k · A_k` by Horner's rule (§22.4):
/// `(…(A_{t−1}·x + A_{t−2})·x + …)·x + A_0`. O(t) scalar multiplications.
pub(crate) fn horner(commitments: &[RistrettoPoint], x: &Scalar) -> RistrettoPoint {
    let mut acc = RistrettoPoint::default();
    for a in commitments.iter().rev() {
        acc = acc * x + a;
    }
    acc
}

/// A seat's key share `s_j = Σ_i s_{i,j}` (§22.4): secret, wiped on drop,
/// never printed.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct KeyShare(pub(crate) Scalar);

impl KeyShare {
    /// Its verifying share `Y_j = s_j·G`. O(1).
    pub fn verifying_share(&self) -> PublicKey {
        PublicKey(RISTRETTO_BASEPOINT_TABLE * &self.0)
    }

    /// The share's 32 canonical bytes (for test vectors only; a seat
    /// recomputes its share from the transcript, §22.6). Never publish them.
    pub fn to_bytes(&self) -> zeroize::Zeroizing<[u8; 32]> {
        zeroize::Zeroizing::new(self.0.to_bytes())
    }
}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KeyShare(<redacted>)")
    }
}
