//! `fairdeck audit` off a terminal (a log, CI): a progress line on stderr
//! every few seconds, sized to the whole run, and nothing else changed.

mod common;

use common::{assert_success, fairdeck};

fn audit(every: Option<&str>) -> (String, String) {
    let mut cmd = fairdeck();
    cmd.args([
        "audit",
        "fisher-yates",
        "-n",
        "12",
        "--trials",
        "70000",
        "--seed",
        "progress",
    ]);
    if let Some(every) = every {
        cmd.env("FAIRDECK_PROGRESS_SECONDS", every);
    }
    let out = cmd.output().unwrap();
    assert_success(&out);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn lines_come_at_the_interval_and_name_the_whole_run() {
    let (quiet_out, quiet_err) = audit(None);
    // The default interval (5 s) is longer than this run: no line.
    assert!(!quiet_err.contains("shuffles"), "{quiet_err}");
    let (out, err) = audit(Some("0"));
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("audit:")).collect();
    // One line per chunk of 16,384 shuffles: 5 chunks for 70,000.
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines[0].ends_with("audit: 16384 of at most 70000 shuffles"),
        "{err}"
    );
    assert!(
        lines[4].ends_with("audit: 70000 of at most 70000 shuffles"),
        "{err}"
    );
    assert_eq!(out, quiet_out, "progress must not change the report");
}

#[test]
fn a_setting_that_is_not_seconds_keeps_the_default() {
    for bad in ["soon", "-1", "1e9", ""] {
        let (_, err) = audit(Some(bad));
        assert!(!err.contains("shuffles"), "{bad:?}: {err}");
    }
}
