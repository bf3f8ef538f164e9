//! A seat's side of a hidden table, as a pure function: from the table's
//! [`Status`] and transcript, the message the seat sends next — after
//! checking every proof of the transcript itself, so a seat never shuffles
//! or shares on top of a message it has not verified. Front ends (the CLI's
//! `fairdeck hidden seat`, tests) fetch the status and transcript over
//! HTTP, call [`next_post`], and post what it returns.

use fairdeck_hidden::keys::{SecretKey, key_message};
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::play::{next_shuffle, owed_shares, showdown_shares};
use fairdeck_hidden::record::{Missing, Record};
use fairdeck_hidden::verify::{Options, Outcome, State, verify};
use fairdeck_hidden::{Error, Table};
use rand_core::CryptoRng;

use super::desk::Post;
use super::status::Status;

/// Verifies the transcript as a table in progress, read by seat `seat`
/// with its key (its own cards are opened in the report).
///
/// # Errors
///
/// The first difference, if the transcript does not verify.
pub fn check(record: &Record, (seat, key): (u64, &SecretKey)) -> Result<Outcome, Error> {
    let outcome = verify(
        record,
        &Options {
            reader: Some((seat, key)),
            in_progress: true,
        },
    );
    match outcome.verdict.differences.first() {
        Some(d) => Err(d.error.clone()),
        None => Ok(outcome),
    }
}

/// The seat's next message, if it owes one: its key, its shuffle, its
/// shares of the stage that waits, or (with `open`) its own cards at the
/// showdown. O(P · N) group operations (the transcript is verified first).
///
/// # Errors
///
/// The transcript does not verify (its first difference); the key is not
/// the one the seat published ([`Error::WrongKey`]); the protocol refuses
/// the step.
pub fn next_post<R: CryptoRng + ?Sized>(
    status: &Status,
    record: &Record,
    (seat, key): (u64, &SecretKey),
    open: bool,
    rng: &mut R,
) -> Result<Option<Post>, Error> {
    let owed = status.owed_by(seat).unwrap_or(&[]);
    if owed.contains(&Missing::Key) {
        let table = Table::new(record.manifest.clone())?;
        return Ok(Some(Post::Key(key_message(&table, seat, key, rng)?)));
    }
    if owed.is_empty() && !(open && status.showdown) {
        return Ok(None);
    }
    let Some(state) = check(record, (seat, key))?.state else {
        return Ok(None);
    };
    let Some(hand) = status.hand else {
        return Ok(None);
    };
    if owed.contains(&Missing::Shuffle) {
        let msg = next_shuffle(&state, hand, seat, rng)?;
        return Ok(Some(Post::Shuffle(Box::new(msg))));
    }
    if let Some(stage) = status.stage.as_deref().filter(|_| !owed.is_empty()) {
        return shares(&state, record, (hand, stage), (seat, key), rng);
    }
    let mine = showdown_shares(&state, record, hand, (seat, key), rng)?;
    Ok((!mine.is_empty()).then_some(Post::Shares(mine)))
}

fn shares<R: CryptoRng + ?Sized>(
    state: &State,
    record: &Record,
    (hand, stage): (u64, &str),
    (seat, key): (u64, &SecretKey),
    rng: &mut R,
) -> Result<Option<Post>, Error> {
    let layout = state.table.layout();
    let stage = layout
        .stage_named(stage)
        .filter(|s| *s != Stage::Shuffle)
        .ok_or_else(|| Error::UnexpectedMessage(format!("no stage {stage:?} owes shares")))?;
    let msgs = owed_shares(state, record, (hand, stage), (seat, key), rng)?;
    Ok((!msgs.is_empty()).then_some(Post::Shares(msgs)))
}
