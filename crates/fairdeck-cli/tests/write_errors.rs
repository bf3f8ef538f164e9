//! Issue 26, item 17: every subcommand's output path meets a full disk or
//! a reader that hung up with one line on stderr and a chosen exit code,
//! never a panic (exit 101); and `fair commit`, whose fresh secret cannot
//! be made again, fails when its reader hung up instead of exiting 0.
//!
//! Issue 35, item 14: help and version text too, and a reader that hangs
//! up is met as GNU's tools meet it — death by SIGPIPE, or `write error:
//! Broken pipe` and exit 1 when SIGPIPE was ignored at start — instead of
//! exit 0; only `rng`'s endless stream ends quietly there.

mod common;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command as Process, Output, Stdio};

/// A full 256-bit key, so that no run warns about a short seed.
const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// One small, fast run of every subcommand that writes to stdout
/// (`serve` prints its address and then serves; `shuf` has its own tests;
/// `fair table new` needs a fresh secret file each run: [`table_new`]), and
/// clap's help and version text.
const RUNS: &[&[&str]] = &[
    &["--help"],
    &["-h"],
    &["--version"],
    &["help"],
    &["help", "deal"],
    &["table", "--help"],
    &["fair", "table", "new", "--help"],
    &["mix", "--version"],
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

/// A pipe whose read end is closed before the run starts, so that every
/// write fails with EPIPE (no race with a reader).
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

/// Stdout on a [`closed_pipe`]; SIGPIPE as the test harness leaves it for
/// its children (the default action).
fn hung_up(args: &[&str]) -> Output {
    run_into(args, closed_pipe())
}

/// As [`hung_up`], started with SIGPIPE ignored (`trap '' PIPE`, which
/// `exec` keeps), as `nohup` or a Python parent may.
fn hung_up_ignoring_sigpipe(args: &[&str]) -> Output {
    Process::new("sh")
        .args(["-c", r#"trap '' PIPE; exec "$0" "$@""#])
        .arg(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// `fair table new` with a fresh secret file in `dir` (the run refuses to
/// overwrite one).
fn table_new(dir: &std::path::Path, name: &str) -> Vec<String> {
    let secret = dir.join(name).display().to_string();
    [
        "fair", "table", "new", "--id", "t", "-g", "bridge", "--deals", "1",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain(["--secret-out".to_string(), secret])
    .collect()
}

/// Whether `args` writes output that cannot be made again (a fresh secret
/// or commitment): then a reader that hangs up is always a said failure.
fn must_deliver(args: &[&str]) -> bool {
    args.starts_with(&["fair", "commit"]) || args.starts_with(&["fair", "table", "new", "--id"])
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

/// A reader that hangs up: every subcommand, help and version text died
/// with exit 0 and the output lost; now, as GNU's tools, the process dies
/// of SIGPIPE (status 141 in a shell) and says nothing.
#[test]
fn a_reader_that_hangs_up_is_a_sigpipe_death_as_in_gnu() {
    for args in RUNS.iter().filter(|a| !must_deliver(a)) {
        let out = hung_up(args);
        let err = stderr(&out);
        assert_eq!(
            (out.status.code(), out.status.signal()),
            (None, Some(libc::SIGPIPE)),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// Started with SIGPIPE ignored, GNU's tools say `write error: Broken
/// pipe` and exit 1; so does every subcommand.
#[test]
fn an_ignored_sigpipe_makes_a_hang_up_a_write_error() {
    for args in RUNS {
        let out = hung_up_ignoring_sigpipe(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err.lines().last().unwrap_or_default(),
            "fairdeck: write error: Broken pipe (os error 32)",
            "{args:?}: {err}"
        );
    }
}

/// `rng` without `--bytes` is an endless stream: its reader leaving is its
/// only end, so that ends it quietly with exit 0 (documented), whatever
/// SIGPIPE was; with `--bytes` it is output like any other.
#[test]
fn the_endless_rng_stream_ends_quietly_and_only_it() {
    let endless = ["rng", "--seed", KEY];
    for out in [hung_up(&endless), hung_up_ignoring_sigpipe(&endless)] {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("error"), "{}", stderr(&out));
    }
    let bounded = ["rng", "--bytes", "10", "--seed", KEY];
    assert_eq!(hung_up(&bounded).status.signal(), Some(libc::SIGPIPE));
}

/// `fair commit` into a reader that hung up exited 0: the fresh secret was
/// printed to nobody and lost without a word. Now it is a write error
/// (not a silent SIGPIPE death), and so is `fair table new`'s document.
#[test]
fn fresh_secrets_into_a_reader_that_hung_up_fail_with_a_word() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "json"] {
        let table = table_new(dir.path(), &format!("secret-{format}"));
        let mut table: Vec<&str> = table.iter().map(String::as_str).collect();
        table.splice(0..0, ["--format", format]);
        for args in [&["--format", format, "fair", "commit"][..], &table] {
            let out = hung_up(args);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
            assert_eq!(
                stderr(&out),
                "fairdeck: write error: Broken pipe (os error 32)\n",
                "{args:?}"
            );
        }
    }
}

/// `fair table new` into a full disk: its document is not lost silently.
#[test]
fn fair_table_new_into_a_full_disk_fails() {
    let dir = tempfile::tempdir().unwrap();
    let args = table_new(dir.path(), "secret");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = run_into(&args, Stdio::from(full));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "fairdeck: write error: No space left on device (os error 28)\n"
    );
}

/// A stdout closed at start (`fairdeck --help >&-`) is a write error too.
#[test]
fn help_and_version_into_a_closed_stdout_fail() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["help"],
        &["table", "--help"],
    ] {
        let closed = Process::new("sh")
            .args(["-c", r#""$0" "$@" >&-"#])
            .arg(assert_cmd::cargo::cargo_bin("fairdeck"))
            .args(args)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(closed.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&closed),
            "fairdeck: write error: Bad file descriptor (os error 9)\n",
            "{args:?}"
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

/// A file named by a flag (`--plot`, `--out`, `shuf -o`) on a full disk:
/// one line, exit 1, never exit 0. `bench --plot F.svg` exited 0 there: its
/// SVG (under 8 KiB) was flushed when plotters dropped its file.
#[test]
fn a_full_disk_under_a_file_flag_is_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["full.svg", "full.png"] {
        std::os::unix::fs::symlink("/dev/full", dir.path().join(name)).unwrap();
    }
    let at = |name: &str| dir.path().join(name).display().to_string();
    let (svg, png, secret) = (at("full.svg"), at("full.png"), at("secret"));
    let bench = [
        "bench",
        "--algorithms",
        "fisher-yates",
        "--sizes",
        "10,100",
        "--budget",
        "0.1",
    ];
    let runs: Vec<Vec<&str>> = vec![
        [&bench[..], &["--plot", &svg]].concat(),
        [&bench[..], &["--plot", &png]].concat(),
        vec!["mix", "riffle", "-n", "10", "--plot", &svg],
        vec![
            "audit",
            "fisher-yates",
            "-n",
            "5",
            "--trials",
            "100",
            "--plot",
            &svg,
        ],
        vec![
            "fair",
            "table",
            "new",
            "--id",
            "t",
            "-g",
            "bridge",
            "--deals",
            "1",
            "--secret-out",
            &secret,
            "--out",
            "/dev/full",
        ],
        vec!["shuf", "-e", "a", "b", "-o", "/dev/full"],
    ];
    for args in runs {
        let out = run_into(&args, Stdio::null());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert_eq!(
            err.lines().filter(|l| l.contains("No space")).count(),
            1,
            "{err}"
        );
    }
}
