//! `fair seed commit` and `fair seed reveal`: a seat's part of a version 2
//! table (section 8.4 of docs/fair-dealing.md).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use fairdeck_fair::{MAX_TEXT, Table};

use super::read_secret_file;
use super::table_doc::{SeatDoc, read_table};
use crate::failure::usage;
use crate::output::write_private;
use crate::output::{Format, Output};
use crate::random::fresh_seed;

/// `fairdeck fair seed …`.
#[derive(Debug, clap::Subcommand)]
pub enum SeedAction {
    /// Commit to a seed for one seat of a table (a fresh random seed saved
    /// 0600 unless --seed is given). Publish the commitment; keep the seed.
    Commit(SeedArgs),
    /// Reveal a committed seed, once every seat has committed.
    Reveal(SeedArgs),
}

/// Flags of `fair seed commit|reveal`.
#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// The table document (`fair table new`).
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,

    /// Your seat's name, as in the manifest.
    #[arg(long, value_name = "NAME")]
    pub seat: String,

    /// The seed as text (default for commit: 256 random bits as 64 hex digits).
    #[arg(long, value_name = "TEXT", conflicts_with = "seed_file")]
    pub seed: Option<String>,

    /// commit: where to save the fresh seed (created new, 0600);
    /// reveal: the file to read the seed from.
    #[arg(long, value_name = "FILE")]
    pub seed_file: Option<PathBuf>,
}

/// Runs `fairdeck fair seed …`.
pub fn run(action: &SeedAction, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (args, reveal) = match action {
        SeedAction::Commit(a) => (a, false),
        SeedAction::Reveal(a) => (a, true),
    };
    let doc = read_table(&args.table)?;
    let table: Table = doc.manifest.check()?;
    let index = table
        .manifest
        .seats
        .iter()
        .position(|s| *s == args.seat)
        .ok_or_else(|| {
            usage(format!(
                "seat {:?} is not at this table ({})",
                args.seat,
                table.manifest.seats.join(", ")
            ))
        })?;
    let seed = seed_of(args, reveal)?;
    let commitment = table.seat_commitment(index, &seed).to_hex();
    let doc = SeatDoc {
        seat: args.seat.clone(),
        commitment,
        seed: reveal.then_some(seed),
    };
    match out.format() {
        Format::Json => out.json(&doc)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "seat {:?} commitment: {}", doc.seat, doc.commitment)?;
            match &doc.seed {
                Some(seed) => writeln!(
                    w,
                    "seed: {seed:?} (send this reveal only after every seat has committed)"
                )?,
                None => writeln!(
                    w,
                    "publish the commitment; reveal the seed only after every seat has committed"
                )?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The seed: given, read from the seed file (reveal), or drawn fresh and
/// saved (commit).
fn seed_of(args: &SeedArgs, reveal: bool) -> anyhow::Result<String> {
    let seed = match (&args.seed, &args.seed_file, reveal) {
        (Some(text), _, _) => text.clone(),
        (None, Some(path), true) => read_secret_file(path)?
            .trim_end_matches(['\n', '\r'])
            .to_string(),
        (None, Some(path), false) => {
            let fresh = fresh_seed()?
                .as_bytes()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>();
            write_private(path, &format!("{fresh}\n"))?;
            fresh
        }
        (None, None, true) => return Err(usage("give --seed TEXT or --seed-file FILE")),
        (None, None, false) => {
            return Err(usage(
                "give --seed-file FILE to save a fresh seed (or --seed TEXT)",
            ));
        }
    };
    fairdeck_fair::check_seed(&seed).map_err(|e| {
        usage(format!(
            "{e}: a seed is 1 to {MAX_TEXT} bytes of NFC text without control, format or \
             separator characters (docs/fair-dealing.md section 8.2)"
        ))
    })?;
    Ok(seed)
}
