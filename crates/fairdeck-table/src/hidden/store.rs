//! Where hidden tables live: a row per table and its append-only log of
//! [`Entry`]s, in their own tables beside the version-2 ones (their own
//! schema version, `hidden_schema_version`, so the two schemas never share
//! a migration number). Both backends implement [`HiddenStore`]; each
//! change is one transaction under the table's row lock, durable before it
//! returns, exactly as for version-2 tables.

use super::board::Board;
use super::entry::Entry;
use super::refusal::Refused;
use crate::Error;

/// Decides, from the table's entries as stored, what to append (nothing,
/// or entries as `(kind, JSON)`), or refuses (nothing is written).
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

    /// Under the table's row lock, in one transaction: reads its entries,
    /// asks `decide`, appends what it returns.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; `decide`'s refusal; [`Error::Storage`].
    fn hidden_change(&mut self, id: &str, decide: &mut HiddenDecide<'_>) -> Result<(), Refused>;

    /// The table's entries, in order.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`]; [`Error::Storage`].
    fn hidden_entries(&mut self, id: &str) -> Result<Vec<String>, Error>;
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

/// The table's board.
///
/// # Errors
///
/// As [`HiddenStore::hidden_entries`], and [`Board::replay`].
pub fn load<S: HiddenStore + ?Sized>(store: &mut S, id: &str) -> Result<Board, Error> {
    Board::replay(&read_entries(&store.hidden_entries(id)?)?)
}

/// One change: replays the board under the lock, and appends the entries
/// `decide` makes of it.
///
/// # Errors
///
/// As [`HiddenStore::hidden_change`].
pub fn change<S: HiddenStore + ?Sized>(
    store: &mut S,
    id: &str,
    decide: &mut dyn FnMut(&Board) -> Result<Vec<Entry>, Refused>,
) -> Result<Board, Refused> {
    let mut after = None;
    store.hidden_change(id, &mut |rows| {
        let mut board = Board::replay(&read_entries(rows)?)?;
        let entries = decide(&board)?;
        let mut out = Vec::with_capacity(entries.len());
        for e in &entries {
            board.apply(e)?;
            out.push(stored(e)?);
        }
        after = Some(board);
        Ok(out)
    })?;
    after.ok_or_else(|| Refused::Table(Error::Storage("the change did not run".into())))
}
