//! `fairdeck hidden`: fair dealing version 3 for parties playing offline.
//!
//! Every step reads the table's transcript (`docs/hidden-dealing.md` §14),
//! checks every proof in it ([`fairdeck_hidden::verify`]), adds the seat's
//! message(s), writes the transcript back (a new file renamed over the
//! old, so a crash leaves the old one whole; the whole step under a lock,
//! so steps run at once take turns: see [`transcript`]) and prints the
//! message(s) on stdout. `hidden new` writes version 3.1 without a room (§17–§18): each
//! step signs its messages with the seat's key and appends their digests
//! (and a void record's) to the transcript's log; a version-3 file (no
//! `revision`) is played on unsigned, as it was.
//! The protocol, the checks and the verdict are the library's; this module
//! only maps files and flags to them.

mod files;
mod keygen;
mod page;
mod report;
mod seat;
mod steps;
mod transcript;

use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use fairdeck_shuf::Cancel;

use crate::output::Output;

pub use files::read_text;
pub use report::print_verdict;

/// The steps of a hidden hand.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Start a table: write its transcript (version 3.1 without a room:
    /// every message signed by its seat and logged; no keys yet).
    New(NewArgs),
    /// Make a seat's key pair: the secret to a new file (mode 0600), the
    /// public key message (with its proof) to the transcript and stdout.
    Key(KeyArgs),
    /// Version 3.2 (a table opened with --tolerate), after every key: check
    /// the transcript, then publish this seat's dealing of the key
    /// generation (dealings in seat order).
    Dealing(KeygenArgs),
    /// Version 3.2, after every dealing: check every dealing's share to
    /// this seat; publish its ready (readies in seat order), or its
    /// complaint against each dealer whose share is bad (which ends the
    /// table, naming the seat at fault).
    Ready(KeygenArgs),
    /// Check every earlier proof, then shuffle and re-encrypt the deck with
    /// a proof (the seat's turn, in seat order).
    Shuffle(StepArgs),
    /// Publish the decryption shares this seat owes for a stage: `deal`
    /// (the other seats' hole cards) or a street (`flop`, `turn`, `river`).
    Share(ShareArgs),
    /// Show the seat its own private cards (with its secret key) and the
    /// community and opened cards so far.
    Cards(StepArgs),
    /// Showdown: publish this seat's shares of its own private cards.
    Open(StepArgs),
    /// After the deadline: write the void record naming the seat that
    /// stalled and the messages it did not send. The stage is the first
    /// one with a missing message or, when every stage present is
    /// complete, the next street (nobody began it: seat 0 is named).
    Void(VoidArgs),
    /// Play one seat of a hidden table served by `fairdeck table serve`,
    /// from its link: key, shuffle, shares, showdown; print its cards and
    /// verify the whole transcript at the end
    Seat(seat::SeatArgs),
}

/// Flags of `hidden new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The transcript file to create (never overwritten).
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The table id (never reused).
    #[arg(long)]
    pub table: String,
    /// The game: holdem, draw, bridge, skat, scopa or shoe.
    #[arg(long, default_value = "holdem")]
    pub game: String,
    /// The deck (default: the game's).
    #[arg(long)]
    pub deck: Option<String>,
    /// The seat names in seat order, comma-separated, without spaces
    /// around them (`ann,bo`). A seat is named by `--seat` later by its
    /// name or its index: a name that is a number wins over the index.
    #[arg(long, value_delimiter = ',', required = true, value_parser = seat_name)]
    pub seats: Vec<String>,
    /// The hands to play, FIRST-LAST (or one number).
    #[arg(long, default_value = "1")]
    pub hands: String,
    /// Tolerate D lost seats (version 3.2; 1 ≤ D ≤ seats − 2, hold'em or
    /// draw; left out: every seat is needed to open a card). The price,
    /// said plainly: with D ≥ 1, any seats − D seats together can read every
    /// card (hole cards, the stock, the burns) and so steer the deal, and
    /// with D = 1 that is all the other seats together. Only the key
    /// generation (`hidden dealing`, `hidden ready`) is played so far.
    #[arg(long, value_name = "D")]
    pub tolerate: Option<u64>,
}

/// One name of `--seats`: `a, b` would make a seat named " b" that
/// `--seat b` never finds, so white space around a name is refused.
fn seat_name(name: &str) -> Result<String, String> {
    match name.trim() == name {
        true => Ok(name.to_string()),
        false => Err(format!(
            "seat name {name:?} begins or ends with white space (write the names as a,b)"
        )),
    }
}

