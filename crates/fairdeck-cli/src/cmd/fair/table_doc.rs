//! The documents a room collects for a version 2 table: the table document
//! (manifest and commitment) and the seats' commitments and reveals, read
//! from files for `fair table lock|void` and `fair deal --table`.

use std::path::{Path, PathBuf};

pub(crate) use fairdeck_fair::collect::SeatDoc;
use fairdeck_fair::collect::{self, CollectionError};
use fairdeck_fair::{Manifest, SeatRecord};
use serde::{Deserialize, Serialize};

use crate::failure::usage;

/// The document a room publishes before play.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TableDoc {
    pub manifest: Manifest,
    pub commitment: String,
}

pub(crate) fn read_table(path: &Path) -> anyhow::Result<TableDoc> {
    let text = super::document::read_json_text(path)?;
    let doc: TableDoc = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{}: not a table document: {e}", path.display())))?;
    doc.manifest.check()?;
    Ok(doc)
}

/// Every seat document in the files (each holds one document or a list).
pub(super) fn read_seat_docs(paths: &[PathBuf]) -> anyhow::Result<Vec<SeatDoc>> {
    let mut docs = Vec::new();
    for path in paths {
        let text = super::document::read_json_text(path)?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| usage(format!("{}: not JSON: {e}", path.display())))?;
        let list = match value {
            serde_json::Value::Array(items) => items,
            one => vec![one],
        };
        for item in list {
            docs.push(
                serde_json::from_value(item)
                    .map_err(|e| usage(format!("{}: not a seat document: {e}", path.display())))?,
            );
        }
    }
    Ok(docs)
}

/// The seats of the manifest with their collected commitments and reveals,
/// every seat committed (`fairdeck_fair::collect`'s rules).
pub(super) fn seat_records(
    m: &Manifest,
    commits: &[SeatDoc],
    reveals: &[SeatDoc],
) -> anyhow::Result<Vec<SeatRecord>> {
    let seats = collected(m, commits, reveals)?;
    collect::all_committed(&seats).map_err(|e| match e {
        CollectionError::Uncommitted { .. } => {
            usage(format!("{e} (fair table void writes the void record)"))
        }
        e => usage(e.to_string()),
    })?;
    Ok(seats)
}

/// The seats of the manifest with what was collected; a seat without a
/// commitment has an empty one.
pub(super) fn collected(
    m: &Manifest,
    commits: &[SeatDoc],
    reveals: &[SeatDoc],
) -> anyhow::Result<Vec<SeatRecord>> {
    collect::collect(m, commits, reveals).map_err(|e| usage(e.to_string()))
}
