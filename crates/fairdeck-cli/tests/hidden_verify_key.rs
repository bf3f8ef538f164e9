//! `fair verify TRANSCRIPT --key KEYFILE` of a version-3 transcript: with a
//! seat's key file it also opens that seat's own private cards (text and
//! JSON); a key of another table, of another seat, of no seat of the table,
//! or a file that cannot be read is a one-line usage error (exit 2), and
//! `--key` with a version-1 transcript is one too (the same check covers
//! version 2: anything not version 3).

mod common;
mod hidden_table;

use std::process::Output;

use common::fairdeck;
use hidden_table::*;
use serde_json::Value;

fn verify_with(args: &[&str]) -> Output {
    fairdeck()
        .args(["fair", "verify"])
        .args(args)
        .output()
        .unwrap()
}

fn usage_line(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let text = stderr(out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(out.stdout.is_empty());
    text
}

/// Bob's (seat 1) cards as `hidden cards` reads them: the reference.
fn cards_of_bob(t: &Table) -> Vec<Value> {
    let out = fairdeck()
        .args(["--format", "json", "hidden", "cards", "--transcript"])
        .args([t.arg("t.json"), "--key".into(), t.arg("seat1.key")])
        .output()
        .unwrap();
    ok(&out);
    let report: Value = common::parse(&out);
    report["own"].as_array().unwrap().clone()
}

#[test]
fn a_seat_key_opens_its_own_cards_in_text_and_json() {
    let t = played("verify-key");
    let own = cards_of_bob(&t);
    assert_eq!(own.len(), 2, "bob's two hole cards");
    let json = verify_with(&[
        "--format",
        "json",
        &t.arg("t.json"),
        "--key",
        &t.arg("seat1.key"),
    ]);
    ok(&json);
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["verdict"], "valid");
    assert_eq!(doc["hands"][0]["own"].as_array().unwrap(), &own);
    let text = verify_with(&[&t.arg("t.json"), "--key", &t.arg("seat1.key")]);
    ok(&text);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with("reading as seat 1 (bob), with its key\n"),
        "{text}"
    );
    let line = text.lines().find(|l| l.contains("your cards:")).unwrap();
    for card in &own {
        let name = card["card"].as_str().unwrap();
        let position = card["position"].as_u64().unwrap();
        assert!(
            line.contains(&format!("{name} (position {position})")),
            "{line}"
        );
    }
    // Bob folded (seats 0 and 2 opened): without his key his cards stay
    // hidden, so nothing but the key printed them.
    let plain = verify_with(&[&t.arg("t.json")]);
    ok(&plain);
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(!plain.contains("your cards"), "{plain}");
    assert!(!plain.contains("reading as"), "{plain}");
}

#[test]
fn a_key_of_another_table_seat_or_none_is_a_usage_error() {
    let t = played("verify-key-bad");
    let other = dealt("another-table");
    let line = usage_line(&verify_with(&[
        &t.arg("t.json"),
        "--key",
        &other.arg("seat1.key"),
    ]));
    assert!(
        line.contains("the key of table \"another-table\", not \"verify-key-bad\""),
        "{line}"
    );
    // Bob's secret in a file that says it is seat 0's.
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(t.path("seat1.key")).unwrap()).unwrap();
    file["seat"] = 0.into();
    let renamed = t.write("renamed.key", &file);
    let line = usage_line(&verify_with(&[&t.arg("t.json"), "--key", &renamed]));
    assert!(
        line.contains("not the key seat 0 published in the transcript"),
        "{line}"
    );
    file["seat"] = 7.into();
    let beyond = t.write("beyond.key", &file);
    let line = usage_line(&verify_with(&[&t.arg("t.json"), "--key", &beyond]));
    assert!(
        line.contains("the key of seat 7, but the table has 3 seats"),
        "{line}"
    );
    // `hidden cards` with that file panicked (index out of bounds); now the same usage error.
    let line = usage_line(&t.run(&["cards", "--key", &beyond]));
    assert!(line.contains("the key of seat 7"), "{line}");
    let line = usage_line(&verify_with(&[
        &t.arg("t.json"),
        "--key",
        &t.arg("no-such.key"),
    ]));
    assert!(line.contains("--key: cannot read"), "{line}");
    std::fs::write(t.path("junk.key"), "not a key").unwrap();
    let line = usage_line(&verify_with(&[
        &t.arg("t.json"),
        "--key",
        &t.arg("junk.key"),
    ]));
    assert!(
        line.contains("not a secret key file of `fairdeck hidden key`"),
        "{line}"
    );
}

