//! Integration tests of `fairdeck shuffle ALG -n N`, running the real binary.

mod common;

use common::{json_of, numbers, parse, run, usage_error, with};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    json_of("shuffle", args)
}

fn names() -> Vec<String> {
    let v = parse(&run(&["algorithms", "--format", "json"]));
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_algorithm_runs_and_returns_a_permutation_of_1_to_n() {
    for name in names() {
        for n in [0u64, 1, 2, 9] {
            let v = json(&[&name, "-n", &n.to_string(), "--seed", "perm"]);
            let mut result = numbers(&v["result"]);
            result.sort_unstable();
            assert_eq!(result, (1..=n).collect::<Vec<_>>(), "{name} n = {n}");
            assert_eq!(v["algorithm"], name.as_str());
        }
    }
}

#[test]
fn a_seed_replays_the_same_shuffle() {
    let a = json(&["random-insertion", "-n", "30", "--seed", "again"]);
    let b = json(&["random-insertion", "-n", "30", "--seed", "again"]);
    assert_eq!(a["result"], b["result"]);
    assert_eq!(a["seed"], b["seed"]);
}

#[test]
fn steps_start_from_the_identity_and_end_in_the_result() {
    for name in [
        "fisher-yates",
        "knuth-forward",
        "naive-swap",
        "reverse-insertion",
        "sort-keys",
    ] {
        let v = json(&[name, "-n", "6", "--steps", "--seed", "steps"]);
        let steps = v["steps"].as_array().unwrap();
        assert_eq!(steps[0]["action"], "start");
        assert_eq!(numbers(&steps[0]["deck"]), [1, 2, 3, 4, 5, 6]);
        let last = steps.last().unwrap();
        assert_eq!(last["deck"], v["result"], "{name}");
    }
    // Durstenfeld: one swap per i from n-1 down to 1, so n-1 steps after the start.
    let v = json(&["fisher-yates", "-n", "6", "--steps", "--seed", "steps"]);
    assert_eq!(v["steps"].as_array().unwrap().len(), 6);
    assert!(
        v["steps"][1]["action"]
            .as_str()
            .unwrap()
            .starts_with("swap 6 and ")
    );
}

#[test]
fn two_sequence_steps_move_cards_from_deck_to_pile() {
    let v = json(&[
        "fisher-yates-original",
        "-n",
        "5",
        "--steps",
        "--seed",
        "pile",
    ]);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6);
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["deck"].as_array().unwrap().len(), 5 - i);
        assert_eq!(s["pile"].as_array().unwrap().len(), i);
    }
    assert_eq!(steps[5]["pile"], v["result"]);
}

#[test]
fn text_steps_are_a_table_then_the_result_and_seed() {
    let out = run(&["shuffle", "inside-out", "-n", "4", "--steps", "--seed", "t"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].trim_start().starts_with("0  start"), "{text}");
    assert_eq!(lines.len(), 1 + 4 + 1 + 2, "{text}");
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("inside-out, n = 4, seed: ")
    );
}

#[test]
fn deals_deal_k_distinct_cards_and_hash_deal_takes_any_n() {
    for name in ["knuth-deal", "hash-deal"] {
        let v = json(&[name, "-n", "90", "--deal", "5", "--seed", "lotto"]);
        let mut r = numbers(&v["result"]);
        assert_eq!(r.len(), 5);
        assert!(r.iter().all(|&x| (1..=90).contains(&x)));
        r.dedup();
        assert_eq!(r.len(), 5);
    }
    let v = json(&["hash-deal", "-n", "18446744073709551615", "--deal", "3"]);
    assert_eq!(numbers(&v["result"]).len(), 3);
}

#[test]
fn random_insertion_takes_rounds() {
    let v = json(&[
        "random-insertion",
        "-n",
        "5",
        "--rounds",
        "2",
        "--steps",
        "--seed",
        "r",
    ]);
    assert_eq!(v["steps"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [&[&str]; 8] = [
        &["random-insertion", "-n", "4", "--rounds", "99999999999"],
        &["bogo", "-n", "3"],
        &["rejection", "-n", "4", "--rounds", "3"],
        &["fisher-yates", "-n", "4", "--deal", "2"],
        &["knuth-deal", "-n", "4", "--deal", "5"],
        &["sattolo", "-n", "1000", "--steps"],
        &["fisher-yates", "-n", "1000000000000"],
        &["fisher-yates", "-n", "-3"],
    ];
    for args in cases {
        let out = usage_error(&with("shuffle", args));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args[0] != "fisher-yates" || args[2] != "-3" {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
}
