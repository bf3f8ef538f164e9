//! Hidden (version-3) tables in PostgreSQL: [`HiddenStore`] over the same
//! connection, each change one transaction holding the table's row lock
//! (`SELECT … FOR UPDATE`), so service processes sharing the database
//! accept one message of a table at a time.

use postgres::{GenericClient, Transaction};

use super::{Failure, PostgresStore};
use crate::Error;
use crate::hidden::store::{HIDDEN_MIGRATIONS, HIDDEN_VERSION_TABLE};
use crate::hidden::{HiddenDecide, HiddenStore, Refused};
use crate::store::place;

/// Applies the hidden schema's missing migrations inside `tx` (which holds
/// the migration lock).
pub(super) fn migrate(tx: &mut Transaction<'_>) -> Result<(), Error> {
    tx.batch_execute(HIDDEN_VERSION_TABLE)?;
    let have: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM hidden_schema_version",
            &[],
        )?
        .get(0);
    for (version, _, sql) in HIDDEN_MIGRATIONS.iter().filter(|m| m.0 > have) {
        tx.batch_execute(sql)?;
        tx.execute(
            "INSERT INTO hidden_schema_version (version) VALUES ($1)",
            &[version],
        )?;
    }
    Ok(())
}

fn entries(
    c: &mut impl GenericClient,
    id: &str,
    from: u64,
    lock: bool,
) -> Result<Vec<String>, Failure> {
    let sql = match lock {
        true => "SELECT entries FROM hidden_tables WHERE id = $1 FOR UPDATE",
        false => "SELECT entries FROM hidden_tables WHERE id = $1",
    };
    c.query_opt(sql, &[&id])?
        .ok_or_else(|| Failure::Refused(Error::NotFound(id.into())))?;
    let rows = c.query(
        "SELECT entry FROM hidden_log WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
        &[&id, &place(from)?],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

impl HiddenStore for PostgresStore {
    fn hidden_create(&mut self, id: &str, opened: &str) -> Result<(), Error> {
        self.run(|client| {
            let mut tx = client.transaction()?;
            let inserted = tx.execute(
                "INSERT INTO hidden_tables (id, entries) VALUES ($1, 1) ON CONFLICT (id) DO NOTHING",
                &[&id],
            )?;
            if inserted == 0 {
                return Err(Error::Exists(id.into()).into());
            }
            tx.execute(
                "INSERT INTO hidden_log (table_id, seq, kind, entry) VALUES ($1, 0, 'opened', $2)",
                &[&id, &opened],
            )?;
            tx.commit().map_err(Failure::AtCommit)?;
            Ok(())
        })
    }

    fn hidden_change(
        &mut self,
        id: &str,
        from: u64,
        decide: &mut HiddenDecide<'_>,
    ) -> Result<(), Refused> {
        let mut refused = None;
        self.run(|client| {
            // Decided again from the stored rows if a lost connection is retried.
            refused = None;
            let mut tx = client.transaction()?;
            let rows = entries(&mut tx, id, from, true)?;
            let new = match decide(&rows) {
                Ok(new) => new,
                Err(Refused::Table(e)) => return Err(e.into()),
                Err(r) => {
                    refused = Some(r);
                    return Ok(());
                }
            };
            let mut seq = from + rows.len() as u64;
            for (kind, entry) in &new {
                tx.execute(
                    "INSERT INTO hidden_log (table_id, seq, kind, entry) VALUES ($1, $2, $3, $4)",
                    &[&id, &place(seq)?, kind, entry],
                )?;
                seq += 1;
            }
            tx.execute(
                "UPDATE hidden_tables SET entries = $2 WHERE id = $1",
                &[&id, &place(seq)?],
            )?;
            tx.commit().map_err(Failure::AtCommit)?;
            Ok(())
        })?;
        refused.map_or(Ok(()), Err)
    }

    fn hidden_entries(&mut self, id: &str, from: u64) -> Result<Vec<String>, Error> {
        self.run(|client| entries(client, id, from, false))
    }
}