/// Flags of `hidden key`.
#[derive(Debug, clap::Args)]
pub struct KeyArgs {
    /// The table's transcript (read, and written back with the key message;
    /// locked through FILE.lock meanwhile; a symlink is written through).
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The seat: its name in the manifest or its index (from 0). A name
    /// wins: with seats named 1,0,2, `--seat 0` is the seat named "0".
    #[arg(long)]
    pub seat: String,
    /// Where to write the secret key: a new file, readable by its owner only.
    #[arg(long, value_name = "FILE")]
    pub secret_out: PathBuf,
    /// Reproducible tests only: derive the randomness from SEED (64 hex
    /// digits, or any text hashed with SHA-256) instead of the OS. Anyone
    /// who knows SEED knows the secret key.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,
}

/// Flags of `hidden dealing` and `hidden ready`.
#[derive(Debug, clap::Args)]
pub struct KeygenArgs {
    /// The table's transcript (read, checked, and written back with the
    /// seat's message(s); locked through FILE.lock meanwhile).
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The seat's secret key file (from `hidden key`). A file of another
    /// table or seat, or not the key its seat published, is a usage error
    /// (exit 2).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// Reproducible tests only: derive the randomness from SEED instead of
    /// the OS. Anyone who knows SEED knows this seat's dealing secrets.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,
}

/// Flags every seat step shares.
#[derive(Debug, clap::Args)]
pub struct StepArgs {
    /// The table's transcript (`shuffle`, `share`, `open`: written back,
    /// locked through FILE.lock meanwhile; a symlink is written through).
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The seat's secret key file (from `hidden key`). A file of another
    /// table or seat, or not the key its seat published, is a usage error
    /// (exit 2), as with `fair verify --key`: the key given is wrong, not
    /// the transcript.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The hand (default: the last hand of the transcript, or the first of
    /// the manifest's range).
    #[arg(long)]
    pub hand: Option<u64>,
    /// Reproducible tests only: derive the randomness from SEED instead of
    /// the OS. Anyone who knows SEED can undo this seat's shuffle.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,
}

/// Flags of `hidden share`.
#[derive(Debug, clap::Args)]
pub struct ShareArgs {
    #[command(flatten)]
    pub step: StepArgs,
    /// The stage: deal, or a street of the game (flop, turn, river; table for scopa).
    #[arg(long)]
    pub street: String,
}

/// Flags of `hidden void`.
#[derive(Debug, clap::Args)]
pub struct VoidArgs {
    /// The table's transcript (written back, locked through FILE.lock meanwhile).
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The hand (default: the last hand of the transcript).
    #[arg(long)]
    pub hand: Option<u64>,
}

/// Runs `fairdeck hidden …`.
pub fn run(command: &Command, out: &mut Output) -> anyhow::Result<ExitCode> {
    match command {
        Command::New(args) => writing(out, |c, o| steps::new(args, c, o)),
        Command::Key(args) => writing(out, |c, o| steps::key(args, c, o)),
        Command::Dealing(args) => writing(out, |c, o| keygen::dealing(args, c, o)),
        Command::Ready(args) => writing(out, |c, o| keygen::ready(args, c, o)),
        Command::Shuffle(args) => writing(out, |c, o| steps::shuffle(args, c, o)),
        Command::Share(args) => writing(out, |c, o| steps::share(args, c, o)),
        Command::Cards(args) => report::cards_of(args, out),
        Command::Open(args) => writing(out, |c, o| steps::open(args, c, o)),
        Command::Void(args) => writing(out, |c, o| steps::void(args, c, o)),
        Command::Seat(args) => seat::run(args, out),
    }
}

/// Runs a step that writes the transcript. Ctrl-C, SIGTERM or SIGHUP stop
/// it with its temporary and new key files removed and exit code 130 —
/// unless its transcript was already in place (then it finishes: exit 0).
fn writing(
    out: &mut Output,
    step: impl FnOnce(&Cancel, &mut Output) -> anyhow::Result<ExitCode>,
) -> anyhow::Result<ExitCode> {
    let cancel = Cancel::default();
    crate::signals::watch(&cancel);
    match step(&cancel, out) {
        Err(_) if cancel.is_raised() => {
            crate::failure::note("interrupted: the transcript is unchanged");
            Ok(ExitCode::from(130))
        }
        result => result,
    }
}

/// The `--link`, or with `-` its first line on stdin (a link on the command
/// line shows its token to every local user who lists processes).
fn link_text(link: &str) -> anyhow::Result<String> {
    if link != "-" {
        return Ok(link.to_string());
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .take(64 * 1024)
        .read_line(&mut line)
        .context("cannot read the link from stdin")?;
    Ok(line.trim().to_string())
}
