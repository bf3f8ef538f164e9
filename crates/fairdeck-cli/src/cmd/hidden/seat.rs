//! `fairdeck hidden seat --link URL`: one seat of a hidden table served by
//! `fairdeck table serve`, played over HTTP. It keeps its secret key in a
//! local file (mode 0600, written before its key message is sent), polls
//! the table's status, and when the table waits for it fetches the
//! transcript, verifies every proof in it, and sends what it owes
//! (`fairdeck_client::turn`). It prints its own cards once they are
//! dealt and, at the end, verifies the whole transcript. One
//! [`Follower`] serves the whole run, so each proof is checked once per
//! process: a step checks only the proofs that are new since the last.
//! The protocol client (the link, the connection, the next message) is
//! `fairdeck-client`'s; this module maps flags to it, keeps the seat's
//! files and prints.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use fairdeck_client::turn::{check, key_post, room_at_fault, step};
use fairdeck_client::wire::Status;
use fairdeck_client::{Link, Remote, key_file, parse_link};
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::{Follower, Turn};
use fairdeck_hidden::verify::Options;

use super::files::{generator, read_key, write_key};
use super::link_text;
use super::report::print_verdict;
use crate::failure::{note, usage};
use crate::output::{Format, Output};

/// Flags of `hidden seat`.
#[derive(Debug, clap::Args)]
pub struct SeatArgs {
    /// The seat's link from the table's invitation:
    /// `http://HOST:PORT/table/hidden.html#table=ID&seat=N&token=T`; `-`
    /// reads it from stdin (a command line shows the token to other users).
    #[arg(long, value_name = "URL")]
    pub link: String,
    /// The seat's secret key file: read if it exists (the same seat after a
    /// restart), else made and written there (mode 0600) before the key is
    /// sent. Default: `ID-seatN.key` in the current directory.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Do not open this seat's cards at the showdown (they stay hidden forever).
    #[arg(long)]
    pub muck: bool,
    /// Milliseconds between two reads of the table's status (100 to 60000).
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(100..=60_000))]
    pub poll_ms: u64,
    /// Give up when the service cannot be reached for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub patience: u64,
    /// Reproducible tests only: derive the randomness from SEED. Anyone who
    /// knows SEED knows the secret key and can undo this seat's shuffle.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,
    /// Play the seat in a browser, from a page this fairdeck serves on
    /// loopback (not the room's page): it prints the address to open, passes
    /// the page's calls on to the room and keeps the room's receipts in
    /// `ID-seatN.evidence.json`. The key is made and kept in the browser.
    #[arg(long, conflicts_with_all = ["key", "muck", "seed"])]
    pub page: bool,
    /// With `--page`: the loopback address to serve the page on. Default:
    /// 127.0.0.1 and a port fixed by the link, so a restart serves the page
    /// where the browser kept the seat's key.
    #[arg(long, value_name = "ADDR", requires = "page")]
    pub page_bind: Option<std::net::SocketAddr>,
}

/// The seat on the wire, and where it keeps its receipts and the heads
/// it was served.
struct Wire {
    remote: Remote,
    evidence: PathBuf,
}

/// Version 3.1: signs the whole log the seat verified and posts it; a
/// refusal (attested already, a version-3 table) is only noted.
fn attest(wire: &mut Wire, signed: (&Record, &SecretKey), rng: &mut chacha20::ChaCha20Rng) {
    if let Err(e) = wire.remote.attest(signed, rng) {
        note(format_args!("the attestation was not taken: {e:#}"));
    }
}

/// Writes the seat's evidence (its receipts and the heads it was served,
/// §19) for `fair verify --evidence`; nothing when it holds none.
fn keep_evidence(path: &Path, follower: &Follower) -> anyhow::Result<()> {
    if follower.evidence().is_empty() {
        return Ok(());
    }
    let json = serde_json::to_string_pretty(follower.evidence())?;
    std::fs::write(path, json + "\n")
        .with_context(|| format!("cannot write the seat's evidence to {}", path.display()))
}

