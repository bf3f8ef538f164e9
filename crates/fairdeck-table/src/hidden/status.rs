//! The public status of a hidden table, from its [`Board`]: where play
//! stands and who owes what by when. The shapes are the client's
//! ([`fairdeck_client::wire`]), so the service and its seats read and
//! write the same types.

use fairdeck_client::wire::{SeatLink, SeatOwes, Status};

use super::board::Board;

/// A wire shape the service builds from a board.
pub trait BoardStatus {
    /// The shape for `board`. O(P · N).
    fn of(board: &Board) -> Self;
}

impl BoardStatus for Status {
    fn of(board: &Board) -> Status {
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
}

/// Seat `seat` of `board` (a seat of the table). O(1).
pub(super) fn seat_link(board: &Board, seat: u64) -> SeatLink {
    let m = board.table.manifest();
    let i = usize::try_from(seat).unwrap_or(usize::MAX);
    SeatLink {
        table: m.table.clone(),
        seat,
        name: m.seats.get(i).cloned().unwrap_or_default(),
        key_sent: board.record.keys.iter().any(|k| k.seat == seat),
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
