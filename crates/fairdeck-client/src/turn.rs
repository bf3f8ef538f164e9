//! A seat's turn at a hidden table: from the table's [`Status`] and
//! transcript, the message the seat sends next — after checking every
//! proof of the transcript, so a seat never shuffles or shares on top of a
//! message it has not verified. Front ends (the CLI's `fairdeck hidden
//! seat`, tests) fetch the status and transcript over HTTP (a
//! [`Remote`](crate::Remote)), call
//! [`next_post`] (or [`key_post`], [`check`] and [`step`]), and post what
//! it returns.
//!
//! A seat keeps one [`Follower`] for its whole run: each call verifies
//! only the proofs the follower has not checked before, so a seat checks
//! each proof of a hand once, not once per step.

use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::record::{Missing, Record};
use fairdeck_hidden::seat::{Follower, Refused, Turn, signed_key_message};
use fairdeck_hidden::{Error, Table};
use rand_core::CryptoRng;

use crate::wire::{Post, Status};

/// Verifies the transcript as a table in progress, read by seat `seat`
/// with its key (its own cards are opened in the turn's verdict), checking
/// only the proofs `follower` has not checked before. `None` while not
/// every seat has published its key. O(new proofs) group operations.
///
/// # Errors
///
/// The first difference, if the transcript does not verify.
pub fn check<'k>(
    follower: &mut Follower,
    record: Record,
    (seat, key): (u64, &'k SecretKey),
) -> Result<Option<Turn<'k>>, Error> {
    match follower.check(record, (seat, key)) {
        Ok(turn) => Ok(Some(turn)),
        Err(Refused::KeysMissing) => Ok(None),
        Err(Refused::Invalid { error, .. }) => Err(error),
        Err(Refused::Step(e)) => Err(e),
        Err(Refused::Room(why)) => Err(Error::Room(why)),
        Err(other) => Err(Error::UnexpectedMessage(other.to_string())),
    }
}

/// The seat's key message, if the table waits for it. O(1) group
/// operations; nothing is verified.
///
/// # Errors
///
/// The manifest does not make a table; the seat is out of range.
pub fn key_post<R: CryptoRng + ?Sized>(
    status: &Status,
    record: &Record,
    (seat, key): (u64, &SecretKey),
    rng: &mut R,
) -> Result<Option<Post>, Error> {
    let owed = status.owed_by(seat).unwrap_or(&[]);
    if !owed.contains(&Missing::Key) {
        return Ok(None);
    }
    let table = Table::new(record.manifest.clone())?;
    let msg = signed_key_message(&table, record, seat, key, rng)?;
    Ok(Some(Post::Key(msg)))
}

/// The seat's next message, if it owes one: its key, its shuffle, its
/// shares of the stage that waits, or (with `open`) its own cards at the
/// showdown. The transcript is verified first with `follower` (only the
/// proofs it has not checked before). O(new proofs + P · N) group
/// operations.
///
/// # Errors
///
/// The transcript does not verify (its first difference); the key is not
/// the one the seat published ([`Error::WrongKey`]); the protocol refuses
/// the step.
pub fn next_post<R: CryptoRng + ?Sized>(
    follower: &mut Follower,
    status: &Status,
    record: Record,
    (seat, key): (u64, &SecretKey),
    open: bool,
    rng: &mut R,
) -> Result<Option<Post>, Error> {
    if let Some(post) = key_post(status, &record, (seat, key), rng)? {
        return Ok(Some(post));
    }
    if !owes(status, seat, open) {
        return Ok(None);
    }
    match check(follower, record, (seat, key))? {
        Some(mut turn) => step(status, &mut turn, open, rng),
        None => Ok(None),
    }
}

/// Whether the status asks the seat for a message other than its key:
/// one it owes, or (with `open`) its cards at the showdown. O(seats).
pub fn owes(status: &Status, seat: u64, open: bool) -> bool {
    let owed = status.owed_by(seat).unwrap_or(&[]);
    !owed.is_empty() || (open && status.showdown)
}

/// The seat's next message on a verified transcript (see [`next_post`]),
/// other than its key: its shuffle, its shares of the stage that waits,
/// or (with `open`) its own cards at the showdown. O(P · N) group
/// operations.
///
/// # Errors
///
/// The protocol refuses the step (not the seat's turn, a stage that does
/// not take shares, the hand over).
pub fn step<R: CryptoRng + ?Sized>(
    status: &Status,
    turn: &mut Turn<'_>,
    open: bool,
    rng: &mut R,
) -> Result<Option<Post>, Error> {
    let owed = status.owed_by(turn.seat).unwrap_or(&[]);
    if !owes(status, turn.seat, open) {
        return Ok(None);
    }
    let Some(hand) = status.hand else {
        return Ok(None);
    };
    if owed.contains(&Missing::Shuffle) {
        let (_, msg) = turn.shuffle(Some(hand), rng)?;
        return Ok(Some(Post::Shuffle(Box::new(msg))));
    }
    let shares = match status.stage.as_deref().filter(|_| !owed.is_empty()) {
        Some(name) => {
            let layout = turn.state.table.layout();
            let stage = layout
                .stage_named(name)
                .filter(|s| *s != Stage::Shuffle)
                .ok_or_else(|| {
                    Error::UnexpectedMessage(format!("no stage {name:?} owes shares"))
                })?;
            turn.share(stage, Some(hand), rng)?.1
        }
        None => turn.open(Some(hand), rng)?.1,
    };
    Ok((!shares.is_empty()).then_some(Post::Shares(shares)))
}

/// Whether a refusal of the served transcript names the room, as the
/// verdict does (§18, "Who is named"): a message not signed by its seat, a
/// log that disagrees with the messages, or a history the room's own
/// signatures contradict can only be the room's doing. O(1).
pub fn room_at_fault(e: &Error) -> bool {
    matches!(
        e,
        Error::Signature(..) | Error::Log(_) | Error::RoomSignature(_) | Error::Room(_)
    )
}
