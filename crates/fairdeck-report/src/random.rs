//! The randomness a request draws from: a key (`seed`) and a generator.

use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed, seed_text_bits};
use serde::{Deserialize, Deserializer};

/// The key and generator of a run: `--seed`/`--generator` on the CLI,
/// `seed`/`generator` on the web page.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RandomRequest {
    /// 64 hex digits (the 256-bit key) or any other text (hashed with
    /// SHA-256); `None` draws a fresh key from the operating system.
    #[serde(default)]
    pub seed: Option<String>,
    /// The generator keyed with the seed (default ChaCha20).
    #[serde(default, deserialize_with = "generator")]
    pub generator: Generator,
}

fn generator<'de, D: Deserializer<'de>>(d: D) -> Result<Generator, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

/// The seed a run used and the dice built from it.
pub struct Randomness {
    /// The key (always reported so the run can be replayed).
    pub seed: Seed,
    /// The generator keyed with the seed.
    pub generator: Generator,
    /// The production dice.
    pub dice: RngDice<AnyRng>,
    /// Where the key came from and the entropy it can hold at most.
    pub key: KeyEntropy,
}

/// Where a run's key came from, and how many bits of entropy it holds at most.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyEntropy {
    /// `os` (fresh 256-bit key), `hex-key` (64 hex digits) or `seed-text`.
    pub origin: &'static str,
    /// An upper bound on the key's entropy in bits (see [`seed_text_bits`]).
    pub bits: f64,
}

impl KeyEntropy {
    /// A fresh key from the operating system: 256 bits.
    pub const OS: KeyEntropy = KeyEntropy {
        origin: "os",
        bits: 256.0,
    };

    /// The key `text` names and what it can hold: 64 hex digits are the key
    /// itself, any other text is hashed (and holds at most
    /// [`seed_text_bits`]).
    pub fn of_text(text: &str) -> (Seed, KeyEntropy) {
        let origin = if Seed::hex_key(text).is_some() {
            "hex-key"
        } else {
            "seed-text"
        };
        let key = KeyEntropy {
            origin,
            bits: seed_text_bits(text),
        };
        (Seed::parse(text), key)
    }
}

impl RandomRequest {
    /// The request with `seed` set.
    pub fn seeded(seed: impl Into<String>) -> Self {
        RandomRequest {
            seed: Some(seed.into()),
            generator: Generator::default(),
        }
    }

    /// Builds the dice: from `seed` if given, else from 32 fresh OS bytes.
    ///
    /// # Errors
    ///
    /// When the operating system cannot supply entropy.
    pub fn randomness(&self) -> crate::Result<Randomness> {
        let (seed, key) = match &self.seed {
            Some(text) => KeyEntropy::of_text(text),
            None => (fresh_seed()?, KeyEntropy::OS),
        };
        Ok(Randomness {
            seed,
            generator: self.generator,
            dice: RngDice::new(self.generator.build(&seed)),
            key,
        })
    }
}

/// 256 bits from the operating system's entropy source.
///
/// # Errors
///
/// When the operating system cannot supply entropy.
pub fn fresh_seed() -> crate::Result<Seed> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| crate::Error::Entropy(e.to_string()))?;
    Ok(Seed::from_bytes(key))
}
