//! Version 2.1 against a room colluding with a seat, a reordered session
//! and a void record that blames the wrong seat: each is refused with its
//! kind named, and each check has a negative control.

use super::vectors2::{VECTORS, VECTORS21, VOIDS};
use crate::*;
use fairdeck::cards::Card;

/// bo's two hole cards on deal 0 of a 2-seat hold'em table.
fn bo_hand(table: &Table, secret: &ServerSecret, seeds: &[&str]) -> [Card; 2] {
    let deck = table.shuffled_deck(secret, seeds, 0);
    [deck[1], deck[3]]
}

/// The F1 attack of issue 32 on the "hold'em, 2 seats" vector: the room and
/// bo wait for ann's seed, grind bo's seed until bo holds two aces,
/// recompute bo's commitment (and the transcript's own lock) and publish.
/// Returns (tries, the ground record).
fn f1_ground_record() -> (usize, Record) {
    let v = &VECTORS[1];
    let (m, secret) = (v.manifest(), v.secret());
    let table = m.check().unwrap();
    let honest = bo_hand(&table, &secret, v.seeds);
    assert_eq!(honest.map(|c| c.to_string()), ["6C", "6H"]);
    let (tries, seed) = (0..100_000)
        .map(|i| (i + 1, format!("b{i}")))
        .find(|(_, s)| {
            bo_hand(&table, &secret, &["a", s])
                .iter()
                .all(|c| c.to_string().starts_with('A'))
        })
        .expect("two aces within 100 000 seeds");
    let mut seats = v.seats();
    seats[1].commitment = table.seat_commitment(1, &seed).to_hex();
    seats[1].seed = Some(seed);
    let room = table.room_commitment(&secret);
    let ground_lock = table
        .seat_lock(&room, &transcript_commitments(&seats))
        .unwrap();
    let record = Record::deal_locked(&m, &secret, &seats, &ground_lock, 1).unwrap();
    (tries, record)
}

fn transcript_commitments(seats: &[SeatRecord]) -> Vec<Commitment> {
    seats
        .iter()
        .map(|s| Commitment::from_hex(&s.commitment).unwrap())
        .collect()
}

/// The honest lock of the vector (what ann recorded before revealing).
fn honest_lock() -> Commitment {
    let v = &VECTORS[1];
    let table = v.manifest().check().unwrap();
    let room = table.room_commitment(&v.secret());
    table
        .seat_lock(&room, &transcript_commitments(&v.seats()))
        .unwrap()
}

fn kinds(v: &Verification) -> Vec<Kind> {
    v.differences.iter().map(|d| d.kind).collect()
}

#[test]
fn f1_a_seed_ground_after_the_reveals_is_refused_with_the_lock() {
    let (tries, ground) = f1_ground_record();
    println!("F1: bo's 6C 6H became two aces after {tries} seeds");
    let c = Commitment::from_hex(&ground.transcript.commitment).unwrap();
    // The attack as version 2 let it through: the commitment alone is happy.
    let unlocked = verify_record(
        &ground,
        &Evidence {
            commitment: Some(c),
            ..Evidence::default()
        },
    );
    assert!(
        unlocked.differences.is_empty(),
        "{:?}",
        unlocked.differences
    );
    assert_eq!(
        unlocked.verdict(),
        Verdict::Partial,
        "never valid without the lock"
    );
    assert!(unlocked.unchecked().contains(&Unchecked::Lock));
    // ann recorded the lock before revealing: the replaced commitment shows.
    let ann = Evidence {
        commitment: Some(c),
        lock: Some(honest_lock()),
        seat: Some(OwnSeed {
            seat: "ann".into(),
            seed: "a".into(),
        }),
        played: Some(vec![0]),
    };
    let refused = verify_record(&ground, &ann);
    assert_eq!(kinds(&refused), [Kind::PublishedLock]);
    assert_eq!(refused.verdict(), Verdict::Invalid);
    // The room cannot deal it under the honest lock either.
    let v = &VECTORS[1];
    let err = Record::deal_locked(
        &v.manifest(),
        &v.secret(),
        &ground.transcript.seats,
        &honest_lock(),
        1,
    );
    assert!(
        err.unwrap_err()
            .to_string()
            .contains("not the lock of these commitments")
    );
    // Negative control: the honest record with the same evidence is valid.
    let honest =
        Record::deal_locked(&v.manifest(), &v.secret(), &v.seats(), &honest_lock(), 1).unwrap();
    assert_eq!(verify_record(&honest, &ann).verdict(), Verdict::Valid);
}

/// Verifies `edit(record)` with the full evidence of VECTORS21[0] and
/// returns the kinds found.
fn tampered(edit: impl Fn(&mut Record, &mut Evidence)) -> Vec<Kind> {
    let v = &VECTORS21[0];
    let mut r = v.record();
    let mut e = Evidence {
        commitment: Some(Commitment::from_hex(&r.transcript.commitment).unwrap()),
        lock: Some(v.lock()),
        seat: Some(OwnSeed {
            seat: "bo".into(),
            seed: "b".into(),
        }),
        played: Some(vec![0, 1]),
    };
    edit(&mut r, &mut e);
    kinds(&verify_record(&r, &e))
}

