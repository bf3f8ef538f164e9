//! The shared store: PostgreSQL, for rooms that run several service
//! processes on one database. Each change locks its table's row
//! (`SELECT … FOR UPDATE`) for the length of its transaction, so two
//! processes serialize on one table and never deal it twice; changes to
//! different tables run side by side. A commit returns once PostgreSQL has
//! flushed it (`synchronous_commit`, on by default).

mod hidden;

use std::time::Duration;

use postgres::{Client, GenericClient, NoTls};

use super::{Decide, MIGRATIONS, Snapshot, Store, first, place, read_state, step};
use crate::Error;
use crate::event::Event;
use crate::ledger::LogEntry;

/// A lock number that serializes migrations between processes.
const MIGRATION_LOCK: i64 = 0x6661_6972_6465_636b;

/// A connection to a PostgreSQL database.
pub struct PostgresStore {
    client: Client,
    params: String,
}

impl PostgresStore {
    /// Connects (`postgres://…` URL or `host=/run/dir dbname=…` key-value
    /// form; a host starting with `/` is a Unix socket directory) and applies
    /// any missing migration.
    ///
    /// # Errors
    ///
    /// [`Error::Storage`] if the server cannot be reached or refuses.
    pub fn connect(params: &str) -> Result<PostgresStore, Error> {
        let mut client = Client::connect(params, NoTls)?;
        migrate(&mut client)?;
        let params = params.to_string();
        Ok(PostgresStore { client, params })
    }

    /// Runs one call on the connection. If the call fails and the
    /// connection is lost (a server restart, an idle timeout), a new one is
    /// opened for the next call. A change cut off by the loss was one
    /// transaction, so it was made wholly or not at all; its caller got an
    /// error.
    fn run<T>(&mut self, call: impl FnOnce(&mut Client) -> Result<T, Error>) -> Result<T, Error> {
        if self.client.is_closed() {
            self.client = Client::connect(&self.params, NoTls)?;
        }
        let result = call(&mut self.client);
        if matches!(result, Err(Error::Storage(_)))
            && self.client.is_valid(Duration::from_secs(5)).is_err()
            && let Ok(client) = Client::connect(&self.params, NoTls)
        {
            self.client = client;
        }
        result
    }
}

fn migrate(client: &mut Client) -> Result<(), Error> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY)")?;
    let have: i64 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])?
        .get(0);
    for m in MIGRATIONS.iter().filter(|m| m.version > have) {
        tx.batch_execute(m.postgres)?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&m.version],
        )?;
    }
    hidden::migrate(&mut tx)?;
    tx.commit()?;
    Ok(())
}

fn load_row(c: &mut impl GenericClient, table: &str, lock: bool) -> Result<Snapshot, Error> {
    let sql = if lock {
        "SELECT state, seq, head FROM card_tables WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT state, seq, head FROM card_tables WHERE id = $1"
    };
    let row = c
        .query_opt(sql, &[&table])?
        .ok_or_else(|| Error::NotFound(table.into()))?;
    read_state(row.get::<_, &str>(0), row.get(1), row.get(2))
}

fn append(c: &mut impl GenericClient, table: &str, e: &LogEntry) -> Result<(), Error> {
    c.execute(
        "INSERT INTO table_log (table_id, seq, kind, event, prev, hash) VALUES ($1, $2, $3, $4, $5, $6)",
        &[&table, &place(e.seq)?, &e.kind, &e.event, &e.prev, &e.hash],
    )?;
    Ok(())
}

impl Store for PostgresStore {
    fn create(&mut self, created: &Event) -> Result<Snapshot, Error> {
        let (snapshot, entry, json) = first(created)?;
        let id = snapshot.state.id().to_string();
        self.run(|client| {
            let mut tx = client.transaction()?;
            let inserted = tx.execute(
                "INSERT INTO card_tables (id, seq, head, state) VALUES ($1, 0, $2, $3) ON CONFLICT (id) DO NOTHING",
                &[&id, &entry.hash, &json],
            )?;
            if inserted == 0 {
                return Err(Error::Exists(id.clone()));
            }
            append(&mut tx, &id, &entry)?;
            tx.commit()?;
            Ok(())
        })?;
        Ok(snapshot)
    }

    fn change(&mut self, table: &str, decide: &mut Decide<'_>) -> Result<Snapshot, Error> {
        self.run(|client| {
            let mut tx = client.transaction()?;
            let (snapshot, entry, json) = step(load_row(&mut tx, table, true)?, decide)?;
            append(&mut tx, table, &entry)?;
            tx.execute(
                "UPDATE card_tables SET seq = $2, head = $3, state = $4 WHERE id = $1",
                &[&table, &place(entry.seq)?, &entry.hash, &json],
            )?;
            tx.commit()?;
            Ok(snapshot)
        })
    }

    fn load(&mut self, table: &str) -> Result<Snapshot, Error> {
        self.run(|client| load_row(client, table, false))
    }

    fn log(&mut self, table: &str) -> Result<Vec<LogEntry>, Error> {
        let rows = self.run(|client| {
            Ok(client.query(
                "SELECT seq, kind, event, prev, hash FROM table_log WHERE table_id = $1 ORDER BY seq",
                &[&table],
            )?)
        })?;
        Ok(rows
            .iter()
            .map(|r| LogEntry {
                seq: r.get::<_, i64>(0) as u64,
                kind: r.get(1),
                event: r.get(2),
                prev: r.get(3),
                hash: r.get(4),
            })
            .collect())
    }

    fn tables(&mut self) -> Result<Vec<String>, Error> {
        let rows =
            self.run(|client| Ok(client.query("SELECT id FROM card_tables ORDER BY id", &[])?))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}
