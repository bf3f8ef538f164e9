//! `--seed` and `--generator`: the flags every random subcommand shares,
//! mapped to the report layer's [`RandomRequest`].

use fairdeck::rng::Generator;
pub use fairdeck_report::random::{RandomRequest, Randomness, fresh_seed};

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

impl RandomArgs {
    /// The flags as the report layer's request.
    pub fn request(&self) -> RandomRequest {
        RandomRequest {
            seed: self.seed.clone(),
            generator: self.generator,
        }
    }

    /// Builds the dice: from `--seed` if given, else from 32 fresh OS bytes.
    ///
    /// # Errors
    ///
    /// When the operating system cannot supply entropy.
    pub fn randomness(&self) -> anyhow::Result<Randomness> {
        Ok(self.request().randomness()?)
    }
}