/// The seat's key, read from its file or made and written there first,
/// and the file's path.
fn seat_key(
    args: &SeatArgs,
    link: &Link,
    status: &Status,
    rng: &mut chacha20::ChaCha20Rng,
) -> anyhow::Result<(SecretKey, PathBuf)> {
    let path = args.key.clone().unwrap_or_else(|| key_file(link));
    let record = Record::new(status.manifest.clone());
    if path.exists() {
        let (seat, key) = read_key(&path, &record)?;
        if seat != link.seat {
            return Err(usage(format!(
                "{}: the key of seat {seat}, not seat {}",
                path.display(),
                link.seat
            )));
        }
        return Ok((key, path));
    }
    let key = SecretKey::generate(rng);
    write_key(&path, &link.table, link.seat, &key)?;
    note(format_args!(
        "seat {}: secret key in {} (keep it; never share it)",
        link.seat,
        path.display()
    ));
    Ok((key, path))
}

/// Runs `fairdeck hidden seat`.
pub(super) fn run(args: &SeatArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let link = parse_link(&link_text(&args.link)?).map_err(|e| usage(format!("--link: {e}")))?;
    if args.page {
        let evidence = key_file(&link).with_extension("evidence.json");
        return super::page::run(link, args.page_bind, evidence);
    }
    let mut remote =
        Remote::new(link, Duration::from_secs(args.patience)).with_notice(|line: &str| note(line));
    let mut rng = generator(args.seed.as_deref())?;
    let status = remote.status()?;
    let seats = status.manifest.seats.len() as u64;
    let seat = remote.link().seat;
    if seat >= seats {
        return Err(usage(format!(
            "--link: seat {seat} of a table of {seats} seats"
        )));
    }
    let (key, key_path) = seat_key(args, remote.link(), &status, &mut rng)?;
    let own = fairdeck_hidden::group::encode_point(&key.public_key().0);
    note(format_args!(
        "seat {seat}: key fingerprint {} (every seat prints each seat's at the end: if another player's shows a different one for seat {seat}, someone else played this seat)",
        fairdeck_hidden::keys::fingerprint(&own),
    ));
    let mut wire = Wire {
        remote,
        evidence: key_path.with_extension("evidence.json"),
    };
    let mut follower = Follower::new();
    let mut shown = Shown::new();
    let mut seen = None;
    loop {
        let status = wire.remote.status()?;
        if status.state == "finished" || status.state == "void" {
            return finish(&mut wire, (&mut follower, &key), (&mut rng, out));
        }
        // Act only on a table that changed: a refusal of "not now" waits for
        // the change that allows it (another seat's message, the operator).
        if seen != Some(status.entries) {
            seen = Some(status.entries);
            if act(
                &mut wire,
                &status,
                (&mut follower, &key),
                (args.muck, &mut shown),
                (&mut rng, out),
            )? {
                continue;
            }
        }
        std::thread::sleep(Duration::from_millis(args.poll_ms));
    }
}

/// Which hands' cards were printed (`false`) and opened (`true`).
type Shown = std::collections::BTreeSet<(Option<u64>, bool)>;