#[test]
fn key_with_a_version_1_transcript_is_a_usage_error() {
    let t = dealt("verify-key-v1");
    let secret = "ab".repeat(32);
    let deal = v1_deal(&secret);
    std::fs::write(t.path("v.json"), &deal.stdout).unwrap();
    let v1 = [t.arg("v.json"), "--server-secret".into(), secret];
    let v1: Vec<&str> = v1.iter().map(String::as_str).collect();
    let line = usage_line(&verify_with(
        &[&v1[..], &["--key", &t.arg("seat1.key")]].concat(),
    ));
    assert!(
        line.contains("--key reads a seat's own cards of a version 3"),
        "{line}"
    );
    // The same file verifies without --key (the control).
    ok(&verify_with(&v1));
}

#[test]
fn version_2_evidence_flags_with_a_version_3_transcript_are_usage_errors() {
    let t = played("verify-v2-flags");
    let zeros = "0".repeat(64);
    for extra in [
        vec!["--commitment", zeros.as_str()],
        vec!["--lock", zeros.as_str()],
        vec!["--played", "0-1"],
    ] {
        let mut args = vec![t.arg("t.json")];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = usage_line(&verify_with(&args));
        assert!(text.contains("version 3"), "{extra:?}: {text}");
    }
    // The control: the same transcript without them verifies.
    ok(&verify_with(&[&t.arg("t.json")]));
}

/// The spec's version-2 "hold'em, 2 seats" vector: its transcript and `C`.
fn version_2_vector() -> (Value, String) {
    let doc = include_str!("../../../docs/fair-dealing.md");
    let block = doc
        .split("```json\n")
        .find(|b| b.starts_with("{\"vector\": \"hold'em, 2 seats\""))
        .and_then(|b| b.split("```").next())
        .unwrap();
    let v: Value = serde_json::from_str(block).unwrap();
    let c = v["transcript"]["commitment"].as_str().unwrap().to_string();
    (v["transcript"].clone(), c)
}

/// Every flag of `fair verify` is read by the inputs it names and refused
/// (exit 2, one line naming it) by every other: a flag silently ignored
/// would give "valid" for a nonce, a seed or a secret never looked at.
/// Each version is checked both ways: its own flags verify, the others'
/// are refused.
#[test]
fn every_flag_of_another_version_is_a_usage_error_naming_it() {
    let t = played("verify-flags");
    let secret = "ab".repeat(32);
    let deal = v1_deal(&secret);
    let v1_doc: Value = serde_json::from_slice(&deal.stdout).unwrap();
    let v1_commitment = v1_doc["commitment"].as_str().unwrap().to_string();
    let v1 = t.write("v1.json", &v1_doc);
    let (v2_doc, v2_commitment) = version_2_vector();
    let v2 = t.write("v2.json", &v2_doc);
    let v3 = t.arg("t.json");
    std::fs::write(t.path("secret.hex"), format!("{secret}\n")).unwrap();
    std::fs::write(t.path("evidence.json"), "[]\n").unwrap();
    let zeros = "0".repeat(64);
    let (secret_file, key, evidence) = (
        t.arg("secret.hex"),
        t.arg("seat1.key"),
        t.arg("evidence.json"),
    );
    // (the flag as named in the error, its arguments, the inputs that read it)
    let flags: Vec<(&str, Vec<&str>, &[&str])> = vec![
        ("--server-secret", vec!["--server-secret", &secret], &["v1"]),
        (
            "--secret-file",
            vec!["--secret-file", &secret_file],
            &["v1"],
        ),
        ("--client-seed", vec!["--client-seed", "alice"], &[]),
        ("--nonce", vec!["--nonce", "0"], &[]),
        ("--game", vec!["-g", "holdem"], &[]),
        ("--deck", vec!["-d", "standard"], &[]),
        ("--commitment", vec!["--commitment", &zeros], &["v1", "v2"]),
        ("--lock", vec!["--lock", &zeros], &["v2"]),
        ("--seat", vec!["--seat", "ann", "--seed", "x"], &["v2"]),
        ("--played", vec!["--played", "0"], &["v2"]),
        ("--key", vec!["--key", &key], &["v3"]),
        ("--evidence", vec!["--evidence", &evidence], &["v3"]),
    ];
    let inputs = [
        (
            "v1",
            v1.as_str(),
            "version 1",
            vec!["--server-secret", &secret],
        ),
        ("v2", v2.as_str(), "version 2", vec![]),
        ("v3", v3.as_str(), "version 3", vec![]),
    ];
    for (name, file, version, base) in &inputs {
        // The control: the input alone verifies.
        ok(&verify_with(&[&[*file][..], base].concat()));
        for (flag, args, readers) in &flags {
            if readers.contains(name) {
                continue;
            }
            // A version-1 deal needs its secret; a secret flag replaces it.
            let base: &[&str] = if flag.contains("secret") { &[] } else { base };
            let out = verify_with(&[&[*file][..], base, args].concat());
            let line = usage_line(&out);
            assert!(line.contains(flag), "{name} {args:?}: {line}");
            assert!(line.contains(version), "{name} {args:?}: {line}");
        }
    }
    // Each version's own flags: read, not refused.
    let secret_file_run = verify_with(&[
        &v1,
        "--secret-file",
        &secret_file,
        "--commitment",
        &v1_commitment,
    ]);
    ok(&secret_file_run);
    ok(&verify_with(&[
        &v1,
        "--server-secret",
        &secret,
        "--commitment",
        &v1_commitment,
    ]));
    ok(&verify_with(&[
        &v2,
        "--commitment",
        &v2_commitment,
        "--played",
        "0",
    ]));
    ok(&verify_with(&[&v3, "--key", &key]));
}

