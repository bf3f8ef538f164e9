//! TLS to a real PostgreSQL server: `scripts/test-table` starts one with
//! ssl=on on 127.0.0.1 (port in `FAIRDECK_TABLE_PG_PORT`) under a
//! certificate for 127.0.0.1 signed by its own CA (`FAIRDECK_TABLE_PG_CA`);
//! `FAIRDECK_TABLE_PG_OTHER_CA` signed nothing. Whether the store's own
//! connection is encrypted is read from the server (`pg_stat_ssl`), found
//! by the connection's `application_name`. The role `fairdeck_scram` (its
//! password in `FAIRDECK_TABLE_PG_SCRAM_PASSWORD`) must give its password,
//! by SCRAM-SHA-256, and only over TLS (scripts/test-table's pg_hba.conf).

use std::time::{Duration, Instant};

use fairdeck_table::{Error, PostgresStore, Store};

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is set by scripts/test-table"))
}

/// The test server over TCP on `host` (connecting to 127.0.0.1).
fn tcp(host: &str, rest: &str) -> String {
    let port = env("FAIRDECK_TABLE_PG_PORT");
    format!("host={host} hostaddr=127.0.0.1 port={port} user=fairdeck dbname=postgres {rest}")
}

/// A plaintext connection over the Unix socket, to look at the server.
fn socket() -> postgres::Client {
    postgres::Client::connect(&env("FAIRDECK_TABLE_PG"), postgres::NoTls).unwrap()
}

