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
