//! The embedded store: one SQLite file in WAL mode with `synchronous=FULL`,
//! so every committed change is on disk before the call returns.

mod hidden;

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{Decide, MIGRATIONS, Snapshot, Store, first, place, read_state, step};
use crate::Error;
use crate::event::Event;
use crate::ledger::LogEntry;

/// A SQLite database file. Several processes may open the same file: each
/// change takes SQLite's write lock first (`BEGIN IMMEDIATE`), which is the
/// one lock per table here (it covers every table of the file).
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (or creates) the file and applies any missing migration. A new
    /// file is created readable by its owner only (mode 0600 on Unix; SQLite
    /// gives its `-wal` and `-shm` files the same mode): it holds the rooms'
    /// secrets until each table closes.
    ///
    /// # Errors
    ///
    /// [`Error::Storage`] if the file cannot be opened or put in WAL mode.
    pub fn open(path: &Path) -> Result<SqliteStore, Error> {
        create_private(path)?;
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(30))?;
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::Storage(format!("journal mode {mode}, not WAL")));
        }
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(SqliteStore { conn })
    }
}

impl SqliteStore {
    /// The connection's durability settings as SQLite reports them, e.g.
    /// `journal_mode=wal synchronous=2` (2 is FULL: a commit is synced to
    /// disk before it returns).
    ///
    /// # Errors
    ///
    /// [`Error::Storage`].
    pub fn durability(&self) -> Result<String, Error> {
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        let sync: i64 = self
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))?;
        Ok(format!("journal_mode={mode} synchronous={sync}"))
    }
}

/// Creates `path` empty with mode 0600 unless it exists.
fn create_private(path: &Path) -> Result<(), Error> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(Error::Storage(format!(
            "cannot create {}: {e}",
            path.display()
        ))),
    }
}

fn migrate(conn: &mut Connection) -> Result<(), Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY)")?;
    let have: i64 = tx.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_version",
        [],
        |r| r.get(0),
    )?;
    for m in MIGRATIONS.iter().filter(|m| m.version > have) {
        tx.execute_batch(m.sqlite)?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [m.version],
        )?;
    }
    hidden::migrate(&tx)?;
    tx.commit()?;
    Ok(())
}

fn load_row(conn: &Connection, table: &str) -> Result<Snapshot, Error> {
    let row = conn
        .query_row(
            "SELECT state, seq, head FROM card_tables WHERE id = ?1",
            [table],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            },
        )
        .optional()?;
    let (json, seq, head) = row.ok_or_else(|| Error::NotFound(table.into()))?;
    read_state(&json, seq, head)
}

fn append(conn: &Connection, table: &str, e: &LogEntry) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO table_log (table_id, seq, kind, event, prev, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![table, place(e.seq)?, e.kind, e.event, e.prev, e.hash],
    )?;
    Ok(())
}

impl Store for SqliteStore {
    fn create(&mut self, created: &Event) -> Result<Snapshot, Error> {
        let (snapshot, entry, json) = first(created)?;
        let id = snapshot.state.id().to_string();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let inserted = tx.execute(
            "INSERT INTO card_tables (id, seq, head, state) VALUES (?1, 0, ?2, ?3) ON CONFLICT (id) DO NOTHING",
            params![id, entry.hash, json],
        )?;
        if inserted == 0 {
            return Err(Error::Exists(id));
        }
        append(&tx, &id, &entry)?;
        tx.commit()?;
        Ok(snapshot)
    }

    fn change(&mut self, table: &str, decide: &mut Decide<'_>) -> Result<Snapshot, Error> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (snapshot, entry, json) = step(load_row(&tx, table)?, decide)?;
        append(&tx, table, &entry)?;
        tx.execute(
            "UPDATE card_tables SET seq = ?2, head = ?3, state = ?4 WHERE id = ?1",
            params![table, place(entry.seq)?, entry.hash, json],
        )?;
        tx.commit()?;
        Ok(snapshot)
    }

    fn load(&mut self, table: &str) -> Result<Snapshot, Error> {
        load_row(&self.conn, table)
    }

    fn log(&mut self, table: &str) -> Result<Vec<LogEntry>, Error> {
        let mut stmt = self.conn.prepare(
            "SELECT seq, kind, event, prev, hash FROM table_log WHERE table_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([table], |r| {
            Ok(LogEntry {
                seq: r.get::<_, i64>(0)? as u64,
                kind: r.get(1)?,
                event: r.get(2)?,
                prev: r.get(3)?,
                hash: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn tables(&mut self) -> Result<Vec<String>, Error> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM card_tables ORDER BY id")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
