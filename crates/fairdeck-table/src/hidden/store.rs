//! Where hidden tables live: a row per table and its append-only log of
//! [`Entry`]s, in their own tables beside the version-2 ones (their own
//! schema version, `hidden_schema_version`, so the two schemas never share
//! a migration number). Both backends implement [`HiddenStore`]; each
//! change is one transaction under the table's row lock, durable before it
//! returns, exactly as for version-2 tables.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::board::Board;
use super::entry::Entry;
use super::refusal::Refused;
use crate::Error;

/// Decides, from the table's entries as stored from a given place on, what
/// to append (nothing, or entries as `(kind, JSON)`), or refuses (nothing
/// is written).
pub type HiddenDecide<'a> =
    dyn FnMut(&[String]) -> Result<Vec<(&'static str, String)>, Refused> + 'a;

/// The storage of hidden tables.
pub trait HiddenStore {
    /// Stores a new table with its first entry (`opened`, as JSON).
    ///
    /// # Errors
    ///
    /// [`Error::Exists`] if the id is taken; [`Error::Storage`].
    fn hidden_create(&mut self, id: &str, opened: &str) -> Result<(), Error>;

    /// Under the table's row lock, in one transaction: reads its entries
    /// from place `from` on, asks `decide`, appends what it returns after
    /// the last entry.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; `decide`'s refusal; [`Error::Storage`].
    fn hidden_change(
        &mut self,
        id: &str,
        from: u64,
        decide: &mut HiddenDecide<'_>,
    ) -> Result<(), Refused>;

    /// The table's entries from place `from` on, in order.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; [`Error::Storage`].
    fn hidden_entries(&mut self, id: &str, from: u64) -> Result<Vec<String>, Error>;
}

/// The schema of hidden tables: (version, SQLite, PostgreSQL).
pub(crate) const HIDDEN_MIGRATIONS: &[(i64, &str, &str)] = &[(
    1,
    "CREATE TABLE hidden_tables (id TEXT PRIMARY KEY, entries BIGINT NOT NULL);
CREATE TABLE hidden_log (
    table_id TEXT NOT NULL REFERENCES hidden_tables (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TRIGGER hidden_log_no_update BEFORE UPDATE ON hidden_log
BEGIN SELECT RAISE(ABORT, 'the hidden table log is append-only'); END;
CREATE TRIGGER hidden_log_no_delete BEFORE DELETE ON hidden_log
BEGIN SELECT RAISE(ABORT, 'the hidden table log is append-only'); END;",
    "CREATE TABLE hidden_tables (id TEXT PRIMARY KEY, entries BIGINT NOT NULL);
CREATE TABLE hidden_log (
    table_id TEXT NOT NULL REFERENCES hidden_tables (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE FUNCTION hidden_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the hidden table log is append-only'; END $$;
CREATE TRIGGER hidden_log_append_only BEFORE UPDATE OR DELETE ON hidden_log
FOR EACH ROW EXECUTE FUNCTION hidden_log_append_only();",
)];

/// The hidden schema's version table, created if missing.
pub(crate) const HIDDEN_VERSION_TABLE: &str =
    "CREATE TABLE IF NOT EXISTS hidden_schema_version (version BIGINT PRIMARY KEY)";

/// Reads stored entries.
///
/// # Errors
///
/// [`Error::Corrupt`] for an entry that does not read.
pub fn read_entries(rows: &[String]) -> Result<Vec<Entry>, Error> {
    rows.iter()
        .map(|r| serde_json::from_str(r).map_err(|e| Error::Corrupt(e.to_string())))
        .collect()
}

/// An entry as the log stores it.
pub(crate) fn stored(entry: &Entry) -> Result<(&'static str, String), Refused> {
    let json = serde_json::to_string(entry).map_err(|e| Error::Storage(e.to_string()))?;
    Ok((entry.kind(), json))
}

/// Boards already replayed, by table id: a read or change then replays only
/// the entries appended since (by this process or another sharing the
/// database; the log is append-only, so what was replayed stays true).
/// At most [`MAX_BOARDS`] are kept; beyond that the cache starts afresh.
///
/// A board replayed by this cache waits for its seats from no earlier than
/// the cache's `awake_since` (the service's start, [`BoardCache::awake_since`]):
/// a seat is never voided for time the service itself was down.
#[derive(Default)]
pub struct BoardCache {
    boards: Mutex<HashMap<String, Board>>,
    awake_since: u64,
}

/// The most boards a [`BoardCache`] keeps.
pub const MAX_BOARDS: usize = 64;

impl BoardCache {
    /// A cache for a service that started at `now` (seconds since the Unix
    /// epoch): the deadline of a table waiting for a seat is at least
    /// `now + step_seconds`, however long the service was down before.
    pub fn awake_since(now: u64) -> BoardCache {
        BoardCache {
            awake_since: now,
            ..BoardCache::default()
        }
    }

    fn take(&self, id: &str) -> Option<Board> {
        self.boards
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
    }

    fn put(&self, id: &str, board: Board) {
        let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        if boards.len() >= MAX_BOARDS {
            boards.clear();
        }
        boards.insert(id.to_string(), board);
    }
}

/// `base` (or a new board) brought up to date with `rows`, entries from
/// `base.entries` on.
fn brought_up(base: Option<Board>, rows: &[String], awake_since: u64) -> Result<Board, Error> {
    let entries = read_entries(rows)?;
    match base {
        None => Board::replay(&entries).and_then(|mut board| {
            board.since = board.since.max(awake_since);
            board.check_stored()?;
            Ok(board)
        }),
        Some(mut board) => {
            for e in &entries {
                board.apply(e)?;
            }
            Ok(board)
        }
    }
}

/// The table's board, replaying only what the cache has not seen.
///
/// # Errors
///
/// As [`HiddenStore::hidden_entries`], and [`Board::replay`].
pub fn load<S: HiddenStore + ?Sized>(
    store: &mut S,
    cache: &BoardCache,
    id: &str,
) -> Result<Board, Error> {
    let base = cache.take(id);
    let from = base.as_ref().map_or(0, |b| b.entries);
    let board = brought_up(base, &store.hidden_entries(id, from)?, cache.awake_since)?;
    cache.put(id, board.clone());
    Ok(board)
}

/// One change: brings the board up to date under the lock, and appends
/// the entries `decide` makes of it.
///
/// # Errors
///
/// As [`HiddenStore::hidden_change`].
pub fn change<S: HiddenStore + ?Sized>(
    store: &mut S,
    cache: &BoardCache,
    id: &str,
    decide: &mut dyn FnMut(&Board) -> Result<Vec<Entry>, Refused>,
) -> Result<Board, Refused> {
    let mut base = cache.take(id);
    let from = base.as_ref().map_or(0, |b| b.entries);
    let (mut after, mut refused) = (None, None);
    let changed = store.hidden_change(id, from, &mut |rows| {
        let mut board = brought_up(base.take(), rows, cache.awake_since)?;
        let entries = match decide(&board) {
            Ok(entries) => entries,
            Err(r) => {
                refused = Some(board); // as stored: still right to keep
                return Err(r);
            }
        };
        let mut out = Vec::with_capacity(entries.len());
        for e in &entries {
            board.apply(e)?;
            out.push(stored(e)?);
        }
        after = Some(board);
        Ok(out)
    });
    if let Err(r) = changed {
        if let Some(board) = refused {
            cache.put(id, board);
        }
        return Err(r);
    }
    let board =
        after.ok_or_else(|| Refused::Table(Error::Storage("the change did not run".into())))?;
    // Only a committed change reaches here: the cache never runs ahead of the log.
    cache.put(id, board.clone());
    Ok(board)
}
