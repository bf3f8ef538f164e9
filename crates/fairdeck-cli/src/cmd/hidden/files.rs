//! The files of `hidden`: the transcript (read strictly; written back as
//! [`super::transcript`] says), the seat's secret key file (created new,
//! mode 0600), and the generator (OS entropy, or `--seed` for reproducible
//! tests).

use std::io::Read;
use std::path::Path;

use anyhow::Context;
use chacha20::ChaCha20Rng;
use fairdeck::rng::Seed;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::{MAX_BYTES, Record};
use fairdeck_hidden::seat::{Follower, Refused, Turn};
use fairdeck_hidden::wire::Hex32;
use fairdeck_report::verify::KeyFile;
use rand_core::SeedableRng;

use crate::failure::usage;

/// Reads a text file of at most 64 MiB (`-` is stdin).
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let cannot = || format!("cannot read {}", path.display());
    let mut text = String::new();
    let limit = MAX_BYTES as u64 + 1;
    if path.as_os_str() == "-" {
        std::io::stdin().take(limit).read_to_string(&mut text)
    } else {
        std::fs::File::open(path)
            .with_context(cannot)?
            .take(limit)
            .read_to_string(&mut text)
    }
    .with_context(cannot)?;
    Ok(text)
}

/// Reads a transcript strictly.
pub(super) fn read_record(path: &Path) -> anyhow::Result<Record> {
    let text = read_text(path)?;
    Record::from_json(&text).map_err(|e| usage(format!("{}: {e}", path.display())))
}

/// Writes seat `seat`'s secret key for table `table` to a new 0600 file.
pub(super) fn write_key(path: &Path, table: &str, seat: u64, sk: &SecretKey) -> anyhow::Result<()> {
    let file = KeyFile {
        table: table.into(),
        seat,
        secret_key: Hex32(*sk.to_bytes()),
    };
    let text = serde_json::to_string_pretty(&file)?;
    crate::output::write_private(path, &(text + "\n"))
}

/// Reads a key file and checks that it is for this table; returns the seat and key.
pub(super) fn read_key(path: &Path, record: &Record) -> anyhow::Result<(u64, SecretKey)> {
    let text = read_text(path)?;
    KeyFile::read(&text, record).map_err(|e| usage(format!("{}: {e}", path.display())))
}

/// A cryptographic generator: 32 bytes of OS entropy, or `--seed` (tests).
pub(super) fn generator(seed: Option<&str>) -> anyhow::Result<ChaCha20Rng> {
    let key = match seed {
        Some(text) => {
            crate::failure::note(
                "--seed: this step's randomness is predictable (reproducible tests only)",
            );
            *Seed::parse(text).as_bytes()
        }
        None => {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key)
                .map_err(|e| anyhow::anyhow!("{e}"))
                .context("cannot read entropy from the operating system")?;
            key
        }
    };
    Ok(ChaCha20Rng::from_seed(key))
}

/// Verifies the transcript as a hand in progress, read by the seat with
/// its key; refuses to go on from one that does not verify.
pub(super) fn checked<'k>(
    path: &Path,
    record: Record,
    reader: (u64, &'k SecretKey),
) -> anyhow::Result<Turn<'k>> {
    Follower::new().check(record, reader).map_err(|e| match e {
        Refused::Invalid { summary, first, .. } => anyhow::anyhow!(
            "{}: the transcript does not verify ({summary}); first: {first}",
            path.display()
        ),
        other => anyhow::anyhow!("{}: {other}", path.display()),
    })
}
