//! `fair verify` of a transcript that is not exactly one JSON document in
//! UTF-8 (`docs/hidden-dealing.md` §14): `NaN`, data after the document, two
//! documents, a UTF-8 byte order mark, bytes that are not UTF-8. Each is an
//! unreadable document: the verdict `invalid` with the one difference
//! `document`, printed in text and in JSON, exit status 1 — never a usage
//! error (2) nor an error without a verdict. The verdict has the form of the
//! version the bytes declare: version 3 (hidden hands), 2 or 1. Bytes that
//! declare no version at all (plain text, a transcript's text rendering)
//! are no transcript: a usage error, as before.

mod common;

use std::process::Output;

use common::fairdeck;
use serde_json::Value;

/// A readable version-3 transcript: a table whose keys never came
/// (`missing-message`, not `document`: it is checked).
const V3: &str = r#"{"version": 3,
 "manifest": {"version": 3, "table": "input", "game": "holdem", "deck": "standard",
              "seats": ["ann", "bob"], "first": 1, "last": 1},
 "keys": [], "hands": []}"#;

/// A readable version-2 transcript: the hold'em vector of
/// `docs/fair-dealing.md` §12 (self-consistent, exit 0).
const V2: &str = r#"{"version": 2,
 "manifest": {"version": 2, "table": "heads-up 7", "game": "holdem", "deck": "standard", "seats": ["ann", "bo"], "first": 0, "last": 0},
 "commitment": "b96fef7f58a3845c1dbf034fc21ffcd1428c4a0d5a6ee6d93497b476ac5cf8e9",
 "seats": [
  {"name": "ann", "commitment": "75991462f4bbb741b217056918ae0a6bb012adfd7f18dfd5aee5f53ef9fe1d91", "seed": "a"},
  {"name": "bo", "commitment": "9a85fd2a621c9ae5fb567bfbe7f58ab4aa8c0a42f73c33826c1d945bfbac97a5", "seed": "b"}],
 "server_secret": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
 "deals": [
  {"nonce": 0,
   "piles": [
    {"name": "ann", "role": "player", "cards": ["9D", "3D"]},
    {"name": "bo", "role": "player", "cards": ["6C", "6H"]},
    {"name": "Board", "role": "board", "cards": ["JH", "7C", "2D", "8S", "2H"]},
    {"name": "Burn", "role": "burn", "cards": ["5H", "4C", "KH"]}],
   "stock": ["3C", "KC", "6D", "5S", "9H", "TD", "QD", "9C", "2S", "4D", "JC", "JD", "QS", "8H", "7D", "5C", "6S", "TC", "KD", "AC", "QH", "TS", "9S", "8D", "4S", "2C", "8C", "3H", "3S", "AS", "QC", "AD", "4H", "KS", "JS", "7H", "7S", "5D", "AH", "TH"],
   "deck": ["9D", "6C", "3D", "6H", "5H", "JH", "7C", "2D", "4C", "8S", "KH", "2H", "3C", "KC", "6D", "5S", "9H", "TD", "QD", "9C", "2S", "4D", "JC", "JD", "QS", "8H", "7D", "5C", "6S", "TC", "KD", "AC", "QH", "TS", "9S", "8D", "4S", "2C", "8C", "3H", "3S", "AS", "QC", "AD", "4H", "KS", "JS", "7H", "7S", "5D", "AH", "TH"]}]}"#;

/// The five ways `good` can fail to be one JSON document in UTF-8, each
/// with the words its `document` difference must hold.
fn broken(good: &str) -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let at = good.find("\"first\": ").unwrap() + "\"first\": ".len();
    let nan = format!("{}NaN{}", &good[..at], &good[at + 1..]);
    let name = good.find("ann").unwrap();
    let mut not_utf8 = good.as_bytes().to_vec();
    not_utf8[name + 1] = 0xff;
    vec![
        ("NaN", nan.into_bytes(), "not exactly one JSON document"),
        (
            "trailing data",
            format!("{good} trailing").into_bytes(),
            "trailing characters",
        ),
        (
            "two documents",
            format!("{good}\n{good}\n").into_bytes(),
            "trailing characters",
        ),
        (
            "a byte order mark",
            [b"\xef\xbb\xbf".as_slice(), good.as_bytes()].concat(),
            "byte order mark",
        ),
        ("invalid UTF-8", not_utf8, "not UTF-8"),
    ]
}

