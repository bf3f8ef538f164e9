//! `fairdeck hidden …` and `fair verify` of version-3 transcripts: a whole
//! three-seat hold'em hand played offline through the binary (three key
//! files), verified; bad files, wrong keys and tampered messages refused
//! with their kinds (docs/hidden-dealing.md §14–§15).

mod common;
mod hidden_table;

use common::{fairdeck, parse};
use hidden_table::*;
use serde_json::Value;

/// A change made to a transcript document.
type Edit = Box<dyn Fn(&mut Value)>;

#[test]
fn a_three_seat_holdem_hand_is_played_offline_and_verified() {
    let t = played("offline");
    let (out, doc) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(doc["verdict"], "valid", "{doc}");
    let hand = &doc["hands"][0];
    assert_eq!(hand["shuffles_verified"], 3);
    assert_eq!(hand["shares_verified"], 12 + 15 + 4);
    assert_eq!(hand["community"].as_array().unwrap().len(), 5);
    assert_eq!(hand["opened"].as_array().unwrap().len(), 4);
    let hidden = hand["hidden"].as_array().unwrap();
    assert!(
        hidden
            .iter()
            .any(|h| h["what"].as_str().unwrap().starts_with("seat 1 (bob)")),
        "{hidden:?}"
    );
    // Each seat sees its own two cards; they are none of the community cards.
    let board: Vec<String> = hand["community"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap().into())
        .collect();
    for seat in 0..3 {
        let key = t.arg(&format!("seat{seat}.key"));
        let tr = t.arg("t.json");
        let out = fairdeck()
            .args([
                "--format",
                "json",
                "hidden",
                "cards",
                "--transcript",
                &tr,
                "--key",
                &key,
            ])
            .output()
            .unwrap();
        ok(&out);
        let own = parse(&out)["own"].as_array().unwrap().clone();
        assert_eq!(own.len(), 2);
        assert!(
            own.iter()
                .all(|c| !board.contains(&c["card"].as_str().unwrap().to_string()))
        );
    }
    // The text verdict says valid and names what stays hidden.
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("t.json")])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("valid:") && text.contains("hidden: seat 1 (bob)"),
        "{text}"
    );
}

#[test]
fn steps_out_of_turn_and_wrong_key_files_are_refused() {
    let t = Table {
        dir: tempfile::tempdir().unwrap(),
    };
    ok(&t.run(&["new", "--table", "turns", "--seats", "ann,bob"]));
    for seat in 0..2 {
        let secret = t.arg(&format!("seat{seat}.key"));
        ok(&t.run(&["key", "--seat", &seat.to_string(), "--secret-out", &secret]));
    }
    // Seat 1 may not shuffle before seat 0.
    let key1 = t.arg("seat1.key");
    let out = t.run(&["shuffle", "--key", &key1]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("seat 0's turn"), "{}", stderr(&out));
    // A key file relabelled as another seat's.
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(t.path("seat1.key")).unwrap()).unwrap();
    file["seat"] = 0.into();
    let forged = t.write("forged.key", &file);
    let out = t.run(&["shuffle", "--key", &forged]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("wrong-key"), "{}", stderr(&out));
    // A key file of another table; not a key file at all.
    file["table"] = "elsewhere".into();
    let other = t.write("other.key", &file);
    let out = t.run(&["shuffle", "--key", &other]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the key of table \"elsewhere\""),
        "{}",
        stderr(&out)
    );
    let tr = t.arg("t.json");
    let out = t.run(&["shuffle", "--key", &tr]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).lines().count(),
        1,
        "one line: {}",
        stderr(&out)
    );
    // A second key for a seat, and the secret file is never overwritten.
    let out = t.run(&["key", "--seat", "1", "--secret-out", &t.arg("new.key")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!t.path("new.key").exists());
}

