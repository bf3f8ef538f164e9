//! `fair table new` and `fair deal --table`: version 2 (sections 8–10 of
//! docs/fair-dealing.md). The room fixes the manifest and commits; every
//! seat commits to a seed, then reveals it; the room deals from all of them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use fairdeck::cards::{DeckKind, Game};
use fairdeck_fair::{Commitment, Manifest, Record, ServerSecret, TableGame, Transcript};

use super::DealArgs;
use super::table_doc::{TableDoc, read_seat_docs, read_table, seat_records};
use crate::failure::usage;
use crate::output::write_private;
use crate::output::{Format, Output};
use crate::random::fresh_seed;

/// `fairdeck fair table …`.
#[derive(Debug, clap::Subcommand)]
pub enum TableAction {
    /// Fix a table's manifest, draw the room's secret (saved 0600) and print
    /// the table document (manifest + commitment) to publish before play.
    New(NewArgs),
    /// Compute the seat lock L from the table and every seat's commitment:
    /// publish it before any seat reveals (version 2.1; anyone can recompute it).
    Lock(super::lock::LockArgs),
    /// Write the void record of a table at which a seat did not commit or
    /// did not reveal (the room's secret is revealed in it; nothing is dealt).
    Void(super::lock::VoidArgs),
}

/// Flags of `fairdeck fair table new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The table or session id (never reuse one).
    #[arg(long = "id", value_name = "TEXT")]
    pub id: String,

    /// bridge, holdem, draw, skat, scopa or shoe.
    #[arg(long, short, value_name = "GAME")]
    pub game: String,

    /// The deck: the game's own (default), or shoe:K (1-8) for a shoe.
    #[arg(long, short, value_name = "KIND")]
    pub deck: Option<String>,

    /// The seat names in seat order, comma-separated (default: the game's
    /// seats, or Seat 1 … Seat P with --players).
    #[arg(long, value_name = "A,B,…", value_delimiter = ',')]
    pub seats: Vec<String>,

    /// The number of seats when no names are given.
    #[arg(long, short, value_name = "P", conflicts_with = "seats")]
    pub players: Option<usize>,

    /// The deals to play: N or A-B (bridge: board numbers from 1).
    #[arg(long, value_name = "RANGE", default_value = "1")]
    pub deals: String,

    /// Where to save the room's secret (created new, permissions 0600).
    #[arg(long, value_name = "FILE")]
    pub secret_out: PathBuf,

    /// Also write the table document (JSON) to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The flags `fair deal` takes for version 2.
#[derive(Debug, clap::Args)]
pub struct TableDealArgs {
    /// Version 2: the table document (`fair table new`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["client_seed", "nonce", "boards", "game", "deck", "players"])]
    pub table: Option<PathBuf>,

    /// Version 2: the seats' commitments (`fair seed commit --format json`),
    /// collected before any seed was revealed; one file per seat or a list.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "table")]
    pub commitments: Vec<PathBuf>,

    /// Version 2: the seats' reveals (`fair seed reveal --format json`).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "table")]
    pub reveals: Vec<PathBuf>,

    /// Version 2.1: the seat lock published after every commitment and
    /// before any reveal (`fair table lock`). Required unless --unlocked.
    #[arg(
        long,
        value_name = "HEX",
        requires = "table",
        conflicts_with = "unlocked"
    )]
    pub lock: Option<String>,

    /// Version 2.1: how many deals were played, from the first in order
    /// (default: the whole range; fewer when the table stopped early).
    #[arg(long, value_name = "K", requires = "lock")]
    pub played: Option<u64>,

    /// Write a version 2 transcript without the seat lock (for tables
    /// started before version 2.1; it verifies as "the lock was not checked").
    #[arg(long, requires = "table")]
    pub unlocked: bool,
}

/// Runs `fairdeck fair table …`.
pub fn run(action: &TableAction, out: &mut Output) -> anyhow::Result<ExitCode> {
    match action {
        TableAction::New(a) => new(a, out),
        TableAction::Lock(a) => super::lock::lock(a, out),
        TableAction::Void(a) => super::lock::void(a, out),
    }
}

fn manifest_of(args: &NewArgs) -> anyhow::Result<Manifest> {
    let game = args.game.trim().to_ascii_lowercase();
    let deck = match (&args.deck, game.as_str()) {
        (Some(d), _) => d.parse::<DeckKind>()?.to_string(),
        (None, "shoe") => return Err(usage("a shoe needs --deck shoe:K (K from 1 to 8)")),
        (None, g) => g.parse::<Game>()?.deck().to_string(),
    };
    let game = match game.as_str() {
        "shoe" => game,
        g => g.parse::<Game>()?.name().to_string(),
    };
    let seats = if args.seats.is_empty() {
        default_seats(&game, args.players)?
    } else {
        args.seats.iter().map(|s| s.trim().to_string()).collect()
    };
    let range = single_or_range(&args.deals).map_err(|e| usage(e.to_string()))?;
    let manifest = Manifest {
        version: 2,
        table: args.id.clone(),
        game,
        deck,
        seats,
        first: *range.start(),
        last: *range.end(),
    };
    manifest.check()?;
    Ok(manifest)
}

