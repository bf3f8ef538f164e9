//! The steps that add messages: new, key, shuffle, share, open, void.

use std::process::ExitCode;

use anyhow::Context;
use fairdeck::cards::Game;
use fairdeck_fair::Manifest;
use fairdeck_hidden::VERSION;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::ledger::void_digest;
use fairdeck_hidden::play::void_record;
use fairdeck_hidden::record::{Record, Void};
use fairdeck_hidden::seat::{Refused, check_published, hand_of, key_turn, publish_key, table_void};
use fairdeck_hidden::signature::Context as Signing;
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_shuf::Cancel;
use serde::Serialize;

use super::files::{checked, generator, read_key, write_key};
use super::transcript::{self, Locked};
use super::{KeyArgs, NewArgs, ShareArgs, StepArgs, VoidArgs};
use crate::failure::{note, usage};
use crate::output::Output;

/// Prints what a step published (one JSON document) and notes where it went.
pub(super) fn published<T: Serialize + ?Sized>(
    out: &mut Output,
    what: &T,
    line: String,
) -> anyhow::Result<ExitCode> {
    out.json(what)?;
    note(line);
    Ok(ExitCode::SUCCESS)
}

fn range(text: &str) -> anyhow::Result<(u64, u64)> {
    let num = |s: &str| {
        s.trim().parse::<u64>().map_err(|_| {
            usage(format!(
                "--hands {text:?}: expected FIRST-LAST or one number"
            ))
        })
    };
    match text.split_once('-') {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(text).map(|n| (n, n)),
    }
}

pub(super) fn new(args: &NewArgs, cancel: &Cancel, out: &mut Output) -> anyhow::Result<ExitCode> {
    let deck = match (&args.deck, args.game.parse::<Game>()) {
        (Some(d), _) => d.clone(),
        (None, Ok(game)) => game.deck().to_string(),
        (None, Err(_)) => "shoe:1".into(),
    };
    let (first, last) = range(&args.hands)?;
    let manifest = Manifest {
        version: VERSION,
        table: args.table.clone(),
        game: args.game.clone(),
        deck,
        seats: args.seats.clone(),
        first,
        last,
    };
    // Version 3.1 without a room: every seat signs its messages and the
    // transcript logs their digests (the file is the bulletin board); with
    // --tolerate, version 3.2 (a threshold key, §21).
    let record = match args.tolerate {
        None => Record::signed(manifest, None),
        Some(d) => Record::tolerant(manifest, d, None),
    };
    record.table().map_err(|e| {
        let hint = match args.tolerate {
            Some(0) => " (leave --tolerate out for a table that tolerates no lost seat)",
            _ => "",
        };
        usage(format!("{e}{hint}"))
    })?;
    transcript::create(&args.transcript, &record, cancel)?;
    published(
        out,
        &record.manifest,
        format!(
            "table {:?} started in {}",
            args.table,
            args.transcript.display()
        ),
    )
}

fn seat_index(record: &Record, seat: &str) -> anyhow::Result<u64> {
    let seats = &record.manifest.seats;
    let by_name = seats.iter().position(|s| s == seat);
    let by_index = seat.parse::<usize>().ok().filter(|&i| i < seats.len());
    by_name.or(by_index).map(|i| i as u64).ok_or_else(|| {
        usage(format!(
            "--seat {seat:?}: no such seat (seats: {})",
            seats.join(", ")
        ))
    })
}

pub(super) fn key(args: &KeyArgs, cancel: &Cancel, out: &mut Output) -> anyhow::Result<ExitCode> {
    let file = transcript::lock(&args.transcript, cancel)?;
    let mut record = file.read()?;
    let table = record
        .table()
        .map_err(|e| usage(format!("{}: {e}", args.transcript.display())))?;
    let seat = seat_index(&record, &args.seat)?;
    let refused = |e: Refused| match e {
        Refused::KeyTaken(seat) => anyhow::anyhow!(
            "seat {seat} already has a key in {}",
            args.transcript.display()
        ),
        other => anyhow::anyhow!("{other}"),
    };
    key_turn(&record, seat).map_err(refused)?;
    let mut rng = generator(args.seed.as_deref())?;
    let sk = SecretKey::generate(&mut rng);
    let msg = publish_key(&table, &mut record, seat, &sk, &mut rng).map_err(refused)?;
    // The key file is listed in `cancel` (a signal removes it) and removed
    // if the transcript cannot take the key message: a retry starts afresh.
    let secret = args.secret_out.clone();
    let table_id = &record.manifest.table;
    cancel.create(
        || write_key(&secret, table_id, seat, &sk),
        |()| secret.clone(),
    )?;
    let written = file.write(&record);
    cancel.forget(&secret);
    if written.is_err() {
        let _ = std::fs::remove_file(&secret);
    }
    written?;
    let line = format!(
        "seat {seat}: secret key in {} (keep it; never share it), key message added to {}",
        args.secret_out.display(),
        args.transcript.display()
    );
    published(out, &msg, line)
}

