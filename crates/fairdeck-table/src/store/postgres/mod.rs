//! The shared store: PostgreSQL, for rooms that run several service
//! processes on one database. Each change locks its table's row
//! (`SELECT … FOR UPDATE`) for the length of its transaction, so two
//! processes serialize on one table and never deal it twice; changes to
//! different tables run side by side. A commit returns once PostgreSQL has
//! flushed it (`synchronous_commit`, on by default).

mod hidden;
mod password;
mod target;
mod tls;

use std::time::Duration;

use postgres::{Client, GenericClient};

use self::target::Target;
use super::{Decide, MIGRATIONS, Snapshot, Store, first, place, read_state, step};
use crate::Error;
use crate::error::one_line;
use crate::event::Event;
use crate::ledger::LogEntry;

pub(crate) use self::target::Settings;

/// A lock number that serializes migrations between processes.
const MIGRATION_LOCK: i64 = 0x6661_6972_6465_636b;

/// How long a check that the connection still answers may take.
const PING: Duration = Duration::from_secs(2);

/// A connection to a PostgreSQL database.
pub struct PostgresStore {
    /// `None` after the connection was lost, until the next call opens one.
    client: Option<Client>,
    target: Target,
}

/// How one call on the connection failed.
enum Failure {
    /// A refusal that is not the connection's: the table's rules, a missing
    /// table, a damaged record. Nothing was written.
    Refused(Error),
    /// The database failed before COMMIT was sent.
    Before(postgres::Error),
    /// COMMIT was sent and failed: if the connection was lost, whether the
    /// transaction committed is unknown.
    AtCommit(postgres::Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Refused(e)
    }
}

impl From<postgres::Error> for Failure {
    fn from(e: postgres::Error) -> Failure {
        Failure::Before(e)
    }
}

/// What a failed attempt leaves to do.
enum Attempt {
    /// The connection was lost before COMMIT was sent: retrying is safe.
    LostBefore(String),
    /// Give up with this error.
    Fail(Error),
}

impl PostgresStore {
    /// Connects and applies any missing migration. `params` is a
    /// `postgres://…` URL or libpq's key=value form (a host starting with
    /// `/` is a Unix socket directory), with libpq's `sslmode` (`disable`,
    /// `prefer`, `require`, `verify-ca`, `verify-full`) and `sslrootcert`
    /// (a PEM file of CA certificates). `require` encrypts but, without
    /// `sslrootcert`, does not check who answers; `verify-full` checks the
    /// certificate's CA and that it names the host. Without `sslmode`, a
    /// host on this machine gets `prefer` and any other host is refused.
    /// A string without a password takes it from `PGPASSWORD`, else from
    /// the password file (`passfile=FILE`, `PGPASSFILE` or `~/.pgpass`,
    /// libpq's `host:port:database:user:password` lines).
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] (`db`) for a string that does not read, an
    /// unsupported or missing sslmode, a root file that does not read, or a
    /// password file that others may read, is not a plain file, or is named
    /// and missing;
    /// [`Error::Unavailable`] if the server cannot be reached, refuses, or
    /// fails the TLS check; [`Error::Storage`] if a migration fails.
    pub fn connect(params: &str) -> Result<PostgresStore, Error> {
        let target = Target::open(params)?;
        let mut client = target.connect()?;
        migrate(&mut client)?;
        Ok(PostgresStore {
            client: Some(client),
            target,
        })
    }

    /// Runs `call`, one transaction, on the connection; if the connection
    /// was lost before the call sent COMMIT, runs it once more on a new
    /// connection.
    ///
    /// Why the retry is safe: PostgreSQL rolls back a transaction whose
    /// connection ends before COMMIT, so the first attempt wrote nothing,
    /// and the second starts from the table as stored (reloaded under its
    /// row lock), deciding its event again from that state. A loss during
    /// COMMIT is never retried (the commit may have been made: applying the
    /// change again could apply it twice); it answers [`Error::Unavailable`]
    /// saying so. There is one retry at most, so a database that stays down
    /// costs one failed connection attempt per call.
    fn run<T>(
        &mut self,
        mut call: impl FnMut(&mut Client) -> Result<T, Failure>,
    ) -> Result<T, Error> {
        match self.attempt(&mut call) {
            Ok(value) => Ok(value),
            Err(Attempt::LostBefore(_)) => self.attempt(&mut call).map_err(|e| match e {
                Attempt::LostBefore(why) => {
                    Error::Unavailable(format!("the connection was lost twice: {why}"))
                }
                Attempt::Fail(e) => e,
            }),
            Err(Attempt::Fail(e)) => Err(e),
        }
    }

    /// One attempt of `call`, on a new connection if the last one was lost.
    fn attempt<T>(
        &mut self,
        call: &mut impl FnMut(&mut Client) -> Result<T, Failure>,
    ) -> Result<T, Attempt> {
        let client = match &mut self.client {
            Some(client) if !client.is_closed() => client,
            slot => slot.insert(self.target.connect().map_err(Attempt::Fail)?),
        };
        let (e, committing) = match call(client) {
            Ok(value) => return Ok(value),
            Err(Failure::Refused(e)) => return Err(Attempt::Fail(e)),
            Err(Failure::Before(e)) => (e, false),
            Err(Failure::AtCommit(e)) => (e, true),
        };
        if !(e.is_closed() || client.is_closed() || client.is_valid(PING).is_err()) {
            return Err(Attempt::Fail(e.into()));
        }
        self.client = None;
        let why = one_line(&e);
        if committing {
            return Err(Attempt::Fail(Error::Unavailable(format!(
                "the connection was lost during the commit, so the change may or may not \
                 have been made (read the table again): {why}"
            ))));
        }
        Err(Attempt::LostBefore(why))
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

fn load_row(c: &mut impl GenericClient, table: &str, lock: bool) -> Result<Snapshot, Failure> {
    let sql = if lock {
        "SELECT state, seq, head FROM card_tables WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT state, seq, head FROM card_tables WHERE id = $1"
    };
    let row = c
        .query_opt(sql, &[&table])?
        .ok_or_else(|| Error::NotFound(table.into()))?;
    Ok(read_state(row.get::<_, &str>(0), row.get(1), row.get(2))?)
}

fn append(c: &mut impl GenericClient, table: &str, e: &LogEntry) -> Result<(), Failure> {
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
                return Err(Error::Exists(id.clone()).into());
            }
            append(&mut tx, &id, &entry)?;
            tx.commit().map_err(Failure::AtCommit)?;
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
            tx.commit().map_err(Failure::AtCommit)?;
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
