//! Issue 26, item 16: runs accepted without `--allow-long` finish in about
//! the budget's minute, because the cost model is measured (the weights
//! and their measurements are in `fairdeck::algorithms::Algorithm::weight`
//! and `fairdeck_audit::estimates`), and the limits a refusal suggests are
//! exactly the edge of the budget: the suggested value is accepted, one
//! more is refused. Accepted runs of a minute are not waited for: a refusal
//! comes before any work, so a run still going after a few seconds was
//! accepted, and is then killed.

mod common;

use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[String]) -> Child {
    Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// How a run began: refused (exit 2, with its stderr), or accepted (it
/// finished with another code, or was still working after `patience`).
enum Start {
    Refused(String),
    Accepted,
}

fn start(args: &[String]) -> Start {
    // A refusal is made before any work: milliseconds, even on a loaded machine.
    let patience = Duration::from_secs(4);
    let mut child = spawn(args);
    let begun = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            return match status.code() {
                Some(2) => Start::Refused(err),
                _ => Start::Accepted,
            };
        }
        if begun.elapsed() > patience {
            child.kill().unwrap();
            child.wait().unwrap();
            return Start::Accepted;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `args` with the value after `flag` replaced.
fn with_value(args: &[String], flag: &str, value: u64) -> Vec<String> {
    let mut v = args.to_vec();
    let i = v.iter().position(|a| a == flag).unwrap();
    v[i + 1] = value.to_string();
    v
}

/// The number after `needle` in a refusal (`-n at most 123 …`).
fn suggested(err: &str, needle: &str) -> u64 {
    let at = err
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {err}"))
        + needle.len();
    let digits: String = err[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("{err}"))
}

/// `args` is refused and suggests `FLAG at most M`; M is accepted, M + 1 refused.
fn the_suggestion_is_the_edge(args: &[&str], flag: &str) -> u64 {
    let args = owned(args);
    let Start::Refused(err) = start(&args) else {
        panic!("{args:?} was accepted");
    };
    assert!(err.contains("--allow-long"), "{err}");
    let most = suggested(&err, &format!("{flag} at most "));
    assert!(
        matches!(start(&with_value(&args, flag, most)), Start::Accepted),
        "{args:?}: {flag} {most} was suggested but refused"
    );
    assert!(
        matches!(start(&with_value(&args, flag, most + 1)), Start::Refused(_)),
        "{args:?}: {flag} {} accepted past the suggestion {most}",
        most + 1
    );
    most
}

/// `shuffle rejection -n 1e8` ran 142 s and `hash-deal` 116 s, both
/// accepted: their O(n log n) and O(n) classes hid a large constant
/// (random access to 10^8 cards). The measured weights refuse them, and the
/// -n suggested is the edge.
#[test]
fn the_slow_linear_shuffles_are_refused_at_their_measured_limit() {
    for alg in ["rejection", "hash-deal"] {
        let args = ["shuffle", alg, "-n", "100000000", "--seed", "x"];
        let most = the_suggestion_is_the_edge(&args, "-n");
        assert!(most < 100_000_000, "{alg}: {most}");
    }
}

/// `exact naive-swap -n 9 --max-paths 111111111`, the maximum the tool
/// itself suggested, walked for 62.6 s and then failed: the tree has 9^9
/// paths of the same length, so no smaller walk can finish. Now it is
/// refused at once, saying how many paths it needs.
#[test]
fn exact_refuses_a_max_paths_that_cannot_finish() {
    for max_paths in ["111111111", "10000000"] {
        let out =
            common::usage_error(&["exact", "naive-swap", "-n", "9", "--max-paths", max_paths]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("has 387420489 paths"), "{err}");
        assert!(err.contains("cannot finish"), "{err}");
        assert_eq!(err.lines().count(), 1);
    }
    // The full walk is over the budget; the suggested -n and --max-paths work.
    let args = ["exact", "naive-swap", "-n", "9", "--max-paths", "387420489"];
    let out = common::usage_error(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    let n = suggested(&err, "-n at most ");
    let paths = suggested(&err, "--max-paths ");
    assert_eq!(paths, n.pow(n as u32), "{err}");
    let accepted = owned(&[
        "exact",
        "naive-swap",
        "-n",
        &n.to_string(),
        "--max-paths",
        &paths.to_string(),
    ]);
    assert!(matches!(start(&accepted), Start::Accepted), "{err}");
    // A tree of unknown size (a rejection loop) keeps the --max-paths edge.
    let args = [
        "exact",
        "rejection",
        "-n",
        "9",
        "--max-paths",
        "18446744073709551615",
    ];
    the_suggestion_is_the_edge(&args, "--max-paths");
}

/// `mix overhand` ran 108–200 s on runs it accepted and on the limits it
/// suggested (`-n 244`, `-n 10000 --trials 1`). Measured per-card weights
/// (and an overhand shuffle without an allocation per packet) make the
/// suggested -n and --trials the edge of the budget.
#[test]
fn mix_overhand_suggests_limits_at_the_edge() {
    let args = [
        "mix", "overhand", "-n", "1000", "--trials", "4000", "--seed", "x",
    ];
    the_suggestion_is_the_edge(&args, "--trials");
    let args = [
        "mix", "overhand", "-n", "10000", "--trials", "4000", "--seed", "x",
    ];
    the_suggestion_is_the_edge(&args, "-n");
}

/// `bench --passes --rounds 1000` ran for minutes with no budget check:
/// rounds × N is now checked like every other long run, the suggested
/// --rounds is the edge, and `--allow-long` lets it run.
#[test]
fn bench_passes_checks_its_rounds_against_the_budget() {
    let args = ["bench", "--passes", "--sizes", "1e7", "--rounds", "1000"];
    let most = the_suggestion_is_the_edge(&args, "--rounds");
    assert!((5..1000).contains(&most), "{most}");
    let long = owned(&[&args[..], &["--allow-long"]].concat());
    assert!(matches!(start(&long), Start::Accepted));
}

/// `mix overhand -n 7` with a --step beyond the last row shown said its run
/// was "within the budget" (the rows shown) and then carried the exact law
/// to --max-shuffles, unshown, for minutes. The law now stops at the last
/// row, which is what the estimate counts: the run ends at once.
#[test]
fn mix_exact_work_is_what_the_estimate_counts() {
    let begun = Instant::now();
    let out = Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(["--format", "json", "mix", "overhand", "-n", "7"])
        .args(["--max-shuffles", "1000000", "--step", "2000000"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        begun.elapsed() < Duration::from_secs(30),
        "{:?}",
        begun.elapsed()
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 1, "{v}");
}
