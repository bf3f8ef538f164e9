//! Issue 26: what the caller hands `shuf` is respected — signals it ignored
//! stay ignored (item C: `nohup`, background jobs; item 2: `trap '' PIPE`),
//! and standard input it already partly read is shuffled from where it
//! stands (item 1), in every mode, as GNU shuf does.

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;

mod common;

use common::shuf_shell as sh;

fn sorted_lines(out: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = String::from_utf8_lossy(out)
        .lines()
        .map(String::from)
        .collect();
    v.sort();
    v
}

/// Waits until `pid` is `fairdeck` (after the shell's `exec`) with its
/// SIGTERM handler installed, so that a signal sent now meets the run's own
/// handling rather than the shell's or the default action.
fn wait_for_handlers(pid: u32) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let comm = fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if comm.trim() == "fairdeck" && caught & (1 << (libc::SIGTERM - 1)) != 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{pid} never installed its handlers"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn signals_ignored_at_start_stay_ignored() {
    // `nohup` ignores SIGHUP, a background job of a script SIGINT: the run
    // must finish. SIGTERM, not ignored, still stops it (the control). The
    // run reads a pipe the test holds open, so the signals always arrive
    // mid-run, however fast the machine is.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (signals, expect) in [("-HUP -INT", Some(0)), ("-TERM", Some(130))] {
        let _ = fs::remove_file(&out);
        let mut child = Command::new("bash")
            .args(["-c", r#"trap '' HUP INT; exec "$0" shuf -o "$1""#])
            .arg(cargo_bin("fairdeck"))
            .arg(&out)
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"1\n2\n3\n").unwrap();
        wait_for_handlers(child.id());
        for s in signals.split(' ') {
            Command::new("kill")
                .args([s, &child.id().to_string()])
                .status()
                .unwrap();
        }
        if expect == Some(0) {
            // Still running: the rest of the input, then its end.
            input.write_all(b"4\n5\n").unwrap();
            drop(input);
        }
        // SIGTERM with the pipe still open: the run is abandoned after its
        // grace period (exit 130) without ever seeing the input's end.
        let done = child.wait_with_output().unwrap();
        assert_eq!(
            done.status.code(),
            expect,
            "{signals}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
        if expect == Some(0) {
            assert_eq!(
                sorted_lines(&fs::read(&out).unwrap()),
                ["1", "2", "3", "4", "5"]
            );
        } else {
            assert!(!out.exists(), "an interrupted run created OUT");
        }
    }
}

#[test]
fn an_ignored_sigpipe_is_a_write_error_as_in_gnu() {
    let script = |program: &str| {
        format!(r#"trap '' PIPE; {program} | head -1 >/dev/null; echo "${{PIPESTATUS[0]}}""#)
    };
    let ours = sh(&script(r#"(exec -a shuf "$SHUF" -i 1-1000000)"#));
    let gnu = sh(&script("shuf -i 1-1000000"));
    // GNU's failed write, then its check of stdout at exit.
    assert_eq!(
        String::from_utf8_lossy(&gnu.stderr),
        "shuf: write error: Broken pipe\nshuf: write error\n"
    );
    assert_eq!((ours.stdout, ours.stderr), (gnu.stdout, gnu.stderr));
    // Not ignored: killed by SIGPIPE, as before.
    let out =
        sh(r#"(exec -a shuf "$SHUF" -i 1-1000000) | head -1 >/dev/null; echo "${PIPESTATUS[0]}""#);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "141\n");
}

/// Runs `shuf ARGS` with standard input on `file` opened at `offset`.
fn from_offset(program: &str, args: &[&str], file: &std::path::Path, offset: u64) -> Output {
    let mut input = fs::File::open(file).unwrap();
    input.seek(SeekFrom::Start(offset)).unwrap();
    let mut cmd = if program == "gnu" {
        Command::new("shuf")
    } else {
        let mut c = Command::new(cargo_bin("fairdeck"));
        c.arg("shuf");
        c
    };
    cmd.args(args)
        .stdin(input)
        .env("LC_ALL", "C")
        .output()
        .unwrap()
}

#[test]
fn partly_read_stdin_is_shuffled_from_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    fs::write(&file, "header\na\nb\n").unwrap();
    let source = dir.path().join("bytes");
    fs::write(&source, (0..=255u8).cycle().take(4096).collect::<Vec<u8>>()).unwrap();
    let rs = format!("--random-source={}", source.display());
    for args in [
        &[][..],
        &["--seed", "s"],
        &["-n", "5"],
        &[rs.as_str()],
        &[rs.as_str(), "-n", "1"],
    ] {
        let out = from_offset("ours", args, &file, 7);
        assert!(out.status.success(), "{args:?}");
        let got = sorted_lines(&out.stdout);
        assert!(
            got.iter().all(|l| l == "a" || l == "b"),
            "{args:?}: {got:?}"
        );
        assert_eq!(
            got.len(),
            if args.ends_with(&["1"]) { 1 } else { 2 },
            "{args:?}"
        );
        if args.first().is_some_and(|a| a.starts_with("--random")) {
            assert_eq!(
                out.stdout,
                from_offset("gnu", args, &file, 7).stdout,
                "{args:?}"
            );
        }
    }
    let out = from_offset("ours", &["-r", "-n", "50"], &file, 7);
    assert!(
        sorted_lines(&out.stdout)
            .iter()
            .all(|l| l == "a" || l == "b")
    );
    // The shell's own `read`, as in the issue.
    let out = sh(
        r#"printf 'header\na\nb\n' > "$TMPDIR/f"; (read -r h; "$SHUF" shuf) < "$TMPDIR/f""#
            .replace("$TMPDIR", dir.path().to_str().unwrap())
            .as_str(),
    );
    assert_eq!(sorted_lines(&out.stdout), ["a", "b"]);
}

#[test]
fn the_reservoir_threshold_is_decided_from_what_is_left() {
    // 9 MiB in all, 7 MiB after the offset: GNU reads it all (no reservoir),
    // which draws differently from a random source than the reservoir does.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    let data: Vec<u8> = (0..(9 << 20) / 8)
        .flat_map(|i: u32| format!("{i:07}\n").into_bytes())
        .collect();
    fs::write(&file, &data).unwrap();
    let source = dir.path().join("bytes");
    let bytes: Vec<u8> = (0..1u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    fs::write(&source, bytes).unwrap();
    let rs = format!("--random-source={}", source.display());
    let args = [rs.as_str(), "-n", "3"];
    let ours = from_offset("ours", &args, &file, 2 << 20);
    let gnu = from_offset("gnu", &args, &file, 2 << 20);
    assert!(gnu.status.success());
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&gnu.stdout)
    );
}
