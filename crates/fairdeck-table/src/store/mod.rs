//! Storage that loses nothing: a table's snapshot row and its append-only
//! log, changed together in one transaction per state change, under a lock
//! on the table's row. Two backends share one schema and one list of
//! versioned migrations: [`SqliteStore`] (embedded, the default) and
//! [`PostgresStore`] (several service processes on one database).

mod location;
mod postgres;
mod sqlite;

pub use self::location::Location;
pub use self::postgres::PostgresStore;
pub use self::sqlite::SqliteStore;

use crate::Error;
use crate::event::Event;
use crate::ledger::{self, Audit, GENESIS, LogEntry};
use crate::state::TableState;

/// A table as stored: its state, and the place and hash of its last log entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The current state.
    pub state: TableState,
    /// The last log entry's place.
    pub seq: u64,
    /// The last log entry's hash.
    pub head: String,
}

/// Decides the event of one state change from the table's current state
/// (checking the caller's token first), or refuses. A store may call it
/// more than once for one change (a retry after a lost connection, from the
/// state as stored then), so it must give the same answer for the same
/// state and not use anything up.
pub type Decide<'a> = dyn FnMut(&TableState) -> Result<Event, Error> + 'a;

/// Where tables live. Every method is one transaction; a method that
/// returns `Ok` has made its change durable (committed and synced) first.
/// A store over a network may also answer [`Error::Unavailable`] from any
/// method. Every store keeps hidden (version-3) tables too.
pub trait Store: crate::hidden::HiddenStore {
    /// Stores a new table from its `Created` event (log entry 0).
    ///
    /// # Errors
    ///
    /// [`Error::Exists`] if the id is taken; [`Error::Corrupt`] if the event
    /// does not open a table; [`Error::Storage`].
    fn create(&mut self, created: &Event) -> Result<Snapshot, Error>;

    /// One state change under the table's row lock: loads the table, asks
    /// `decide` for the event, applies it (refusing what the phase does not
    /// allow), appends it to the log and stores the new state, all in one
    /// transaction. Two callers on one table are serialized, so each sees
    /// the other's change (no table is dealt twice).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; `decide`'s or the state machine's refusal
    /// (nothing is written); [`Error::Storage`]; [`Error::Unavailable`].
    fn change(&mut self, table: &str, decide: &mut Decide<'_>) -> Result<Snapshot, Error>;

    /// The table as stored.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; [`Error::Storage`]; [`Error::Corrupt`] for a
    /// snapshot that does not read.
    fn load(&mut self, table: &str) -> Result<Snapshot, Error>;

    /// The table's whole log, in order.
    ///
    /// # Errors
    ///
    /// [`Error::Storage`].
    fn log(&mut self, table: &str) -> Result<Vec<LogEntry>, Error>;

    /// Every table's id, in order.
    ///
    /// # Errors
    ///
    /// [`Error::Storage`].
    fn tables(&mut self) -> Result<Vec<String>, Error>;

    /// Audits one table: [`ledger::audit`] of its log, and that the stored
    /// snapshot is exactly what the log replays to, with the same head.
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] naming what does not check.
    fn audit(&mut self, table: &str) -> Result<Audit, Error> {
        let snapshot = self.load(table)?;
        audited(&snapshot, &self.log(table)?)
    }
}

/// Audits a table from its snapshot and its log as read together (the
/// reading needs the store, this check does not, so a service runs it
/// outside its lock): [`ledger::audit`] of the log, and that the snapshot is
/// exactly what the log replays to, with the same head.
/// O(entries + deals · deck).
///
/// # Errors
///
/// [`Error::Corrupt`] naming what does not check.
pub fn audited(snapshot: &Snapshot, log: &[LogEntry]) -> Result<Audit, Error> {
    let audit = ledger::audit(log)?;
    if audit.head != snapshot.head || audit.entries as u64 != snapshot.seq + 1 {
        return Err(Error::Corrupt(
            "the stored head is not the log's last entry: entries were dropped".into(),
        ));
    }
    if audit.state != snapshot.state {
        return Err(Error::Corrupt(
            "the stored state is not what the log replays to".into(),
        ));
    }
    Ok(audit)
}

/// A schema change, in each backend's dialect.
pub(crate) struct Migration {
    pub(crate) version: i64,
    pub(crate) sqlite: &'static str,
    pub(crate) postgres: &'static str,
}

/// The tables, then the triggers that make the log append-only.
const SCHEMA: &str = "
CREATE TABLE card_tables (
    id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    head TEXT NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE table_log (
    table_id TEXT NOT NULL REFERENCES card_tables (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    event TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);";

/// Every migration, in order; a store applies those it has not.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sqlite: SCHEMA,
        postgres: SCHEMA,
    },
    Migration {
        version: 2,
        sqlite: "
CREATE TRIGGER table_log_no_update BEFORE UPDATE ON table_log
BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
CREATE TRIGGER table_log_no_delete BEFORE DELETE ON table_log
BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;",
        postgres: "
CREATE FUNCTION table_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the table log is append-only'; END $$;
CREATE TRIGGER table_log_append_only BEFORE UPDATE OR DELETE ON table_log
FOR EACH ROW EXECUTE FUNCTION table_log_append_only();",
    },
];

/// The schema version this crate writes.
pub const SCHEMA_VERSION: i64 = 2;

/// The first snapshot and log entry of a new table, and the state as JSON.
pub(crate) fn first(created: &Event) -> Result<(Snapshot, LogEntry, String), Error> {
    let state = TableState::start(created)?;
    let entry = ledger::entry(GENESIS, 0, created)?;
    finish(state, entry)
}

/// The next snapshot and log entry after one decided change.
pub(crate) fn step(
    current: Snapshot,
    decide: &mut Decide<'_>,
) -> Result<(Snapshot, LogEntry, String), Error> {
    let event = decide(&current.state)?;
    let mut state = current.state;
    state.apply(&event)?;
    let entry = ledger::entry(&current.head, current.seq + 1, &event)?;
    finish(state, entry)
}

fn finish(state: TableState, entry: LogEntry) -> Result<(Snapshot, LogEntry, String), Error> {
    let json = serde_json::to_string(&state).map_err(|e| Error::Storage(e.to_string()))?;
    let snapshot = Snapshot {
        state,
        seq: entry.seq,
        head: entry.hash.clone(),
    };
    Ok((snapshot, entry, json))
}

/// Reads a stored state.
pub(crate) fn read_state(json: &str, seq: i64, head: String) -> Result<Snapshot, Error> {
    let mut state: TableState =
        serde_json::from_str(json).map_err(|e| Error::Corrupt(e.to_string()))?;
    state.fill_lock()?;
    let seq = u64::try_from(seq).map_err(|_| Error::Corrupt("a negative place".into()))?;
    Ok(Snapshot { state, seq, head })
}

/// A log place as the databases store it (BIGINT).
pub(crate) fn place(seq: u64) -> Result<i64, Error> {
    i64::try_from(seq).map_err(|_| Error::Corrupt("a log place beyond 2^63".into()))
}
