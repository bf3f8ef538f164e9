//! Issue 26, item 17: every subcommand's output path meets a full disk or
//! a reader that hung up with one line on stderr and a chosen exit code,
//! never a panic (exit 101); and `fair commit`, whose fresh secret cannot
//! be made again, fails when its reader hung up instead of exiting 0.

mod common;

use std::process::{Command as Process, Output, Stdio};

/// A full 256-bit key, so that no run warns about a short seed.
const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// One small, fast run of every subcommand that writes to stdout
/// (`serve` prints its address and then serves; `shuf` has its own tests).
const RUNS: &[&[&str]] = &[
    &["deal", "--seed", KEY],
    &["--format", "json", "deal", "--seed", KEY],
    &["--format", "pbn", "deal", "--seed", KEY],
    &["deal", "--seed", KEY, "--boards", "1-2"],
    &["sample", "5", "90", "--seed", KEY],
    &["algorithms"],
    &["shuffle", "fisher-yates", "-n", "5", "--seed", KEY],
    &["shuffle", "naive-swap", "-n", "3", "--steps", "--seed", KEY],
    &["rng", "--bytes", "10", "--seed", KEY],
    &["exact", "naive-swap", "-n", "3"],
    &["audit", "fisher-yates", "-n", "5", "--trials", "100"],
    &["chaos", "1", "3", "2"],
    &["mix", "riffle", "-n", "5"],
    &["fair", "commit"],
    &["completions", "bash"],
    &["completions", "zsh"],
    &["completions", "fish"],
    &["man"],
    &["man", "deal"],
    &[
        "bench",
        "--algorithms",
        "fisher-yates",
        "--sizes",
        "10",
        "--budget",
        "0.1",
    ],
];

/// Runs `fairdeck ARGS` with stdout on `stdout`.
fn run_into(args: &[&str], stdout: Stdio) -> Output {
    Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Stdout on a pipe whose read end is closed before the run starts, so
/// that every write fails with EPIPE (no race with a reader).
fn hung_up(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    run_into(args, Stdio::from(writer))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `fairdeck completions bash > /dev/full` exited 101 with clap_complete's
/// panic ("failed to write completion file: StorageFull"); now every
/// subcommand says `write error` on one line and exits 1.
#[test]
fn a_full_disk_is_one_line_and_exit_1_for_every_subcommand() {
    for args in RUNS {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = run_into(args, Stdio::from(full));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        // `rng` notes its seed first; the error is one line, the last.
        let last = err.lines().last().unwrap_or_default();
        assert_eq!(
            last, "fairdeck: write error: No space left on device (os error 28)",
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A reader that hangs up ends the output quietly (exit 0), as `| head`
/// expects — except for `fair commit`, below.
#[test]
fn a_reader_that_hangs_up_ends_the_output_quietly() {
    for args in RUNS.iter().filter(|a| !a.starts_with(&["fair", "commit"])) {
        let out = hung_up(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// `fair commit` into a reader that hung up exited 0: the fresh secret was
/// printed to nobody and lost without a word. Now it is a write error.
#[test]
fn fair_commit_into_a_reader_that_hung_up_fails() {
    for format in ["text", "json"] {
        let out = hung_up(&["--format", format, "fair", "commit"]);
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
        assert_eq!(
            stderr(&out),
            "fairdeck: write error: Broken pipe (os error 32)\n",
            "{format}"
        );
    }
}

/// A full stderr must not turn an error into a panic (eprintln! panics
/// when it cannot write): the exit code stays the error's own.
#[test]
fn a_full_stderr_keeps_the_exit_code() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let usage = Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(["shuffle", "no-such-algorithm"])
        .stderr(Stdio::from(full()))
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
    let runtime = Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(["deal", "--seed", KEY])
        .stdout(Stdio::from(full()))
        .stderr(Stdio::from(full()))
        .output()
        .unwrap();
    assert_eq!(runtime.status.code(), Some(1));
}
