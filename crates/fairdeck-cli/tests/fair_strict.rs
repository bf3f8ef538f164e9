//! Strict documents and the one text rule through the CLI (issue 32 items 3
//! and 4): a transcript with a duplicate key, an unknown field, upper-case
//! hex or a card not spelled as the specification spells it is `invalid`
//! with the kind `document`; table ids, seat names and seeds follow one rule
//! in `fair table new`, `fair seed commit` and `fair verify`; and
//! `fair deal --table … --format pbn` writes a bridge table's boards as PBN
//! (and refuses any other game).

mod common;

use common::{fairdeck, parse};
use serde_json::Value;

/// The spec's "hold'em, 2 seats" vector: its transcript (text) and `C`.
fn heads_up() -> (String, String) {
    let doc = include_str!("../../../docs/fair-dealing.md");
    let block = doc
        .split("```json\n")
        .find(|b| b.starts_with("{\"vector\": \"hold'em, 2 seats\""))
        .and_then(|b| b.split("```").next())
        .unwrap();
    let v: Value = serde_json::from_str(block).unwrap();
    let t = &v["transcript"];
    let text = block[block.find("\"transcript\":\n").unwrap() + 14..]
        .trim_end()
        .strip_suffix('}')
        .unwrap()
        .to_string();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), *t);
    (text, t["commitment"].as_str().unwrap().to_string())
}

/// `fair verify` of `text` with the published commitment: (exit, report).
fn verify(text: &str, extra: &[&str]) -> (i32, Value) {
    let (_, c) = heads_up();
    let out = fairdeck()
        .args([
            "--format",
            "json",
            "fair",
            "verify",
            "-",
            "--commitment",
            &c,
        ])
        .args(extra)
        .write_stdin(text.to_string())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code != 0 || out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (code, parse(&out))
}

fn refused_as_document(text: &str, says: &str) {
    let (code, report) = verify(text, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["verdict"], "invalid");
    assert_eq!(report["differences"][0]["kind"], "document", "{report}");
    let message = report["differences"][0]["message"].as_str().unwrap();
    assert!(message.contains(says), "{message}");
}

#[test]
fn the_vector_is_valid_as_written() {
    let (text, _) = heads_up();
    let (code, report) = verify(&text, &[]);
    assert_eq!(
        (code, report["verdict"].as_str()),
        (0, Some("partial")),
        "{report}"
    );
}

#[test]
fn a_duplicate_key_with_the_wrong_value_first_is_refused() {
    // Issue 32: these verified `valid` (the last value won).
    let (text, _) = heads_up();
    for (from, to) in [
        (
            "\"server_secret\": ",
            "\"server_secret\": \"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\", \"server_secret\": ",
        ),
        ("\"seed\": \"b\"", "\"seed\": \"x\", \"seed\": \"b\""),
        (
            "{\"name\": \"bo\", \"role\": \"player\", \"cards\": [\"6C\", \"6H\"]}",
            "{\"name\": \"bo\", \"role\": \"player\", \"cards\": [\"AS\", \"AH\"], \"cards\": [\"6C\", \"6H\"]}",
        ),
        ("\"first\": 0", "\"first\": 5, \"first\": 0"),
    ] {
        assert!(text.contains(from), "{from}");
        refused_as_document(&text.replacen(from, to, 1), "twice");
    }
}

#[test]
fn unknown_fields_upper_case_hex_and_loose_card_spellings_are_refused() {
    let (text, c) = heads_up();
    refused_as_document(
        &text.replacen("\"deals\"", "\"note\": 1, \"deals\"", 1),
        "unknown field \"note\"",
    );
    refused_as_document(&text.replacen(&c, &c.to_uppercase(), 1), "lowercase");
    for bad in ["\" 9D\"", "\"3d \"", "\"9♦\"", "\"9d\""] {
        let edited = text.replacen("[\"9D\", \"3D\"]", &format!("[{bad}, \"3D\"]"), 1);
        refused_as_document(&edited, "not a card");
    }
    refused_as_document(
        &text.replacen("\"nonce\": 0", "\"nonce\": 0.0", 1),
        "integer",
    );
    // A flag typed by a person may be in either case.
    let (code, report) = verify(&text, &["--lock", &"A".repeat(64)]);
    assert_eq!(code, 1);
    assert_eq!(report["differences"][0]["kind"], "published-lock");
}

