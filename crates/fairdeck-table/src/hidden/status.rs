//! The public status of a hidden table: where play stands and who owes
//! what by when. Everything on a hidden table is public — the messages
//! open no card without the seats' keys, which the service never holds —
//! so one view serves the seats, the operator and onlookers alike.

use fairdeck_fair::Manifest;
use fairdeck_hidden::ledger::Receipt;
use fairdeck_hidden::record::Missing;
use serde::{Deserialize, Serialize};

use super::board::Board;

/// `GET /api/hidden/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// The table id.
    pub table: String,
    /// The manifest (version 3).
    pub manifest: Manifest,
    /// Seconds a seat may take for each message the table waits for.
    pub step_seconds: u64,
    /// `keys` (waiting for keys), `playing`, `finished` or `void`.
    pub state: String,
    /// The hand in play (`null` once the table is over).
    pub hand: Option<u64>,
    /// The stage that waits for messages (`keys`, `shuffle`, `deal`, a
    /// street), or `null` when the table waits for the operator or is over.
    pub stage: Option<String>,
    /// What each seat still owes in that stage.
    pub owed: Vec<SeatOwes>,
    /// When the stage's window closes (Unix seconds): a seat that still
    /// owes a message then voids the table.
    pub deadline: Option<u64>,
    /// The streets of the hand in play the operator has opened.
    pub streets_open: usize,
    /// Whether the operator has opened the showdown of the hand in play.
    pub showdown: bool,
    /// What the operator may do next (`flop`, `showdown`, `end`, …), when
    /// nothing is owed.
    pub next: Vec<String>,
    /// The number of accepted changes (a new one changes the status).
    pub entries: u64,
    /// Version 3.1, in the answer to a seat's message: the room's receipt
    /// for each message it accepted (§18). The seat keeps them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub receipts: Vec<Receipt>,
}

/// One seat's missing messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOwes {
    /// The seat.
    pub seat: u64,
    /// What it has not sent.
    pub missing: Vec<Missing>,
}

impl Status {
    /// The status of `board`. O(P · N).
    pub fn of(board: &Board) -> Status {
        let due = board.due();
        let m = board.table.manifest();
        let state = match (board.void(), board.finished(), board.keys.is_some()) {
            (true, _, _) => "void",
            (_, true, _) => "finished",
            (_, _, false) => "keys",
            _ => "playing",
        };
        Status {
            table: m.table.clone(),
            manifest: m.clone(),
            step_seconds: board.step_seconds,
            state: state.into(),
            hand: (!board.finished()).then_some(board.hand),
            stage: due.as_ref().map(|d| d.stage.clone()),
            owed: due.as_ref().map_or(Vec::new(), |d| {
                let owed = d.owed.iter().cloned();
                owed.map(|(seat, missing)| SeatOwes { seat, missing })
                    .collect()
            }),
            deadline: board.deadline(),
            streets_open: board.streets_open,
            showdown: board.showdown,
            next: next_steps(board, due.is_some()),
            entries: board.entries,
            receipts: Vec::new(),
        }
    }

    /// What seat `seat` owes now, if anything.
    pub fn owed_by(&self, seat: u64) -> Option<&[Missing]> {
        let owes = self.owed.iter().find(|o| o.seat == seat)?;
        Some(&owes.missing)
    }
}

/// `GET /api/hidden/{id}/seats/{seat}` with the seat's token: the link is
/// good. A seat page asks this before it makes a key, so a bad link stops
/// it with nothing made or kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLink {
    /// The table id.
    pub table: String,
    /// The seat.
    pub seat: u64,
    /// The seat's name in the manifest.
    pub name: String,
    /// Whether the table holds the seat's key message.
    pub key_sent: bool,
}

impl SeatLink {
    /// Seat `seat` of `board` (a seat of the table). O(1).
    pub fn of(board: &Board, seat: u64) -> SeatLink {
        let m = board.table.manifest();
        let i = usize::try_from(seat).unwrap_or(usize::MAX);
        SeatLink {
            table: m.table.clone(),
            seat,
            name: m.seats.get(i).cloned().unwrap_or_default(),
            key_sent: board.record.keys.iter().any(|k| k.seat == seat),
        }
    }
}

fn next_steps(board: &Board, owed: bool) -> Vec<String> {
    if owed || board.finished() || board.keys.is_none() {
        return Vec::new();
    }
    let mut next = Vec::new();
    if !board.showdown {
        let streets = board.table.layout().streets();
        next.extend(streets.get(board.streets_open).map(|s| s.name.clone()));
        next.push("showdown".into());
    }
    next.push("end".into());
    next
}
