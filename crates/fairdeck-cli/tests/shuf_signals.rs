//! Issue 15's signal items for `shuf`: an interrupt at any moment leaves
//! either the finished output (exit 0) or the untouched input (exit 130),
//! never a torn message nor a temporary file; the leftovers of a run killed
//! with SIGKILL carry its process id and the next run removes them.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::shuf_signals_at_default as shuf;

fn lines(count: usize) -> Vec<u8> {
    (0..count)
        .flat_map(|i| format!("{i:07}\n").into_bytes())
        .collect()
}

fn sorted(data: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    v.sort_unstable();
    v
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn entries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn an_interrupt_at_any_moment_tells_the_truth() {
    // 2 MB shuffled out of core onto itself, SIGTERM after 0..190 ms: the
    // signal lands before, during and after the scatter, the gather and the
    // rename. Every outcome must be one of the two truthful ones.
    let input = lines(250_000);
    let (home, scratch) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = home.path().join("data");
    let f = file.to_str().unwrap();
    let (mut finished, mut interrupted) = (0, 0);
    for step in 0..20u64 {
        fs::write(&file, &input).unwrap();
        let child = shuf()
            .args(["--memory", "64K", "--temporary-directory"])
            .arg(scratch.path())
            .args(["-o", f, f])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(step * 10));
        signal(&child, "-TERM");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.is_empty(), "step {step}: {err}");
        let after = fs::read(&file).unwrap();
        match out.status.code() {
            Some(0) => {
                assert_eq!(sorted(&after), sorted(&input), "step {step}");
                finished += 1;
            }
            Some(130) => {
                assert_eq!(
                    after, input,
                    "step {step}: interrupted, yet the file changed"
                );
                interrupted += 1;
            }
            // Killed before the handler was installed: nothing was written yet.
            None if out.status.signal() == Some(15) => assert_eq!(after, input),
            other => panic!("step {step}: exit {other:?}"),
        }
        assert_eq!(entries(scratch.path()), Vec::<String>::new(), "step {step}");
        assert_eq!(entries(home.path()), ["data"], "step {step}");
    }
    assert!(
        interrupted > 0,
        "no run was interrupted ({finished} finished)"
    );
}

/// Starts an out-of-core run reading a pipe kept open, and waits until a
/// bucket file exists.
fn blocked_run(scratch: &Path) -> (Child, std::process::ChildStdin) {
    let mut child = shuf()
        .args(["--memory", "64K", "--temporary-directory"])
        .arg(scratch)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&lines(120_000)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let has_bucket = || {
        fs::read_dir(scratch)
            .unwrap()
            .any(|d| fs::read_dir(d.unwrap().path()).is_ok_and(|mut b| b.next().is_some()))
    };
    while !has_bucket() {
        assert!(Instant::now() < deadline, "no temporary bucket appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, stdin)
}

#[test]
fn a_run_blocked_on_its_input_is_abandoned_cleanly() {
    let scratch = tempfile::tempdir().unwrap();
    let (child, stdin) = blocked_run(scratch.path());
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(entries(scratch.path()), Vec::<String>::new());
}

#[test]
fn leftovers_of_a_killed_run_are_removed_by_the_next() {
    let scratch = tempfile::tempdir().unwrap();
    let (mut child, stdin) = blocked_run(scratch.path());
    let pid = child.id();
    child.kill().unwrap(); // SIGKILL: no cleanup runs
    child.wait().unwrap();
    drop(stdin);
    let left = entries(scratch.path());
    assert_eq!(left.len(), 1);
    assert!(
        left[0].starts_with(&format!("fairdeck-shuf.{pid}.")),
        "{left:?}"
    );
    // A partial output of a dead run next to a file being replaced.
    let home = tempfile::tempdir().unwrap();
    let partial = home.path().join(".fairdeck-shuf.99999999.AbCdEf");
    fs::write(&partial, "half").unwrap();
    let file = home.path().join("data");
    fs::write(&file, lines(30_000)).unwrap();
    let f = file.to_str().unwrap();
    let out = shuf()
        .args(["--memory", "64K", "--temporary-directory"])
        .arg(scratch.path())
        .args(["-o", f, f])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(entries(scratch.path()), Vec::<String>::new());
    assert_eq!(entries(home.path()), ["data"]);
}
