//! The operator's side of a hidden table and its clock: opening the table
//! (tokens drawn once), moving a hand on to its next street, its showdown
//! or its end, and voiding the table when a seat lets a deadline pass.

use fairdeck_fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Void;
use fairdeck_hidden::wire::Hex32;
use rand_core::TryCryptoRng;
use serde::{Deserialize, Serialize};

use super::board::Board;
use super::entry::Entry;
use super::refusal::Refused;
use crate::Error;
use crate::invitation::{MAX_WINDOW, table_id_ok};
use crate::token::Token;

/// `POST /api/hidden`: a version-3 table to open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHiddenTable {
    /// The manifest, `version: 3`.
    pub manifest: Manifest,
    /// Seconds a seat may take for each message the table waits for
    /// (1 to [`MAX_WINDOW`]); the clock restarts at every accepted change.
    pub step_seconds: u64,
}

/// The answer to opening a hidden table: its tokens, shown once.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HiddenInvitation {
    /// The table id.
    pub table: String,
    /// The operator's token (moves hands on).
    pub operator: String,
    /// One token per seat, in seat order.
    pub seats: Vec<String>,
    /// One link per seat for `fairdeck hidden seat --link`, its token after `#`.
    pub links: Vec<String>,
}

impl NewHiddenTable {
    /// Checks the manifest (version 3, every rule of §4), the table id and the window.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] or [`Error::Invalid`].
    pub fn validate(&self) -> Result<Table, Error> {
        let table =
            Table::new(self.manifest.clone()).map_err(|e| Error::Manifest(e.to_string()))?;
        if !table_id_ok(&self.manifest.table) {
            let why = format!(
                "{:?}: 1 to 64 letters, digits, '_', '.' or '-', not starting with '.' or '-'",
                self.manifest.table
            );
            return Err(Error::invalid("table", why));
        }
        if !(1..=MAX_WINDOW).contains(&self.step_seconds) {
            let why = format!(
                "must be 1 to {MAX_WINDOW} seconds, got {}",
                self.step_seconds
            );
            return Err(Error::invalid("step_seconds", why));
        }
        Ok(table)
    }

    /// The table's first log entry and its invitation, tokens drawn from
    /// `rng`; `base` is the service's address as the client named it
    /// (`http://127.0.0.1:8090`), for the links.
    ///
    /// # Errors
    ///
    /// As [`NewHiddenTable::validate`]; [`Error::Entropy`].
    pub fn open<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        base: &str,
        at: u64,
    ) -> Result<(Entry, HiddenInvitation), Error> {
        self.validate()?;
        let operator = Token::draw(rng)?;
        let seats = (0..self.manifest.seats.len())
            .map(|_| Token::draw(rng))
            .collect::<Result<Vec<_>, _>>()?;
        let id = &self.manifest.table;
        let links = seats
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "{base}/table/hidden.html#table={id}&seat={i}&token={}",
                    t.as_str()
                )
            })
            .collect();
        let room = room_key(rng)?;
        let entry = Entry::Opened {
            manifest: self.manifest.clone(),
            operator: operator.hash(),
            seats: seats.iter().map(Token::hash).collect(),
            step_seconds: self.step_seconds,
            room: Some(Hex32(*room.to_bytes())),
            at,
        };
        let invitation = HiddenInvitation {
            table: id.clone(),
            operator: operator.as_str().to_string(),
            seats: seats.iter().map(|t| t.as_str().to_string()).collect(),
            links,
        };
        Ok((entry, invitation))
    }
}

/// The table's room signing key (§17), from 64 bytes of `rng`.
fn room_key<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<SecretKey, Error> {
    let mut bytes = zeroize::Zeroizing::new([0u8; 64]);
    rng.try_fill_bytes(&mut bytes[..])
        .map_err(|e| Error::Entropy(e.to_string()))?;
    SecretKey::from_uniform_bytes(&bytes).ok_or_else(|| Error::Entropy("a zero key".into()))
}

/// `POST /api/hidden/{id}/advance`: the operator moves hand `hand` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advance {
    /// The hand in play (a stale request for another hand is refused).
    pub hand: u64,
    /// The game's next street (`flop`, `turn`, `river`; scopa `table`),
    /// `showdown`, or `end` (the next hand begins).
    pub to: String,
}

/// The operator's step, once every message the hand waits for is in.
pub fn advance(board: &Board, step: &Advance, at: u64) -> Result<Entry, Refused> {
    let not_now = |why: String| Err(Refused::NotNow(why));
    if board.finished() {
        return not_now("the table is over".into());
    }
    if step.hand != board.hand {
        return not_now(format!(
            "hand {} is in play, not hand {}",
            board.hand, step.hand
        ));
    }
    if let Some(due) = board.due() {
        return not_now(format!("the {} stage still waits for messages", due.stage));
    }
    let layout = board.table.layout();
    let next = (!board.showdown)
        .then(|| layout.streets().get(board.streets_open))
        .flatten()
        .map(|s| s.name.as_str());
    let allowed = match step.to.as_str() {
        "end" => true,
        "showdown" => !board.showdown,
        name => Some(name) == next,
    };
    if !allowed {
        let why = match next {
            Some(n) => format!("the next step is {n}, showdown or end, not {:?}", step.to),
            None if !board.showdown => {
                format!("the next step is showdown or end, not {:?}", step.to)
            }
            None => format!("the next step is end, not {:?}", step.to),
        };
        return Err(Refused::Table(Error::invalid("to", why)));
    }
    Ok(Entry::Advance {
        hand: step.hand,
        to: step.to.clone(),
        at,
    })
}

/// The void entry when the deadline has passed at `now` with a seat's
/// message missing (§14 "Void"): the stage, its lowest stalled seat, and
/// exactly what that seat did not send. `None` otherwise.
pub fn expired(board: &Board, now: u64) -> Option<Entry> {
    let deadline = board.deadline()?;
    if now <= deadline {
        return None;
    }
    let due = board.due()?;
    let (seat, missing) = due.owed.first()?.clone();
    let void = Void {
        stage: due.stage.clone(),
        seat,
        missing,
    };
    Some(Entry::Void {
        hand: due.hand,
        void,
        at: now,
    })
}
