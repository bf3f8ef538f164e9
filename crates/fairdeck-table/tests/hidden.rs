//! Hidden (version-3) tables through the HTTP API: whole hands played by
//! library seats, the served transcript verified; a dropout voiding the
//! table after its deadline; the service restarted mid-shuffle.

mod bulletin;

use bulletin::*;
use fairdeck_hidden::verify::{Options, verify};

fn final_verdict(record: &fairdeck_hidden::record::Record) -> fairdeck_hidden::verdict::Verdict {
    verify(record, &Options::default()).verdict
}

#[test]
fn a_whole_table_played_over_http_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut client = server.client();
    let m = manifest("full", 3, 2);
    let inv = open(&mut client, &m, 600);
    assert_eq!(inv.links.len(), 3);
    assert!(inv.links[1].ends_with(&format!("seat=1&token={}", inv.seats[1])));
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 10 + i)).collect();
    let end = play(&mut client, "full", &inv.operator, &mut seats, |_| false);
    assert_eq!(end.state, "finished");
    let record = transcript(&mut client, "full");
    assert_eq!(record.hands.len(), 2);
    let verdict = final_verdict(&record);
    assert!(verdict.is_valid(), "{:?}", verdict.differences);
    for h in &verdict.hands {
        assert_eq!(h.community.len(), 5, "flop, turn and river shown");
        assert_eq!(h.opened.len(), 6, "every seat opened its two cards");
    }
    // One hand's transcript (with the keys): what a seat fetches while it plays.
    let (code, one) = call(
        &mut client,
        "GET",
        "/api/hidden/full/transcript?hand=2",
        None,
        None,
    );
    assert_eq!(code, 200);
    let one = fairdeck_hidden::record::Record::from_json(&one.to_string()).unwrap();
    assert_eq!(
        (one.keys.len(), one.hands.len(), one.hands[0].hand),
        (3, 1, 2)
    );
    // Version 3.1: the whole log comes with it, so a seat checks the hand as
    // play goes on; as a finished table it lacks the other hand's messages.
    let progress = Options {
        in_progress: true,
        ..Options::default()
    };
    assert!(verify(&one, &progress).verdict.is_valid());
    assert_eq!(final_verdict(&one).kinds(), ["log"]);
    assert!(verdict.signed && record.head.is_some());
    let (code, _) = call(
        &mut client,
        "GET",
        "/api/hidden/full/transcript?hand=x",
        None,
        None,
    );
    assert_eq!(code, 400);
    let (code, _) = advance(&mut client, "full", &inv.operator, 3, "end");
    assert_eq!(code, 409, "nothing is played after the last hand");
    each_proof_checked_once(&mut seats, &record);
}

/// Every key, shuffle and share proof of the transcript.
fn proofs(record: &fairdeck_hidden::record::Record) -> u64 {
    let hands = record.hands.iter();
    let per_hand = hands.map(|h| (h.shuffles.len() + h.all_shares().count()) as u64);
    record.keys.len() as u64 + per_hand.sum::<u64>()
}

/// Each seat verified before every one of its steps, with one follower for
/// the whole table; its final verification of the whole transcript (as
/// `fairdeck hidden seat` does at the end) then leaves every proof checked
/// exactly once by that seat — a seat that verified from scratch before
/// each step would have checked each one about once per step.
fn each_proof_checked_once(seats: &mut [Seat], record: &fairdeck_hidden::record::Record) {
    for s in seats {
        let before = s.follower.proofs_checked();
        assert!(
            before > 0 && before <= proofs(record),
            "seat {}: {before}",
            s.seat
        );
        let end = s.follower.verify(record, &Options::default());
        assert!(end.verdict.is_valid());
        assert_eq!(
            s.follower.proofs_checked(),
            proofs(record),
            "seat {}",
            s.seat
        );
    }
}

#[test]
fn a_seat_that_misses_its_deadline_voids_the_table_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut client = server.client();
    let m = manifest("late", 3, 1);
    let inv = open(&mut client, &m, 1);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 20 + i)).collect();
    for s in &mut seats {
        assert!(s.step(&mut client, "late")); // keys
    }
    assert!(seats[0].step(&mut client, "late")); // seat 0 shuffles; seat 1 never does
    let before = status(&mut client, "late");
    assert_eq!(
        (before.state.as_str(), before.stage.as_deref()),
        ("playing", Some("shuffle"))
    );
    assert!(before.deadline.is_some());
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let after = status(&mut client, "late");
    assert_eq!(after.state, "void");
    let record = transcript(&mut client, "late");
    let void = record.hands[0]
        .void
        .clone()
        .expect("the hand's void record");
    assert_eq!((void.stage.as_str(), void.seat), ("shuffle", 1));
    assert_eq!(void.missing, [fairdeck_hidden::record::Missing::Shuffle]);
    let verdict = final_verdict(&record);
    assert!(verdict.is_valid(), "{:?}", verdict.differences);
    assert!(
        verdict.hands[0]
            .status
            .contains("void at the shuffle stage: seat 1")
    );
    // Too late: the seat's shuffle is refused, nothing is added.
    let post = seats[1].next(&mut client, "late");
    assert!(post.is_none(), "a void table owes nothing");
}