/// One exit code for one kind of mistake: a key file that is not the
/// seat's key — of another table, or of this table but not the key its
/// seat published — is a usage error (exit 2) for `fair verify --key`,
/// `hidden cards` and every step alike; an all-zero secret says so.
#[test]
fn a_wrong_key_is_a_usage_error_everywhere_and_zero_is_named() {
    let t = dealt("verify-key-kinds");
    let other = dealt("another-kinds");
    // Bob's secret in a file that says it is seat 0's: of this table, wrong.
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(t.path("seat1.key")).unwrap()).unwrap();
    file["seat"] = 0.into();
    let renamed = t.write("renamed.key", &file);
    let foreign = other.arg("seat0.key");
    for key in [&renamed, &foreign] {
        for step in [&["cards"][..], &["open"], &["share", "--street", "flop"]] {
            let line = usage_line(&t.run(&[step, &["--key", key][..]].concat()));
            assert!(line.contains("key"), "{step:?} {key}: {line}");
        }
    }
    file["secret_key"] = "0".repeat(64).into();
    let zero = t.write("zero.key", &file);
    let line = usage_line(&t.run(&["cards", "--key", &zero]));
    assert!(line.contains("a secret key of zero"), "{line}");
    assert!(!line.contains("below the group order"), "{line}");
}

/// `hidden new --seats 'a, b'` would make a seat named " b" that `--seat b`
/// never finds: white space around a name is refused. A seat name that is
/// a number wins over the index, as `--seat`'s help says.
#[test]
fn seat_names_are_read_as_written_and_a_name_wins_over_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let t = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let out = fairdeck()
        .args([
            "hidden",
            "new",
            "--table",
            "sp",
            "--seats",
            "a, b",
            "--transcript",
        ])
        .arg(t("spaced.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("\" b\" begins or ends with white space"));
    assert!(!dir.path().join("spaced.json").exists());
    let out = fairdeck()
        .args([
            "hidden",
            "new",
            "--table",
            "nums",
            "--seats",
            "1,0,2",
            "--transcript",
        ])
        .arg(t("nums.json"))
        .output()
        .unwrap();
    ok(&out);
    let out = fairdeck()
        .args([
            "--format",
            "json",
            "hidden",
            "key",
            "--seat",
            "1",
            "--secret-out",
        ])
        .arg(t("k.key"))
        .args(["--seed", "nums", "--transcript"])
        .arg(t("nums.json"))
        .output()
        .unwrap();
    ok(&out);
    let key: Value = serde_json::from_slice(&std::fs::read(t("k.key")).unwrap()).unwrap();
    assert_eq!(key["seat"], 0, "the seat named \"1\" is seat 0");
    let help = fairdeck()
        .args(["hidden", "key", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("A name wins"), "{help}");
}

/// A version-1 deal (`fair deal`, JSON) under `secret`, for alice's nonce 0.
fn v1_deal(secret: &str) -> std::process::Output {
    let deal = fairdeck()
        .args([
            "--format",
            "json",
            "fair",
            "deal",
            "--server-secret",
            secret,
        ])
        .args(["--client-seed", "alice", "--nonce", "0"])
        .output()
        .unwrap();
    ok(&deal);
    deal
}
