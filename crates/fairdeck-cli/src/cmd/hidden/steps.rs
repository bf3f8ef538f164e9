//! The steps that add messages: new, key, shuffle, share, open, void.

use std::process::ExitCode;

use anyhow::Context;
use fairdeck::cards::Game;
use fairdeck::fair::Manifest;
use fairdeck_hidden::keys::{SecretKey, key_message};
use fairdeck_hidden::play::{
    next_shuffle, owed_shares, record_shares, showdown_shares, void_record,
};
use fairdeck_hidden::record::{Missing, Record, Void};
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_hidden::{Table, VERSION};
use serde::Serialize;

use super::files::{checked, generator, hand, read_key, read_record, write_key, write_record};
use super::{KeyArgs, NewArgs, ShareArgs, StepArgs, VoidArgs};
use crate::failure::{note, usage};
use crate::output::Output;

/// Prints what a step published (one JSON document) and notes where it went.
fn published<T: Serialize + ?Sized>(
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

pub(super) fn new(args: &NewArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
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
    Table::new(manifest.clone()).map_err(|e| usage(e.to_string()))?;
    if args.transcript.exists() {
        return Err(usage(format!(
            "{} exists: a new table needs a new transcript",
            args.transcript.display()
        )));
    }
    let record = Record::new(manifest);
    write_record(&args.transcript, &record)?;
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

pub(super) fn key(args: &KeyArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let mut record = read_record(&args.transcript)?;
    let table = Table::new(record.manifest.clone())
        .map_err(|e| usage(format!("{}: {e}", args.transcript.display())))?;
    let seat = seat_index(&record, &args.seat)?;
    if record.keys.len() as u64 != seat {
        let why = match record.keys.iter().any(|k| k.seat == seat) {
            true => format!(
                "seat {seat} already has a key in {}",
                args.transcript.display()
            ),
            false => format!(
                "keys are published in seat order: seat {} is next",
                record.keys.len()
            ),
        };
        anyhow::bail!(why);
    }
    let mut rng = generator(args.seed.as_deref())?;
    let sk = SecretKey::generate(&mut rng);
    let msg = key_message(&table, seat, &sk, &mut rng)?;
    write_key(&args.secret_out, &record.manifest.table, seat, &sk)?;
    record.keys.push(msg.clone());
    write_record(&args.transcript, &record)?;
    let line = format!(
        "seat {seat}: secret key in {} (keep it; never share it), key message added to {}",
        args.secret_out.display(),
        args.transcript.display()
    );
    published(out, &msg, line)
}

/// The transcript, the seat and its key, checked against the transcript.
fn step(args: &StepArgs) -> anyhow::Result<(Record, u64, SecretKey)> {
    let record = read_record(&args.transcript)?;
    let (seat, sk) = read_key(&args.key, &record)?;
    let pk = sk.public_key();
    let theirs = record.keys.get(seat as usize).map(|k| k.public_key);
    if theirs != Some(fairdeck_hidden::group::encode_point(&pk.0)) {
        anyhow::bail!(
            "{}: wrong-key: not the key seat {seat} published in {}",
            args.key.display(),
            args.transcript.display()
        );
    }
    Ok((record, seat, sk))
}

pub(super) fn shuffle(args: &StepArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (mut record, seat, sk) = step(args)?;
    let (_, state) = checked(&args.transcript, &record, Some((seat, &sk)))?;
    let n = match (args.hand, record.hands.last()) {
        (Some(n), _) => n,
        (None, Some(h)) if h.shuffles.len() < state.table.seats() => h.hand,
        (None, Some(h)) => h.hand + 1,
        (None, None) => record.manifest.first,
    };
    let mut rng = generator(args.seed.as_deref())?;
    let msg = next_shuffle(&state, n, seat, &mut rng)?;
    record.hand_mut(n)?.shuffles.push(msg.clone());
    write_record(&args.transcript, &record)?;
    published(
        out,
        &msg,
        format!(
            "seat {seat}: shuffle of hand {n} added to {}",
            args.transcript.display()
        ),
    )
}

pub(super) fn share(args: &ShareArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (mut record, seat, sk) = step(&args.step)?;
    let (_, state) = checked(&args.step.transcript, &record, Some((seat, &sk)))?;
    let layout = state.table.layout();
    let stage = layout
        .stage_named(&args.street)
        .filter(|s| *s != fairdeck_hidden::layout::Stage::Shuffle)
        .ok_or_else(|| {
            let names: Vec<_> = layout
                .stages()
                .into_iter()
                .skip(1)
                .map(|s| layout.stage_name(s).to_string())
                .collect();
            usage(format!(
                "--street {:?}: this game's stages are {}",
                args.street,
                names.join(", ")
            ))
        })?;
    let n = hand(&record, args.step.hand);
    let mut rng = generator(args.step.seed.as_deref())?;
    let shares = owed_shares(&state, &record, (n, stage), (seat, &sk), &mut rng)?;
    let count = shares.len();
    record_shares(&state.table, &mut record, (n, Some(stage)), shares.clone())?;
    write_record(&args.step.transcript, &record)?;
    let line = format!(
        "seat {seat}: {count} share(s) of hand {n}'s {} added to {}",
        args.street,
        args.step.transcript.display()
    );
    published(out, &shares, line)
}

pub(super) fn open(args: &StepArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (mut record, seat, sk) = step(args)?;
    let (_, state) = checked(&args.transcript, &record, Some((seat, &sk)))?;
    let n = hand(&record, args.hand);
    let mut rng = generator(args.seed.as_deref())?;
    let shares = showdown_shares(&state, &record, n, (seat, &sk), &mut rng)?;
    let count = shares.len();
    record_shares(&state.table, &mut record, (n, None), shares.clone())?;
    write_record(&args.transcript, &record)?;
    published(
        out,
        &shares,
        format!(
            "seat {seat}: {count} card(s) of hand {n} opened in {}",
            args.transcript.display()
        ),
    )
}

pub(super) fn void(args: &VoidArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let mut record = read_record(&args.transcript)?;
    let outcome = verify(
        &record,
        &Options {
            reader: None,
            in_progress: true,
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
        // The keys never all arrived: the table is void.
        let seat = record.keys.len() as u64;
        let v = Void {
            stage: "keys".into(),
            seat,
            missing: vec![Missing::Key],
        };
        record.void = Some(v.clone());
        write_record(&args.transcript, &record)?;
        return published(
            out,
            &v,
            format!("table void: seat {seat} did not publish its key"),
        );
    };
    let n = hand(&record, args.hand);
    let i = state
        .hands
        .iter()
        .position(|h| h.hand == n)
        .with_context(|| format!("hand {n} is not in {}", args.transcript.display()))?;
    let v = void_record(&outcome.verdict.hands[i])
        .ok_or_else(|| anyhow::anyhow!("hand {n} owes no message: nothing to void"))?;
    record.hand_mut(n)?.void = Some(v.clone());
    write_record(&args.transcript, &record)?;
    let line = format!(
        "hand {n} void at the {} stage: seat {} did not send {} message(s)",
        v.stage,
        v.seat,
        v.missing.len()
    );
    published(out, &v, line)
}
