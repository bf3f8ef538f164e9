//! Fixtures for the unit tests.

use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use rand_core::SeedableRng;

/// A version-3 manifest with `seats` seats named `s0`, `s1`, ….
pub fn manifest(game: &str, deck: &str, seats: usize) -> Manifest {
    Manifest {
        version: 3,
        table: "test-table".into(),
        game: game.into(),
        deck: deck.into(),
        seats: (0..seats).map(|i| format!("s{i}")).collect(),
        first: 1,
        last: 3,
    }
}

/// A ChaCha20 generator keyed with 32 bytes of `seed`.
pub fn rng(seed: u8) -> ChaCha20Rng {
    ChaCha20Rng::from_seed([seed; 32])
}

/// A whole version-3.2 key generation, every seat honest.
pub struct Keygen {
    pub table: crate::Table,
    pub sks: Vec<crate::keys::SecretKey>,
    pub keys: Vec<crate::keys::PublicKey>,
    pub secrets: Vec<crate::dkg::DealingSecrets>,
    pub msgs: Vec<crate::dkg::DealingMessage>,
    pub dealings: Vec<crate::dkg::Dealing>,
    pub result: crate::dkg::KeyResult,
    pub shares: Vec<crate::dkg::KeyShare>,
}

impl Keygen {
    /// The card key's secret `sk = Σ_i a_{i,0}` (known to the test only).
    pub fn secret(&self) -> curve25519_dalek::scalar::Scalar {
        self.secrets.iter().map(|s| s.coefficients()[0]).sum()
    }
}

/// Runs §22's key generation for a hold'em table of `seats` seats
/// tolerating `tolerate`, with the generator keyed by `seed`.
pub fn keygen(seats: usize, tolerate: u64, seed: u8) -> Keygen {
    use crate::dkg::{self, Received};
    use crate::keys::SecretKey;
    let table = crate::Table::with_tolerance(manifest("holdem", "standard", seats), tolerate)
        .expect("a valid tolerance");
    let mut rng = rng(seed);
    let sks: Vec<SecretKey> = (0..seats).map(|_| SecretKey::generate(&mut rng)).collect();
    let keys: Vec<_> = sks.iter().map(SecretKey::public_key).collect();
    let secrets: Vec<_> = (0..seats)
        .map(|_| dkg::DealingSecrets::draw(&table, &mut rng))
        .collect();
    let msgs: Vec<_> = (0..seats as u64)
        .map(|i| dkg::dealing(&table, i, &keys, &secrets[i as usize], &mut rng).unwrap())
        .collect();
    let dealings: Vec<_> = msgs
        .iter()
        .map(|m| dkg::check_dealing(&table, m).unwrap())
        .collect();
    let result = dkg::public_result(&table, &dealings).unwrap();
    let shares = (0..seats as u64)
        .map(
            |j| match dkg::receive(&table, &dealings, j, &sks[j as usize]) {
                Received::Ready(s) => s,
                Received::Complain(bad) => panic!("seat {j} complains against {bad:?}"),
            },
        )
        .collect();
    Keygen {
        table,
        sks,
        keys,
        secrets,
        msgs,
        dealings,
        result,
        shares,
    }
}
