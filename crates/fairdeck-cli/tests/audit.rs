//! Integration tests of `fairdeck audit`, running the real binary.
//!
//! Statistical claims use fixed seeds and the default family-wise alpha
//! 1e-6 (Bonferroni over the tests run): a uniform shuffle is called biased
//! with probability at most 1e-6 per run (up to the chi-square
//! approximation, checked by the thresholds below: every expected count is
//! at least 5), so the passing cases cannot flake; the biased algorithms are
//! the negative controls, each with trials enough that its bias drives a
//! p-value far below the threshold (printed by `--nocapture`).

mod common;

use common::{assert_success, fairdeck, json_of, parse, usage_error};
use serde_json::Value;

fn audit(args: &[&str]) -> Value {
    json_of("audit", args)
}

fn verdict(alg: &str, trials: u64) -> (String, Vec<String>) {
    let t = trials.to_string();
    let v = audit(&[alg, "-n", "52", "--trials", &t, "--seed", "ci-audit-52"]);
    let failed = v["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect();
    let min_p = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["p_value"].as_f64().unwrap());
    println!(
        "{alg}: {} {failed:?} min p = {:e}",
        v["verdict"],
        min_p.fold(1.0, f64::min)
    );
    (v["verdict"].as_str().unwrap().to_string(), failed)
}

#[test]
fn uniform_shuffles_pass_at_52() {
    // 20 000 shuffles: 385 expected per card x position cell.
    for alg in ["fisher-yates", "knuth-forward", "inside-out"] {
        assert_eq!(verdict(alg, 20_000).0, "uniform", "{alg}");
    }
}

#[test]
fn flawed_shuffles_are_flagged_at_52() {
    // Trials per algorithm: the smallest round number at which its bias was
    // found with p far below the threshold (see the printed p-values).
    for (alg, trials) in [
        ("naive-swap", 20_000),
        ("sattolo", 1_000),
        ("asf-poker", 20_000),
        ("random-transpositions", 1_000),
    ] {
        assert_eq!(verdict(alg, trials).0, "biased", "{alg}");
    }
}

#[test]
fn json_lists_tests_with_p_values_and_alpha() {
    let v = audit(&[
        "fisher-yates",
        "-n",
        "6",
        "--trials",
        "5000",
        "--seed",
        "json",
    ]);
    assert_eq!(v["alpha"].as_f64(), Some(1e-6));
    let names: Vec<&str> = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "positions",
            "permutations",
            "fixed-points",
            "cycles",
            "rising-sequences",
            "successions"
        ]
    );
    assert!(v["tests"][0]["dof"].as_f64() == Some(25.0));
    assert_eq!(v["verdict"], "uniform");
}

#[test]
fn same_seed_same_report() {
    let args = [
        "naive-swap",
        "-n",
        "10",
        "--trials",
        "3000",
        "--seed",
        "again",
    ];
    let a = audit(&args);
    let b = audit(&args);
    assert_eq!(a, b);
}

#[test]
fn input_file_is_audited_with_base_detection() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perms.txt");
    // Every order of 3 items, 1-based, 10 times each: perfectly balanced.
    let orders = ["1 2 3", "1 3 2", "2 1 3", "2 3 1", "3 1 2", "3 2 1"];
    let text: String = (0..10)
        .flat_map(|_| orders.iter().map(|o| format!("{o}\n")))
        .collect();
    std::fs::write(&path, format!("# header comment\n{text}")).unwrap();
    let v = audit(&["--input", path.to_str().unwrap()]);
    assert_eq!((v["n"].as_u64(), v["trials"].as_u64()), (Some(3), Some(60)));
    assert_eq!(v["verdict"], "uniform");
    // The same cyclic order 60 times is caught.
    std::fs::write(&path, "1 2 0\n".repeat(60)).unwrap();
    assert_eq!(
        audit(&["--input", path.to_str().unwrap()])["verdict"],
        "biased"
    );
}

#[test]
fn too_few_permutations_are_inconclusive() {
    let out = fairdeck()
        .args(["--format", "json", "audit", "--input", "-"])
        .write_stdin("0 1 2\n2 1 0\n")
        .output()
        .unwrap();
    let v = parse(&out);
    assert_eq!(v["verdict"], "inconclusive");
}

#[test]
fn stdin_input_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("heat.svg");
    let out = fairdeck()
        .args(["audit", "--input", "-", "--plot", svg.to_str().unwrap()])
        .write_stdin("0 1\n1 0\n".repeat(10))
        .output()
        .unwrap();
    assert_success(&out);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<rect"));
}

#[test]
fn bad_input_gets_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    for (content, needle) in [
        ("0 1 2\n0 1 1\n", "line 2"),
        ("0 1 2\n0 x 2\n", "not a non-negative integer"),
        ("0 1 2\n0 1\n", "line 2"),
        ("", "no permutations"),
        ("0\n0\n", "at least 2 items"),
    ] {
        std::fs::write(&path, content).unwrap();
        let out = fairdeck()
            .args(["audit", "--input", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{content:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle) && err.lines().count() == 1, "{err}");
    }
    for args in [
        vec!["audit", "bogus"],
        vec!["audit", "fisher-yates", "--trials", "0"],
        vec!["audit", "fisher-yates", "--alpha", "2"],
        vec!["audit", "fisher-yates", "-n", "5", "--plot", "x.png"],
        vec!["audit"],
    ] {
        usage_error(&args);
    }
}
