//! Integration tests of the entropy report, `--strict` and `--entropy`.

mod common;

use common::{assert_success, fairdeck, parse, run};
use predicates::prelude::*;

/// `count` d6 faces from a fixed linear congruential sequence (test data only).
fn rolls(count: usize) -> String {
    let mut x: u64 = 12345;
    (0..count)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'1' + ((x >> 33) % 6) as u8)
        })
        .collect::<String>()
}

#[test]
fn short_seed_text_warns_and_strict_refuses() {
    fairdeck()
        .args(["deal", "--seed", "42"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "entropy: a bridge deal needs 95.4 bits (52!/(13!)^4 deals), the key holds at most 6.6",
        ))
        .stderr(predicate::str::starts_with(
            "fairdeck: warning: the seed text holds at most 6.6 bits but a bridge deal needs 95.4",
        ));
    fairdeck()
        .args(["deal", "--seed", "42", "--strict"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "fairdeck: --strict: the seed text",
        ));
}

#[test]
fn full_keys_pass_strict_for_one_deck_but_not_for_a_shoe() {
    let key = "ab".repeat(32);
    fairdeck()
        .args(["deal", "--seed", &key, "--strict"])
        .assert()
        .success()
        .stderr("");
    fairdeck()
        .args(["deal", "--strict"])
        .assert()
        .success()
        .stderr("");
    fairdeck()
        .args([
            "deal",
            "--deck",
            "shoe:6",
            "--players",
            "7",
            "--cards",
            "2",
            "--strict",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a deal from a shoe:6 deck needs 1646.8 bits",
        ));
}

#[test]
fn json_reports_the_entropy() {
    let v = parse(&run(&["deal", "--seed", "friday", "--format", "json"]));
    // What a key must cover is the deal (95.44 bits for bridge), not the
    // deck order (225.58), which is reported alongside.
    assert!((v["entropy_needed_bits"].as_f64().unwrap() - 95.44).abs() < 0.01);
    assert!((v["entropy_order_bits"].as_f64().unwrap() - 225.58).abs() < 0.01);
    assert_eq!(v["entropy_deals"], "52!/(13!)^4");
    assert!((v["entropy_key_bits"].as_f64().unwrap() - 6.0 * 26f64.log2()).abs() < 1e-9);
    assert_eq!(v["entropy_source"], "seed-text");
}

#[test]
fn dice_mode_deals_from_rolls_and_reports_them() {
    let out = fairdeck()
        .args(["deal", "--entropy", "dice", "--format", "json"])
        .write_stdin(format!("{}\n{}\n", &rolls(200)[..100], &rolls(200)[100..]))
        .output()
        .unwrap();
    assert_success(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a bridge deal needs 37 d6 rolls (log_6 of 52!/(13!)^4 = 36.92)"),
        "{err}"
    );
    let v = parse(&out);
    assert_eq!(v["rolls_needed"], 37);
    let used = v["rolls_used"].as_u64().unwrap();
    assert!((37..=45).contains(&used), "{used}");
    assert!(v["seed"].is_null());
    let mut cards: Vec<String> = v["hands"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["cards"].as_array().unwrap().iter().map(|c| c.to_string()))
        .collect();
    cards.sort();
    cards.dedup();
    assert_eq!(cards.len(), 52);
    // The same rolls give the same deal.
    let again = fairdeck()
        .args(["deal", "--entropy", "dice", "--format", "json"])
        .write_stdin(rolls(200))
        .output()
        .unwrap();
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn coins_and_hex_work_too() {
    fairdeck()
        .args(["deal", "--entropy", "coins", "--game", "skat"])
        .write_stdin("HT".repeat(200))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "coin flips used (52 needed up front)",
        ));
    fairdeck()
        .args(["deal", "--entropy", "hex"])
        .write_stdin("0123456789abcdef".repeat(8))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "hex digits used (24 needed up front)",
        ));
}

#[test]
fn running_out_or_bad_rolls_fail_cleanly() {
    fairdeck()
        .args(["deal", "--entropy", "dice"])
        .write_stdin(rolls(30))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::ends_with(
            "fairdeck: the input ended after 30 d6 rolls; a bridge deal needs at least 37\n",
        ));
    fairdeck()
        .args(["deal", "--entropy", "dice"])
        .write_stdin("1234\n5617\n")
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with(
            "fairdeck: invalid symbol: line 2: '7' is not a d6 roll (write the faces 1-6)\n",
        ));
    fairdeck()
        .args(["deal", "--entropy", "dice", "--seed", "x"])
        .assert()
        .code(2);
    fairdeck()
        .args(["deal", "--entropy", "dodecahedron"])
        .assert()
        .code(2);
    fairdeck()
        .args(["deal", "--entropy", "coins", "--generator", "chacha20"])
        .assert()
        .code(2);
}

#[test]
fn the_short_key_advice_names_the_cli_flags() {
    fairdeck()
        .args(["deal", "--seed", "42"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "use a 64-hex-digit key, no --seed, or --entropy dice\n",
        ));
}
