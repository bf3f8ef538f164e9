//! Issue 15 reproducers: no flag makes a subcommand panic, take more memory
//! than the machine has, or run past the work budget without --allow-long;
//! a closed stdout is a write error. Each run here is refused or finishes in
//! well under a second and well under 1 GB.

mod common;

use std::process::{Command as Process, Output};

use common::{run, usage_error};

/// The one-line stderr of a run.
fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a usage error (exit 2) whose single stderr line contains `needle`.
fn refused(args: &[&str], needle: &str) {
    let out = usage_error(args);
    let err = stderr(&out);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(out.stdout.is_empty());
}

/// Runs `fairdeck ARGS` under `sh -c` with a shell prefix (`ulimit -v`,
/// `>&-`) applied to it.
fn under_shell(prefix: &str, args: &[&str], suffix: &str) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("fairdeck");
    let script = format!("{prefix} exec \"$0\" \"$@\" {suffix}");
    Process::new("sh")
        .args(["-c", &script])
        .arg(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn huge_deals_are_refused_before_allocating() {
    refused(
        &["deal", "--players", "18446744073709551615", "--cards", "2"],
        "more cards than any deck holds",
    );
    refused(
        &["deal", "--players", "4294967296", "--cards", "4294967296"],
        "more cards than any deck holds",
    );
    refused(
        &["deal", "--players", "10000000", "--cards", "1"],
        "the deal needs 10000000 cards but the deck holds only 52",
    );
}

#[test]
fn an_audit_input_over_the_n_limit_is_refused_before_counting() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let line: Vec<String> = (1..=50_000).map(|x| x.to_string()).collect();
    std::fs::write(&path, line.join(" ") + "\n").unwrap();
    refused(
        &["audit", "--input", path.to_str().unwrap()],
        "a permutation of 50000 items; the audit takes at most 10000",
    );
}

#[test]
fn exact_bounds_depth_and_paths_whatever_the_flags_say() {
    refused(
        &[
            "exact",
            "rejection",
            "-n",
            "9",
            "--max-paths",
            "18446744073709551615",
            "--max-depth",
            "4294967295",
        ],
        "--max-depth is at most 10000",
    );
    refused(
        &[
            "exact",
            "rejection",
            "-n",
            "9",
            "--max-paths",
            "18446744073709551615",
        ],
        "--max-paths at most",
    );
}

/// Under a 1 GB address-space limit the 2 GB table of a 10^8 sample cannot
/// be had: a clear error and exit 1, not an abort (exit 134).
#[test]
fn sample_reports_memory_exhausted_instead_of_aborting() {
    let out = under_shell(
        "ulimit -v 1000000;",
        &["sample", "100000000", "18446744073709551615"],
        "",
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("fairdeck: memory exhausted"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn quadratic_shuffles_get_a_limit_from_their_complexity() {
    for alg in [
        "fisher-yates-original",
        "fisher-yates-list",
        "sort-keys",
        "reverse-insertion",
    ] {
        let out = usage_error(&["shuffle", alg, "-n", "100000000"]);
        let err = stderr(&out);
        assert!(err.contains(&format!("for {alg} (O(n^2))")), "{err}");
        let at = err.find("-n at most ").unwrap() + "-n at most ".len();
        let most: u64 = err[at..].split(' ').next().unwrap().parse().unwrap();
        assert!((5_000..=100_000).contains(&most), "{alg}: {most}");
    }
    for alg in ["random-insertion", "random-insertion-stopping"] {
        refused(&["shuffle", alg, "-n", "100000000"], "--allow-long");
    }
    refused(
        &[
            "shuffle",
            "random-insertion",
            "-n",
            "100000",
            "--rounds",
            "1000000000",
        ],
        "--rounds at most ",
    );
    refused(
        &[
            "shuffle",
            "random-insertion",
            "-n",
            "5",
            "--steps",
            "--rounds",
            "1000000",
        ],
        "--rounds at most 100000",
    );
}

#[test]
fn trials_have_an_upper_limit() {
    refused(
        &[
            "chaos",
            "--distribution",
            "11",
            "--trials",
            "18446744073709551615",
        ],
        "--trials is at most 10000000",
    );
    refused(
        &[
            "mix",
            "overhand",
            "-n",
            "52",
            "--trials",
            "18446744073709551615",
        ],
        "--trials 1..=10000000",
    );
}

#[test]
fn hour_long_runs_are_refused_with_what_would_be_accepted() {
    refused(&["mix", "riffle", "-n", "10000"], "-n at most");
    refused(&["mix", "top-to-random", "-n", "10000"], "-n at most");
    refused(&["mix", "overhand", "-n", "10000"], "-n at most");
    refused(
        &["audit", "sort-keys", "-n", "10000", "--trials", "10000000"],
        "for sort-keys at -n 10000",
    );
    refused(
        &[
            "audit",
            "fisher-yates-list",
            "-n",
            "10000",
            "--trials",
            "10000000",
        ],
        "for fisher-yates-list",
    );
}

/// --allow-long lifts the work budget: checked on a run the estimate
/// refuses but that finishes at once (a huge --max-paths on a rejection
/// loop, an unbounded tree, cut after 3 rolls).
#[test]
fn allow_long_is_the_override() {
    let args = [
        "exact",
        "random-transpositions",
        "-n",
        "2",
        "--max-paths",
        "18446744073709551615",
        "--max-depth",
        "3",
    ];
    refused(&args, "--allow-long");
    let out = run(&[&args[..], &["--allow-long"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("paths walked"));
}

/// `fairdeck SUB >&-`: Rust reopens a closed fd 1 on /dev/null, so without
/// the start-up check these runs exited 0 having lost their output.
#[test]
fn a_closed_stdout_is_a_write_error() {
    for args in [
        &["deal", "--seed", "x"][..],
        &["sample", "5", "90"],
        &["algorithms"],
        &["shuffle", "fisher-yates", "-n", "5"],
        &["rng", "--bytes", "10"],
        &["exact", "naive-swap", "-n", "3"],
        &["audit", "fisher-yates", "-n", "5", "--trials", "100"],
        &["chaos", "1", "3", "2"],
        &["mix", "riffle", "-n", "5"],
        &["fair", "commit"],
        &["--format", "json", "deal"],
    ] {
        let out = under_shell("", args, ">&-");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "fairdeck: write error: Bad file descriptor (os error 9)",
            "{args:?}"
        );
    }
}

#[test]
fn a_full_disk_is_a_write_error() {
    let out = under_shell("", &["deal", "--seed", "x"], "> /dev/full");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("fairdeck: write error: No space left"),
        "{err}"
    );
}

/// The documented behaviour of `fairdeck rng` is kept: a reader that hangs
/// up (EPIPE) ends the stream quietly with exit 0.
#[test]
fn rng_still_ends_quietly_on_a_closed_pipe() {
    let out = common::hang_up_after(&["rng", "--seed", "x"], 4096);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("error"));
}

#[test]
fn endless_input_is_refused_not_read_into_memory() {
    let out = under_shell(
        "",
        &[
            "fair",
            "deal",
            "--secret-file",
            "/dev/zero",
            "--client-seed",
            "c",
            "--nonce",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("larger than 4 KiB"));
    let out = under_shell("", &["deal", "--entropy", "dice"], "< /dev/zero");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("longer than 64 KiB"),
        "{}",
        stderr(&out)
    );
}
