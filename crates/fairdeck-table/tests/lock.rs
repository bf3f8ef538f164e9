//! The seat lock through the service (version 2.1, issue #32 item 1): the
//! last commitment sets `L` and logs it, every view shows it, no
//! commitment is accepted after it, and the auditor's F1 forgery — a seat's
//! seed ground after the others' reveals, its `c_i` recomputed — fails
//! `published-lock` against the `L` a seat recorded before revealing.

mod common;

use common::*;
use fairdeck_fair::{
    Commitment, Evidence, Kind, OwnSeed, Record, SeatRecord, ServerSecret, Verdict, verify_record,
};
use fairdeck_table::{Error, Room, SqliteStore, Store};

fn hex(h: &str) -> Commitment {
    Commitment::from_hex(h).unwrap()
}

#[test]
fn f1_a_commitment_replaced_after_the_lock_is_refused_and_caught() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(SqliteStore::open(&dir.path().join("t.sqlite")).unwrap());
    let (id, m) = ("f1", holdem("f1", 2));
    let inv = room.open_table(&request(&m), T0).unwrap();
    claim_all(&mut room, &m, &inv);
    let tok = |i: usize| pass(&inv, i);
    // Before every commitment: no lock anywhere.
    let first = room
        .commit(id, 0, tok(0), &commitment(&m, 0), T0 + 1)
        .unwrap();
    assert!(first.public.lock.is_none());
    let last = room
        .commit(id, 1, tok(1), &commitment(&m, 1), T0 + 1)
        .unwrap();
    // Seat 0 records C and L before revealing; every view shows the same L.
    let recorded = room.seat_view(id, 0, tok(0)).unwrap().public;
    let lock = recorded
        .lock
        .clone()
        .expect("L is published with the last commitment");
    assert_eq!(last.public.lock.as_deref(), Some(lock.as_str()));
    assert_eq!(
        room.public_view(id).unwrap().lock.as_deref(),
        Some(lock.as_str())
    );
    let op = room.operator_view(id, Some(inv.operator.as_str())).unwrap();
    assert_eq!(op.public.lock.as_deref(), Some(lock.as_str()));
    // The log's last commitment carries L.
    let log = room.store().log(id).unwrap();
    // (entries 1 and 2 are the seats' claims)
    assert!(
        log[4].event.contains(&format!("\"lock\":\"{lock}\"")),
        "{}",
        log[4].event
    );
    assert!(!log[3].event.contains("lock"));
    // F1 through the API: seat 1 cannot replace its commitment after the lock.
    let ground = "0".repeat(64);
    let refused = room.commit(id, 1, tok(1), &ground, T0 + 2);
    assert!(
        matches!(
            refused,
            Err(Error::Phase {
                action: "commit",
                ..
            })
        ),
        "{refused:?}"
    );
    assert_eq!(
        room.public_view(id).unwrap().lock.as_deref(),
        Some(lock.as_str())
    );
    reveal_all(&mut room, &m, &inv);
    room.deal(id, Some(inv.operator.as_str()), T0 + 3).unwrap();
    let closed = room.close(id, Some(inv.operator.as_str()), T0 + 4).unwrap();
    let record = closed.public.transcript.unwrap();
    let evidence = Evidence {
        commitment: Some(hex(&recorded.commitment)),
        lock: Some(hex(&lock)),
        seat: Some(OwnSeed {
            seat: m.seats[0].clone(),
            seed: seed(id, 0),
        }),
        played: Some(vec![0]),
    };
    let v = verify_record(&record, &evidence);
    assert_eq!(v.verdict(), Verdict::Valid, "{:?}", v.differences);

    // F1 outside the API: the room (holding S) grinds seat 1's seed after
    // seeing seat 0's, recomputes c_1 and the transcript's own lock.
    let table = m.check().unwrap();
    let secret =
        ServerSecret::from_hex(record.transcript.server_secret.as_deref().unwrap()).unwrap();
    let seeds = [seed(id, 0), "ground seed".to_string()];
    let seats: Vec<SeatRecord> = (0..2)
        .map(|i| SeatRecord {
            name: m.seats[i].clone(),
            commitment: table.seat_commitment(i, &seeds[i]).to_hex(),
            seed: Some(seeds[i].clone()),
        })
        .collect();
    let cs: Vec<Commitment> = seats.iter().map(|s| hex(&s.commitment)).collect();
    let forged_lock = table
        .seat_lock(&table.room_commitment(&secret), &cs)
        .unwrap();
    let forged = Record::deal_locked(&m, &secret, &seats, &forged_lock, 1).unwrap();
    // Against its own lock it agrees with itself ...
    let own = Evidence {
        lock: Some(forged_lock),
        ..evidence.clone()
    };
    assert!(verify_record(&forged, &own).differences.is_empty());
    // ... against the L seat 0 recorded it fails, and only by the lock.
    let v = verify_record(&forged, &evidence);
    let kinds: Vec<Kind> = v.differences.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, [Kind::PublishedLock], "{:?}", v.differences);
    assert_eq!(v.verdict(), Verdict::Invalid);
}
