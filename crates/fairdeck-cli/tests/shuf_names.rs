//! `fairdeck` run under the name `shuf`, and GNU's command-line details:
//! the invocation name in messages, `--help`/`--version` in GNU's shape,
//! `POSIXLY_CORRECT`, `=value` kept in "unrecognized option", and ‘…’
//! quotes in UTF-8 locales (issue 16).

use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

use assert_cmd::cargo::cargo_bin;

fn shuf_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(cargo_bin("fairdeck"));
    cmd.arg0("shuf").args(args).env_remove("POSIXLY_CORRECT");
    cmd.env("LC_ALL", "C");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_symlink_named_shuf_acts_as_fairdeck_shuf() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("shuf");
    std::os::unix::fs::symlink(cargo_bin("fairdeck"), &link).unwrap();
    let out = Command::new(&link).args(["-i", "1-5"]).output().unwrap();
    let mut v: Vec<u32> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    v.sort_unstable();
    assert_eq!(v, [1, 2, 3, 4, 5]);
    // GNU names itself as it was called, path and all.
    let out = Command::new(&link)
        .env("LC_ALL", "C")
        .arg("-x")
        .output()
        .unwrap();
    let name = link.display();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("{name}: invalid option -- 'x'\nTry '{name} --help' for more information.\n")
    );
}

#[test]
fn messages_use_the_invocation_name() {
    let out = shuf_env(&["-r", "-i", "4-3"], &[]);
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (Some(1), "shuf: no lines to repeat\n".into())
    );
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["shuf", "-r", "-i", "4-3"])
        .output()
        .unwrap();
    assert_eq!(stderr(&out), "fairdeck shuf: no lines to repeat\n");
}

#[test]
fn help_and_version_in_gnus_shape() {
    let help = String::from_utf8(shuf_env(&["--help"], &[]).stdout).unwrap();
    assert!(help.starts_with(
        "Usage: shuf [OPTION]... [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n  or:  shuf -i LO-HI [OPTION]...\n"
    ));
    assert!(help.contains("      --version     output version information and exit\n"));
    let version = String::from_utf8(shuf_env(&["--version"], &[]).stdout).unwrap();
    assert!(version.starts_with("shuf (fairdeck) "), "{version}");
}

#[test]
fn posixly_correct_ends_options_at_the_first_operand() {
    let posix = [("POSIXLY_CORRECT", "1")];
    let out = shuf_env(&["-e", "a", "-n", "1"], &posix);
    let mut lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.sort();
    assert_eq!(lines, ["-n", "1", "a"]);
    let out = shuf_env(&["-e", "a", "-n", "1"], &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "a\n");
}

#[test]
fn unrecognized_options_keep_their_value() {
    let hint = "Try 'shuf --help' for more information.\n";
    let out = shuf_env(&["--foo=bar"], &[]);
    assert_eq!(
        stderr(&out),
        format!("shuf: unrecognized option '--foo=bar'\n{hint}")
    );
    let out = shuf_env(&["--h=3"], &[]);
    assert_eq!(
        stderr(&out),
        format!(
            "shuf: option '--h=3' is ambiguous; possibilities: '--head-count' '--help'\n{hint}"
        )
    );
    let out = shuf_env(&["--echo=x"], &[]);
    assert_eq!(
        stderr(&out),
        format!("shuf: option '--echo' doesn't allow an argument\n{hint}")
    );
}

#[test]
fn utf8_locales_quote_like_gnu() {
    let utf8 = [("LC_ALL", "C.UTF-8")];
    let out = shuf_env(&["-n", "x"], &utf8);
    assert_eq!(
        stderr(&out),
        "shuf: invalid line count: \u{2018}x\u{2019}\n"
    );
    let out = shuf_env(&["a", "b"], &utf8);
    assert!(stderr(&out).starts_with("shuf: extra operand \u{2018}b\u{2019}\n"));
    // getopt's own messages keep ASCII quotes, as glibc's do.
    let out = shuf_env(&["--foo"], &utf8);
    assert!(stderr(&out).starts_with("shuf: unrecognized option '--foo'\n"));
    let out = shuf_env(&["--random-source=/dev/null", "-i", "1-5"], &utf8);
    assert_eq!(
        stderr(&out),
        "shuf: \u{2018}/dev/null\u{2019}: end of file\n"
    );
}

#[test]
fn the_same_runs_match_gnu_where_it_is_installed() {
    // Side by side with GNU shuf 9.1 (installed by scripts/test).
    for (args, env) in [
        (&["-n", "x"][..], "C.UTF-8"),
        (&["--foo=bar"], "C"),
        (&["--h=3"], "C"),
        (&["-i", "1-x"], "C.UTF-8"),
        (&["a", "b"], "C.UTF-8"),
    ] {
        let ours = shuf_env(args, &[("LC_ALL", env)]);
        let gnu = Command::new("shuf")
            .args(args)
            .env("LC_ALL", env)
            .output()
            .unwrap();
        assert_eq!(ours.status.code(), gnu.status.code(), "{args:?}");
        assert_eq!(stderr(&ours), stderr(&gnu), "{args:?}");
    }
}
