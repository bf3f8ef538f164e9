//! The end-to-end suite on a real SQLite file, reopening it between steps,
//! and tampering with the stored history.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use fairdeck_table::{Error, Room, SqliteStore, Store};

fn db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tables.sqlite");
    (dir, path)
}

fn room(path: &Path) -> Room<SqliteStore> {
    Room::new(SqliteStore::open(path).unwrap())
}

#[test]
fn holdem_hand_end_to_end() {
    let (_dir, path) = db();
    holdem_hand(&mut room(&path), "holdem");
}

#[test]
fn bridge_dummy_end_to_end() {
    let (_dir, path) = db();
    bridge_boards(&mut room(&path), "bridge");
}

#[test]
fn a_seat_that_never_reveals_voids_the_table() {
    let (_dir, path) = db();
    silent_seat(&mut room(&path), "silent");
}

#[test]
fn reopened_file_finishes_the_table() {
    let (_dir, path) = db();
    let m = holdem("reopen", 4);
    let inv = open_seeded(&mut room(&path), &m, 7).unwrap();
    {
        let mut r = room(&path);
        for i in 0..2 {
            r.claim("reopen", i, pass(&inv, i), T0).unwrap();
            r.commit("reopen", i, pass(&inv, i), &commitment(&m, i), T0 + 1)
                .unwrap();
        }
    }
    let mut r = room(&path);
    assert_eq!(
        r.public_view("reopen").unwrap().waiting_for,
        ["player 2", "player 3"]
    );
    finish(&mut r, &m, &inv, T0 + 2);
    drop(r);
    let audit = room(&path).audit("reopen").unwrap();
    assert!(audit.verification.unwrap().is_valid());
    assert_eq!(room(&path).store().tables().unwrap(), ["reopen"]);
}

#[test]
fn table_ids_are_never_reused() {
    let (_dir, path) = db();
    let mut r = room(&path);
    let m = holdem("once", 2);
    open_seeded(&mut r, &m, 1).unwrap();
    assert_eq!(
        open_seeded(&mut r, &m, 2),
        Err(Error::Exists("once".into()))
    );
    assert_eq!(
        r.public_view("nowhere"),
        Err(Error::NotFound("nowhere".into()))
    );
}

#[test]
fn two_connections_never_deal_a_table_twice() {
    let (dir, path) = db();
    concurrent_deal(move || SqliteStore::open(&path).unwrap(), "race", 20);
    drop(dir);
}

const RACE_DB: &str = "FAIRDECK_TABLE_RACE_DB";

#[test]
fn two_processes_never_deal_a_table_twice() {
    let (_dir, path) = db();
    let envs = [(RACE_DB, path.display().to_string())];
    race_processes(&mut room(&path), "processes", "race_child_sqlite", &envs);
}

#[test]
#[ignore = "a child process of two_processes_never_deal_a_table_twice"]
fn race_child_sqlite() {
    let path = std::env::var(RACE_DB).expect("run by two_processes_never_deal_a_table_twice");
    race_child(room(Path::new(&path)));
}

/// A closed table, and a raw connection to its file with the append-only
/// triggers dropped (as someone editing the file by hand would).
fn closed_table() -> (tempfile::TempDir, PathBuf, rusqlite::Connection) {
    let (dir, path) = db();
    holdem_hand(&mut room(&path), "edited");
    let raw = rusqlite::Connection::open(&path).unwrap();
    let refused = raw.execute("DELETE FROM table_log WHERE seq = 3", []);
    assert!(refused.unwrap_err().to_string().contains("append-only"));
    raw.execute_batch("DROP TRIGGER table_log_no_update; DROP TRIGGER table_log_no_delete;")
        .unwrap();
    (dir, path, raw)
}

fn audit_error(path: &Path) -> String {
    match room(path).audit("edited") {
        Err(Error::Corrupt(why)) => why,
        other => panic!("the edit was not detected: {other:?}"),
    }
}

#[test]
fn an_edited_log_entry_is_detected() {
    // Entry 14 is seat 1's reveal (after the creation, 6 claims, 6 commitments).
    let (_dir, path, raw) = closed_table();
    raw.execute(
        "UPDATE table_log SET event = replace(event, '\"at\":1000002', '\"at\":1000001') WHERE seq = 14",
        [],
    )
    .unwrap();
    assert!(audit_error(&path).contains("log entry 14: its hash does not match"));
}

#[test]
fn a_dropped_entry_is_detected() {
    // Entry 23 is the last: the close.
    let (_dir, path, raw) = closed_table();
    raw.execute("DELETE FROM table_log WHERE seq = 23", [])
        .unwrap();
    let why = audit_error(&path);
    assert!(why.contains("entries were dropped"), "{why}");
    raw.execute("DELETE FROM table_log WHERE seq = 5", [])
        .unwrap();
    assert!(audit_error(&path).contains("log entry 5: out of place"));
}

