//! Reproducers of issues 15 and 16 for `shuf`, each a regression test:
//! sizes that overflowed, allocations that aborted, real memory limits,
//! a random source that runs out under `-r`, closed and broken outputs,
//! `-o` naming the random source, `-o` through a hard link.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

use assert_cmd::cargo::cargo_bin;

fn shuf(args: &[&str]) -> Output {
    let mut cmd = Command::new(cargo_bin("fairdeck"));
    cmd.arg0("shuf").args(args).env("LC_ALL", "C");
    cmd.output().unwrap()
}

mod common;

use common::shuf_shell as sh;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn memory_exhausted(out: &Output) {
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr(out).starts_with("shuf: memory exhausted"),
        "{}",
        stderr(out)
    );
}

#[test]
fn huge_ranges_are_refused_without_overflow() {
    // Issue 15: 2^61 numbers times 8 bytes wrapped to 0 and the check passed.
    memory_exhausted(&shuf(&["-i", "0-2305843009213693952"]));
    // The figure in the message never wraps either.
    let out = shuf(&["-i", "0-18446744073709551614", "-n", "4611686018427387904"]);
    memory_exhausted(&out);
    assert!(
        !stderr(&out).contains("18446744073709551608"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_default_budget_respects_ulimit_v() {
    // Issue 16, item 4: GNU says "memory exhausted" (exit 1); an abort was 134.
    memory_exhausted(&sh(
        r#"ulimit -v 1000000 && exec -a shuf "$SHUF" -i1-1000000000"#,
    ));
}

#[test]
fn failed_allocations_say_memory_exhausted() {
    // A budget above the limit: the 8 GB allocation itself fails, fallibly.
    let out = sh(r#"ulimit -v 1000000 && exec -a shuf "$SHUF" --memory 100G -i1-1000000000"#);
    memory_exhausted(&out);
    assert_eq!(stderr(&out), "shuf: memory exhausted\n");
}

/// 10 000 bytes from a fixed linear congruential generator.
fn ten_kilobytes() -> Vec<u8> {
    let mut x: u32 = 12345;
    (0..10_000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect()
}

#[test]
fn repeat_writes_every_draw_before_the_random_source_ends() {
    // Issue 16, item 2: GNU wrote ~11 776 lines from 10 KB, fairdeck wrote 0.
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("rs");
    fs::write(&source, ten_kilobytes()).unwrap();
    let src = format!("--random-source={}", source.display());
    let args = [&src, "-r", "-i", "1-1000"];
    let ours = shuf(&args);
    let gnu = Command::new("shuf")
        .args(args)
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert_eq!(ours.status.code(), Some(1));
    assert!(ours.stdout.len() > 20_000, "{} bytes", ours.stdout.len());
    assert_eq!(ours.stdout, gnu.stdout, "the same bytes give GNU's draws");
    assert_eq!(stderr(&ours), stderr(&gnu));
}

#[test]
fn a_closed_stdout_is_a_write_error() {
    // Issue 15/16: `shuf f >&-` exited 0 and lost the output.
    let out = sh(r#"exec -a shuf "$SHUF" -i 1-5 >&-"#);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "shuf: write error: Bad file descriptor\n");
    // Nothing to write, nothing to report (GNU's close_stdout agrees).
    let out = sh(r#"exec -a shuf "$SHUF" -n 0 -i 1-5 >&-"#);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_broken_pipe_ends_with_sigpipe_like_gnu() {
    // Issue 16, item 5: `set -o pipefail` users see 141 from GNU.
    let out = sh(
        r#"set -o pipefail; (exec -a shuf "$SHUF" -i 1-2000000) | head -n 1 >/dev/null; echo $?"#,
    );
    common::assert_sigpipe_exit(&out);
}

#[test]
fn the_output_may_not_be_the_random_source() {
    // Issue 15: `-o rs` truncated the random source while it was read.
    let dir = tempfile::tempdir().unwrap();
    let rs = dir.path().join("rs");
    fs::write(&rs, ten_kilobytes()).unwrap();
    let r = rs.to_str().unwrap();
    let out = shuf(&[
        "-r",
        "-n",
        "3000000",
        "-e",
        "a",
        "b",
        "c",
        "--random-source",
        r,
        "-o",
        r,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        // The name is quoted as GNU quotes file names: a plain path stays bare.
        format!("shuf: {r}: the output file is the --random-source file\n")
    );
    assert_eq!(fs::read(&rs).unwrap(), ten_kilobytes());
}

#[test]
fn an_output_hard_linked_to_the_input_is_written_through_the_link() {
    // Issue 15: `-o g`, g a hard link to the input f, replaced g's link, so
    // f kept the old order. Now both names see the shuffled lines.
    let dir = tempfile::tempdir().unwrap();
    let (f, g) = (dir.path().join("f"), dir.path().join("g"));
    let text: String = (0..1000).map(|i| format!("{i}\n")).collect();
    fs::write(&f, &text).unwrap();
    fs::hard_link(&f, &g).unwrap();
    let out = shuf(&["-o", g.to_str().unwrap(), f.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (mf, mg) = (fs::metadata(&f).unwrap(), fs::metadata(&g).unwrap());
    assert_eq!((mf.ino(), mf.nlink()), (mg.ino(), 2), "still one file");
    let after = fs::read_to_string(&f).unwrap();
    assert_ne!(after, text);
    let mut lines: Vec<&str> = after.lines().collect();
    lines.sort_unstable();
    let mut expected: Vec<&str> = text.lines().collect();
    expected.sort_unstable();
    assert_eq!(lines, expected);
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file left"
    );
}