/// The transcript (locked), the seat and its key, checked against the transcript.
fn step<'c>(
    args: &StepArgs,
    cancel: &'c Cancel,
) -> anyhow::Result<(Locked<'c>, Record, u64, SecretKey)> {
    let file = transcript::lock(&args.transcript, cancel)?;
    let record = file.read()?;
    let (seat, sk) = read_key(&args.key, &record)?;
    if check_published(&record, seat, &sk).is_err() {
        return Err(usage(format!(
            "{}: wrong-key: not the key seat {seat} published in {}",
            args.key.display(),
            args.transcript.display()
        )));
    }
    Ok((file, record, seat, sk))
}

pub(super) fn shuffle(
    args: &StepArgs,
    cancel: &Cancel,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    let (file, record, seat, sk) = step(args, cancel)?;
    let mut turn = checked(&args.transcript, record, (seat, &sk))?;
    let mut rng = generator(args.seed.as_deref())?;
    let (n, msg) = turn.shuffle(args.hand, &mut rng)?;
    file.write(&turn.record)?;
    published(
        out,
        &msg,
        format!(
            "seat {seat}: shuffle of hand {n} added to {}",
            args.transcript.display()
        ),
    )
}

pub(super) fn share(
    args: &ShareArgs,
    cancel: &Cancel,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    let (file, record, seat, sk) = step(&args.step, cancel)?;
    let mut turn = checked(&args.step.transcript, record, (seat, &sk))?;
    let stage = turn
        .stage(&args.street)
        .map_err(|e| usage(format!("--street {e}")))?;
    let mut rng = generator(args.step.seed.as_deref())?;
    let (n, shares) = turn.share(stage, args.step.hand, &mut rng)?;
    file.write(&turn.record)?;
    let line = format!(
        "seat {seat}: {} share(s) of hand {n}'s {} added to {}",
        shares.len(),
        args.street,
        args.step.transcript.display()
    );
    published(out, &shares, line)
}

pub(super) fn open(args: &StepArgs, cancel: &Cancel, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (file, record, seat, sk) = step(args, cancel)?;
    let mut turn = checked(&args.transcript, record, (seat, &sk))?;
    let mut rng = generator(args.seed.as_deref())?;
    let (n, shares) = turn.open(args.hand, &mut rng)?;
    file.write(&turn.record)?;
    published(
        out,
        &shares,
        format!(
            "seat {seat}: {} card(s) of hand {n} opened in {}",
            shares.len(),
            args.transcript.display()
        ),
    )
}

/// Version 3.1: the void record's digest appended to the log (§18), as for
/// every message; `hand` is `None` for the table's void at `keys`. A plain
/// version-3 transcript has no log.
fn log_void(record: &mut Record, hand: Option<u64>, v: &Void) -> anyhow::Result<()> {
    if record.is_signed() {
        let table = record.table()?;
        let ctx = Signing::new(&table, record.room.as_ref());
        record.log.push(void_digest(&ctx, hand, v));
    }
    Ok(())
}

pub(super) fn void(args: &VoidArgs, cancel: &Cancel, out: &mut Output) -> anyhow::Result<ExitCode> {
    let file = transcript::lock(&args.transcript, cancel)?;
    let mut record = file.read()?;
    let outcome = verify(
        &record,
        &Options {
            reader: None,
            in_progress: true,
            evidence: &[],
            pins: &[],
        },
    );
    if let Some(d) = outcome.verdict.differences.first() {
        anyhow::bail!(
            "{}: the transcript does not verify; first: {}",
            args.transcript.display(),
            d.message
        );
    }
    let Some(state) = outcome.state else {
        // A table stage never completed (the keys; in version 3.2 the
        // dealings or readies): the table is void.
        let seats = record.manifest.seats.len();
        let v = table_void(&record, seats).ok_or_else(|| {
            anyhow::anyhow!("the key generation ended with a complaint: nothing to void")
        })?;
        log_void(&mut record, None, &v)?;
        record.void = Some(v.clone());
        file.write(&record)?;
        let line = format!(
            "table void: seat {} did not publish {}",
            v.seat, v.missing[0]
        );
        return published(out, &v, line);
    };
    let n = hand_of(&record, args.hand);
    let i = state
        .hands
        .iter()
        .position(|h| h.hand == n)
        .with_context(|| format!("hand {n} is not in {}", args.transcript.display()))?;
    let rec = record
        .hand(n)
        .with_context(|| format!("hand {n} has no record"))?;
    let v = void_record(&state.table, rec, &outcome.verdict.hands[i])
        .ok_or_else(|| anyhow::anyhow!("hand {n} owes no message: nothing to void"))?;
    log_void(&mut record, Some(n), &v)?;
    record.hand_mut(n)?.void = Some(v.clone());
    file.write(&record)?;
    let line = format!(
        "hand {n} void at the {} stage: seat {} did not send {} message(s)",
        v.stage,
        v.seat,
        v.missing.len()
    );
    published(out, &v, line)
}