/// `N` or `A-B` allowing 0 (deal numbers of games other than bridge).
fn single_or_range(text: &str) -> Result<core::ops::RangeInclusive<u64>, fairdeck::Error> {
    let bad = || fairdeck::Error::InvalidDeal(format!("deals {text:?}: write N or A-B"));
    let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(text)?, num(text)?),
    };
    Ok(a..=b)
}

fn default_seats(game: &str, players: Option<usize>) -> anyhow::Result<Vec<String>> {
    let fixed: &[&str] = match game {
        "bridge" => &["North", "East", "South", "West"],
        "skat" => &["Forehand", "Middlehand", "Rearhand"],
        _ => &[],
    };
    if !fixed.is_empty() && players.is_none_or(|p| p == fixed.len()) {
        return Ok(fixed.iter().map(|s| s.to_string()).collect());
    }
    let p = match (players, game) {
        (Some(p), _) => p,
        (None, "shoe") => 1,
        (None, g) => g.parse::<Game>()?.players().1,
    };
    // Checked before the list is built: a huge P would allocate without end.
    let allowed = TableGame::from_name(game)
        .ok_or_else(|| usage(format!("unknown game {game:?}")))?
        .seats();
    if !allowed.contains(&p) {
        return Err(usage(format!(
            "{game} is played by {} to {} seats, --players gives {p}",
            allowed.start(),
            allowed.end()
        )));
    }
    Ok((1..=p).map(|i| format!("Seat {i}")).collect())
}

fn new(args: &NewArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let manifest = manifest_of(args)?;
    let table = manifest.check()?;
    let secret = ServerSecret::from_bytes(*fresh_seed()?.as_bytes());
    write_private(&args.secret_out, &format!("{}\n", secret.to_hex()))?;
    let doc = TableDoc {
        commitment: table.room_commitment(&secret).to_hex(),
        manifest,
    };
    let json = serde_json::to_string_pretty(&doc)? + "\n";
    if let Some(path) = &args.out {
        std::fs::write(path, &json).with_context(|| format!("cannot write {}", path.display()))?;
    }
    match out.format() {
        Format::Json => out.stdout().write_all(json.as_bytes())?,
        Format::Text => {
            let m = &doc.manifest;
            let w = out.stdout();
            writeln!(
                w,
                "table {:?}: {}, {} deck, deals {}-{}",
                m.table, m.game, m.deck, m.first, m.last
            )?;
            writeln!(w, "seats: {}", m.seats.join(", "))?;
            writeln!(w, "commitment: {}", doc.commitment)?;
            writeln!(w, "server secret: saved to {}", args.secret_out.display())?;
            writeln!(
                w,
                "publish the manifest and the commitment now (--format json or --out); \
                         collect every seat's commitment before any seat reveals its seed"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `fair deal --table FILE --secret-file S --commitments … --reveals …`.
pub fn deal(args: &DealArgs, path: &Path, out: &mut Output) -> anyhow::Result<ExitCode> {
    let doc = read_table(path)?;
    let secret = args.inputs.secret()?;
    let table = doc.manifest.check()?;
    if table.room_commitment(&secret).to_hex() != doc.commitment.to_ascii_lowercase() {
        return Err(usage(
            "the server secret does not give the table's commitment: wrong secret or table file",
        ));
    }
    let commits = read_seat_docs(&args.table.commitments)?;
    let reveals = read_seat_docs(&args.table.reveals)?;
    let seats = seat_records(&doc.manifest, &commits, &reveals)?;
    let m = &doc.manifest;
    let transcript = match (&args.table.lock, args.table.unlocked) {
        (Some(hex), _) => {
            let lock = Commitment::from_hex(hex).map_err(|e| usage(e.to_string()))?;
            let played = args.table.played.unwrap_or(m.last - m.first + 1);
            Record::deal_locked(m, &secret, &seats, &lock, played)?
        }
        (None, true) => Record::from(Transcript::deal(m, &secret, &seats)?),
        (None, false) => {
            return Err(usage(
                "give --lock L, the seat lock published before the reveals (fair table lock), \
                 or --unlocked for a version 2 transcript without it",
            ));
        }
    };
    if out.pbn() {
        let text = super::table_pbn::write(&transcript)?;
        crate::failure::note("note: the boards show every hand: publish them only after play");
        out.stdout().write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::failure::note(
        "note: the transcript holds the server secret: publish it only after play",
    );
    match out.format() {
        Format::Json => out.stdout().write_all(transcript.to_json().as_bytes())?,
        Format::Text => super::document::print_transcript(out.stdout(), &transcript)?,
    }
    Ok(ExitCode::SUCCESS)
}
