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
use fairdeck_hidden::seat::{Follower, Refused, Turn, check_published};
use fairdeck_hidden::wire::Hex32;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::failure::{UsageError, usage};

/// Reads a text file of at most 64 MiB (`-` is stdin).
pub(super) fn read_text(path: &Path) -> anyhow::Result<String> {
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

/// The secret key file: which table and seat it is for, and the key.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    table: String,
    seat: u64,
    secret_key: Hex32,
}

/// `fair verify --key`: a seat's key file, which must be readable, of the
/// transcript's table, of one of its seats, and the key that seat
/// published in the transcript; anything else is a usage error.
pub(super) fn reader_key(path: &Path, record: &Record) -> anyhow::Result<(u64, SecretKey)> {
    let (seat, sk) = read_key(path, record).map_err(|e| match e.is::<UsageError>() {
        true => e,
        false => usage(format!("--key: {e:#}")),
    })?;
    let bad = |why: String| usage(format!("{}: {why}", path.display()));
    if record.keys.len() <= seat as usize {
        return Err(bad(format!("seat {seat} has no key in the transcript")));
    }
    check_published(record, seat, &sk).map_err(|_| {
        bad(format!(
            "not the key seat {seat} published in the transcript"
        ))
    })?;
    Ok((seat, sk))
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
    let bad = |why: String| usage(format!("{}: {why}", path.display()));
    let file: KeyFile = serde_json::from_str(&text).map_err(|e| {
        bad(format!(
            "not a secret key file of `fairdeck hidden key` ({e})"
        ))
    })?;
    if file.table != record.manifest.table {
        return Err(bad(format!(
            "the key of table {:?}, not {:?}",
            file.table, record.manifest.table
        )));
    }
    let seats = record.manifest.seats.len();
    if file.seat >= seats as u64 {
        return Err(bad(format!(
            "the key of seat {}, but the table has {seats} seats",
            file.seat
        )));
    }
    let sk = SecretKey::from_bytes(&file.secret_key.0).map_err(|e| bad(e.to_string()))?;
    Ok((file.seat, sk))
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
