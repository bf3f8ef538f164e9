//! `--seed` and `--generator`: the flags every random subcommand shares.

use anyhow::Context;
use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed};

/// Seed and generator flags, flattened into each subcommand that draws.
#[derive(Debug, Clone, clap::Args)]
pub struct RandomArgs {
    /// Replay a run: 64 hex digits (the 256-bit key) or any text (hashed with
    /// SHA-256). Without it a fresh key is drawn from the OS and printed.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,

    /// Generator: chacha20 (default, cryptographic) or xoshiro256pp (fast,
    /// predictable: simulations only).
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

/// An upper bound on the entropy of a `--seed` text, in bits.
///
/// 64 hex digits are a full 256-bit key. Any other text is hashed, so it
/// holds at most what the text does: its length times log2 of the size of
/// the smallest alphabet it fits in (10 digits, 16 hex digits, 26 lower-case
/// letters, 62 letters and digits, 95 printable ASCII, else 2^20 Unicode
/// scalar values), capped at 256 (the key size). This is only a rough
/// *upper* bound: text chosen by a person ("42", "friday night") holds far
/// less, because an attacker guesses likely texts first.
pub fn seed_text_bits(text: &str) -> f64 {
    if text.len() == 64 && text.bytes().all(|c| c.is_ascii_hexdigit()) {
        return 256.0;
    }
    let fits = |ok: fn(char) -> bool| text.chars().all(ok);
    let alphabet: f64 = if fits(|c| c.is_ascii_digit()) {
        10.0
    } else if fits(|c| c.is_ascii_hexdigit()) {
        16.0
    } else if fits(|c| c.is_ascii_lowercase()) {
        26.0
    } else if fits(|c| c.is_ascii_alphanumeric()) {
        62.0
    } else if fits(|c| c.is_ascii_graphic() || c == ' ') {
        95.0
    } else {
        1_048_576.0
    };
    (text.chars().count() as f64 * alphabet.log2()).min(256.0)
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
                let origin = if bits == 256.0 && Seed::from_hex(text).is_ok() {
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

#[cfg(test)]
mod tests {
    use super::seed_text_bits;

    #[test]
    fn seed_text_estimates() {
        assert!((seed_text_bits("42") - 2.0 * 10f64.log2()).abs() < 1e-9);
        assert!((seed_text_bits("friday") - 6.0 * 26f64.log2()).abs() < 1e-9);
        assert!((seed_text_bits("Friday night!") - 13.0 * 95f64.log2()).abs() < 1e-9);
        assert_eq!(seed_text_bits(&"a".repeat(64)), 256.0);
        assert_eq!(seed_text_bits(&"z".repeat(200)), 256.0);
        assert_eq!(seed_text_bits(""), 0.0);
    }
}