fn verify(bytes: &[u8], json: bool, stdin: bool) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, bytes).unwrap();
    let mut cmd = fairdeck();
    if json {
        cmd.args(["--format", "json"]);
    }
    cmd.args(["fair", "verify"]);
    if stdin {
        cmd.arg("-").write_stdin(bytes.to_vec());
    } else {
        cmd.arg(&path);
    }
    cmd.output().unwrap()
}

/// Exit 1, nothing on stderr, and a verdict on stdout.
fn refused<'a>(case: &str, out: &'a Output) -> &'a [u8] {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{case}: {err}");
    assert!(err.is_empty(), "{case}: {err}");
    &out.stdout
}

fn check_json(case: &str, out: &Output, version: Value, says: &str) {
    let doc: Value = serde_json::from_slice(refused(case, out)).unwrap();
    assert_eq!(doc["version"], version, "{case}: {doc}");
    assert_eq!(doc["verdict"], "invalid", "{case}: {doc}");
    let diffs = doc["differences"].as_array().unwrap();
    assert_eq!(diffs.len(), 1, "{case}: {doc}");
    assert_eq!(diffs[0]["kind"], "document", "{case}: {doc}");
    let message = diffs[0]["message"].as_str().unwrap();
    assert!(message.contains(says), "{case}: {message}");
}

fn check_text(case: &str, out: &Output, version: &str, says: &str) {
    let text = String::from_utf8(refused(case, out).to_vec()).unwrap();
    let first = format!("version {version} transcript; checked:");
    assert!(text.starts_with(&first), "{case}: {text}");
    assert!(text.contains(says), "{case}: {text}");
    let last = text.lines().last().unwrap();
    assert_eq!(last, "invalid: 1 difference(s): document", "{case}: {text}");
}

#[test]
fn readable_transcripts_are_checked_not_refused() {
    let out = verify(V3.as_bytes(), true, false);
    let doc: Value = serde_json::from_slice(refused("v3", &out)).unwrap();
    let kinds: Vec<&str> = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["missing-message", "missing-message"]);
    let out = verify(V2.as_bytes(), true, false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(common::parse(&out)["verdict"], "self-consistent-only");
}

#[test]
fn a_version_3_transcript_that_is_not_one_json_document_is_a_document_difference() {
    for (case, bytes, says) in broken(V3) {
        check_json(case, &verify(&bytes, true, false), 3.into(), says);
        check_text(case, &verify(&bytes, false, false), "3", says);
    }
}

#[test]
fn a_version_2_transcript_that_is_not_one_json_document_is_a_document_difference() {
    for (case, bytes, says) in broken(V2) {
        check_json(case, &verify(&bytes, true, false), 2.into(), says);
        check_text(case, &verify(&bytes, false, false), "2", says);
    }
}

#[test]
fn stdin_is_read_the_same_way() {
    for (case, bytes, says) in broken(V3) {
        check_json(case, &verify(&bytes, true, true), 3.into(), says);
    }
    for (case, bytes, says) in broken(V2) {
        check_text(case, &verify(&bytes, false, true), "2", says);
    }
}

#[test]
fn bytes_that_declare_no_version_are_no_transcript_a_usage_error() {
    let rendering = b"fair dealing transcript, version 2\n".as_slice();
    for bytes in [
        &b""[..],
        b"hello",
        b"NaN",
        b"\xef\xbb\xbf{}",
        b"\xff\xfe",
        rendering,
    ] {
        let case = String::from_utf8_lossy(bytes);
        let out = verify(bytes, true, false);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{case}: {err}");
        assert!(out.stdout.is_empty(), "{case}");
        assert!(
            err.contains("verify takes the JSON transcript"),
            "{case}: {err}"
        );
    }
}

#[test]
fn a_version_1_deal_that_is_not_json_is_a_version_1_document_difference() {
    let deal = br#"{"commitment": "00", "client_seed": "a", "nonce": 0} trailing"#;
    check_json(
        "v1",
        &verify(deal, true, false),
        1.into(),
        "trailing characters",
    );
}
