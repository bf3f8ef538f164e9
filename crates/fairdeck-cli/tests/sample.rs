//! Integration tests of `fairdeck sample`, running the real binary.

mod common;

use common::{json_of, run, usage_error, with};

/// The `numbers` of `fairdeck sample ARGS --format json`, which must succeed.
fn numbers(args: &[&str]) -> Vec<u64> {
    common::numbers(&json_of("sample", args)["numbers"])
}

#[test]
fn lotto_draws_are_distinct_and_in_range() {
    for (k, n) in [(5u64, 90u64), (6, 49), (5, 50), (90, 90), (0, 3)] {
        let mut v = numbers(&[&k.to_string(), &n.to_string()]);
        assert_eq!(v.len() as u64, k);
        assert!(v.iter().all(|&x| (1..=n).contains(&x)));
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len() as u64, k);
    }
}

#[test]
fn the_whole_u64_range_answers_at_once() {
    let v = numbers(&["3", "18446744073709551615"]);
    assert_eq!(v.len(), 3);
    assert!(v[0] != v[1] && v[1] != v[2] && v[0] != v[2]);
}

#[test]
fn seeded_draws_replay_and_sorted_sorts() {
    let a = numbers(&["6", "49", "--seed", "lotto"]);
    assert_eq!(a, numbers(&["6", "49", "--seed", "lotto"]));
    let mut sorted = a.clone();
    sorted.sort_unstable();
    assert_eq!(numbers(&["6", "49", "--seed", "lotto", "--sorted"]), sorted);
}

#[test]
fn text_output_is_numbers_then_seed() {
    let out = run(&["sample", "2", "2", "--seed", "s"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let mut nums: Vec<&str> = lines[0].split(' ').collect();
    nums.sort_unstable();
    assert_eq!(nums, ["1", "2"]);
    assert!(lines[1].starts_with("seed: "));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["10", "5"],
        &["1", "0"],
        &["-1", "5"],
        &["1", "18446744073709551616"],
        &["x", "5"],
        &["5"],
    ];
    for args in cases {
        let out = usage_error(&with("sample", args));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = run(&["sample", "10", "5"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "fairdeck: cannot draw 10 distinct numbers from 1..5\n"
    );
}