#[test]
fn bad_and_tampered_transcripts_are_refused_with_their_kind() {
    let t = played("tamper");
    let good = t.transcript();
    let cases: Vec<(&str, Edit)> = vec![
        (
            "share-proof",
            Box::new(|d| {
                d["hands"][0]["deal"][0]["share"] = d["hands"][0]["deal"][1]["share"].clone()
            }),
        ),
        (
            "deck-size",
            Box::new(|d| {
                d["hands"][0]["shuffles"][1]["deck"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
        ),
        (
            "shuffle-proof",
            Box::new(|d| {
                d["hands"][0]["shuffles"][2]["proof"] =
                    d["hands"][0]["shuffles"][1]["proof"].clone()
            }),
        ),
        ("replay", Box::new(|d| d["keys"][2] = d["keys"][1].clone())),
        (
            "key-proof",
            Box::new(|d| d["keys"][0]["proof"]["c"] = d["keys"][0]["proof"]["s"].clone()),
        ),
        (
            "missing-message",
            Box::new(|d| {
                d["hands"][0]["streets"][2]["shares"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
        ),
        ("document", Box::new(|d| d["hands"][0]["extra"] = 1.into())),
        (
            "document",
            Box::new(|d| {
                let pk = d["keys"][0]["public_key"].as_str().unwrap().to_uppercase();
                d["keys"][0]["public_key"] = pk.into();
            }),
        ),
    ];
    for (kind, edit) in cases {
        let mut doc = good.clone();
        edit(&mut doc);
        let (out, verdict) = verify(&t.write("bad.json", &doc));
        assert_eq!(out.status.code(), Some(1), "{kind}: {}", stderr(&out));
        assert!(
            kinds(&verdict).contains(&kind.to_string()),
            "{kind}: {verdict}"
        );
    }
    // A duplicate key is refused (a JSON reader that keeps the last one would not see it).
    let text = std::fs::read_to_string(t.path("t.json")).unwrap();
    let dup = text.replacen("\"version\": 3,", "\"version\": 3, \"version\": 3,", 1);
    std::fs::write(t.path("dup.json"), dup).unwrap();
    let (out, verdict) = verify(&t.arg("dup.json"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(kinds(&verdict), ["document"]);
    // Not JSON at all: a one-line usage error.
    std::fs::write(t.path("junk.json"), "not json").unwrap();
    let (out, _) = verify(&t.arg("junk.json"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1);
    // A step refuses to build on a tampered transcript.
    let mut doc = good.clone();
    doc["hands"][0]["deal"][0]["share"] = doc["hands"][0]["deal"][1]["share"].clone();
    t.write("t.json", &doc);
    let out = t.run(&["open", "--key", &t.arg("seat1.key")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("share-proof"), "{}", stderr(&out));
}

#[test]
fn a_stalled_seat_is_named_in_the_void_record() {
    let t = dealt("stall");
    for seat in [0, 1] {
        t.step(&["share", "--street", "deal"], seat);
    }
    // Seat 2 never sends its deal shares; after the deadline anyone voids the hand.
    let out = t.run(&["void"]);
    ok(&out);
    let void = parse(&out);
    assert_eq!(
        (void["stage"].as_str(), void["seat"].as_u64()),
        (Some("deal"), Some(2))
    );
    assert_eq!(void["missing"].as_array().unwrap().len(), 4);
    let (out, doc) = verify(&t.arg("t.json"));
    ok(&out);
    let status = doc["hands"][0]["status"].as_str().unwrap();
    assert!(
        status.starts_with("void at the deal stage: seat 2 (cat)"),
        "{status}"
    );
    // Without the void record the same transcript is missing messages.
    let mut doc = t.transcript();
    doc["hands"][0].as_object_mut().unwrap().remove("void");
    let (out, verdict) = verify(&t.write("open.json", &doc));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(kinds(&verdict), ["missing-message"]);
}

#[test]
fn a_street_nobody_began_is_voided_naming_seat_0_and_its_shares() {
    let t = dealt("noflop");
    for seat in 0..3 {
        t.step(&["share", "--street", "deal"], seat);
    }
    // The deal is complete; nobody ever sends a share of the flop.
    let out = t.run(&["void"]);
    ok(&out);
    let void = parse(&out);
    let positions: Vec<u64> = void["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["message"], "share");
            m["position"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(
        (void["stage"].as_str(), void["seat"].as_u64(), positions),
        (Some("flop"), Some(0), vec![7, 8, 9])
    );
    assert!(
        stderr(&out).contains("hand 1 void at the flop stage: seat 0 did not send 3 message(s)"),
        "{}",
        stderr(&out)
    );
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("t.json")])
        .output()
        .unwrap();
    ok(&text);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("void at the flop stage: seat 0 (ann) did not send"),
        "{text}"
    );
    let (out, doc) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(doc["verdict"], "valid");
    // A void hand has nothing more to void.
    let again = t.run(&["void"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("hand 1 owes no message: nothing to void"));
}

#[test]
fn a_complete_hand_has_nothing_to_void() {
    let t = played("whole");
    let before = t.transcript();
    let out = t.run(&["void"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim_end(),
        "fairdeck: hand 1 owes no message: nothing to void"
    );
    assert_eq!(t.transcript(), before, "the transcript is left as it was");
}
