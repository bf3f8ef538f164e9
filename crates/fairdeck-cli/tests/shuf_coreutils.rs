//! The cases of GNU coreutils' own shuf tests, `tests/shuf/shuf.sh` and
//! `tests/shuf/shuf-reservoir.sh` (coreutils, gnu.org), rewritten for
//! fairdeck and run as `shuf` (argv[0] = `shuf`).
//!
//! Left out: the getrandom-ENOSYS case (needs strace fault injection) and
//! the unreadable-file case (the tests run as root, who reads anything; GNU
//! skips it there too). The "not random?" checks are GNU's: a fair shuffle
//! of 100 lines returns them in order with probability 1/100!, and two
//! draws from 2^64 numbers agree with probability 2^-64.

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::cargo_bin;

fn shuf(args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = Command::new(cargo_bin("fairdeck"));
    cmd.arg0("shuf").args(args).env("LC_ALL", "C");
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // A run that stops reading early (-n 0) closes the pipe: ignore EPIPE.
    let _ = std::io::Write::write_all(&mut pipe, stdin);
    drop(pipe);
    child.wait_with_output().unwrap()
}

mod common;

use common::shuf_shell as sh;

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn seq(n: u64) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

fn sorted_numbers(text: &str) -> Vec<u64> {
    let mut v: Vec<u64> = text.lines().map(|l| l.parse().unwrap()).collect();
    v.sort_unstable();
    v
}

#[test]
fn randomizes_and_permutes() {
    let max = format!("-i1-{}", u64::MAX);
    let a = ok(&shuf(&[&max, "-n", "1"], b""));
    let b = ok(&shuf(&[&max, "-n", "1"], b""));
    assert_ne!(a, b, "two fresh seeds gave the same draw");
    let input = seq(100);
    for out in [
        ok(&shuf(&[], input.as_bytes())),
        ok(&shuf(&["-i", "1-100"], b"")),
    ] {
        assert_ne!(out, input, "not random?");
        assert_eq!(sorted_numbers(&out), (1..=100).collect::<Vec<_>>());
    }
    let mut e: Vec<String> = ok(&shuf(&["-e", "a", "b", "c", "d", "e"], b""))
        .lines()
        .map(String::from)
        .collect();
    e.sort();
    assert_eq!(e, ["a", "b", "c", "d", "e"]);
    ok(&shuf(&[], seq(1860).as_bytes()));
}

#[test]
fn closed_standard_input_is_never_read_when_not_needed() {
    let out = sh(r#"exec -a shuf "$SHUF" -r -n 0 /dev/null <&-"#);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let out = sh(r#"exec -a shuf "$SHUF" /dev/null <&-"#);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
}

#[test]
fn old_crashes_exit_1() {
    assert_eq!(shuf(&["-er"], b"").status.code(), Some(1));
    assert_eq!(shuf(&["-i0-0", "1"], b"").status.code(), Some(1));
}

#[test]
fn zero_terminated_range() {
    assert_eq!(
        shuf(&["--zero-terminated", "-i", "1-1"], b"").stdout,
        b"1\0"
    );
}

#[test]
fn memory_exhausted_exits_1() {
    // About 100 MB of address space (enough to load the binary, debug build
    // included): too little for 10^8 numbers (800 MB). GNU says "memory
    // exhausted"; so does fairdeck, from its budget (a third of RLIMIT_AS)
    // before it allocates anything.
    let out = sh(r#"ulimit -v 100000 && exec -a shuf "$SHUF" -i1-100000000"#);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("shuf: memory exhausted"), "{err}");
}

#[test]
fn small_head_counts_of_huge_ranges_are_fast() {
    let out = ok(&shuf(&[&format!("-i1-{}", u64::MAX - 1), "-n2"], b""));
    assert_eq!(out.lines().count(), 2);
    let out = ok(&shuf(&["-n10", "-i0-9", "-n3", "-n20"], b""));
    assert_eq!(out.lines().count(), 3);
}

#[test]
fn error_conditions_exit_1() {
    for args in [
        &["-i0-9", "-e", "A", "B"][..],
        &["-nA"],
        &["-i0-9", "-n10", "-i8-90"],
        &["-i1"],
        &["-iA"],
        &["-i1-"],
        &["-i1-A"],
        &["-i0-9", "-o", "A", "-o", "B"],
        &["-i0-9", "--random-source", "A", "--random-source", "B"],
    ] {
        assert_eq!(shuf(args, b"").status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn repeat_is_endless_without_a_count() {
    for script in [
        r#"exec -a shuf "$SHUF" --rep -i 0-10 | head -n 1000"#,
        r#"exec -a shuf "$SHUF" --rep -e A B C D | head -n 1000"#,
        r#"printf 'A\nB\nC\nD\nE\n' | (exec -a shuf "$SHUF" --rep) | head -n 1000"#,
    ] {
        assert_eq!(ok(&sh(script)).lines().count(), 1000, "{script}");
    }
}

#[test]
fn repeat_with_counts() {
    // 1000 draws from 10 values miss one with probability < 10·0.9^1000 ≈ 2e-45.
    let out = ok(&shuf(&["--rep", "-i0-9", "-n1000"], b""));
    assert_eq!(out.lines().count(), 1000);
    let mut v = sorted_numbers(&out);
    v.dedup();
    assert_eq!(v, (0..=9).collect::<Vec<_>>());
    let mut v = sorted_numbers(&ok(&shuf(&["--rep", "-i222-233", "-n2000"], b"")));
    v.dedup();
    assert_eq!(v, (222..=233).collect::<Vec<_>>());
    assert_eq!(ok(&shuf(&["--rep", "-i0-9", "-n0"], b"")), "");
    let letters = b"A\nB\nC\nD\nE\n";
    let out = ok(&shuf(&["--rep", "-n2000"], letters));
    let mut seen: Vec<&str> = out.lines().collect();
    assert_eq!(seen.len(), 2000);
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, ["A", "B", "C", "D", "E"]);
    assert_eq!(ok(&shuf(&["--rep", "-n0"], letters)), "");
}

#[test]
fn reservoir_sampling_counts() {
    // shuf-reservoir.sh: every pair of these input and output line counts
    // (around GNU's 1024-line allocation batches), from a pipe, into -o.
    const COUNTS: [u64; 9] = [0, 1, 5, 1023, 1024, 1025, 3071, 3072, 3073];
    let dir = tempfile::tempdir().unwrap();
    for input in COUNTS {
        let text = seq(input);
        for output in COUNTS {
            let file = dir.path().join(format!("out_{input}_{output}"));
            let n = output.to_string();
            let out = shuf(&["-n", &n, "-o", file.to_str().unwrap()], text.as_bytes());
            assert!(out.status.success(), "{input} {output}");
            let got = std::fs::read_to_string(&file).unwrap();
            let mut v = sorted_numbers(&got);
            let lines = v.len();
            v.dedup();
            let expected = input.min(output) as usize;
            assert_eq!((lines, v.len()), (expected, expected), "{input} {output}");
            assert!(v.iter().all(|x| (1..=input).contains(x)));
        }
    }
}
