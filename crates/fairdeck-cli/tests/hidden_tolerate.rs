//! Version 3.2's key generation offline (`docs/hidden-dealing-v3.2.md`
//! §22, §29): `hidden new --tolerate 1` with four seats, their keys,
//! dealings and readies; `fair verify` exits 0 and states the table's
//! tolerance and its price. Tolerances §21.1 refuses are one-line usage
//! errors (exit 2).

mod common;
mod hidden_table;

use common::{fairdeck, usage_error};
use hidden_table::{Table, kinds, ok, stderr, verify};

const SEATS: &str = "ann,bob,cat,dan";

/// `hidden new --tolerate D` of a table in a new directory.
fn opened(name: &str, game: &str, tolerate: &str) -> (Table, std::process::Output) {
    let t = Table {
        dir: tempfile::tempdir().unwrap(),
    };
    let args = ["new", "--table", name, "--game", game, "--seats", SEATS];
    let out = t.run(&[&args[..], &["--tolerate", tolerate]].concat());
    (t, out)
}

/// Every seat's key, in seat order.
fn keyed(t: &Table) {
    for seat in 0..4 {
        let secret = t.arg(&format!("seat{seat}.key"));
        let s = seat.to_string();
        let seed = format!("tolerate key {seat}");
        ok(&t.run(&[
            "key",
            "--seat",
            &s,
            "--secret-out",
            &secret,
            "--seed",
            &seed,
        ]));
    }
}

#[test]
fn a_four_seat_key_generation_tolerating_one_verifies() {
    let (t, out) = opened("tolerate-one", "holdem", "1");
    ok(&out);
    assert_eq!(t.transcript()["revision"], 2);
    assert_eq!(t.transcript()["manifest"]["tolerate"], 1);
    keyed(&t);
    for seat in 0..4 {
        let dealing = t.step(&["dealing"], seat);
        assert_eq!(dealing["seat"], seat as u64);
        assert_eq!(dealing["commitments"].as_array().unwrap().len(), 3);
    }
    for seat in 0..4 {
        let ready = t.step(&["ready"], seat);
        assert_eq!(ready["seat"], seat as u64, "{ready}");
    }
    let doc = t.transcript();
    assert_eq!(doc["log"].as_array().unwrap().len(), 12);
    let text = fairdeck()
        .args(["fair", "verify", &t.arg("t.json")])
        .output()
        .unwrap();
    ok(&text);
    let shown = String::from_utf8_lossy(&text.stdout);
    for line in [
        "version 3.2 transcript; checked:",
        "table tolerates 1 lost seat(s) of 4 (threshold 3): any 3 seats together could read every card",
        "key generation: 4 dealings, 4 readies, no complaint",
    ] {
        assert!(shown.contains(line), "{shown}");
    }
    let (out, json) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(json["verdict"], "valid", "{json}");
    assert_eq!(
        (json["tolerate"].as_u64(), json["threshold"].as_u64()),
        (Some(1), Some(3))
    );
}

#[test]
fn a_dealing_before_every_key_and_a_second_ready_are_refused() {
    let (t, out) = opened("tolerate-order", "holdem", "1");
    ok(&out);
    keyed(&t);
    let key = t.arg("seat1.key");
    let early = t.run(&["dealing", "--key", &key]);
    assert!(!early.status.success());
    assert!(
        stderr(&early).contains("seat 0 is next"),
        "{}",
        stderr(&early)
    );
    for seat in 0..4 {
        t.step(&["dealing"], seat);
    }
    t.step(&["ready"], 0);
    let again = t.run(&["ready", "--key", &t.arg("seat0.key")]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("already sent its ready"),
        "{}",
        stderr(&again)
    );
    let (out, json) = verify(&t.arg("t.json"));
    assert!(!out.status.success());
    assert!(
        kinds(&json).iter().all(|k| k == "missing-message"),
        "{json}"
    );
}

#[test]
fn tolerances_the_manifest_refuses_are_one_line_usage_errors() {
    for (game, tolerate, says) in [
        ("holdem", "0", "leave --tolerate out"),
        ("holdem", "3", "tolerate 3"),
        ("bridge", "1", "cannot fold"),
        ("skat", "1", "cannot fold"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        let seats = match game {
            "bridge" => "North,East,South,West",
            "skat" => "ann,bob,cat",
            _ => SEATS,
        };
        let args = [
            "hidden",
            "new",
            "--transcript",
            path.to_str().unwrap(),
            "--table",
            "refused",
            "--game",
            game,
            "--seats",
            seats,
            "--tolerate",
            tolerate,
        ];
        let out = usage_error(&args);
        let text = stderr(&out);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains(says), "{game} {tolerate}: {text}");
        assert!(!path.exists(), "{game} {tolerate}");
    }
}

#[test]
fn the_help_of_hidden_new_says_the_price() {
    let out = fairdeck()
        .args(["hidden", "new", "--help"])
        .output()
        .unwrap();
    ok(&out);
    let help = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("any seats − D seats together can read every card"),
        "{help}"
    );
    assert!(
        help.contains("with D = 1 that is all the other seats together"),
        "{help}"
    );
}

#[test]
fn a_missing_dealing_voids_the_table_at_the_dealing_stage() {
    let (t, out) = opened("tolerate-void", "holdem", "1");
    ok(&out);
    keyed(&t);
    for seat in 0..2 {
        t.step(&["dealing"], seat);
    }
    let out = t.run(&["void"]);
    ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stage"], "dealing", "{v}");
    assert_eq!(v["seat"], 2);
    assert_eq!(v["missing"], serde_json::json!([{"message": "dealing"}]));
    let (out, json) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(json["verdict"], "valid", "{json}");
    let late = t.run(&["dealing", "--key", &t.arg("seat2.key")]);
    assert!(!late.status.success());
    assert!(
        stderr(&late).contains("void at the dealing stage"),
        "{}",
        stderr(&late)
    );
}
