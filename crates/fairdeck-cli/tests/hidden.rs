//! `fairdeck hidden …` and `fair verify` of version-3 transcripts: a whole
//! three-seat hold'em hand played offline through the binary (three key
//! files), verified; bad files, wrong keys and tampered messages refused
//! with their kinds (docs/hidden-dealing.md §14–§15).

mod common;
mod hidden_table;

use common::{fairdeck, parse};
use fairdeck_hidden::ledger::void_digest;
use fairdeck_hidden::record::Void;
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
    // A key file relabelled as another seat's: a usage error, as a key file of
    // another table is (the key given is wrong, not the transcript).
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(t.path("seat1.key")).unwrap()).unwrap();
    file["seat"] = 0.into();
    let forged = t.write("forged.key", &file);
    let out = t.run(&["shuffle", "--key", &forged]);
    assert_eq!(out.status.code(), Some(2));
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

/// The tampering cases: the kind, the message a cheating seat edits (its
/// own: it re-signs it, see [`Table::resign`]) if the kind is that
/// message's failure, and the edit.
fn tamper_cases() -> Vec<(&'static str, Option<&'static str>, Edit)> {
    vec![
        (
            "share-proof",
            Some("/hands/0/deal/0"),
            Box::new(|d| {
                d["hands"][0]["deal"][0]["share"] = d["hands"][0]["deal"][1]["share"].clone()
            }),
        ),
        (
            "deck-size",
            Some("/hands/0/shuffles/1"),
            Box::new(|d| {
                d["hands"][0]["shuffles"][1]["deck"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
        ),
        (
            "shuffle-proof",
            Some("/hands/0/shuffles/2"),
            Box::new(|d| {
                d["hands"][0]["shuffles"][2]["proof"] =
                    d["hands"][0]["shuffles"][1]["proof"].clone()
            }),
        ),
        (
            "replay",
            None,
            Box::new(|d| d["keys"][2] = d["keys"][1].clone()),
        ),
        (
            "key-proof",
            Some("/keys/0"),
            Box::new(|d| d["keys"][0]["proof"]["c"] = d["keys"][0]["proof"]["s"].clone()),
        ),
        (
            "missing-message",
            None,
            Box::new(|d| {
                d["hands"][0]["streets"][2]["shares"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
        ),
        (
            "document",
            None,
            Box::new(|d| d["hands"][0]["extra"] = 1.into()),
        ),
        (
            "document",
            None,
            Box::new(|d| {
                let pk = d["keys"][0]["public_key"].as_str().unwrap().to_uppercase();
                d["keys"][0]["public_key"] = pk.into();
            }),
        ),
    ]
}

/// Every tampering case on `t`'s finished hand has its kind. In version
/// 3.1 the cheating seat re-signed its message, so the proof's failure is
/// the one found (no `signature`, no `log`) and it names that seat (its
/// own signature binds the bad proof to it); version 3 names nobody.
fn tampered_kinds(t: &Table) {
    let good = t.transcript();
    let signed = good["revision"] == 1;
    for (kind, place, edit) in tamper_cases() {
        let mut doc = good.clone();
        edit(&mut doc);
        if let Some(place) = place {
            t.resign(&good, &mut doc, place);
        }
        let (out, verdict) = verify(&t.write("bad.json", &doc));
        assert_eq!(out.status.code(), Some(1), "{kind}: {}", stderr(&out));
        let found = kinds(&verdict);
        assert!(found.contains(&kind.to_string()), "{kind}: {verdict}");
        let Some(place) = place.filter(|_| signed) else {
            continue;
        };
        assert!(
            !found.iter().any(|k| k == "signature" || k == "log"),
            "{kind}: the cheating seat signed and logged its message: {verdict}"
        );
        let seat = doc.pointer(place).unwrap()["seat"].as_u64().unwrap();
        let name = ["ann", "bob", "cat"][seat as usize];
        let theirs = format!("seat {seat} ({name})");
        for d in verdict["differences"].as_array().unwrap() {
            let blamed = match d["kind"].as_str().unwrap() {
                "key-proof" | "shuffle-proof" | "share-proof" => Some(theirs.as_str()),
                _ => None,
            };
            assert_eq!(d["at_fault"].as_str(), blamed, "{kind}: {d}");
        }
    }
    let (out, control) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(control["verdict"], "valid", "the control: {control}");
}

#[test]
fn bad_and_tampered_transcripts_are_refused_with_their_kind() {
    let t = played("tamper");
    let good = t.transcript();
    tampered_kinds(&t);
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
    // A step refuses to build on a tampered transcript, re-signed by the cheat.
    let mut doc = good.clone();
    doc["hands"][0]["deal"][0]["share"] = doc["hands"][0]["deal"][1]["share"].clone();
    t.resign(&good, &mut doc, "/hands/0/deal/0");
    t.write("t.json", &doc);
    let out = t.run(&["open", "--key", &t.arg("seat1.key")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("share-proof"), "{}", stderr(&out));
}

#[test]
fn version_3_transcripts_are_tampered_with_as_before() {
    tampered_kinds(&played_v3("tamper-v3"));
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
    // The void record is logged after the messages, as the hand's.
    let doc = t.transcript();
    let record: Void = serde_json::from_value(void).unwrap();
    let d = void_digest(&context(&doc), Some(1), &record);
    let log = doc["log"].as_array().unwrap();
    assert_eq!(log.len(), 3 + 3 + 8 + 1);
    assert_eq!(log.last(), Some(&serde_json::to_value(d).unwrap()));
    let (out, doc) = verify(&t.arg("t.json"));
    ok(&out);
    let status = doc["hands"][0]["status"].as_str().unwrap();
    assert!(
        status.starts_with("void at the deal stage: seat 2 (cat)"),
        "{status}"
    );
    // Without the void record the same transcript is missing messages, and
    // the log has the void's digest, which no record matches any more.
    let mut doc = t.transcript();
    doc["hands"][0].as_object_mut().unwrap().remove("void");
    let (out, verdict) = verify(&t.write("open.json", &doc));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(kinds(&verdict), ["missing-message", "log"]);
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

/// Every message's place in a transcript document, in the order the steps
/// of [`played`] added them.
fn places(doc: &Value) -> Vec<String> {
    let count = |p: &str| doc.pointer(p).map_or(0, |v| v.as_array().unwrap().len());
    let mut all: Vec<String> = (0..count("/keys")).map(|k| format!("/keys/{k}")).collect();
    for i in 0..count("/hands") {
        let h = format!("/hands/{i}");
        all.extend((0..count(&format!("{h}/shuffles"))).map(|j| format!("{h}/shuffles/{j}")));
        all.extend((0..count(&format!("{h}/deal"))).map(|k| format!("{h}/deal/{k}")));
        for s in 0..count(&format!("{h}/streets")) {
            let shares = format!("{h}/streets/{s}/shares");
            all.extend((0..count(&shares)).map(|k| format!("{shares}/{k}")));
        }
        all.extend((0..count(&format!("{h}/showdown"))).map(|k| format!("{h}/showdown/{k}")));
    }
    all
}

#[test]
fn hidden_new_writes_version_3_1_every_message_signed_and_logged() {
    let t = played("signed");
    let doc = t.transcript();
    assert_eq!(doc["revision"], 1);
    // No room: no room key and no signed head (the file is the bulletin board).
    assert!(
        doc.get("room").is_none() && doc.get("head").is_none(),
        "{doc}"
    );
    let all = places(&doc);
    assert_eq!(all.len(), 3 + 3 + 12 + 15 + 4);
    for place in &all {
        let m = doc.pointer(place).unwrap();
        assert!(m["signature"].is_object(), "{place} is signed: {m}");
    }
    // The log: every message's digest, in the order the steps added them.
    let log: Vec<Value> = all
        .iter()
        .map(|p| serde_json::to_value(digest(&doc, p)).unwrap())
        .collect();
    assert_eq!(doc["log"].as_array().unwrap(), &log);
    let (out, verdict) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(
        (&verdict["verdict"], &verdict["signed"]),
        (&"valid".into(), &true.into())
    );
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("t.json")])
        .output()
        .unwrap();
    ok(&text);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("signed by its seat"), "{text}");
}

/// In a version-3.1 transcript a message signed with another seat's key is
/// `signature`; one without its signature makes the document unreadable
/// (`document`, spec §17). Neither names anybody: without a room nobody
/// answers for the file.
#[test]
fn an_unsigned_or_foreign_signed_message_is_refused_naming_nobody() {
    let t = played("unsigned");
    let good = t.transcript();
    let places = [
        "/keys/1",
        "/hands/0/shuffles/1",
        "/hands/0/deal/0",
        "/hands/0/streets/0/shares/2",
        "/hands/0/showdown/0",
    ];
    for place in places {
        let seat = good.pointer(place).unwrap()["seat"].as_u64().unwrap();
        let other = (seat + 1) % 3;
        let mut unsigned = good.clone();
        let m = unsigned
            .pointer_mut(place)
            .unwrap()
            .as_object_mut()
            .unwrap();
        assert!(m.remove("signature").is_some());
        let mut foreign = good.clone();
        foreign.pointer_mut(place).unwrap()["signature"] =
            sign(&good, place, seat, &t.secret(other));
        // The signature is outside the digest: the log still matches, so
        // the missing or foreign signature is the one difference.
        let cases = [
            (
                "unsigned",
                unsigned,
                "document",
                "without its signature".to_string(),
            ),
            (
                "signed by another seat",
                foreign,
                "signature",
                format!("not signed by seat {seat}"),
            ),
        ];
        for (what, doc, kind, says) in cases {
            let (out, verdict) = verify(&t.write("bad.json", &doc));
            assert_eq!(out.status.code(), Some(1), "{place} {what}: {verdict}");
            assert_eq!(kinds(&verdict), [kind], "{place} {what}: {verdict}");
            let d = &verdict["differences"][0];
            assert!(d.get("at_fault").is_none(), "{place} {what}: {d}");
            let message = d["message"].as_str().unwrap();
            assert!(message.contains(&says), "{place} {what}: {message}");
            // A seat's step refuses to build on it.
            t.write("t.json", &doc);
            let out = t.run(&["cards", "--key", &t.arg(&format!("seat{other}.key"))]);
            assert_eq!(out.status.code(), Some(1), "{place} {what}");
            assert!(stderr(&out).contains(kind), "{}", stderr(&out));
        }
    }
    t.write("t.json", &good);
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("bad.json")])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("signature") && !text.contains("at fault"),
        "{text}"
    );
    // The control: the untouched transcript verifies.
    let (out, verdict) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(verdict["verdict"], "valid");
}

#[test]
fn a_version_3_transcript_still_plays_every_step_unsigned_and_says_so() {
    let t = played_v3("plain");
    let doc = t.transcript();
    assert!(doc.get("revision").is_none() && doc.get("log").is_none());
    let text = serde_json::to_string(&doc).unwrap();
    assert!(!text.contains("signature"), "{text}");
    let (out, verdict) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(
        (&verdict["verdict"], &verdict["signed"]),
        (&"valid".into(), &false.into())
    );
    let checked = verdict["checked"].as_array().unwrap();
    assert!(
        checked
            .iter()
            .any(|c| c.as_str().unwrap().contains("carries no signatures")),
        "{verdict}"
    );
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("t.json")])
        .output()
        .unwrap();
    ok(&text);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("messages are not signed"), "{text}");
    // A hand voided at the deal, and a table voided at the keys: no log.
    let stalled = dealt_v3("plain-stall");
    stalled.step(&["share", "--street", "deal"], 0);
    ok(&stalled.run(&["void"]));
    let doc = stalled.transcript();
    assert_eq!(doc["hands"][0]["void"]["seat"], 1);
    assert!(doc.get("revision").is_none() && doc.get("log").is_none());
    let (out, verdict) = verify(&stalled.arg("t.json"));
    ok(&out);
    assert_eq!(verdict["signed"], false);
    let keys = started_v3("plain-keys");
    add_key(&keys, 0);
    ok(&keys.run(&["void"]));
    let doc = keys.transcript();
    assert_eq!(doc["void"]["seat"], 1);
    assert!(doc.get("revision").is_none() && doc.get("log").is_none());
    ok(&verify(&keys.arg("t.json")).0);
}

fn add_key(t: &Table, seat: u64) {
    let secret = t.arg(&format!("seat{seat}.key"));
    let s = seat.to_string();
    ok(&t.run(&["key", "--seat", &s, "--secret-out", &secret]));
}

#[test]
fn a_table_void_at_the_keys_is_logged() {
    let t = started("keys-void");
    add_key(&t, 0);
    add_key(&t, 1);
    let out = t.run(&["void"]);
    ok(&out);
    let void: Void = serde_json::from_value(parse(&out)).unwrap();
    assert_eq!((void.stage.as_str(), void.seat), ("keys", 2));
    let doc = t.transcript();
    let log = doc["log"].as_array().unwrap();
    assert_eq!(log.len(), 3, "two keys and the void: {doc}");
    let d = void_digest(&context(&doc), None, &void);
    assert_eq!(log[2], serde_json::to_value(d).unwrap());
    let (out, verdict) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(verdict["signed"], true);
    // Without the void record the key is missing, and the log has an entry
    // no record matches.
    let mut open = doc.clone();
    open.as_object_mut().unwrap().remove("void");
    let (out, verdict) = verify(&t.write("open.json", &open));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(kinds(&verdict), ["missing-message", "log"]);
}
