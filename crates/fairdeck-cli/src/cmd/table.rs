//! `fairdeck table serve`: the fair-dealing table service of a card room
//! (its API: `fairdeck_table::service`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fairdeck_table::service::{Service, serve};
use fairdeck_table::{Location, PostgresStore, SqliteStore, Store};

use crate::failure::{note, usage};
use crate::output::Output;

/// `fairdeck table`: the table service.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Serve the table API: operators open tables, seats commit and reveal
    /// their seeds and read their own cards, the room deals and closes
    Serve(ServeArgs),
    /// Play whole hands through the API on loopback and report hands per
    /// second, each request's p50 and p99, errors, and the fsync cost
    Bench(super::table_bench::BenchArgs),
}

/// Flags of `fairdeck table serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example: fairdeck table serve --db tables.sqlite\n\
Open a table: POST /api/tables with `Authorization: Bearer ADMIN-TOKEN` and \
{\"manifest\": …, \"commit_seconds\": 600, \"reveal_seconds\": 600}; the answer holds the \
operator's and every seat's token, shown once. Hidden (version-3) tables, where not even the \
service sees a card before it is shown: POST /api/hidden with {\"manifest\": …, \
\"step_seconds\": 60}, then each player runs `fairdeck hidden seat --link LINK`.")]
pub struct ServeArgs {
    /// Address and port to listen on (loopback by default: only this machine).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8090")]
    pub bind: String,

    /// The store: a postgres:// URL or a key=value PostgreSQL string
    /// (anything with `=`; several service processes may share one
    /// database), else a SQLite file (created if missing). Other URL
    /// schemes are refused. PostgreSQL takes sslmode=disable|prefer|
    /// require|verify-ca|verify-full and sslrootcert=FILE (PEM); require
    /// without sslrootcert encrypts but does not check the server. A host
    /// on another machine needs an sslmode (verify-full to be safe). Keep
    /// the password out of the string (others can read a command line):
    /// PGPASSWORD, passfile=FILE, PGPASSFILE or ~/.pgpass, as libpq.
    #[arg(long, value_name = "FILE|URL|K=V…", default_value = "tables.sqlite")]
    pub db: String,

    /// The admin token that may open tables: read from FILE, or written
    /// there (mode 0600, 256 random bits as hex) when FILE does not exist.
    /// A token file holds one line of at least 32 visible ASCII characters
    /// (read up to 1 KiB); anything else is refused.
    #[arg(long, value_name = "FILE", default_value = "tables.admin-token")]
    pub admin_token_file: PathBuf,

    /// Also answer to this Host name (repeatable); see `fairdeck serve`.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

/// Runs `fairdeck table …`.
pub fn run(command: &Command, out: &mut Output) -> anyhow::Result<ExitCode> {
    let args = match command {
        Command::Serve(args) => args,
        Command::Bench(args) => return super::table_bench::run(args, out),
    };
    let bind = super::serve::listen_address(&loopback_name(&args.bind), &args.allow_host)
        .map_err(usage)?;
    // Read before anything is written: a bad --db creates no file.
    let location = Location::parse(&args.db).map_err(|e| usage(e.to_string()))?;
    // An existing token is checked first; a fresh one is written only once
    // the database is open, so a database that cannot be reached leaves no
    // token file behind.
    let existing = read_admin_token(&args.admin_token_file)?;
    let admin = |path: &Path| match existing.clone() {
        Some(token) => Ok(token),
        None => write_admin_token(path),
    };
    match location {
        Location::Postgres(params) => {
            let store = PostgresStore::connect(&params).map_err(|e| anyhow::anyhow!("{e}"))?;
            let admin = admin(&args.admin_token_file)?;
            run_service(store, &admin, bind, args.allow_host.clone())
        }
        Location::Sqlite(path) => {
            let store = SqliteStore::open(&path)
                .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
            let admin = admin(&args.admin_token_file)?;
            run_service(store, &admin, bind, args.allow_host.clone())
        }
    }
}

fn run_service<S: Store + Send + 'static>(
    store: S,
    admin: &str,
    bind: std::net::SocketAddr,
    allow_hosts: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let service = Service::new(store, admin);
    // The last handle on the store is dropped after the runtime: closing
    // PostgreSQL's blocking client on a runtime thread would panic.
    let keep = std::sync::Arc::clone(&service);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let ready = |local: std::net::SocketAddr| {
            let url = format!("http://{local}/");
            let mut out = std::io::stdout().lock();
            if writeln!(out, "fairdeck table serve: {url}")
                .and_then(|()| out.flush())
                .is_err()
            {
                note(format_args!("serving on {url}"));
            }
            if !local.ip().is_loopback() {
                note(format_args!(
                    "note: listening on {local}: anyone who can reach this address can use the API"
                ));
            }
            if let Some(why) = browser_seat_missing() {
                note(format_args!("note: {why}"));
            }
            note("press Ctrl-C to stop");
        };
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        serve(service, bind, allow_hosts, ready, shutdown)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {bind}: {e}"))
    });
    drop(runtime);
    drop(keep);
    served?;
    Ok(ExitCode::SUCCESS)
}

