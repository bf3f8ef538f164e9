//! Where a password comes from when the string gives none: `PGPASSWORD`,
//! then the password file's lines, with their wildcards, escapes and
//! defaults; and the files refused. No socket is opened.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use super::*;

fn config(params: &str) -> postgres::Config {
    params.parse().unwrap()
}

/// A private (0600) password file holding `text` in a fresh directory.
fn passfile(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pgpass");
    fs::write(&path, text).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    (dir, path)
}

/// The password `params` ends with, reading the file at `path` as `PGPASSFILE`.
fn filled(params: &str, path: &Path) -> Option<Vec<u8>> {
    let env = Environment {
        passfile: Some(path.to_owned()),
        ..Environment::default()
    };
    let mut config = config(params);
    fill(&mut config, None, &env).unwrap();
    config.get_password().map(<[u8]>::to_vec)
}

fn refused(params: &str, passfile: Option<&str>, env: &Environment) -> String {
    match fill(&mut config(params), passfile, env) {
        Ok(()) => panic!("{params}: taken"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_string_then_pgpassword_then_the_file() {
    let (_dir, path) = passfile("*:*:*:*:from-file\n");
    let env = Environment {
        password: Some("from-env".into()),
        passfile: Some(path.clone()),
        home: None,
    };
    let mut given = config("host=127.0.0.1 user=u password=given");
    fill(&mut given, None, &env).unwrap();
    assert_eq!(given.get_password(), Some(&b"given"[..]));
    let mut from_env = config("host=127.0.0.1 user=u");
    fill(&mut from_env, None, &env).unwrap();
    assert_eq!(from_env.get_password(), Some(&b"from-env"[..]));
    assert_eq!(
        filled("host=127.0.0.1 user=u", &path).as_deref(),
        Some(&b"from-file"[..])
    );
}

#[test]
fn the_strings_passfile_then_pgpassfile_then_home() {
    let (_a, string_file) = passfile("*:*:*:*:string\n");
    let (_b, env_file) = passfile("*:*:*:*:env\n");
    let home = tempfile::tempdir().unwrap();
    let home_file = home.path().join(".pgpass");
    fs::write(&home_file, "*:*:*:*:home\n").unwrap();
    fs::set_permissions(&home_file, fs::Permissions::from_mode(0o600)).unwrap();
    let both = Environment {
        password: None,
        passfile: Some(env_file),
        home: Some(home.path().to_owned()),
    };
    let with = |passfile: Option<&Path>, env: &Environment| {
        let mut c = config("host=127.0.0.1 user=u");
        fill(&mut c, passfile.and_then(Path::to_str), env).unwrap();
        c.get_password().map(<[u8]>::to_vec)
    };
    assert_eq!(
        with(Some(&string_file), &both).as_deref(),
        Some(&b"string"[..])
    );
    assert_eq!(with(None, &both).as_deref(), Some(&b"env"[..]));
    let home_only = Environment {
        passfile: None,
        ..both
    };
    assert_eq!(with(None, &home_only).as_deref(), Some(&b"home"[..]));
    // No file anywhere: no password, no error (the server may not ask).
    assert_eq!(with(None, &Environment::default()), None);
    let empty_home = tempfile::tempdir().unwrap();
    let missing = Environment {
        home: Some(empty_home.path().to_owned()),
        ..Environment::default()
    };
    assert_eq!(with(None, &missing), None);
}

/// Each string of `cases` ends with the password given (`None`: no line
/// of the file at `path` matched it).
fn check(path: &Path, cases: &[(&str, Option<&str>)]) {
    for (params, expected) in cases {
        assert_eq!(
            filled(params, path).as_deref(),
            expected.map(str::as_bytes),
            "{params}"
        );
    }
}

#[test]
fn the_first_matching_line_wins_and_each_field_must_match() {
    let (_dir, path) = passfile(
        "# a comment:*:*:*:never\n\
         \n\
         db.example:5432:tables:fd:remote\n\
         127.0.0.1:6000:tables:fd:port-6000\n\
         127.0.0.1:*:tables:fd:any-port\n\
         127.0.0.1:5432:*:fd:any-db\n\
         127.0.0.1:5432:tables:*:any-user\n\
         *:*:*:*:last\n",
    );
    check(
        &path,
        &[
            ("host=db.example user=fd dbname=tables", Some("remote")),
            (
                "host=127.0.0.1 port=6000 user=fd dbname=tables",
                Some("port-6000"),
            ),
            (
                "host=127.0.0.1 port=7000 user=fd dbname=tables",
                Some("any-port"),
            ),
            ("host=127.0.0.1 user=fd dbname=other", Some("any-db")),
            (
                "host=127.0.0.1 user=someone dbname=tables",
                Some("any-user"),
            ),
            ("host=localhost user=fd dbname=tables", Some("last")),
            // No port is 5432; no dbname is the user's.
            ("host=127.0.0.1 user=tables", Some("any-user")),
        ],
    );
    let (_d, strict) = passfile("127.0.0.1:5432:tables:fd:exact\n");
    check(
        &strict,
        &[
            ("host=127.0.0.1 user=fd", None),     // the database is then "fd"
            ("host=127.0.0.1 user=tables", None), // the user field is checked
            ("host=127.0.0.1 user=fd dbname=tables", Some("exact")),
        ],
    );
}

#[test]
fn escapes_sockets_hostaddr_and_several_hosts() {
    let (_dir, path) = passfile(
        "short:line\n\
         \\*:5432:*:fd:escaped-star\n\
         /run/postgresql:5432:*:fd:socket\n\
         localhost:5433:*:fd:socket-as-localhost\n\
         192.0.2.7:5432:*:fd:by-address\n\
         b.example:5432:*:fd:second-host\n\
         c\\:d:5432:*:fd:pass\\:with\\\\colon:ignored\n",
    );
    check(
        &path,
        &[
            ("host=/run/postgresql user=fd", Some("socket")),
            ("host=/tmp user=fd port=5433", Some("socket-as-localhost")),
            ("hostaddr=192.0.2.7 user=fd", Some("by-address")),
            // host is matched as written, not its hostaddr.
            ("host=a.example,b.example user=fd", Some("second-host")),
            (r"host=c:d user=fd", Some(r"pass:with\colon")),
            ("host=a.example user=fd", None), // \* is a star, not a wildcard
            ("host=* user=fd", Some("escaped-star")),
            ("host=localhost user=fd", None), // 5432, not 5433
        ],
    );
}

#[test]
fn a_file_others_may_read_or_that_is_missing_or_not_a_file_is_refused_in_one_line() {
    let (dir, path) = passfile("*:*:*:*:secret-in-file\n");
    let named = |p: &Path| Environment {
        passfile: Some(p.to_owned()),
        ..Environment::default()
    };
    for mode in [0o640, 0o604, 0o644] {
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let why = refused("host=127.0.0.1 user=u", None, &named(&path));
        assert!(
            why.contains("chmod 0600") && why.contains(&format!("{mode:04o}")),
            "{why}"
        );
        assert!(
            !why.contains("secret-in-file") && why.lines().count() == 1,
            "{why}"
        );
    }
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let absent = dir.path().join("absent");
    let why = refused(
        "host=127.0.0.1 user=u",
        absent.to_str(),
        &Environment::default(),
    );
    assert!(why.contains("absent") && why.lines().count() == 1, "{why}");
    let why = refused("host=127.0.0.1 user=u", None, &named(dir.path()));
    assert!(why.contains("not a plain file"), "{why}");
    // The same file at 0600 is read: the refusals are the mode's doing.
    assert_eq!(
        filled("host=127.0.0.1 user=u", &path).as_deref(),
        Some(&b"secret-in-file"[..])
    );
}
