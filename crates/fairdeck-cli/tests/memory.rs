//! Issue 26, items 14 and 15: no argument makes a run abort with "memory
//! allocation of N bytes failed" (SIGABRT) — a run that cannot have its
//! memory says `memory exhausted` on one line and exits 1 — and outputs and
//! inputs stay bounded: `shuffle` text is streamed, audit plots are drawn in
//! blocks, PBN files are read up to a size limit. Runs use `ulimit -v`, so a
//! regression shows as an abort (exit 134) instead of a long, large run.

mod common;

use std::process::{Command as Process, Output};

/// Runs `fairdeck ARGS` under `sh -c` after `ulimit -v KB` (address space),
/// with stdout sent to `stdout_to` (a shell redirection target).
fn limited(kb: u64, args: &[&str], stdout_to: &str) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("fairdeck");
    let script = format!("ulimit -v {kb}; exec \"$0\" \"$@\" > {stdout_to}");
    Process::new("sh")
        .args(["-c", &script])
        .arg(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts exit 1 with one stderr line starting `fairdeck: memory exhausted`.
fn memory_exhausted(out: &Output) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("fairdeck: memory exhausted"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The 800 MB card × position table of an audit at n = 10 000 cannot be had
/// under a 500 MB limit: an error, where `vec![0; n * n]` aborted.
#[test]
fn an_audit_table_that_does_not_fit_is_memory_exhausted() {
    let args = ["audit", "fisher-yates", "-n", "10000", "--trials", "1"];
    memory_exhausted(&limited(500_000, &args, "/dev/null"));
}

/// `shuffle hash-deal -n 10^8 --allow-long` needs a hash table of several
/// GB: refused up front under a 1 GB limit (before: an abort mid-run).
#[test]
fn a_shuffle_whose_tables_do_not_fit_is_refused_up_front() {
    let args = [
        "shuffle",
        "hash-deal",
        "-n",
        "100000000",
        "--allow-long",
        "--seed",
        "x",
    ];
    let out = limited(1_000_000, &args, "/dev/null");
    memory_exhausted(&out);
    assert!(stderr(&out).contains("hash-deal"), "{}", stderr(&out));
}

/// `shuffle asf-poker -n 33554432` built its text line in memory (about 71
/// bytes per card, 2.4 GB) and aborted under the limit; streamed, it needs
/// the 8 bytes per card of the deck. Under 1 GB it succeeds.
#[test]
fn shuffle_text_is_streamed() {
    let args = ["shuffle", "asf-poker", "-n", "33554432", "--seed", "x"];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let out = limited(1_000_000, &args, path.to_str().unwrap());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let cards = lines.next().unwrap().split(' ').count();
    assert_eq!(cards, 33_554_432);
    assert!(lines.next().unwrap().starts_with("asf-poker, n = 33554432"));
}

/// The JSON of a streamed shuffle is the same document as before: the
/// cards 1-based, in the algorithm's order.
#[test]
fn shuffle_json_and_text_agree() {
    let json = common::json_of("shuffle", &["fisher-yates", "-n", "12", "--seed", "x"]);
    let text = common::run(&["shuffle", "fisher-yates", "-n", "12", "--seed", "x"]);
    let line = String::from_utf8(text.stdout).unwrap();
    let from_text: Vec<u64> = line
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(common::numbers(&json["result"]), from_text);
    let mut sorted = from_text.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=12).collect::<Vec<_>>());
}

/// A --plot path that cannot be written is refused before the work (the
/// audit of bad input below would otherwise fail first, on its input), and
/// leaves no file behind; an existing picture survives a failed run.
#[test]
fn the_plot_path_is_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "0 1 1\n").unwrap();
    let missing = dir.path().join("no-such-dir/p.svg");
    let args = |plot: &str| {
        ["audit", "--input", bad.to_str().unwrap(), "--plot", plot].map(str::to_string)
    };
    let out = common::fairdeck()
        .args(args(missing.to_str().unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(stderr(&out).contains("no-such-dir/p.svg"));
    // A new file created for the check is removed when the run then fails.
    let new = dir.path().join("new.svg");
    let out = common::fairdeck()
        .args(args(new.to_str().unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!new.exists());
    // An existing picture keeps its content when the run fails.
    let old = dir.path().join("old.svg");
    std::fs::write(&old, "<svg/>").unwrap();
    let out = common::fairdeck()
        .args(args(old.to_str().unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "<svg/>");
    // mix checks its --plot path first too.
    let out = common::run(&[
        "mix",
        "riffle",
        "-n",
        "5",
        "--plot",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

/// The reproducer: an audit at n = 4096 with a plot drew one
/// rectangle per cell (1.5 GB of SVG, an abort under 2 GB). Now the picture
/// is at most 256 × 256 squares, and stderr says so.
#[test]
fn a_large_audit_plot_is_drawn_in_blocks_within_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let args = [
        "audit",
        "asf-poker",
        "-n",
        "4096",
        "--trials",
        "20",
        "--seed",
        "x",
        "--plot",
        svg.to_str().unwrap(),
    ];
    let out = limited(2_000_000, &args, "/dev/null");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("each is the mean of 16 × 16 cards × positions"),
        "{}",
        stderr(&out)
    );
    let size = std::fs::metadata(&svg).unwrap().len();
    assert!(size < 8_000_000, "{size} bytes");
}

/// `deal --from-pbn /dev/zero` read until memory ran out; PBN files are
/// now capped at 16 MiB, as `--secret-file` and `--entropy` are.
#[test]
fn an_endless_pbn_file_is_refused() {
    let out = limited(1_000_000, &["deal", "--from-pbn", "/dev/zero"], "/dev/null");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than 16 MiB"),
        "{}",
        stderr(&out)
    );
}
