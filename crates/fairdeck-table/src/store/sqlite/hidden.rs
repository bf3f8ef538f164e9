//! Hidden (version-3) tables in the SQLite file: [`HiddenStore`] over the
//! same connection, each change one `BEGIN IMMEDIATE` transaction.

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::SqliteStore;
use crate::Error;
use crate::hidden::store::{HIDDEN_MIGRATIONS, HIDDEN_VERSION_TABLE};
use crate::hidden::{HiddenDecide, HiddenStore, Refused};
use crate::store::place;

/// Applies the hidden schema's missing migrations inside `tx`.
pub(super) fn migrate(tx: &Transaction<'_>) -> Result<(), Error> {
    tx.execute_batch(HIDDEN_VERSION_TABLE)?;
    let have: i64 = tx.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM hidden_schema_version",
        [],
        |r| r.get(0),
    )?;
    for (version, sql, _) in HIDDEN_MIGRATIONS.iter().filter(|m| m.0 > have) {
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO hidden_schema_version (version) VALUES (?1)",
            [version],
        )?;
    }
    Ok(())
}

fn entries(conn: &Connection, id: &str, from: u64) -> Result<Vec<String>, Error> {
    let count: Option<i64> = conn
        .query_row(
            "SELECT entries FROM hidden_tables WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    count.ok_or_else(|| Error::NotFound(id.into()))?;
    let mut stmt = conn
        .prepare("SELECT entry FROM hidden_log WHERE table_id = ?1 AND seq >= ?2 ORDER BY seq")?;
    let rows = stmt.query_map(params![id, place(from)?], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl HiddenStore for SqliteStore {
    fn hidden_create(&mut self, id: &str, opened: &str) -> Result<(), Error> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let inserted = tx.execute(
            "INSERT INTO hidden_tables (id, entries) VALUES (?1, 1) ON CONFLICT (id) DO NOTHING",
            [id],
        )?;
        if inserted == 0 {
            return Err(Error::Exists(id.into()));
        }
        tx.execute(
            "INSERT INTO hidden_log (table_id, seq, kind, entry) VALUES (?1, 0, 'opened', ?2)",
            params![id, opened],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn hidden_change(
        &mut self,
        id: &str,
        from: u64,
        decide: &mut HiddenDecide<'_>,
    ) -> Result<(), Refused> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(Error::from)?;
        let rows = entries(&tx, id, from)?;
        let new = decide(&rows)?;
        if new.is_empty() {
            return Ok(());
        }
        let mut seq = from + rows.len() as u64;
        for (kind, entry) in &new {
            tx.execute(
                "INSERT INTO hidden_log (table_id, seq, kind, entry) VALUES (?1, ?2, ?3, ?4)",
                params![id, place(seq)?, kind, entry],
            )
            .map_err(Error::from)?;
            seq += 1;
        }
        tx.execute(
            "UPDATE hidden_tables SET entries = ?2 WHERE id = ?1",
            params![id, place(seq)?],
        )
        .map_err(Error::from)?;
        tx.commit().map_err(Error::from)?;
        Ok(())
    }

    fn hidden_entries(&mut self, id: &str, from: u64) -> Result<Vec<String>, Error> {
        entries(&self.conn, id, from)
    }
}