#[test]
fn every_new_kind_is_named_and_the_untampered_record_passes() {
    assert_eq!(tampered(|_, _| {}), []);
    assert_eq!(
        tampered(|r, _| r.lock = Some("00".repeat(32))),
        [Kind::Lock]
    );
    assert_eq!(tampered(|r, _| r.lock = None), [Kind::Lock]);
    assert_eq!(
        tampered(|_, e| e.lock = Some(Commitment([7; 32]))),
        [Kind::PublishedLock]
    );
    assert_eq!(
        tampered(|_, e| e.seat.as_mut().unwrap().seed = "x".into()),
        [Kind::OwnSeed]
    );
    assert_eq!(
        tampered(|_, e| e.seat.as_mut().unwrap().seat = "cy".into()),
        [Kind::OwnSeed]
    );
    // Deal order: skipped, repeated, reordered, fewer or more than played.
    for shown in [vec![1], vec![0, 0], vec![1, 0], vec![0], vec![0, 1, 2]] {
        let found = tampered(|_, e| e.played = Some(shown.clone()));
        assert!(
            !found.is_empty() && found.iter().all(|k| *k == Kind::Played),
            "{shown:?}: {found:?}"
        );
    }
    assert_eq!(
        tampered(|r, _| r.played = Some(3)),
        [Kind::Played, Kind::Played]
    );
    assert_eq!(tampered(|r, _| r.played = None), [Kind::Played]);
    // Stopping early is visible, not an error: one deal played, one shown.
    let early = |r: &mut Record, e: &mut Evidence| {
        r.played = Some(1);
        e.played = Some(vec![0]);
    };
    assert_eq!(tampered(early), []);
}

#[test]
fn a_version_2_transcript_never_reaches_valid_without_the_lock() {
    let v = &VECTORS[1];
    let r = Record::from(v.transcript());
    let mut e = Evidence {
        commitment: Some(Commitment::from_hex(&r.transcript.commitment).unwrap()),
        seat: Some(OwnSeed {
            seat: "ann".into(),
            seed: "a".into(),
        }),
        played: Some(vec![0]),
        ..Evidence::default()
    };
    let result = verify_record(&r, &e);
    assert_eq!(
        (result.verdict(), result.unchecked()),
        (Verdict::Partial, vec![Unchecked::Lock])
    );
    // The lock of a version 2 table is recomputed from its commitments.
    e.lock = Some(honest_lock());
    assert_eq!(verify_record(&r, &e).verdict(), Verdict::Valid);
}

#[test]
fn a_void_record_names_the_seat_that_failed() {
    let commit = &VOIDS[0];
    let r = commit.record();
    let e = Evidence {
        commitment: Some(Commitment::from_hex(&r.transcript.commitment).unwrap()),
        ..Evidence::default()
    };
    let v = verify_record(&r, &e);
    assert_eq!(
        (v.verdict(), v.void.as_ref().map(|x| x.seats.clone())),
        (Verdict::Void, Some(vec!["cy".to_string()]))
    );
    // The old reading (no void record) blamed the seats that did commit.
    let legacy = verify_transcript(&r.transcript, e.commitment.as_ref());
    assert!(
        legacy
            .differences
            .iter()
            .any(|d| d.message.contains("\"ann\" did not reveal"))
    );
    // A record blaming a seat that committed, or the wrong phase, is refused.
    for edit in [
        (|x: &mut Record| x.void.as_mut().unwrap().seats = vec!["bo".into()]) as fn(&mut Record),
        |x| x.void.as_mut().unwrap().phase = VoidPhase::Reveal,
        |x| {
            x.transcript
                .deals
                .push(VECTORS[1].transcript().deals[0].clone())
        },
        |x| x.transcript.seats[0].seed = Some("a".into()),
    ] {
        let mut bad = r.clone();
        edit(&mut bad);
        assert!(kinds(&verify_record(&bad, &e)).contains(&Kind::Void));
    }
    // At the reveal phase the seat without a matching seed is named, and
    // the lock is checked like any 2.1 transcript's.
    let reveal = VOIDS[1].record();
    assert_eq!(reveal.void.as_ref().unwrap().seats, ["bo"]);
    let mut e = Evidence {
        lock: Some(VOIDS[1].base.lock()),
        ..Evidence::default()
    };
    assert_eq!(verify_record(&reveal, &e).verdict(), Verdict::Void);
    e.lock = Some(Commitment([1; 32]));
    assert_eq!(kinds(&verify_record(&reveal, &e)), [Kind::PublishedLock]);
    // Nobody failed: no void record can be made.
    let v = &VECTORS[1];
    assert!(Record::void(&v.manifest(), &v.secret(), &v.seats(), None).is_err());
}