#[test]
fn a_rehashed_edit_fails_the_v2_verifier_or_the_state_machine() {
    // Rewrite seat 0's reveal to another seed and recompute every hash from
    // there on: the chain checks, but the seed no longer opens the seat's
    // commitment, so the replay refuses the entry.
    let (_dir, path, raw) = closed_table();
    let mut store = SqliteStore::open(&path).unwrap();
    let log = store.log("edited").unwrap();
    let mut prev = log[6].prev.clone();
    for e in &log[6..] {
        let body = e.event.replace("seed of seat 0", "seed of seat 9");
        let hash = fairdeck_table::ledger::link_hash(&prev, e.seq, &body).unwrap();
        raw.execute(
            "UPDATE table_log SET event = ?1, prev = ?2, hash = ?3 WHERE seq = ?4",
            rusqlite::params![body, prev, hash, e.seq as i64],
        )
        .unwrap();
        prev = hash;
    }
    raw.execute("UPDATE card_tables SET head = ?1", [&prev])
        .unwrap();
    assert!(audit_error(&path).contains("does not match its commitment"));
}

#[test]
fn an_edited_snapshot_is_detected() {
    let (_dir, path, raw) = closed_table();
    raw.execute(
        "UPDATE card_tables SET state = replace(state, '\"closed\"', '\"dealt\"')",
        [],
    )
    .unwrap();
    assert!(audit_error(&path).contains("not what the log replays to"));
}

#[test]
fn the_file_is_private_in_wal_mode_with_full_sync() {
    let (_dir, path) = db();
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(
        store.durability().unwrap(),
        "journal_mode=wal synchronous=2"
    );
    drop(store);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let mode: String = raw
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let version: i64 = raw
        .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, fairdeck_table::SCHEMA_VERSION);
}

/// Runs the independent verifier (`docs/fair_verify.py`, Python standard
/// library only) on a transcript; its exit status and first line.
fn python_verify(transcript: &str, commitment: &str, lock: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("transcript.json");
    std::fs::write(&file, transcript).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/fair_verify.py");
    let out = std::process::Command::new("python3")
        .args([script, "--transcript"])
        .arg(&file)
        .args([commitment, lock])
        .output()
        .expect("python3 runs (scripts/test installs it)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.success(), text)
}

#[test]
fn a_closed_table_verifies_with_the_independent_python_verifier() {
    let (_dir, path) = db();
    let mut r = room(&path);
    bridge_boards(&mut r, "python");
    let public = r.public_view("python").unwrap();
    let json = public.transcript.unwrap().to_json();
    let lock = public.lock.unwrap();
    let (ok, text) = python_verify(&json, &public.commitment, &lock);
    assert!(ok && text.starts_with("valid"), "{text}");
    // Negative control: one card of North's first hand swapped for another.
    let north =
        serde_json::from_str::<serde_json::Value>(&json).unwrap()["deals"][0]["piles"][0]["cards"]
            [0]
        .as_str()
        .unwrap()
        .to_string();
    let other = if north == "AS" { "KS" } else { "AS" };
    let edited = json.replacen(&format!("\"{north}\""), &format!("\"{other}\""), 1);
    let (ok, text) = python_verify(&edited, &public.commitment, &lock);
    assert!(!ok && text.contains("invalid"), "{text}");
}

#[test]
fn a_table_written_before_claims_plays_on() {
    // Seat 0 committed before claims existed (an event written straight to
    // the store, as the earlier service did): the stored table reads and
    // replays; to go on, seat 0 claims from its device and reveals.
    let (_dir, path) = db();
    let m = holdem("old", 2);
    let inv = open_seeded(&mut room(&path), &m, 3).unwrap();
    let c = commitment(&m, 0);
    SqliteStore::open(&path)
        .unwrap()
        .change("old", &mut |_| {
            Ok(fairdeck_table::Event::Committed {
                seat: 0,
                commitment: c.clone(),
                lock: None,
                at: T0 + 1,
            })
        })
        .unwrap();
    let mut r = room(&path);
    assert!(!r.public_view("old").unwrap().seats[0].claimed);
    claim_all(&mut r, &m, &inv);
    r.commit("old", 1, pass(&inv, 1), &commitment(&m, 1), T0 + 1)
        .unwrap();
    reveal_all(&mut r, &m, &inv);
    finish(&mut r, &m, &inv, T0 + 3);
    assert!(r.audit("old").unwrap().verification.unwrap().is_valid());
}
