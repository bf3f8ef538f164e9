//! The documents a room collects for a version 2 table: the table document
//! (manifest and commitment) and the seats' commitments and reveals, read
//! from files for `fair table lock|void` and `fair deal --table`.

use std::path::{Path, PathBuf};

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

/// A seat's commitment or reveal, as `fair seed` prints it.
#[derive(Serialize, Deserialize, Clone)]
pub(crate) struct SeatDoc {
    pub seat: String,
    pub commitment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
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

/// The seats of the manifest with their collected commitments and reveals.
pub(super) fn seat_records(
    m: &Manifest,
    commits: &[SeatDoc],
    reveals: &[SeatDoc],
) -> anyhow::Result<Vec<SeatRecord>> {
    let seats = collected(m, commits, reveals)?;
    let uncommitted: Vec<String> = seats
        .iter()
        .filter(|s| s.commitment.is_empty())
        .map(|s| format!("{:?}", s.name))
        .collect();
    if !uncommitted.is_empty() {
        return Err(usage(format!(
            "no commitment from seat(s) {}: every seat commits before any seat reveals \
             (fair table void writes the void record)",
            uncommitted.join(", ")
        )));
    }
    Ok(seats)
}

/// The seats of the manifest with what was collected; a seat without a
/// commitment has an empty one.
pub(super) fn collected(
    m: &Manifest,
    commits: &[SeatDoc],
    reveals: &[SeatDoc],
) -> anyhow::Result<Vec<SeatRecord>> {
    for doc in commits.iter().chain(reveals) {
        if !m.seats.contains(&doc.seat) {
            return Err(usage(format!(
                "seat {:?} is not at this table ({})",
                doc.seat,
                m.seats.join(", ")
            )));
        }
    }
    let one = |docs: &[SeatDoc], seat: &str, what: &str| -> anyhow::Result<Option<SeatDoc>> {
        let mut found = docs.iter().filter(|d| d.seat == seat);
        let first = found.next().cloned();
        if found.next().is_some() {
            return Err(usage(format!("seat {seat:?} has two {what}")));
        }
        Ok(first)
    };
    let mut seats = Vec::new();
    for name in &m.seats {
        let commitment = one(commits, name, "commitments")?.map(|c| c.commitment);
        // The reveal's own commitment is never trusted: the one collected
        // before the reveals is what its seed must match.
        let seed = one(reveals, name, "reveals")?.and_then(|r| r.seed);
        if commitment.is_none() && seed.is_some() {
            return Err(usage(format!(
                "seat {name:?} revealed without a collected commitment"
            )));
        }
        seats.push(SeatRecord {
            name: name.clone(),
            commitment: commitment.unwrap_or_default(),
            seed,
        });
    }
    Ok(seats)
}
