//! `--seed` and `--generator`: the flags every random subcommand shares.

use anyhow::Context;
use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed, seed_text_bits};

/// Seed and generator flags, flattened into each subcommand that draws.
#[derive(Debug, Clone, clap::Args)]
pub struct RandomArgs {
    /// Replay a run: 64 hex digits (the 256-bit key; spaces around them are
    /// ignored) or any other text (hashed with SHA-256 as written). Without
    /// it a fresh key is drawn from the OS and printed.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,

    /// Generator: chacha20 (default), chacha12 or chacha8 (cryptographic,
    /// fewer rounds, faster), or xoshiro256pp (fast, predictable:
    /// simulations only).
    #[arg(long, value_name = "NAME", default_value = "chacha20", value_parser = parse_generator)]
    pub generator: Generator,
}

fn parse_generator(s: &str) -> Result<Generator, String> {
    s.parse().map_err(|e: fairdeck::Error| e.to_string())
}

/// The seed a run used and the dice built from it.
pub struct Randomness {
    /// The key (always printed so the run can be replayed).
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

impl RandomArgs {
    /// Builds the dice: from `--seed` if given, else from 32 fresh OS bytes.
    ///
    /// # Errors
    ///
    /// When the operating system cannot supply entropy.
    pub fn randomness(&self) -> anyhow::Result<Randomness> {
        let (seed, key) = match &self.seed {
            Some(text) => {
                let bits = seed_text_bits(text);
                let origin = if Seed::hex_key(text).is_some() {
                    "hex-key"
                } else {
                    "seed-text"
                };
                (Seed::parse(text), KeyEntropy { origin, bits })
            }
            None => (
                fresh_seed()?,
                KeyEntropy {
                    origin: "os",
                    bits: 256.0,
                },
            ),
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
pub fn fresh_seed() -> anyhow::Result<Seed> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("cannot read entropy from the operating system")?;
    Ok(Seed::from_bytes(key))
}
