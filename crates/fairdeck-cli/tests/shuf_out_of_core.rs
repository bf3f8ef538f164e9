//! Out-of-core output errors: the output is written by a second thread
//! while buckets are shuffled, and its failures must still end the run
//! like GNU's (exit 1 and one message, or SIGPIPE), leaving no temporary
//! files behind.

use std::fs;
use std::process::Output;

mod common;

use common::shuf_shell as sh;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `script` with `$IN` a 2 MB file of 100 000 lines and `$T` an empty
/// scratch directory; returns the output and whether `$T` is still empty.
fn run(script: &str) -> (Output, bool) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let scratch = dir.path().join("t");
    fs::create_dir(&scratch).unwrap();
    let text: String = (0..100_000).map(|i| format!("{i:019}\n")).collect();
    fs::write(&input, text).unwrap();
    let full = format!(
        "IN='{}'; T='{}'; {script}",
        input.display(),
        scratch.display()
    );
    let out = sh(&full);
    let clean = fs::read_dir(&scratch).unwrap().next().is_none();
    (out, clean)
}

#[test]
fn a_full_disk_is_a_write_error_out_of_core() {
    let (out, clean) =
        run(r#"exec -a shuf "$SHUF" --memory 256K --temporary-directory "$T" -o /dev/full "$IN""#);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(stderr(&out), "shuf: write error: No space left on device\n");
    assert!(clean);
}

#[test]
fn a_closed_stdout_is_a_write_error_out_of_core() {
    let (out, clean) =
        run(r#"exec -a shuf "$SHUF" --memory 256K --temporary-directory "$T" "$IN" >&-"#);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(stderr(&out), "shuf: write error: Bad file descriptor\n");
    assert!(clean);
}

#[test]
fn a_broken_pipe_ends_with_sigpipe_out_of_core() {
    let (out, clean) = run(
        r#"set -o pipefail; (exec -a shuf "$SHUF" --memory 256K --temporary-directory "$T" "$IN") | head -n 1 >/dev/null; echo $?"#,
    );
    common::assert_sigpipe_exit(&out);
    assert!(clean);
}

#[test]
fn the_output_is_complete_and_the_same_as_before() {
    // The order out of core for a seed is pinned: the writer thread must
    // not change it (this digest is the order of the version before it).
    let (out, clean) = run(
        r#"exec -a shuf "$SHUF" --seed pin --memory 256K --temporary-directory "$T" "$IN" | md5sum"#,
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "d090e6d01f302240eccb2f7e1a162dab  -\n"
    );
    assert!(clean);
}
