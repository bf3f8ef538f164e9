//! `fair table lock` and `fair table void`: the seat lock published between
//! the commitments and the reveals (version 2.1, section 8.6 of
//! docs/fair-dealing.md), and the record of a table that voided (section 8.7).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use fairdeck_fair::{Commitment, Record, ServerSecret};

use super::table_doc::{collected, read_seat_docs, read_table, seat_records};
use crate::failure::usage;
use crate::output::{Format, Output};

/// Flags of `fairdeck fair table lock`.
#[derive(Debug, clap::Args)]
pub struct LockArgs {
    /// The table document (`fair table new`).
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,

    /// Every seat's commitment (`fair seed commit --format json`); one file
    /// per seat or a list.
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub commitments: Vec<PathBuf>,
}

/// Flags of `fairdeck fair table void`.
#[derive(Debug, clap::Args)]
pub struct VoidArgs {
    /// The table document (`fair table new`).
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,

    /// The room's secret (as `fair table new --secret-out` saved it).
    #[arg(long, value_name = "FILE")]
    pub secret_file: PathBuf,

    /// The commitments collected (a seat without one did not commit).
    #[arg(long, value_name = "FILE", num_args = 0..)]
    pub commitments: Vec<PathBuf>,

    /// The reveals received (a seat without one did not reveal).
    #[arg(long, value_name = "FILE", num_args = 0..)]
    pub reveals: Vec<PathBuf>,

    /// The seat lock published before the reveals (needed when every seat committed).
    #[arg(long, value_name = "HEX")]
    pub lock: Option<String>,
}

fn parse_lock(hex: &str) -> anyhow::Result<Commitment> {
    Commitment::from_hex(hex).map_err(|e| usage(format!("--lock: {e}")))
}

/// Runs `fair table lock`: L from the table's commitment and every seat's.
pub(super) fn lock(args: &LockArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let doc = read_table(&args.table)?;
    let table = doc.manifest.check()?;
    let room = Commitment::from_hex(&doc.commitment).map_err(|e| usage(e.to_string()))?;
    let seats = seat_records(&doc.manifest, &read_seat_docs(&args.commitments)?, &[])?;
    let commitments = seats
        .iter()
        .map(|s| {
            Commitment::from_hex(&s.commitment)
                .map_err(|e| usage(format!("seat {:?}: {e}", s.name)))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let lock = table.seat_lock(&room, &commitments)?;
    match out.format() {
        Format::Json => out.json(&serde_json::json!({
            "table": doc.manifest.table,
            "commitment": doc.commitment,
            "seats": seats.iter().map(|s| serde_json::json!({"seat": s.name, "commitment": s.commitment})).collect::<Vec<_>>(),
            "lock": lock.to_hex(),
        }))?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "lock: {lock}")?;
            writeln!(
                w,
                "publish the lock now; every seat records it before revealing its seed \
                 (fair verify --lock)"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `fair table void`: the void record, naming the seats that failed.
pub(super) fn void(args: &VoidArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let doc = read_table(&args.table)?;
    let secret = ServerSecret::from_hex(&super::read_secret_file(&args.secret_file)?)
        .map_err(|e| usage(e.to_string()))?;
    let table = doc.manifest.check()?;
    if table.room_commitment(&secret).to_hex() != doc.commitment.to_ascii_lowercase() {
        return Err(usage(
            "the server secret does not give the table's commitment: wrong secret or table file",
        ));
    }
    let commits = read_seat_docs(&args.commitments)?;
    let reveals = read_seat_docs(&args.reveals)?;
    let seats = collected(&doc.manifest, &commits, &reveals)?;
    let lock = args.lock.as_deref().map(parse_lock).transpose()?;
    let record = Record::void(&doc.manifest, &secret, &seats, lock.as_ref())?;
    match out.format() {
        Format::Json => out.stdout().write_all(record.to_json().as_bytes())?,
        Format::Text => super::document::print_transcript(out.stdout(), &record)?,
    }
    Ok(ExitCode::SUCCESS)
}
