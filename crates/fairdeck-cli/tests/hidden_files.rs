//! Issue 51, items 1–7: the offline `fairdeck hidden` steps and their
//! transcript file. Steps run at once on one transcript keep every message
//! of every step that exits 0; `hidden new` never replaces a file; the
//! temporary file is never left behind (a full disk, a signal); a failed
//! `hidden key` leaves no key file; `--transcript -` is refused and a
//! symlinked transcript is written through; a seat cannot wedge a hand
//! with an early showdown, nor add a key to a void table.

mod common;
mod hidden_table;

use std::path::Path;
use std::process::{Child, Command as Process, Output, Stdio};
use std::time::{Duration, Instant};

use hidden_table::*;
use serde_json::Value;

fn fairdeck_bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("fairdeck")
}

/// Starts `fairdeck hidden ARGS --transcript t.json` of table `t`.
fn spawn(t: &Table, args: &[&str]) -> Child {
    Process::new(fairdeck_bin())
        .arg("hidden")
        .args(args)
        .args(["--transcript", &t.arg("t.json")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Seat `seat`'s step `args` with its key file, as a child process.
fn spawn_seat(t: &Table, args: &[&str], seat: usize) -> Child {
    let key = t.arg(&format!("seat{seat}.key"));
    let all: Vec<&str> = args.iter().copied().chain(["--key", &key]).collect();
    spawn(t, &all)
}

/// Every share message of a transcript (deal, streets, showdown).
fn shares_in(doc: &Value) -> Vec<Value> {
    let mut all = Vec::new();
    for h in doc["hands"].as_array().unwrap() {
        all.extend(h["deal"].as_array().cloned().unwrap_or_default());
        for s in h["streets"].as_array().cloned().unwrap_or_default() {
            all.extend(s["shares"].as_array().cloned().unwrap_or_default());
        }
        all.extend(h["showdown"].as_array().cloned().unwrap_or_default());
    }
    all
}

/// The names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    all.sort();
    all
}

/// `bash -c SCRIPT` in `dir` with `$F` the binary: for `ulimit -f` (a
/// full disk: SIGXFSZ ignored, so the write fails with EFBIG).
fn shell(dir: &Path, script: &str) -> Output {
    Process::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .env("F", fairdeck_bin())
        .output()
        .unwrap()
}

/// Item 1: three seats' steps at once, three times over: every step exits
/// 0 and every message each printed is in the transcript (before the lock,
/// the file held 4 or 8 of the 12 deal shares).
#[test]
fn steps_run_at_once_keep_every_message_of_every_step_that_exits_0() {
    let t = dealt("at-once");
    let dealt = std::fs::read(t.path("t.json")).unwrap();
    for round in 0..3 {
        std::fs::write(t.path("t.json"), &dealt).unwrap();
        for step in [
            &["share", "--street", "deal"][..],
            &["share", "--street", "flop"],
            &["open"],
        ] {
            let children: Vec<Child> = (0..3).map(|s| spawn_seat(&t, step, s)).collect();
            let outs: Vec<Output> = children
                .into_iter()
                .map(|c| c.wait_with_output().unwrap())
                .collect();
            let file = shares_in(&t.transcript());
            for (seat, out) in outs.iter().enumerate() {
                ok(out);
                let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
                for m in printed.as_array().unwrap() {
                    assert!(
                        file.contains(m),
                        "round {round}, {step:?}: seat {seat}'s message is lost: {m}"
                    );
                }
            }
        }
        let (out, doc) = verify(&t.arg("t.json"));
        ok(&out);
        assert_eq!(doc["verdict"], "valid", "{doc}");
    }
}

/// Item 2: two `hidden new` at once: one table, the other run exits 1
/// ("exists"); a dangling symlink is not replaced either.
#[test]
fn two_new_tables_at_once_make_one_and_the_other_fails() {
    for round in 0..5 {
        let t = Table {
            dir: tempfile::tempdir().unwrap(),
        };
        let new = |name: &str| spawn(&t, &["new", "--table", name, "--seats", "ann,bob"]);
        let (a, b) = (new("a"), new("b"));
        let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let won: Vec<&Output> = outs.iter().filter(|o| o.status.success()).collect();
        assert_eq!(won.len(), 1, "round {round}: both made a table");
        let lost = outs.iter().find(|o| !o.status.success()).unwrap();
        assert_eq!(lost.status.code(), Some(1), "{}", stderr(lost));
        assert!(stderr(lost).contains("exists"), "{}", stderr(lost));
        let table = t.transcript()["manifest"]["table"].clone();
        assert_eq!(parse_stdout(won[0])["table"], table);
    }
    let t = Table {
        dir: tempfile::tempdir().unwrap(),
    };
    std::os::unix::fs::symlink(t.path("elsewhere.json"), t.path("t.json")).unwrap();
    let out = t.run(&["new", "--table", "x", "--seats", "ann,bob"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("exists"), "{}", stderr(&out));
    assert!(!t.path("elsewhere.json").exists());
}

fn parse_stdout(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Item 3: a full disk, three times: exit 1 on one line, the transcript as
/// it was, and no temporary file (one was left per retry).
#[test]
fn a_full_disk_leaves_the_transcript_and_no_temporary_file() {
    let t = dealt("full-disk");
    let before = std::fs::read(t.path("t.json")).unwrap();
    let listed = names(t.dir.path());
    for _ in 0..3 {
        let out = shell(
            t.dir.path(),
            "trap '' XFSZ; ulimit -f 1; \
             exec \"$F\" hidden share --transcript t.json --key seat0.key --street deal",
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot write t.json"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read(t.path("t.json")).unwrap(), before);
    assert_eq!(names(t.dir.path()), listed);
}

/// Item 3: SIGTERM or SIGINT while the step waits for the transcript (another
/// step holds it): exit 130, nothing written, nothing left.
#[test]
fn a_signal_stops_a_waiting_step_with_nothing_left() {
    let t = dealt("signal");
    let before = std::fs::read(t.path("t.json")).unwrap();
    let listed = names(t.dir.path());
    let held = std::fs::File::open(t.path("t.json.lock")).unwrap();
    held.lock().unwrap();
    for signal in ["TERM", "INT"] {
        let child = Process::new("env")
            .arg("--default-signal=INT,TERM,HUP")
            .arg(fairdeck_bin())
            .args(["hidden", "share", "--street", "deal", "--transcript"])
            .arg(t.path("t.json"))
            .arg("--key")
            .arg(t.path("seat0.key"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_handlers(child.id());
        let kill = Process::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let start = Instant::now();
        let out = child.wait_with_output().unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(130), "{signal}: {}", stderr(&out));
        assert_eq!(std::fs::read(t.path("t.json")).unwrap(), before);
        assert_eq!(names(t.dir.path()), listed);
    }
    drop(held);
    ok(&t.run(&["share", "--street", "deal", "--key", &t.arg("seat0.key")]));
}

/// Waits until process `pid` catches SIGINT and SIGTERM (its handler is
/// installed: from then on a signal stops the step, not the process).
fn wait_for_handlers(pid: u32) {
    let caught = (1u64 << (libc_signal::INT - 1)) | (1u64 << (libc_signal::TERM - 1));
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let mask = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .unwrap_or(0);
        if mask & caught == caught {
            // The step is waiting for the lock, or about to.
            std::thread::sleep(Duration::from_millis(200));
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("process {pid} never caught SIGINT and SIGTERM");
}

/// Linux's signal numbers (the tests do not link libc).
mod libc_signal {
    pub const INT: u32 = 2;
    pub const TERM: u32 = 15;
}

/// Item 4: `hidden key` whose transcript cannot be written leaves no key
/// file behind, and the retry succeeds (it used to fail "File exists").
#[test]
fn a_key_step_that_fails_leaves_no_key_file() {
    let t = started("key-fails");
    for seat in 0..2 {
        let secret = t.arg(&format!("seat{seat}.key"));
        ok(&t.run(&["key", "--seat", &seat.to_string(), "--secret-out", &secret]));
    }
    let before = std::fs::read(t.path("t.json")).unwrap();
    let listed = names(t.dir.path());
    let out = shell(
        t.dir.path(),
        "trap '' XFSZ; ulimit -f 1; \
         exec \"$F\" hidden key --transcript t.json --seat 2 --secret-out seat2.key",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!t.path("seat2.key").exists(), "the secret stayed behind");
    assert_eq!(names(t.dir.path()), listed);
    assert_eq!(std::fs::read(t.path("t.json")).unwrap(), before);
    ok(&t.run(&["key", "--seat", "2", "--secret-out", &t.arg("seat2.key")]));
    assert_eq!(t.transcript()["keys"].as_array().unwrap().len(), 3);
}

/// Item 5: `--transcript -` for a step that writes: exit 2, one line, no
/// file named `-`.
#[test]
fn a_dash_transcript_is_refused_by_every_step_that_writes() {
    let t = dealt("dash");
    let key = t.arg("seat0.key");
    let steps: [&[&str]; 6] = [
        &["new", "--table", "d", "--seats", "ann,bob"],
        &["key", "--seat", "0", "--secret-out", "new.key"],
        &["shuffle", "--key", &key],
        &["share", "--street", "deal", "--key", &key],
        &["open", "--key", &key],
        &["void"],
    ];
    for args in steps {
        let out = common::fairdeck()
            .current_dir(t.dir.path())
            .arg("hidden")
            .args(args)
            .args(["--transcript", "-"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
        assert!(stderr(&out).contains("--transcript -"), "{}", stderr(&out));
        assert!(
            !t.path("-").exists() && !t.path("new.key").exists(),
            "{args:?}"
        );
    }
}

/// Item 5: a symlinked transcript is written through: the link stays a
/// link, its target holds the messages.
#[test]
fn a_symlinked_transcript_is_written_through() {
    let t = dealt("linked");
    let other = tempfile::tempdir().unwrap();
    let link = other.path().join("link.json");
    std::os::unix::fs::symlink(t.path("t.json"), &link).unwrap();
    let out = common::fairdeck()
        .args(["hidden", "share", "--street", "deal", "--transcript"])
        .arg(&link)
        .args(["--key", &t.arg("seat1.key")])
        .output()
        .unwrap();
    ok(&out);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let printed = parse_stdout(&out);
    let file = shares_in(&t.transcript());
    assert!(printed.as_array().unwrap().iter().all(|m| file.contains(m)));
    assert_eq!(names(other.path()), ["link.json"]);
}

/// Item 6: `open` while the flop is incomplete is refused (it used to be
/// written and then every share and the void failed); the hand goes on, a
/// void is possible, and once a seat opened no street is begun.
#[test]
fn an_early_showdown_is_refused_and_the_hand_goes_on() {
    let t = dealt("early-open");
    for seat in 0..3 {
        t.step(&["share", "--street", "deal"], seat);
    }
    t.step(&["share", "--street", "flop"], 0);
    let before = std::fs::read(t.path("t.json")).unwrap();
    let out = t.run(&["open", "--key", &t.arg("seat1.key")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("flop of hand 1 is not complete"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(t.path("t.json")).unwrap(), before);
    // A void is possible: it names seat 1 at the flop.
    std::fs::write(t.path("v.json"), &before).unwrap();
    let out = common::fairdeck()
        .args([
            "--format",
            "json",
            "hidden",
            "void",
            "--transcript",
            &t.arg("v.json"),
        ])
        .output()
        .unwrap();
    ok(&out);
    let v = parse_stdout(&out);
    assert_eq!(
        (v["stage"].as_str(), v["seat"].as_u64()),
        (Some("flop"), Some(1))
    );
    // The flop goes on; then seat 0 opens, and nobody begins the turn.
    for seat in 1..3 {
        t.step(&["share", "--street", "flop"], seat);
    }
    t.step(&["open"], 0);
    let opened = std::fs::read(t.path("t.json")).unwrap();
    let out = t.run(&["share", "--street", "turn", "--key", &t.arg("seat1.key")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("showdown of hand 1 has begun"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(t.path("t.json")).unwrap(), opened);
    t.step(&["open"], 2);
    let (out, doc) = verify(&t.arg("t.json"));
    ok(&out);
    assert_eq!(doc["verdict"], "valid", "{doc}");
}

/// Item 7: a key after the table's void (at `keys`) is refused as the
/// other steps are ("is over"); the transcript stays valid.
#[test]
fn a_key_after_the_table_void_is_refused() {
    let t = started("void-keys");
    ok(&t.run(&["key", "--seat", "0", "--secret-out", &t.arg("seat0.key")]));
    ok(&t.run(&["void"]));
    let before = std::fs::read(t.path("t.json")).unwrap();
    let out = t.run(&["key", "--seat", "1", "--secret-out", &t.arg("seat1.key")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is over"), "{}", stderr(&out));
    assert!(!t.path("seat1.key").exists());
    assert_eq!(std::fs::read(t.path("t.json")).unwrap(), before);
    let (out, doc) = verify(&t.arg("t.json"));
    assert_eq!(doc["verdict"], "valid", "{doc} {}", stderr(&out));
    assert!(doc["differences"].as_array().unwrap().is_empty(), "{doc}");
}