/// Why hidden tables have no browser seat in this build, if they have none:
/// the seat module is compiled into the page at build time only when the
/// `wasm32-unknown-unknown` target is installed (and `FAIRDECK_WASM` is not
/// `skip`); without it the seat page could only fail to load it.
fn browser_seat_missing() -> Option<&'static str> {
    (!fairdeck_table::service::browser_seat()).then_some(
        "browser seats of hidden tables are unavailable: this fairdeck was built without \
             the seat module (no wasm32-unknown-unknown target, or FAIRDECK_WASM=skip); \
             `rustup target add wasm32-unknown-unknown` and build again. Seats can still play \
             with `fairdeck hidden seat --link`",
    )
}

/// `localhost:PORT` as `127.0.0.1:PORT` (the name every system gives the
/// loopback address; no resolver is asked); any other text unchanged.
pub(crate) fn loopback_name(bind: &str) -> String {
    match bind.split_once(':') {
        Some((name, port)) if name.eq_ignore_ascii_case("localhost") => format!("127.0.0.1:{port}"),
        _ => bind.to_string(),
    }
}

/// The longest admin token file read: a token is one line of text (the
/// tokens this command writes are 65 bytes); a longer file is refused
/// without reading it all (`/dev/zero` is not a token).
const MAX_TOKEN_FILE: u64 = 1024;

/// The admin token in `path`, or `None` when there is no such file. The
/// token is the file's one line: 32 to 1023 visible ASCII characters (it
/// travels in an HTTP header), surrounding white space ignored.
fn read_admin_token(path: &Path) -> anyhow::Result<Option<String>> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    };
    let mut bytes = Vec::new();
    file.take(MAX_TOKEN_FILE)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let refuse = |why: &str| Err(usage(format!("{}: {why}", path.display())));
    if bytes.len() as u64 >= MAX_TOKEN_FILE {
        return refuse("not an admin token: longer than one line of 1023 characters");
    }
    let token = bytes.trim_ascii();
    if !token.iter().all(u8::is_ascii_graphic) {
        return refuse("not an admin token: one line of visible ASCII characters, without spaces");
    }
    if token.len() < 32 {
        return refuse("an admin token must be at least 32 characters");
    }
    Ok(Some(String::from_utf8_lossy(token).into_owned()))
}

/// A fresh admin token, written to `path` (0600).
fn write_admin_token(path: &Path) -> anyhow::Result<String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| anyhow::anyhow!("no OS randomness: {e}"))?;
    let token: String = key.iter().map(|b| format!("{b:02x}")).collect();
    crate::output::write_private(path, &format!("{token}\n"))?;
    let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    note(format_args!("admin token written to {}", shown.display()));
    Ok(token)
}
