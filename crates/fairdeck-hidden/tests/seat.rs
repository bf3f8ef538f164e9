//! A seat's verify-then-step (`fairdeck_hidden::seat`): keys in seat order,
//! every refusal by kind, and a hand played by followers that each keep
//! their verifier from step to step.

mod fixture;

use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::{Follower, Refused, check_published, key_turn, publish_key};
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_hidden::{Error, Table};
use fixture::{manifest, rng};

fn keyed(seats: usize, seed: u8) -> (Table, Record, Vec<SecretKey>) {
    let mut rng = rng(seed);
    let table = Table::new(manifest("seat", seats)).unwrap();
    let keys: Vec<SecretKey> = (0..seats).map(|_| SecretKey::generate(&mut rng)).collect();
    let mut record = Record::new(table.manifest().clone());
    for (j, key) in keys.iter().enumerate() {
        publish_key(&table, &mut record, j as u64, key, &mut rng).unwrap();
    }
    (table, record, keys)
}

#[test]
fn keys_are_published_in_seat_order_once() {
    let (table, mut record, keys) = keyed(2, 1);
    let mut g = rng(2);
    let extra = SecretKey::generate(&mut g);
    let again = publish_key(&table, &mut record, 1, &extra, &mut g);
    assert_eq!(again, Err(Refused::KeyTaken(1)));
    record.keys.truncate(0);
    assert_eq!(key_turn(&record, 1), Err(Refused::KeyOrder(0)));
    assert_eq!(key_turn(&record, 0), Ok(()));
    let out = publish_key(&table, &mut record, 5, &extra, &mut g);
    assert_eq!(out, Err(Refused::Step(Error::Seat(5))));
    assert!(record.keys.is_empty(), "nothing added on a refusal");
    assert_eq!(
        Refused::KeyOrder(0).to_string(),
        "keys are published in seat order: seat 0 is next"
    );
    drop(keys);
}

#[test]
fn a_seat_refuses_a_wrong_key_missing_keys_a_bad_transcript_and_an_unknown_stage() {
    let (_, record, keys) = keyed(3, 3);
    assert_eq!(check_published(&record, 1, &keys[1]), Ok(()));
    assert_eq!(
        check_published(&record, 1, &keys[2]),
        Err(Refused::WrongKey(1))
    );
    let mut early = record.clone();
    early.keys.truncate(2);
    let missing = Follower::new().check(early, (0, &keys[0])).unwrap_err();
    assert_eq!(missing, Refused::KeysMissing);
    let mut bent = record.clone();
    bent.keys[2].proof.c = bent.keys[2].proof.s;
    let Refused::Invalid {
        summary,
        first,
        error,
    } = Follower::new().check(bent, (0, &keys[0])).unwrap_err()
    else {
        panic!("not refused as invalid");
    };
    assert!(summary.contains("key-proof"), "{summary}");
    assert!(first.contains("seat 2"), "{first}");
    assert_eq!(error.kind(), "key-proof");
    let turn = Follower::new().check(record, (0, &keys[0])).unwrap();
    let Err(Refused::Stage { asked, stages }) = turn.stage("shuffle") else {
        panic!("the shuffle stage takes no shares");
    };
    assert_eq!(
        (asked.as_str(), stages.join(",")),
        ("shuffle", "deal,flop,turn,river".into())
    );
    assert!(turn.stage("flop").is_ok());
}

