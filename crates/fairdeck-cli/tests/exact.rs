//! Integration tests of `fairdeck exact`, running the real binary.

mod common;

use common::{json_of, run, usage_error, with};
use serde_json::Value;

fn exact(args: &[&str]) -> Value {
    json_of("exact", args)
}

fn probabilities(v: &Value) -> Vec<String> {
    v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["probability"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn naive_swap_at_three_has_27_paths_and_the_4_5_pattern() {
    let v = exact(&["naive-swap", "-n", "3"]);
    assert_eq!(v["paths"], 27);
    assert_eq!(v["support"], 6);
    assert_eq!(
        probabilities(&v),
        ["4/27", "5/27", "5/27", "5/27", "4/27", "4/27"]
    );
    assert_eq!(
        v["outcomes"][1]["permutation"],
        serde_json::json!([0, 2, 1])
    );
    assert_eq!(v["total_variation"], "1/18");
    assert_eq!(v["unresolved"], "0");
}

#[test]
fn sattolo_reaches_only_cyclic_orders() {
    for (n, cyclic) in [(3, 2), (4, 6), (5, 24), (6, 120)] {
        let v = exact(&["sattolo", "-n", &n.to_string()]);
        assert_eq!(v["support"], cyclic);
        for o in v["outcomes"].as_array().unwrap() {
            let p: Vec<usize> = serde_json::from_value(o["permutation"].clone()).unwrap();
            let mut i = p[0];
            let mut steps = 1;
            while i != 0 {
                i = p[i];
                steps += 1;
            }
            assert_eq!(steps, n, "{p:?} is not one cycle");
        }
    }
}

#[test]
fn fisher_yates_is_exactly_uniform() {
    for n in ["1", "4", "6"] {
        let v = exact(&["fisher-yates", "-n", n]);
        assert_eq!(v["uniform"], true);
        assert_eq!(v["total_variation"], "0");
        assert_eq!(v["unresolved"], "0");
    }
    let v = exact(&["fisher-yates", "-n", "4"]);
    assert!(probabilities(&v).iter().all(|p| p == "1/24"));
}

#[test]
fn rejection_reports_unresolved_mass() {
    let v = exact(&["rejection", "-n", "3", "--max-paths", "100000"]);
    // Uniform on what was resolved, never called uniform: the cut mass
    // bounds how far the whole law can be from uniform.
    assert_eq!(v["uniform"], false);
    assert_eq!(v["uniform_on_resolved"], true);
    assert_ne!(v["unresolved"], "0");
    assert_eq!(v["total_variation_at_least"], "0");
    assert_ne!(v["total_variation_at_most"], "0");
    let out = run(&["exact", "rejection", "-n", "3", "--max-paths", "100000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not proven uniform"), "{text}");
    assert!(!text.contains("exactly uniform"), "{text}");
}

#[test]
fn refusals_are_clear() {
    for (args, needle) in [
        (
            vec!["sort-keys", "-n", "6", "--max-paths", "1000"],
            "has 101559956668416 paths of the same length",
        ),
        (vec!["fisher-yates", "-n", "40"], "-n must be"),
        (vec!["nope", "-n", "3"], "unknown algorithm"),
    ] {
        let out = usage_error(&with("exact", &args));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle) && err.lines().count() == 1, "{err}");
    }
}
