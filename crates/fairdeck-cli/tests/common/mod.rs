//! Plumbing shared by the integration tests of the `fairdeck` binary: the
//! command under test, runs that must succeed (and print JSON), runs that
//! must be usage errors, and runs whose reader hangs up early.
//!
//! Each file in `tests/` is a crate of its own that compiles this module with
//! `mod common;` and uses only part of it, so the parts one test crate does
//! not call would be dead code there: hence the crate-wide allow below.
#![allow(dead_code)]

pub mod served;

use std::io::Read;
use std::process::{Command as Process, Output, Stdio};

use assert_cmd::Command;
use serde_json::Value;

/// The `fairdeck` binary of this build, with colour off (`NO_COLOR`).
pub fn fairdeck() -> Command {
    let mut cmd = Command::cargo_bin("fairdeck").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs `fairdeck ARGS` to the end and returns what it did.
pub fn run(args: &[&str]) -> Output {
    fairdeck().args(args).output().unwrap()
}

/// Asserts that a run exited 0, showing its stderr when it did not.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A run's stdout as one JSON document.
pub fn parse(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `cmd`, asserts that it succeeded and returns its stdout as JSON;
/// `args` name the run in a failure message.
pub fn run_json(cmd: &mut Command, args: &[&str]) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&out)
}

/// `fairdeck --format json ARGS`, which must succeed.
pub fn json(args: &[&str]) -> Value {
    run_json(fairdeck().args(["--format", "json"]).args(args), args)
}

/// `fairdeck SUBCOMMAND ARGS --format json`, which must succeed.
pub fn json_of(subcommand: &str, args: &[&str]) -> Value {
    run_json(
        fairdeck()
            .arg(subcommand)
            .args(args)
            .args(["--format", "json"]),
        args,
    )
}

/// Runs `fairdeck ARGS` and asserts the usage-error exit code 2; returns the
/// run for the caller's own checks of stdout and stderr.
pub fn usage_error(args: &[&str]) -> Output {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `subcommand` followed by `args`, as one argument list.
pub fn with<'a>(subcommand: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    [&[subcommand][..], args].concat()
}

/// Runs `fairdeck ARGS` with stdout and stderr on pipes, reads exactly
/// `bytes` bytes of stdout, closes it as a reader like `head` would, and
/// returns the finished run.
pub fn hang_up_after(args: &[&str], bytes: usize) -> Output {
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = vec![0u8; bytes];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// The elements of a JSON array of strings.
pub fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

/// The elements of a JSON array of unsigned integers.
pub fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// `bash -c SCRIPT` with `$SHUF` naming fairdeck (run it as `exec -a shuf "$SHUF"`) and
/// `LC_ALL=C`: for runs that need a shell (`ulimit`, redirections, argv[0]).
pub fn shuf_shell(script: &str) -> Output {
    Process::new("bash")
        .args(["-c", script])
        .env("SHUF", assert_cmd::cargo::cargo_bin("fairdeck"))
        .env("LC_ALL", "C")
        .output()
        .unwrap()
}

/// Asserts that a `shuf_shell` script ending `| head …; echo $?` under
/// `set -o pipefail` printed 141 (SIGPIPE) and nothing on stderr.
pub fn assert_sigpipe_exit(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "141\n", "{stderr}");
    assert!(out.stderr.is_empty(), "{stderr}");
}

/// Starts `fairdeck ARGS` (a server), reads the first line of its stdout,
/// `PREFIX http://ADDR/`, and returns the child and ADDR.
pub fn spawn_server(args: &[&std::ffi::OsStr], prefix: &str) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix(&format!("{prefix} http://"))
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    (child, addr)
}

/// `fairdeck shuf` with SIGINT, SIGTERM and SIGHUP at their default action:
/// `shuf` keeps a signal ignored that its caller ignored (as GNU's does), and
/// a test run from a background job or under `nohup` inherits ignored ones,
/// which would turn these tests' signals into nothing. GNU `env` resets them
/// and execs the program, so the child's pid is `fairdeck`'s.
pub fn shuf_signals_at_default() -> Process {
    let mut command = Process::new("env");
    command
        .arg("--default-signal=INT,TERM,HUP")
        .arg(assert_cmd::cargo::cargo_bin("fairdeck"))
        .arg("shuf");
    command
}

/// `fairdeck fair verify FILE` of a transcript written to `path`: must
/// succeed; answers what it printed.
pub fn fair_verify_written(path: &std::path::Path, transcript: &str) -> String {
    std::fs::write(path, transcript).unwrap();
    let out = Process::new(assert_cmd::cargo::cargo_bin("fairdeck"))
        .args(["fair", "verify"])
        .arg(path)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{said}");
    said
}