#[test]
fn followers_play_a_hand_that_verifies_and_read_their_own_cards() {
    let (_, mut record, keys) = keyed(3, 4);
    let mut g = rng(5);
    let mut followers: Vec<Follower> = (0..3).map(|_| Follower::new()).collect();
    let mut step = |record: Record, j: usize, what: &str| -> Record {
        let mut turn = followers[j].check(record, (j as u64, &keys[j])).unwrap();
        match what {
            "shuffle" => assert_eq!(turn.shuffle(None, &mut g).unwrap().1.seat, j as u64),
            "open" => assert_eq!(turn.open(None, &mut g).unwrap().1.len(), 2),
            street => {
                let stage = turn.stage(street).unwrap();
                assert!(!turn.share(stage, None, &mut g).unwrap().1.is_empty());
            }
        }
        turn.record
    };
    for what in ["shuffle", "deal", "flop", "turn", "river"] {
        for j in 0..3 {
            record = step(record, j, what);
        }
    }
    record = step(record, 1, "open");
    // Out of turn: every seat has shuffled this hand, and hand 1 is the last.
    let mut turn = followers[0].check(record.clone(), (0, &keys[0])).unwrap();
    assert_eq!(
        turn.shuffle(Some(1), &mut g).unwrap_err().kind(),
        "unexpected-message"
    );
    let v = verify(&record, &Options::default()).verdict;
    assert!(v.is_valid(), "{:?}", v.differences);
    assert_eq!(
        (v.hands[0].community.len(), v.hands[0].opened.len()),
        (5, 2)
    );
    for (j, key) in keys.iter().enumerate() {
        let turn = followers[j].check(record.clone(), (j as u64, key)).unwrap();
        assert_eq!(turn.cards(None).unwrap().own.len(), 2);
    }
    let turn = followers[0].check(record, (0, &keys[0])).unwrap();
    assert_eq!(turn.cards(Some(2)).unwrap_err(), 2);
}

/// Issue 51, item 6: an open while a street owes shares, or a street begun
/// after an open, made the transcript fail as a hand in progress (§14:
/// nothing of a later stage while an earlier one is incomplete), and every
/// later step with it. Both are refused; the transcript stays valid.
#[test]
fn the_showdown_waits_for_the_streets_begun_and_closes_the_rest() {
    let (_, mut record, keys) = keyed(3, 6);
    let mut g = rng(7);
    let mut act = |record: &Record, j: usize, what: &str| {
        let mut turn = Follower::new()
            .check(record.clone(), (j as u64, &keys[j]))
            .unwrap();
        let done = match what {
            "shuffle" => turn.shuffle(None, &mut g).map(drop),
            "open" => turn.open(None, &mut g).map(drop),
            street => {
                let stage = turn.stage(street).unwrap();
                turn.share(stage, None, &mut g).map(drop)
            }
        };
        done.map(|()| turn.record)
    };
    for what in ["shuffle", "deal"] {
        for j in 0..3 {
            record = act(&record, j, what).unwrap();
        }
    }
    record = act(&record, 0, "flop").unwrap();
    let early = act(&record, 1, "open").unwrap_err();
    assert_eq!(early.kind(), "unexpected-message");
    assert!(
        early.to_string().contains("flop of hand 1 is not complete"),
        "{early}"
    );
    for j in 1..3 {
        record = act(&record, j, "flop").unwrap();
    }
    record = act(&record, 1, "open").unwrap();
    let late = act(&record, 0, "turn").unwrap_err();
    assert!(
        late.to_string().contains("showdown of hand 1 has begun"),
        "{late}"
    );
    let opts = Options {
        in_progress: true,
        ..Options::default()
    };
    let v = verify(&record, &opts).verdict;
    assert!(v.is_valid(), "{:?}", v.differences);
}

/// Issue 51, item 7: a key after the table's void (at `keys`) made the
/// table invalid; it is refused as every other step after a void is.
#[test]
fn no_key_is_taken_after_the_table_void() {
    let (_, mut record, _) = keyed(3, 8);
    record.keys.truncate(1);
    record.void = Some(fairdeck_hidden::record::Void {
        stage: "keys".into(),
        seat: 1,
        missing: vec![fairdeck_hidden::record::Missing::Key],
    });
    let Err(Refused::Step(e)) = key_turn(&record, 1) else {
        panic!("a key after the table's void");
    };
    assert!(e.to_string().contains("the table is over"), "{e}");
}
