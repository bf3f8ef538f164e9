//! Integration tests of `fairdeck fair`: commit → deal → verify, tampering,
//! and the test vectors of docs/fair-dealing.md.

mod common;

use assert_cmd::Command;
use common::{fairdeck, json, parse, strings};
use predicates::prelude::*;

const SECRET: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const COMMITMENT: &str = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
/// Test vector 1 of docs/fair-dealing.md: client seed "alice", nonce 0.
const DECK_ALICE_0: &str = "5D QS 3C AC 7C 2C 7D 9S 6S KH 4C 5S 3S QD 9D AD 4S 7S JS KD KS 5C \
8C 5H 6D 8D AH QC QH TH 3H TS AS 2D 9H JH 4H 9C 6C JD 3D 2H TD 7H 6H 8S KC 8H 2S TC JC 4D";

fn verify(commitment: &str, secret: &str, seed: &str, nonce: &str, deal: &str) -> Command {
    let mut cmd = fairdeck();
    cmd.args([
        "fair",
        "verify",
        "--commitment",
        commitment,
        "--server-secret",
        secret,
    ])
    .args(["--client-seed", seed, "--nonce", nonce, "--deal", deal]);
    cmd
}

#[test]
fn test_vectors_of_the_spec() {
    let v = json(&[
        "fair",
        "deal",
        "--server-secret",
        SECRET,
        "--client-seed",
        "alice",
        "--nonce",
        "0",
    ]);
    assert_eq!(v["commitment"], COMMITMENT);
    let cards = strings(&v["cards"]);
    assert_eq!(cards.join(" "), DECK_ALICE_0);
    let v = json(&[
        "fair",
        "deal",
        "--server-secret",
        &"f".repeat(64),
        "--client-seed",
        "",
        "--nonce",
        "18446744073709551615",
        "--game",
        "skat",
    ]);
    assert_eq!(v["deck"], "piquet");
    assert_eq!(v["cards"][0], "AS");
    assert_eq!(v["cards"][31], "9S");
}

#[test]
fn commit_deal_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret.hex");
    let file = file.to_str().unwrap();
    let c = json(&["fair", "commit", "--out", file]);
    assert!(c["server_secret"].is_null());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let commitment = c["commitment"].as_str().unwrap();
    for nonce in ["0", "1"] {
        let d = json(&[
            "fair",
            "deal",
            "--secret-file",
            file,
            "--client-seed",
            "bob",
            "--nonce",
            nonce,
        ]);
        assert_eq!(d["commitment"], commitment);
        let cards = strings(&d["cards"]);
        fairdeck()
            .args([
                "fair",
                "verify",
                "--commitment",
                commitment,
                "--secret-file",
                file,
            ])
            .args([
                "--client-seed",
                "bob",
                "--nonce",
                nonce,
                "--deal",
                &cards.join(","),
            ])
            .assert()
            .success()
            .stdout("valid\n");
    }
    // The file is never overwritten.
    fairdeck()
        .args(["fair", "commit", "--out", file])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot create"));
}

#[test]
fn the_vector_verifies_in_text_form() {
    verify(COMMITMENT, SECRET, "alice", "0", DECK_ALICE_0)
        .assert()
        .success()
        .stdout("valid\n");
}

#[test]
fn tampering_fails_with_a_precise_message() {
    let other_secret = format!("{}1e", &SECRET[..62]);
    verify(COMMITMENT, &other_secret, "alice", "0", DECK_ALICE_0)
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "invalid: the server secret does not match the commitment: its SHA-256 is ",
        ));
    for (seed, nonce) in [("alicE", "0"), ("alice", "1")] {
        verify(COMMITMENT, SECRET, seed, nonce, DECK_ALICE_0)
            .assert()
            .code(1)
            .stdout(predicate::str::contains("wrong client seed, nonce or deck"));
    }
    let swapped = DECK_ALICE_0.replacen("5D QS", "QS 5D", 1);
    verify(COMMITMENT, SECRET, "alice", "0", &swapped)
        .assert()
        .code(1)
        .stdout(
            "invalid: the deal differs from the derived deck at 2 of 52 places, first at card 1: \
         QS where the derivation gives 5D (cards were moved after the deal)\n",
        );
    let doubled = DECK_ALICE_0.replacen("5D", "QS", 1);
    verify(COMMITMENT, SECRET, "alice", "0", &doubled).assert().code(1).stdout(
        "invalid: the deal is not a standard deck: it shows QS 2 times, the deck holds it 1 times\n",
    );
    verify(COMMITMENT, SECRET, "alice", "0", &DECK_ALICE_0[3..])
        .assert()
        .code(1)
        .stdout("invalid: the deal has 51 cards but a standard deck has 52\n");
    let out = fairdeck()
        .args([
            "--format",
            "json",
            "fair",
            "verify",
            "--commitment",
            COMMITMENT,
        ])
        .args([
            "--server-secret",
            SECRET,
            "--client-seed",
            "alice",
            "--nonce",
            "1",
        ])
        .args(["--deal", DECK_ALICE_0])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = parse(&out);
    assert_eq!(
        (v["valid"].as_bool(), v["mismatch"].as_str()),
        (Some(false), Some("order"))
    );
}

#[test]
fn bad_inputs_are_usage_errors() {
    verify("abc", SECRET, "alice", "0", DECK_ALICE_0)
        .assert()
        .code(2)
        .stderr("fairdeck: invalid hex: the commitment must be 64 hex digits, got \"abc\"\n");
    verify(COMMITMENT, "xyz", "alice", "0", DECK_ALICE_0)
        .assert()
        .code(2);
    verify(COMMITMENT, SECRET, "alice", "-1", DECK_ALICE_0)
        .assert()
        .code(2);
    verify(COMMITMENT, SECRET, "alice", "0", "5D QS ZZ")
        .assert()
        .code(2);
    fairdeck()
        .args(["fair", "deal", "--client-seed", "a", "--nonce", "0"])
        .assert()
        .code(2);
}