/// Does what the seat owes now; whether it sent a message.
fn act(
    wire: &mut Wire,
    status: &Status,
    (follower, key): (&mut Follower, &SecretKey),
    (muck, shown): (bool, &mut Shown),
    (rng, out): (&mut chacha20::ChaCha20Rng, &mut Output),
) -> anyhow::Result<bool> {
    let seat = wire.remote.link().seat;
    let showdown = status.showdown && !muck && !shown.contains(&(status.hand, true));
    if status.owed_by(seat).is_none() && !showdown && !dealt(status, shown) {
        return Ok(false);
    }
    let record = wire.remote.record(status.hand)?;
    let post = match key_post(status, &record, (seat, key), rng)? {
        Some(post) => Some(post),
        // Before the first hand only keys are owed: nothing to verify yet.
        None if status.hand.is_none() => None,
        None => {
            let turn = match check(follower, record, (seat, key)) {
                Ok(turn) => turn,
                Err(e) => {
                    keep_evidence(&wire.evidence, follower)?;
                    anyhow::bail!(
                        "the served transcript does not verify: {e}{}; this seat sends nothing more (its receipts and the heads it was served are in {})",
                        if room_at_fault(&e) {
                            " [at fault: the room]"
                        } else {
                            ""
                        },
                        wire.evidence.display()
                    );
                }
            };
            match turn {
                Some(mut turn) => {
                    show_cards(status, &turn, shown, out)?;
                    step(status, &mut turn, !muck, rng)?
                }
                None => None,
            }
        }
    };
    match post {
        Some(post) => {
            let sent = wire.remote.send(&post)?;
            for r in wire.remote.take_receipts() {
                follower.receipt(r);
            }
            Ok(sent)
        }
        None => {
            if showdown {
                shown.insert((status.hand, true));
            }
            Ok(false)
        }
    }
}

/// Whether the hand in play is dealt and its cards not printed yet.
fn dealt(status: &Status, shown: &Shown) -> bool {
    let past_deal = status.stage.is_none() || status.streets_open > 0;
    status.state == "playing" && past_deal && !shown.contains(&(status.hand, false))
}

/// Prints the seat's own cards once the deal of the hand in play is complete.
fn show_cards(
    status: &Status,
    turn: &Turn<'_>,
    shown: &mut Shown,
    out: &mut Output,
) -> anyhow::Result<()> {
    let Some(hand) = status.hand else {
        return Ok(());
    };
    let Some(report) = turn.verdict.hands.iter().find(|h| h.hand == hand) else {
        return Ok(());
    };
    let seat = turn.seat;
    let private = turn.state.table.layout().private(seat).len();
    if report.own.len() < private || private == 0 || !shown.insert((Some(hand), false)) {
        return Ok(());
    }
    let cards: Vec<&str> = report.own.iter().map(|c| c.card.as_str()).collect();
    writeln!(
        out.stdout(),
        "hand {hand}: seat {seat}'s cards: {}",
        cards.join(" ")
    )?;
    out.flush()?;
    Ok(())
}

/// The table is over: the whole transcript verified, read with the seat's
/// key (the proofs the follower checked during play are not checked again).
fn finish(
    wire: &mut Wire,
    (follower, key): (&mut Follower, &SecretKey),
    (rng, out): (&mut chacha20::ChaCha20Rng, &mut Output),
) -> anyhow::Result<ExitCode> {
    let record = wire.remote.record(None)?;
    // The seat's own receipts and heads weigh in (§18): a void naming it
    // for a message it holds a receipt for, or a history the room
    // rewrote after the seat's last step, names the room.
    let evidence = follower.evidence().to_vec();
    let opts = Options {
        reader: Some((wire.remote.link().seat, key)),
        in_progress: false,
        evidence: &evidence,
        pins: &[],
    };
    let verdict = follower.verify(&record, &opts).verdict;
    keep_evidence(&wire.evidence, follower)?;
    if verdict.is_valid() {
        attest(wire, (&record, key), rng);
    }
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => {
            print_verdict(out.stdout(), &verdict)?;
            let hands = record.hands.iter().rev();
            let void = record
                .void
                .iter()
                .chain(hands.filter_map(|h| h.void.as_ref()));
            if let Some(v) = void.into_iter().next() {
                let missing: Vec<String> = v.missing.iter().map(ToString::to_string).collect();
                let name = record
                    .manifest
                    .seats
                    .get(v.seat as usize)
                    .map_or("", String::as_str);
                writeln!(
                    out.stdout(),
                    "the table is void: at the {} stage, seat {} ({name}) did not send {}",
                    v.stage,
                    v.seat,
                    missing.join(", ")
                )?;
            }
        }
    }
    Ok(match verdict.is_valid() {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    })
}
