//! Whole transcripts (docs/hidden-dealing.md §14–§15): a six-seat hold'em
//! hand verified end to end, and every cheat caught at the transcript level
//! with its kind. Every verdict is also checked to be the same from an
//! incremental verifier fed the transcript message by message
//! (`fixture::verify_both`).

mod fixture;

use std::collections::HashSet;

use fairdeck_hidden::Table;
use fairdeck_hidden::record::{Missing, Record, Void};
use fairdeck_hidden::verdict::Verdict;
use fairdeck_hidden::verify::{Options, verify_json};
use fixture::{Played, play, verify_both};

/// The verdict, the same from scratch and incrementally.
fn verified(record: &Record, opts: &Options<'_>) -> Verdict {
    verify_both(record, opts, &[])
}

fn kinds(record: &Record) -> Vec<&'static str> {
    verified(record, &Options::default()).kinds()
}

#[test]
fn a_six_seat_holdem_hand_verifies_end_to_end() {
    let Played { record, secrets } = play("six", 6, 1, 3, &[0, 4]);
    let h = &record.hands[0];
    assert_eq!(
        (h.shuffles.len(), h.deal.len(), h.streets.len()),
        (6, 12 * 5, 3)
    );
    let v = &verified(&record, &Options::default());
    assert!(v.is_valid(), "{:?}", v.differences);
    let report = &v.hands[0];
    assert_eq!(report.shuffles_verified, 6);
    assert_eq!(report.shares_verified, 60 + 5 * 6 + 4);
    assert_eq!(report.community.len(), 5);
    assert_eq!(report.opened.len(), 4);
    assert!(report.own.is_empty(), "no key given, no private card read");
    assert!(report.status.starts_with("complete"), "{}", report.status);
    // Seats 1, 2, 3, 5 folded or mucked: their hole cards stay hidden, and say so.
    let hidden: Vec<_> = report
        .hidden
        .iter()
        .filter(|h| h.what.starts_with("seat"))
        .collect();
    assert_eq!(hidden.len(), 4);
    // Each seat reads its own two cards with its key: 12 private cards and 5 community
    // cards, all different.
    let mut cards: HashSet<String> = report.community.iter().map(|c| c.card.clone()).collect();
    for (j, sk) in secrets.iter().enumerate() {
        let opts = Options {
            reader: Some((j as u64, sk)),
            ..Options::default()
        };
        let mine = verified(&record, &opts).hands.remove(0).own;
        assert_eq!(mine.len(), 2);
        for c in mine {
            assert!(c.position == j as u64 || c.position == 6 + j as u64);
            cards.insert(c.card);
        }
    }
    assert_eq!(cards.len(), 17);
    // The opened cards are the owners' own cards.
    let seat0 = Options {
        reader: Some((0, &secrets[0])),
        ..Options::default()
    };
    let own0 = verified(&record, &seat0).hands.remove(0).own;
    let opened0: Vec<_> = report.opened.iter().filter(|c| c.seat == Some(0)).collect();
    assert_eq!(opened0.len(), 2);
    assert!(
        opened0
            .iter()
            .all(|c| own0.iter().any(|o| o.card == c.card))
    );
    // The document round-trips through JSON and verifies the same.
    assert!(
        verify_json(&record.to_json(), &Options::default())
            .verdict
            .is_valid()
    );
}

#[test]
fn a_wrong_reading_key_is_refused() {
    let Played { record, secrets } = play("key", 3, 2, 0, &[]);
    let opts = Options {
        reader: Some((1, &secrets[2])),
        ..Options::default()
    };
    assert_eq!(verified(&record, &opts).kinds(), ["wrong-key"]);
}

#[test]
fn a_missing_message_is_named_and_a_void_record_covers_it() {
    let Played { mut record, .. } = play("void", 3, 3, 0, &[]);
    // Seat 2 never sends its share of position 0 (seat 0's first hole card).
    let h = &mut record.hands[0];
    let i = h
        .deal
        .iter()
        .position(|m| m.seat == 2 && m.position == 0)
        .unwrap();
    h.deal.remove(i);
    let v = verified(&record, &Options::default());
    assert_eq!(v.kinds(), ["missing-message"]);
    assert!(
        v.differences[0].message.contains("seat 2"),
        "{:?}",
        v.differences
    );
    // The void record naming seat 2 and exactly that share makes it a valid void hand.
    let void = Void {
        stage: "deal".into(),
        seat: 2,
        missing: vec![Missing::Share { position: 0 }],
    };
    record.hands[0].void = Some(void.clone());
    let v = verified(&record, &Options::default());
    assert!(v.is_valid(), "{:?}", v.differences);
    assert!(
        v.hands[0]
            .status
            .starts_with("void at the deal stage: seat 2"),
        "{}",
        v.hands[0].status
    );
    // Naming another seat, another stage, or too much, is refused.
    for bad in [
        Void {
            seat: 1,
            ..void.clone()
        },
        Void {
            stage: "shuffle".into(),
            ..void.clone()
        },
        Void {
            missing: vec![
                Missing::Share { position: 0 },
                Missing::Share { position: 3 },
            ],
            ..void.clone()
        },
    ] {
        record.hands[0].void = Some(bad);
        assert_eq!(kinds(&record)[0], "void");
    }
}

