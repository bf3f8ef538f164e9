//! The measured operations, one function per (implementation, generator) pair.
//!
//! Each case is built once with a fixed seed and then run repeatedly; the
//! harness and the criterion benches share them so both measure the same code.

use chacha20::ChaCha20Rng;
use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// The fixed key every case is seeded with.
pub const SEED: [u8; 32] = *b"fairdeck-bench-production-seed!!";

/// Which library does the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Implementation {
    /// fairdeck: `shuffle` on one thread, `par_shuffle` on more; `sample`.
    Fairdeck,
    /// rand 0.10: `SliceRandom::shuffle`, `rand::seq::index::sample` (one thread).
    Rand,
}

/// Which generator family feeds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RngFamily {
    /// Xoshiro256++ (`rand_xoshiro`) on both sides.
    Fast,
    /// ChaCha: fairdeck's ChaCha20; rand's `StdRng` (ChaCha12 in rand 0.10).
    Crypto,
}

impl Implementation {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Implementation::Fairdeck => "fairdeck",
            Implementation::Rand => "rand",
        }
    }
}

impl RngFamily {
    /// The name in reports: the generator actually used.
    pub fn name(self, implementation: Implementation) -> &'static str {
        match (self, implementation) {
            (RngFamily::Fast, _) => "xoshiro256pp",
            (RngFamily::Crypto, Implementation::Fairdeck) => "chacha20",
            (RngFamily::Crypto, Implementation::Rand) => "stdrng-chacha12",
        }
    }

    /// The fairdeck generator of this family (for `par_shuffle`).
    pub fn generator(self) -> Generator {
        match self {
            RngFamily::Fast => Generator::Xoshiro256PlusPlus,
            RngFamily::Crypto => Generator::ChaCha20,
        }
    }
}

/// A boxed operation on a `u32` buffer, run once per call.
pub type Shuffler = Box<dyn FnMut(&mut [u32]) + Send>;

/// The single-threaded shuffle of `implementation` with `family`, seeded with [`SEED`].
pub fn shuffler(implementation: Implementation, family: RngFamily) -> Shuffler {
    match (implementation, family) {
        (Implementation::Fairdeck, RngFamily::Fast) => {
            let mut dice = RngDice::new(Xoshiro256PlusPlus::from_seed(SEED));
            Box::new(move |v| fairdeck::shuffle::shuffle(v, &mut dice))
        }
        (Implementation::Fairdeck, RngFamily::Crypto) => {
            let mut dice = RngDice::new(ChaCha20Rng::from_seed(SEED));
            Box::new(move |v| fairdeck::shuffle::shuffle(v, &mut dice))
        }
        (Implementation::Rand, RngFamily::Fast) => {
            let mut rng = Xoshiro256PlusPlus::from_seed(SEED);
            Box::new(move |v| v.shuffle(&mut rng))
        }
        (Implementation::Rand, RngFamily::Crypto) => {
            let mut rng = StdRng::from_seed(SEED);
            Box::new(move |v| v.shuffle(&mut rng))
        }
    }
}

/// fairdeck's `par_shuffle` with `family`; each call uses the next seed so
/// repeated runs do not shuffle the same way.
pub fn par_shuffler(family: RngFamily) -> Shuffler {
    let mut round = 0u64;
    Box::new(move |v| {
        round += 1;
        let mut key = SEED;
        key[..8].copy_from_slice(&round.to_le_bytes());
        fairdeck::shuffle::par_shuffle(v, &Seed::from_bytes(key), family.generator());
    })
}

/// A boxed sampler: `k` distinct values below `u64::MAX`, returns a checksum.
pub type Sampler = Box<dyn FnMut(usize) -> u64 + Send>;

/// `sample(k, 2^64 − 1)` of `implementation` with `family`.
pub fn sampler(implementation: Implementation, family: RngFamily) -> Sampler {
    const RANGE: u64 = u64::MAX;
    match (implementation, family) {
        (Implementation::Fairdeck, RngFamily::Fast) => {
            let mut dice = RngDice::new(Xoshiro256PlusPlus::from_seed(SEED));
            Box::new(move |k| checksum(fairdeck::sample::sample(k as u64, RANGE, &mut dice)))
        }
        (Implementation::Fairdeck, RngFamily::Crypto) => {
            let mut dice = RngDice::new(ChaCha20Rng::from_seed(SEED));
            Box::new(move |k| checksum(fairdeck::sample::sample(k as u64, RANGE, &mut dice)))
        }
        (Implementation::Rand, RngFamily::Fast) => {
            let mut rng = Xoshiro256PlusPlus::from_seed(SEED);
            Box::new(move |k| rand_checksum(&mut rng, k))
        }
        (Implementation::Rand, RngFamily::Crypto) => {
            let mut rng = StdRng::from_seed(SEED);
            Box::new(move |k| rand_checksum(&mut rng, k))
        }
    }
}

fn checksum(sample: Result<Vec<u64>, fairdeck::Error>) -> u64 {
    sample.map_or(0, |v| v.iter().fold(0, |a, &x| a ^ x))
}

fn rand_checksum<R: rand::Rng>(rng: &mut R, k: usize) -> u64 {
    let picks = rand::seq::index::sample(rng, u64::MAX as usize, k);
    picks.iter().fold(0, |a, x| a ^ x as u64)
}
