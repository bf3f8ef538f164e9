//! `fairdeck rng`: raw generator bytes for testing laboratories.
//!
//! The stream is exactly the generator's output bytes (for ChaCha20,
//! ChaCha12 and ChaCha8 the keystream; for Xoshiro256++ its 64-bit words,
//! little-endian), so it can be
//! piped into `dieharder -g 200`, `ent`, PractRand's `RNG_test stdin` or
//! TestU01. The seed is printed on stderr so that a failing run can be
//! replayed.

use std::io::Write;
use std::process::ExitCode;

use rand_core::Rng;

use crate::failure::usage;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

/// Bytes written per chunk: large, so the pipe, not the loop, is the limit.
const CHUNK: usize = 1 << 20;

/// Flags of `fairdeck rng`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  fairdeck rng --bytes 10000000 --seed lab | ent\n  \
fairdeck rng --seed lab | dieharder -a -g 200\n  fairdeck rng | RNG_test stdin64"
)]
pub struct Args {
    /// How many bytes to write; without it, write until the reader closes the pipe.
    #[arg(long, short = 'n', value_name = "N")]
    pub bytes: Option<u64>,

    #[command(flatten)]
    pub random: RandomArgs,
}

/// Runs `fairdeck rng`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    if out.format() == Format::Json {
        return Err(usage("rng writes raw bytes; --format json does not apply"));
    }
    let mut random = args.random.randomness()?;
    crate::failure::note(format_args!(
        "seed {} (generator {})",
        random.seed, random.generator
    ));
    let rng = random.dice.rng_mut();
    let mut buffer = vec![0u8; CHUNK];
    let mut left = args.bytes;
    let w = out.stdout();
    while left != Some(0) {
        let n = left.map_or(CHUNK, |l| l.min(CHUNK as u64) as usize);
        rng.fill_bytes(&mut buffer[..n]);
        w.write_all(&buffer[..n])?;
        left = left.map(|l| l - n as u64);
    }
    Ok(ExitCode::SUCCESS)
}