#[test]
fn a_stalled_shuffle_is_void_with_the_seat_named() {
    let Played { mut record, .. } = play("stall", 3, 4, 0, &[]);
    let h = &mut record.hands[0];
    h.shuffles.truncate(1);
    h.deal.clear();
    assert_eq!(kinds(&record), ["missing-message"]);
    record.hands[0].void = Some(Void {
        stage: "shuffle".into(),
        seat: 1,
        missing: vec![Missing::Shuffle],
    });
    assert!(verified(&record, &Options::default()).is_valid());
    record.hands[0].void = Some(Void {
        stage: "shuffle".into(),
        seat: 2,
        missing: vec![Missing::Shuffle],
    });
    assert_eq!(kinds(&record), ["void"]);
}

#[test]
fn a_street_nobody_began_is_void_at_seat_0_and_a_finished_hand_has_nothing_to_void() {
    use fairdeck_hidden::play::void_record;
    let in_progress = Options {
        in_progress: true,
        ..Options::default()
    };
    // The deal is complete and nobody sent a share of the flop: nothing is
    // owed in the stages present, yet the flop is the next stage.
    let Played { mut record, .. } = play("flop", 3, 8, 0, &[]);
    let table = Table::new(record.manifest.clone()).unwrap();
    let v = verified(&record, &in_progress);
    assert!(
        v.is_valid() && v.hands[0].owed.is_empty(),
        "{:?}",
        v.hands[0]
    );
    let void = void_record(&table, &record.hands[0], &v.hands[0]).unwrap();
    let flop = |p| Missing::Share { position: p };
    assert_eq!(
        (void.stage.as_str(), void.seat, void.missing.clone()),
        ("flop", 0, vec![flop(7), flop(8), flop(9)])
    );
    record.hands[0].void = Some(void.clone());
    let v = verified(&record, &Options::default());
    assert!(v.is_valid(), "{:?}", v.differences);
    assert!(
        v.hands[0]
            .status
            .starts_with("void at the flop stage: seat 0")
    );
    // Once void, or with every street shown, or after the showdown began:
    // nothing more to void.
    assert_eq!(void_record(&table, &record.hands[0], &v.hands[0]), None);
    for (streets, showdown) in [(3, &[][..]), (1, &[1][..])] {
        let Played { record, .. } = play("done", 3, 8, streets, showdown);
        let table = Table::new(record.manifest.clone()).unwrap();
        let v = verified(&record, &in_progress);
        assert!(v.is_valid(), "{:?}", v.differences);
        assert_eq!(void_record(&table, &record.hands[0], &v.hands[0]), None);
    }
}

#[test]
fn a_hand_in_progress_reports_what_is_owed() {
    let Played { mut record, .. } = play("progress", 3, 5, 1, &[]);
    let flop = &mut record.hands[0].streets[0].shares;
    flop.retain(|m| m.seat != 1);
    let opts = Options {
        in_progress: true,
        ..Options::default()
    };
    let v = verified(&record, &opts);
    assert!(v.is_valid(), "{:?}", v.differences);
    let owed = &v.hands[0].owed;
    assert_eq!(owed.len(), 1);
    assert_eq!(
        (owed[0].seat, owed[0].stage.as_str(), owed[0].missing.len()),
        (1, "flop", 3)
    );
    let table = Table::new(record.manifest.clone()).unwrap();
    let void = fairdeck_hidden::play::void_record(&table, &record.hands[0], &v.hands[0]).unwrap();
    assert_eq!((void.seat, void.stage.as_str()), (1, "flop"));
    // The finished reading counts the same gap as a missing message.
    assert_eq!(kinds(&record), ["missing-message"]);
}

#[test]
fn strict_reading_refuses_duplicate_keys_unknown_fields_and_bad_hex() {
    let Played { record, .. } = play("strict", 2, 6, 0, &[]);
    let text = record.to_json();
    let dup = text.replacen("\"version\": 3,", "\"version\": 3, \"version\": 3,", 1);
    let unknown = text.replacen("\"version\": 3,", "\"version\": 3, \"room\": 1,", 1);
    let pk = record.keys[0].public_key.to_string();
    let upper = text.replacen(&pk, &pk.to_uppercase(), 1);
    for bad in [dup, unknown, upper, "{".to_string()] {
        let v = verify_json(&bad, &Options::default()).verdict;
        assert_eq!(v.kinds(), ["document"], "{bad:.80}");
    }
}
