//! `fairdeck mix shelf`: the shelf machine's exact distance from uniform
//! per number of shelves, one pass and two (Diaconis, Fulman and Holmes
//! 2013), running the real binary. The values are exact; the library's
//! tests check them against enumeration and a simulation.

mod common;

use common::{fairdeck, json_of, usage_error};

#[test]
fn json_rows_give_shelves_passes_and_the_distance() {
    let v = json_of("mix", &["shelf", "-n", "52", "--max-shelves", "10"]);
    assert_eq!(v["model"], "shelf");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    let at = |m: u64, passes: u64| {
        rows.iter()
            .find(|r| r["shelves"] == m && r["passes"] == passes)
            .unwrap()["total_variation"]
            .as_f64()
            .unwrap()
    };
    // DFH: one pass through 10 shelves is far from random; two are close.
    assert!(at(10, 1) > 0.999, "{}", at(10, 1));
    assert!((at(10, 2) - 0.0103).abs() < 0.0005, "{}", at(10, 2));
    // More shelves, closer to uniform.
    for m in 1..10 {
        assert!(
            at(m, 1) >= at(m + 1, 1) && at(m, 2) >= at(m + 1, 2),
            "m = {m}"
        );
    }
}

#[test]
fn text_table_and_refusals() {
    let out = fairdeck()
        .args(["mix", "shelf", "-n", "20", "--max-shelves", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shelves") && text.contains("two passes"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 5, "{text}");
    usage_error(&["mix", "shelf", "-n", "1000"]);
    usage_error(&["mix", "shelf", "--max-shelves", "0"]);
}

/// A lab's rehearsal: decks from a one-pass 10-shelf machine, piped into
/// the audit, are caught at 3 decks (seeded: the same decks every run);
/// riffled ones carry their model's name and replay from the seed.
#[test]
fn decks_from_a_model_rehearse_an_audit() {
    let out = fairdeck()
        .args(["mix", "shelf", "--decks", "3", "--seed", "rehearse"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        log.starts_with("# 3 decks of 52 cards: shelf, 10 shelves, 1 pass; seed: "),
        "{log}"
    );
    assert_eq!(log.lines().count(), 4);
    let audit = fairdeck()
        .args(["--format", "json", "audit", "--input", "-"])
        .write_stdin(log.clone())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&audit.stdout).unwrap();
    assert_eq!(v["verdict"], "biased", "{v}");
    let again = fairdeck()
        .args(["mix", "shelf", "--decks", "3", "--seed", "rehearse"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), log);
    let v = json_of(
        "mix",
        &[
            "riffle",
            "--decks",
            "2",
            "--shuffles",
            "7",
            "-n",
            "10",
            "--seed",
            "r",
        ],
    );
    assert_eq!(v["model"], "riffle, 7 shuffles");
    assert_eq!(v["decks"].as_array().unwrap().len(), 2);
    usage_error(&["mix", "shelf", "--decks", "0"]);
    usage_error(&["mix", "shelf", "--shelves", "3"]);
}