/// Connects a store under a fresh application name; returns it and
/// whether the server sees that connection as TLS.
fn connect(host: &str, tls: &str) -> Result<(PostgresStore, bool), Error> {
    let name = format!("fd-tls-{}-{}", std::process::id(), rand_suffix());
    let mut store = PostgresStore::connect(&tcp(host, &format!("{tls} application_name={name}")))?;
    store.tables()?; // the connection is in use
    let row = socket()
        .query_one(
            "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
             WHERE a.application_name = $1",
            &[&name],
        )
        .unwrap();
    Ok((store, row.get(0)))
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// The connection is refused, with one line that contains `expected`.
fn refused(host: &str, tls: &str, expected: &str) {
    match connect(host, tls) {
        Err(Error::Unavailable(why)) => {
            assert!(
                why.contains(expected) && !why.contains('\n'),
                "{tls}: {why}"
            );
        }
        Err(other) => panic!("{tls}: refused for another reason: {other}"),
        Ok(_) => panic!("{tls}: connected"),
    }
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn require_encrypts_and_disable_does_not() {
    let (_store, ssl) = connect("127.0.0.1", "sslmode=require").unwrap();
    assert!(ssl, "sslmode=require left the connection in clear");
    // The negative control: the same server and check, TLS turned off.
    let (_store, ssl) = connect("127.0.0.1", "sslmode=disable").unwrap();
    assert!(!ssl, "pg_stat_ssl does not tell the two apart");
    // No sslmode on loopback is libpq's prefer: TLS, since it is offered.
    let (_store, ssl) = connect("127.0.0.1", "").unwrap();
    assert!(ssl);
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn verify_full_trusts_the_scripts_ca_only() {
    let ca = env("FAIRDECK_TABLE_PG_CA");
    let other = env("FAIRDECK_TABLE_PG_OTHER_CA");
    for mode in ["verify-full", "verify-ca", "require"] {
        let (_store, ssl) = connect("127.0.0.1", &format!("sslmode={mode} sslrootcert={ca}"))
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert!(ssl, "{mode}");
        // require with a root checks the chain as verify-ca does (as libpq).
        let wrong = format!("sslmode={mode} sslrootcert={other}");
        refused(
            "127.0.0.1",
            &wrong,
            "invalid peer certificate: UnknownIssuer",
        );
    }
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn verify_full_checks_the_name_and_verify_ca_does_not() {
    // The certificate names IP 127.0.0.1, not "localhost".
    let ca = env("FAIRDECK_TABLE_PG_CA");
    let full = format!("sslmode=verify-full sslrootcert={ca}");
    refused(
        "localhost",
        &full,
        "invalid peer certificate: certificate not valid for name",
    );
    let (_store, ssl) =
        connect("localhost", &format!("sslmode=verify-ca sslrootcert={ca}")).unwrap();
    assert!(ssl);
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn require_is_refused_by_a_server_without_tls() {
    let _on_again = SslOff::new();
    refused(
        "127.0.0.1",
        "sslmode=require",
        "server does not support TLS",
    );
    let ca = env("FAIRDECK_TABLE_PG_CA");
    refused(
        "127.0.0.1",
        &format!("sslmode=verify-full sslrootcert={ca}"),
        "server does not support TLS",
    );
    // prefer falls back to plaintext, as it says.
    let (_store, ssl) = connect("127.0.0.1", "sslmode=prefer").unwrap();
    assert!(!ssl);
}

/// Turns the server's TLS off until dropped (a reload, so no restart).
struct SslOff;

impl SslOff {
    fn new() -> SslOff {
        set_ssl("off");
        SslOff
    }
}

impl Drop for SslOff {
    fn drop(&mut self) {
        set_ssl("on");
    }
}

/// Sets `ssl` and waits until a new backend sees it.
fn set_ssl(value: &str) {
    let mut c = socket();
    // Two calls: ALTER SYSTEM refuses to run in a batch's transaction.
    c.batch_execute(&format!("ALTER SYSTEM SET ssl = {value}"))
        .unwrap();
    c.batch_execute("SELECT pg_reload_conf()").unwrap();
    let start = Instant::now();
    while socket()
        .query_one("SHOW ssl", &[])
        .unwrap()
        .get::<_, String>(0)
        != value
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "ssl stays not {value}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A store connected to the database `fairdeck_scram` as that role.
fn scram(rest: &str) -> Result<PostgresStore, Error> {
    let port = env("FAIRDECK_TABLE_PG_PORT");
    let mut store = PostgresStore::connect(&format!(
        "host=127.0.0.1 port={port} user=fairdeck_scram dbname=fairdeck_scram {rest}"
    ))?;
    store.tables()?; // the connection is in use
    Ok(store)
}

/// `rest` is refused with one line holding `expected` and no password.
fn scram_refused(rest: &str, expected: &str) {
    let password = env("FAIRDECK_TABLE_PG_SCRAM_PASSWORD");
    match scram(rest) {
        Err(e) => {
            let why = e.to_string();
            assert!(
                why.contains(expected) && !why.contains('\n'),
                "{rest}: {why}"
            );
            assert!(!why.contains(&password), "{why} shows the password");
        }
        Ok(_) => panic!("{rest}: connected"),
    }
}

/// The verified TLS settings of these tests.
fn verified() -> String {
    format!(
        "sslmode=verify-full sslrootcert={}",
        env("FAIRDECK_TABLE_PG_CA")
    )
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn scram_over_verified_tls_with_channel_binding() {
    let password = env("FAIRDECK_TABLE_PG_SCRAM_PASSWORD");
    let tls = verified();
    // channel_binding=require: the driver refuses unless the SCRAM exchange
    // is bound to this TLS connection (SCRAM-SHA-256-PLUS).
    scram(&format!(
        "{tls} channel_binding=require password={password}"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    // The negative controls: the server does check the password...
    scram_refused(
        &format!("{tls} password=not-{password}"),
        "password authentication failed",
    );
    scram_refused(&tls, "password missing");
    // ...and refuses this role in clear, even with the right one.
    scram_refused(
        &format!("sslmode=disable password={password}"),
        "rejects connection",
    );
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn the_password_comes_from_a_private_file_instead_of_the_command_line() {
    use std::os::unix::fs::PermissionsExt;
    let password = env("FAIRDECK_TABLE_PG_SCRAM_PASSWORD");
    let port = env("FAIRDECK_TABLE_PG_PORT");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgpass");
    let write = |line: &str, mode: u32| {
        std::fs::write(&file, format!("# fairdeck's database\n{line}\n")).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let tls = format!("{} passfile={}", verified(), file.display());
    write(
        &format!("127.0.0.1:{port}:fairdeck_scram:fairdeck_scram:{password}"),
        0o600,
    );
    scram(&tls).unwrap_or_else(|e| panic!("{e}"));
    // The same file readable by others is refused before any connection.
    write(
        &format!("127.0.0.1:{port}:fairdeck_scram:fairdeck_scram:{password}"),
        0o644,
    );
    scram_refused(&tls, "chmod 0600");
    // A line for another port does not match: no password is sent.
    write(
        &format!("127.0.0.1:1:fairdeck_scram:fairdeck_scram:{password}"),
        0o600,
    );
    scram_refused(&tls, "password missing");
    // A wrong password in the file is the server's refusal, as in the string.
    write(&format!("*:*:*:*:not-{password}"), 0o600);
    scram_refused(&tls, "password authentication failed");
}
