//! Crash: a child process runs a bounded load of hold'em tables on a SQLite
//! file and acknowledges each change (its log place and hash) only after
//! the call returned; the parent kills it with SIGKILL mid-run, reopens the
//! file, finds every acknowledged change, finishes every table and checks
//! that every history audits and every transcript verifies.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::*;
use fairdeck_fair::Manifest;
use fairdeck_table::{Room, SqliteStore, Store, Street};

const DB: &str = "FAIRDECK_TABLE_CRASH_DB";
const TABLES: usize = 24;
const SEATS: usize = 4;
/// create, commit × 4 (each after its seat's claim), reveal × 4, deal, flop, turn, river, close.
const STEPS: usize = 2 + 2 * SEATS + 4;
/// The child is killed after this many acknowledgements (of 24 × 14 = 336).
const KILL_AFTER: usize = 150;

fn manifests() -> Vec<Manifest> {
    (0..TABLES)
        .map(|t| holdem(&format!("crash-{t}"), SEATS))
        .collect()
}

fn step(room: &mut Room<SqliteStore>, m: &Manifest, key: u64, s: usize) {
    let inv = invitation_of(m, key);
    let (id, op) = (m.table.as_str(), Some(inv.operator.as_str()));
    let seat = |i: usize| pass(&inv, i);
    match s {
        0 => drop(open_seeded(room, m, key).unwrap()),
        s if s <= SEATS => {
            room.claim(id, s - 1, seat(s - 1), T0).unwrap();
            drop(
                room.commit(id, s - 1, seat(s - 1), &commitment(m, s - 1), T0 + 1)
                    .unwrap(),
            );
        }
        s if s <= 2 * SEATS => {
            let i = s - SEATS - 1;
            drop(room.reveal(id, i, seat(i), &seed(id, i), T0 + 2).unwrap());
        }
        s if s == 2 * SEATS + 1 => drop(room.deal(id, op, T0 + 3).unwrap()),
        s if s < STEPS - 1 => {
            let street = [Street::Flop, Street::Turn, Street::River][s - 2 * SEATS - 2];
            drop(room.release(id, op, 0, street, T0 + 4).unwrap());
        }
        _ => drop(room.close(id, op, T0 + 5).unwrap()),
    }
}

#[test]
#[ignore = "the child process of sigkill_under_load_loses_no_acknowledged_change"]
fn crash_child_load() {
    let path = std::env::var(DB).expect("run by sigkill_under_load_loses_no_acknowledged_change");
    let mut room = Room::new(SqliteStore::open(path.as_ref()).unwrap());
    let mut out = std::io::stdout().lock();
    writeln!(out).unwrap(); // libtest's "test NAME ... " has no newline under --nocapture
    for s in 0..STEPS {
        for (t, m) in manifests().iter().enumerate() {
            step(&mut room, m, t as u64, s);
            let snap = room.store().load(&m.table).unwrap();
            writeln!(out, "ack {} {} {}", m.table, snap.seq, snap.head).unwrap();
            out.flush().unwrap();
        }
    }
}

#[test]
fn sigkill_under_load_loses_no_acknowledged_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.sqlite");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "crash_child_load",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DB, &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut acks: Vec<(String, usize, String)> = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let Some(rest) = line.strip_prefix("ack ") else {
            continue;
        };
        let f: Vec<&str> = rest.split(' ').collect();
        acks.push((f[0].into(), f[1].parse().unwrap(), f[2].into()));
        if acks.len() == KILL_AFTER {
            child.kill().unwrap(); // SIGKILL: no destructor, no flush, no checkpoint
            break;
        }
    }
    child.wait().unwrap();
    assert_eq!(
        acks.len(),
        KILL_AFTER,
        "the child stopped before it was killed"
    );

    let mut room = Room::new(SqliteStore::open(&path).unwrap());
    for (id, seq, hash) in &acks {
        let log = room.store().log(id).unwrap();
        assert!(log.len() > *seq, "{id}: acknowledged change {seq} is lost");
        assert_eq!(&log[*seq].hash, hash, "{id}: change {seq} differs");
    }
    let stored = room.store().tables().unwrap();
    let written: usize = stored
        .iter()
        .map(|id| room.store().log(id).unwrap().len())
        .sum();
    eprintln!(
        "killed after {KILL_AFTER} acknowledged changes; {written} found on reopening \
         (the rest were in flight or not yet started)"
    );
    assert!(written >= KILL_AFTER);
    for (t, m) in manifests().iter().enumerate() {
        let inv = invitation_of(m, t as u64);
        if !stored.contains(&m.table) {
            open_seeded(&mut room, m, t as u64).unwrap();
        }
        finish(&mut room, m, &inv, T0 + 6);
        let audit = room.audit(&m.table).unwrap();
        assert!(audit.verification.unwrap().is_valid(), "{}", m.table);
        assert_eq!(
            audit.entries,
            STEPS + SEATS,
            "every step and each seat's claim"
        );
    }
}
