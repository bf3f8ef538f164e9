//! Integration tests of `fairdeck chaos`, running the real binary.

mod common;

use common::{run, usage_error, with};
use serde_json::Value;

/// `fairdeck --format json chaos ARGS`, which must succeed.
fn json(args: &[&str]) -> Value {
    common::json(&with("chaos", args))
}

#[test]
fn the_article_example_is_two() {
    let out = run(&["chaos", "1", "4", "2", "3", "5"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("2")
    );
    let v = json(&["1", "4", "2", "3", "5"]);
    assert_eq!(
        (
            v["chaos"].as_u64(),
            v["ascending"].as_u64(),
            v["descending"].as_u64()
        ),
        (Some(2), Some(2), Some(2))
    );
    let v = json(&["--", "-5", "10", "3"]);
    assert_eq!(v["ascending"], 1);
}

#[test]
fn max_chaos_matches_the_article_table() {
    let table: Vec<u64> = (3..=11)
        .map(|n| {
            let v = json(&["--max", &n.to_string(), "--method", "enumeration"]);
            assert_eq!(v["method"], "enumeration");
            v["max_chaos"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(table, [1, 3, 4, 4, 5, 7, 8, 8, 9]);
    let v = json(&["--max", "1000000"]); // N mod 4 = 0: N - 1
    assert_eq!(
        (v["max_chaos"].as_u64(), v["method"].as_str()),
        (Some(999_999), Some("formula"))
    );
    assert_eq!(json(&["--max", "1000002"])["max_chaos"], 1_000_000); // N mod 4 = 2: N - 2
}

#[test]
fn distribution_is_exact_for_small_n() {
    let v = json(&["--distribution", "6"]);
    assert_eq!(v["method"], "exact");
    let total: f64 = v["chaos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
    let h6 = 1.0 + 0.5 + 1.0 / 3.0 + 0.25 + 0.2 + 1.0 / 6.0;
    assert!((v["ascending_mean"].as_f64().unwrap() - (6.0 - h6)).abs() < 1e-12);
    let v = json(&[
        "--distribution",
        "20",
        "--trials",
        "2000",
        "--seed",
        "chaos",
    ]);
    assert_eq!(v["method"], "simulated");
}

#[test]
fn bad_input_is_refused() {
    for args in [
        vec!["chaos", "1", "1"],
        vec!["chaos"],
        vec!["chaos", "--max", "20", "--method", "enumeration"],
        vec!["chaos", "--max", "5", "--method", "guess"],
    ] {
        let out = usage_error(&args);
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}
