//! `fair deal --table T --format pbn`: a version 2 bridge table's boards as
//! PBN, for dealing machines and scoring programs. The verifiable record
//! stays the JSON transcript; the file says so in its notes.

use fairdeck::cards::Board;
use fairdeck::cards::pbn::{self, PbnBoard};
use fairdeck_fair::Record;

use crate::failure::usage;

/// The PBN text of a bridge table's record: one board per deal, the hands
/// of North, East, South and West (the manifest's seats, in that order).
///
/// # Errors
///
/// A usage error for a table of another game (PBN holds bridge deals only).
pub(super) fn write(record: &Record) -> anyhow::Result<String> {
    let t = &record.transcript;
    let m = &t.manifest;
    if m.game != "bridge" {
        return Err(usage(format!(
            "--format pbn writes bridge boards; this table plays {}: use --format json (the \
             transcript fair verify reads) or the text rendering",
            m.game
        )));
    }
    let boards = t
        .deals
        .iter()
        .map(|d| {
            let hand = |i: usize| d.piles.get(i).map(|p| p.cards.clone()).unwrap_or_default();
            let mut board =
                PbnBoard::new(Board::new(d.nonce)?, [hand(0), hand(1), hand(2), hand(3)]);
            board.event = m.table.clone();
            Ok(board)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut notes = vec![
        format!(
            "fair dealing version {}: table {}, boards {}-{}",
            record.version,
            super::quoted(&m.table),
            m.first,
            m.last
        ),
        format!("commitment: {}", t.commitment),
    ];
    if let Some(lock) = &record.lock {
        notes.push(format!("seat lock: {lock}"));
    }
    if let Some(p) = record.played {
        notes.push(format!("played: the first {p} board(s), in order"));
    }
    notes.push(
        "this file is for play; to verify, use the JSON transcript (fair deal --table … \
         --format json, then fair verify): fair verify --pbn reads version 1 sessions only"
            .into(),
    );
    Ok(pbn::write_with_notes(&boards, &notes))
}
