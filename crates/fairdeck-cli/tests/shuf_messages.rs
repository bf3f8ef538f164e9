//! Issue 26, compatibility items 3–6, side by side with GNU shuf 9.1 where
//! it helps: file names quoted as GNU's `quotef()` quotes them, `--v` as
//! `--version`, GNU's exact "memory exhausted" under the name `shuf`, and
//! `-o f f` in a directory the user cannot write.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

use assert_cmd::cargo::cargo_bin;

/// `fairdeck` run as `shuf` (or GNU's `shuf` when `gnu`) with `args` in `locale`.
fn shuf(gnu: bool, locale: &str, args: &[&str]) -> Output {
    let mut cmd = if gnu {
        Command::new("shuf")
    } else {
        let mut c = Command::new(cargo_bin("fairdeck"));
        c.arg0("shuf");
        c
    };
    cmd.args(args).env("LC_ALL", locale).output().unwrap()
}

#[test]
fn file_names_are_quoted_as_gnu_quotes_them() {
    let names = [
        "no file", "it's", "a\tb", "café", "plain", "a'b c", "$x", "a\\b", "~x", "x~", "-x", "=",
        "a:b", "#a", "a#", "\u{1}", "{", "a{", "@x", "x#'", "#x'", "\t'", "", "a\u{7f}",
    ];
    for locale in ["C", "C.UTF-8"] {
        for name in names {
            let output = format!("/nonexistent/{name}");
            let source = format!("--random-source={name}");
            let runs: [&[&str]; 3] = [
                &["--", name],
                &[&source, "-e", "a", "b"],
                &["-e", "a", "-o", &output],
            ];
            for args in runs {
                let (ours, gnu) = (shuf(false, locale, args), shuf(true, locale, args));
                assert_eq!(
                    String::from_utf8_lossy(&ours.stderr),
                    String::from_utf8_lossy(&gnu.stderr),
                    "{locale} {args:?}"
                );
                assert_eq!(ours.status.code(), gnu.status.code(), "{args:?}");
            }
        }
    }
}

#[test]
fn prefixes_of_version_mean_version_as_in_gnu() {
    for arg in ["--v", "--ve", "--ver", "--vers", "--version"] {
        let (ours, gnu) = (shuf(false, "C", &[arg]), shuf(true, "C", &[arg]));
        assert_eq!(ours.status.code(), gnu.status.code(), "{arg}");
        assert!(
            String::from_utf8_lossy(&ours.stdout).starts_with("shuf (fairdeck) "),
            "{arg}"
        );
    }
    // fairdeck's own --verbose needs its longer prefix.
    let out = shuf(false, "C", &["--verb", "--seed", "s", "-e", "a"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("seed"));
}

#[test]
fn memory_exhausted_is_gnus_exact_line_under_the_name_shuf() {
    let args = ["-i", "0-2305843009213693952"];
    let out = shuf(false, "C", &args);
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned()
        ),
        (Some(1), "shuf: memory exhausted\n".to_string())
    );
    let out = Command::new(cargo_bin("fairdeck"))
        .arg("shuf")
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.starts_with("fairdeck shuf: memory exhausted: 2305843009213693953 numbers would take ")
            && err.ends_with("; use -n or -r\n")
            && !err.contains("2^64"),
        "{err}"
    );
}

#[test]
fn o_f_f_in_a_directory_the_user_cannot_write_is_written_in_place() {
    // As GNU does: the temporary sibling cannot be created, so after the
    // whole input is read, f itself is truncated and written.
    let home = tempfile::tempdir().unwrap();
    fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let dir = home.path().join("ro");
    fs::create_dir(&dir).unwrap();
    let file = dir.join("f");
    let input: String = (0..20_000).map(|i| format!("{i}\n")).collect();
    for program in ["gnu", "ours"] {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(&file, &input).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o666)).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        let mut cmd = if program == "gnu" {
            Command::new("shuf")
        } else {
            let mut c = Command::new(cargo_bin("fairdeck"));
            c.arg("shuf");
            c
        };
        cmd.arg("-o").arg(&file).arg(&file);
        // Root may write any directory: run as nobody.
        if running_as_root() {
            cmd.uid(65534).gid(65534);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{program}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut got: Vec<u32> = fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        got.sort_unstable();
        assert_eq!(got, (0..20_000).collect::<Vec<u32>>(), "{program}");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "{program}: a file was left"
        );
    }
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Whether the tests run as root (the owner of a fresh file is uid 0).
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::NamedTempFile::new().unwrap();
    probe.as_file().metadata().unwrap().uid() == 0
}
