//! The operations a front end calls on hidden tables, each one transaction
//! on a [`HiddenStore`]: open a table, post a seat's message (checked
//! first), move a hand on, read the status or the transcript. `now` is
//! read by the caller (seconds since the Unix epoch): a passed deadline is
//! acted on by whichever request comes first after it, reads included.

use fairdeck_client::wire::{Post, SeatLink};
use rand_core::TryCryptoRng;

use super::accept;
use super::board::Board;
use super::control::{self, Advance, HiddenInvitation, NewHiddenTable, expired};
use super::refusal::Refused;
use super::status;
use super::store::{self, BoardCache, HiddenStore, load};
use crate::Error;

/// Opens a hidden table: tokens drawn from `rng`, the table stored.
///
/// # Errors
///
/// As [`NewHiddenTable::open`]; [`Error::Exists`]; [`Error::Storage`].
pub fn open<S: HiddenStore + ?Sized, R: TryCryptoRng + ?Sized>(
    s: &mut S,
    request: &NewHiddenTable,
    rng: &mut R,
    base: &str,
    now: u64,
) -> Result<HiddenInvitation, Error> {
    let (entry, invitation) = request.open(rng, base, now)?;
    let (_, json) = store::stored(&entry).map_err(|e| Error::Storage(e.to_string()))?;
    s.hidden_create(&request.manifest.table, &json)?;
    Ok(invitation)
}

/// The board at `now`: a deadline passed with a message missing voids
/// the table first (one transaction, taken only then).
///
/// # Errors
///
/// [`Error::NotFound`], [`Error::Storage`], [`Error::Corrupt`].
pub fn board<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
    now: u64,
) -> Result<Board, Refused> {
    let board = load(s, cache, id)?;
    if expired(&board, now).is_none() {
        return Ok(board);
    }
    store::change(s, cache, id, &mut |b| {
        Ok(expired(b, now).into_iter().collect())
    })
}

fn authorize(token: Option<&str>, hash: Option<&crate::TokenHash>) -> Result<(), Refused> {
    match (token, hash) {
        (None, _) => Err(Error::Unauthenticated.into()),
        (Some(t), Some(h)) if h.admits(t) => Ok(()),
        _ => Err(Error::Forbidden.into()),
    }
}

/// Seat `seat` shows its token and is told its link is good: nothing is
/// stored (but a passed deadline voids the table first, as every read does).
///
/// # Errors
///
/// [`Refused::Table`]: no token, not the seat's token (or no such seat),
/// no such table, storage.
pub fn seat_link<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
    (seat, token): (u64, Option<&str>),
    now: u64,
) -> Result<SeatLink, Refused> {
    let b = board((s, cache), id, now)?;
    authorize(
        token,
        usize::try_from(seat).ok().and_then(|i| b.seats.get(i)),
    )?;
    Ok(status::seat_link(&b, seat))
}

/// The operator's read (its token checked): the table as [`board`] gives it,
/// changing nothing but a void a passed deadline calls for (as every read
/// does). The operator page checks its link with it before it shows a step.
///
/// # Errors
///
/// [`Refused::Table`]: no token, not the operator's token, no such table,
/// storage.
pub fn operator_read<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
    token: Option<&str>,
    now: u64,
) -> Result<Board, Refused> {
    let b = board((s, cache), id, now)?;
    authorize(token, Some(&b.operator))?;
    Ok(b)
}

/// Seat `seat` (its token checked) posts a message; it is checked and
/// stored, or refused with nothing stored. A post after a passed deadline
/// voids the table instead.
///
/// # Errors
///
/// [`Refused::Message`] naming the failure kind and seat; [`Refused::NotNow`];
/// [`Refused::Table`] (token, table, storage).
pub fn post<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
    (seat, token): (u64, Option<&str>),
    post: Post,
    now: u64,
) -> Result<Board, Refused> {
    let mut late = false;
    let mut post = Some(post);
    let board = store::change(s, cache, id, &mut |b| {
        authorize(
            token,
            usize::try_from(seat).ok().and_then(|i| b.seats.get(i)),
        )?;
        if let Some(void) = expired(b, now) {
            late = true;
            return Ok(vec![void]);
        }
        let entry = match post.take() {
            Some(Post::Key(m)) => accept::key(b, seat, m, now)?,
            Some(Post::Shuffle(m)) => accept::shuffle(b, seat, *m, now)?,
            Some(Post::Shares(m)) => accept::shares(b, seat, m, now)?,
            Some(Post::Attestation(a)) => accept::attestation(b, seat, a, now)?,
            None => return Err(Error::Storage("retried".into()).into()),
        };
        Ok(vec![entry])
    })?;
    if late {
        return Err(Refused::NotNow(
            "the deadline passed: the table is void".into(),
        ));
    }
    Ok(board)
}

/// The operator (its token checked) moves the hand in play on.
///
/// # Errors
///
/// As [`control::advance`]; [`Refused::Table`] (token, table, storage).
pub fn advance<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
    token: Option<&str>,
    step: &Advance,
    now: u64,
) -> Result<Board, Refused> {
    let mut late = false;
    let board = store::change(s, cache, id, &mut |b| {
        authorize(token, Some(&b.operator))?;
        if let Some(void) = expired(b, now) {
            late = true;
            return Ok(vec![void]);
        }
        Ok(vec![control::advance(b, step, now)?])
    })?;
    if late {
        return Err(Refused::NotNow(
            "the deadline passed: the table is void".into(),
        ));
    }
    Ok(board)
}