#[test]
fn a_duplicate_card_in_a_hand_is_a_difference() {
    let (text, _) = heads_up();
    let (code, report) = verify(
        &text.replacen("[\"9D\", \"3D\"]", "[\"9D\", \"9D\"]", 1),
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(report["differences"][0]["kind"], "hand", "{report}");
}

fn usage_of(args: &[String], says: &str) {
    usage(&args.iter().map(String::as_str).collect::<Vec<_>>(), says);
}

fn usage(args: &[&str], says: &str) {
    let out = fairdeck().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn names_and_seeds_follow_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k").to_str().unwrap().to_string();
    let new = |game: &str, seats: &str, id: &str| {
        vec![
            "fair".to_string(),
            "table".into(),
            "new".into(),
            "--id".into(),
            id.into(),
            "--game".into(),
            game.into(),
            "--seats".into(),
            seats.into(),
            "--secret-out".into(),
            key.clone(),
        ]
    };

    for (seats, says) in [
        ("ann,Board", "name of a pile"),
        ("ann\u{200b},bo", "U+200B"),
        ("ann,bo\u{202e}", "U+202E"),
        ("Zoe\u{308},bo", "NFC"),
    ] {
        usage_of(&new("holdem", seats, "t"), says);
    }
    usage_of(&new("holdem", "ann,bo", "t\u{2028}"), "U+2028");
    usage_of(&new("bridge", "N,E,S,W", "t"), "bridge table's seats");
    assert!(
        !std::path::Path::new(&key).exists(),
        "no secret for a refused table"
    );
    let table = dir.path().join("table.json").to_str().unwrap().to_string();
    let mut ok = new("holdem", "ann,bo", "t");
    ok.extend(["--out".into(), table.clone()]);
    assert!(fairdeck().args(&ok).output().unwrap().status.success());
    usage(
        &[
            "fair",
            "seed",
            "commit",
            "--table",
            &table,
            "--seat",
            "ann",
            "--seed",
            "a\u{200b}",
        ],
        "U+200B",
    );
    usage(
        &[
            "fair", "seed", "commit", "--table", &table, "--seat", "ann", "--seed", "e\u{301}",
        ],
        "NFC",
    );
    let (text, c) = heads_up();
    let path = dir.path().join("t.json");
    std::fs::write(&path, text).unwrap();
    usage(
        &[
            "fair",
            "verify",
            path.to_str().unwrap(),
            "--commitment",
            &c,
            "--seat",
            "ann",
            "--seed",
            "a\u{202e}",
        ],
        "a seed holds U+202E",
    );
}

#[test]
fn a_seed_breaking_the_rule_in_a_transcript_is_a_document_difference() {
    let (text, _) = heads_up();
    refused_as_document(
        &text.replacen("\"seed\": \"a\"", "\"seed\": \"a\\u200b\"", 1),
        "U+200B",
    );
}

/// `fair deal --table` of a fresh table of `game` with these seats, as
/// JSON and as PBN.
fn dealt(game: &str, seats: &[&str]) -> [std::process::Output; 2] {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let run = |args: &[String]| {
        let out = fairdeck()
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    run(&s(&[
        "fair",
        "table",
        "new",
        "--id",
        "t 1",
        "--game",
        game,
        "--seats",
        &seats.join(","),
        "--deals",
        "1-2",
        "--secret-out",
        &p("room.key"),
        "--out",
        &p("table.json"),
    ]));
    let (mut commits, mut reveals) = (Vec::new(), Vec::new());
    for seat in seats {
        for (step, list) in [("commit", &mut commits), ("reveal", &mut reveals)] {
            let file = p(&format!("{seat}.{step}"));
            std::fs::write(
                &file,
                run(&s(&[
                    "fair",
                    "seed",
                    step,
                    "--table",
                    &p("table.json"),
                    "--seat",
                    seat,
                    "--seed",
                    seat,
                ])),
            )
            .unwrap();
            list.push(file);
        }
    }
    let mut lock = s(&[
        "fair",
        "table",
        "lock",
        "--table",
        &p("table.json"),
        "--commitments",
    ]);
    lock.extend(commits.clone());
    let l: Value = serde_json::from_slice(&run(&lock)).unwrap();
    let mut deal = s(&[
        "fair",
        "deal",
        "--table",
        &p("table.json"),
        "--secret-file",
        &p("room.key"),
        "--lock",
        l["lock"].as_str().unwrap(),
        "--commitments",
    ]);
    deal.extend(commits);
    deal.push("--reveals".into());
    deal.extend(reveals);
    ["json", "pbn"].map(|f| {
        fairdeck()
            .args(["--format", f])
            .args(&deal)
            .output()
            .unwrap()
    })
}

#[test]
fn a_version_2_bridge_table_is_written_as_pbn_and_other_games_are_refused() {
    let seats = ["North", "East", "South", "West"];
    let [json, pbn] = dealt("bridge", &seats);
    let json = parse(&json);
    assert!(pbn.status.success());
    let text = String::from_utf8(pbn.stdout).unwrap();
    let boards = fairdeck::cards::pbn::read_strict(&text).unwrap();
    assert_eq!(boards.len(), 2);
    for (b, d) in boards.iter().zip(json["deals"].as_array().unwrap()) {
        assert_eq!(b.board.number(), d["nonce"].as_u64().unwrap());
        for (hand, pile) in b.hands.iter().zip(d["piles"].as_array().unwrap()) {
            let mut want: Vec<String> = pile["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            let mut got: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want);
        }
    }
    assert!(
        text.contains("to verify, use the JSON transcript"),
        "{text}"
    );
    let [_, other] = dealt("holdem", &["ann", "bo"]);
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("--format pbn writes bridge boards") && err.lines().count() == 1,
        "{err}"
    );
    assert!(other.stdout.is_empty());
}
