//! Reading connection strings: the sslmode defaults, the refusals, libpq's
//! quoting, URL parameters and the connect timeout. No socket is opened.

use super::*;

fn read(params: &str) -> Settings {
    Settings::read(params).unwrap_or_else(|e| panic!("{params}: {e}"))
}

fn refused(params: &str) -> String {
    match Settings::read(params) {
        Ok(s) => panic!("{params}: taken as sslmode={}", s.mode.name()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn this_machine_defaults_to_prefer_and_another_machine_must_say() {
    for local in [
        "host=127.0.0.1 dbname=t",
        "host=localhost dbname=t",
        "host=::1 dbname=t",
        "host=/run/postgresql dbname=t",
        "postgres://u@127.0.0.1:5432/t",
    ] {
        assert_eq!(read(local).mode, SslMode::Prefer, "{local}");
    }
    let remote = refused("host=db.example dbname=t");
    assert!(
        remote.contains("db.example") && remote.contains("sslmode=verify-full"),
        "{remote}"
    );
    assert!(refused("postgres://u@10.1.2.3/t").contains("10.1.2.3"));
    // hostaddr decides over host.
    assert!(refused("host=localhost hostaddr=192.0.2.7 dbname=t").contains("192.0.2.7"));
    // Stated, a remote host is taken.
    assert_eq!(
        read("host=db.example sslmode=require").mode,
        SslMode::Require
    );
}

#[test]
fn a_socket_never_asks_the_driver_for_tls() {
    let s = read("host=/run/postgresql dbname=t sslmode=prefer");
    assert_eq!(s.config.get_ssl_mode(), SslMode::Disable.driver());
    let tcp = read("host=127.0.0.1 dbname=t sslmode=require");
    assert_eq!(tcp.config.get_ssl_mode(), SslMode::Require.driver());
}

#[test]
fn modes_that_cannot_hold_are_refused_in_one_line() {
    for (params, needle) in [
        ("host=127.0.0.1 sslmode=verify-full", "needs sslrootcert"),
        ("host=127.0.0.1 sslmode=verify-ca", "needs sslrootcert"),
        (
            "host=127.0.0.1 sslmode=require sslrootcert=system",
            "not supported",
        ),
        (
            "host=127.0.0.1 sslmode=disable sslrootcert=/ca.pem",
            "no use with sslmode=disable",
        ),
        (
            "host=/run/postgresql,127.0.0.1 sslmode=require",
            "Unix socket",
        ),
        (
            "host=127.0.0.1 sslmode=require sslmode=disable",
            "given twice",
        ),
        ("host=127.0.0.1 sslmode=allow", "allow"),
        (
            "postgres://u@127.0.0.1/t?sslmode=require&sslmode=require",
            "given twice",
        ),
    ] {
        let why = refused(params);
        assert!(why.contains(needle), "{params}: {why}");
        assert_eq!(why.lines().count(), 1, "{why}");
    }
}

#[test]
fn libpq_quoting_is_kept_for_the_driver() {
    let s = read(r"host=127.0.0.1 dbname = 'my db' user='o\'brien' password=a\ b");
    assert_eq!(s.config.get_dbname(), Some("my db"));
    assert_eq!(s.config.get_user(), Some("o'brien"));
    assert_eq!(s.config.get_password(), Some(&b"a b"[..]));
    assert!(refused("host=127.0.0.1 dbname='open").contains("unterminated quote"));
    assert!(refused("host=127.0.0.1 dbname").contains("key=value"));
    assert!(refused("=x").contains("key=value"));
}

#[test]
fn url_parameters_are_decoded_and_the_tls_keys_taken_out() {
    let s = read(
        "POSTGRESQL://u@127.0.0.1/t?sslmode=verify%2Dfull&sslrootcert=%2Fca.pem&application_name=x",
    );
    assert_eq!(s.mode, SslMode::VerifyFull);
    assert_eq!(s.root.as_deref(), Some("/ca.pem"));
    assert_eq!(s.config.get_application_name(), Some("x"));
    let plain = read("postgres://u@127.0.0.1/t?sslmode=disable");
    assert_eq!(plain.mode, SslMode::Disable);
    assert!(refused("postgres://u@127.0.0.1/t?sslmode=%zz").contains("%-escape"));
    assert!(refused("postgres://u@127.0.0.1/t?sslmode=%2").contains("%-escape"));
}

#[test]
fn a_connection_attempt_is_bounded_unless_the_string_says() {
    assert_eq!(
        read("host=127.0.0.1").config.get_connect_timeout(),
        Some(&CONNECT_TIMEOUT)
    );
    assert_eq!(
        read("host=127.0.0.1 connect_timeout=3")
            .config
            .get_connect_timeout(),
        Some(&Duration::from_secs(3))
    );
}

#[test]
fn the_connection_strings_passfile_key_reaches_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pgpass");
    std::fs::write(&path, "*:*:*:*:through-the-string\n").unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let key_value = format!("host=127.0.0.1 user=u passfile='{}'", path.display());
    let url = format!(
        "postgres://u@127.0.0.1/t?passfile={}",
        path.display().to_string().replace('/', "%2F")
    );
    for params in [key_value, url] {
        let mut settings = Settings::read(&params).unwrap();
        assert_eq!(settings.config.get_password(), None);
        password::fill(
            &mut settings.config,
            settings.passfile.as_deref(),
            &password::Environment::default(),
        )
        .unwrap();
        assert_eq!(
            settings.config.get_password(),
            Some(&b"through-the-string"[..]),
            "{params}"
        );
    }
}
