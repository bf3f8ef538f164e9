//! `fairdeck table bench`: whole hold'em hands through the table service's
//! HTTP API on loopback — hands per second, each request's p50 and p99,
//! errors — and what one fsync costs where the SQLite file lives.
//!
//! The service runs in this process (the same code as `fairdeck table
//! serve`), on a free loopback port; `--clients` threads each play their
//! share of the tables, one keep-alive connection each.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fairdeck_client::Client;
use fairdeck_client::hand::{Hand, Timing};
use fairdeck_table::service::Service;
use fairdeck_table::{NewTable, PostgresStore, SqliteStore, Store};
use serde::Serialize;

use crate::failure::usage;
use crate::output::{Format, Output};

mod load;

/// Flags of `fairdeck table bench`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example: fairdeck table bench --tables 1000 --seats 6\n\
fairdeck table bench --db postgres://user@host/db (the tables get a fresh prefix each run)")]
pub struct BenchArgs {
    /// Tables to play, each one hand from opening to close.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub tables: usize,

    /// Seats at each table (what the service allows at hold'em: 2 to 22).
    #[arg(long, value_name = "S", default_value_t = 6)]
    pub seats: usize,

    /// Client threads playing at once.
    #[arg(long, value_name = "C", default_value_t = 8)]
    pub clients: usize,

    /// Also open one table of DEALS deals (dealt, its flop shown), and have
    /// one more client read its public view, without a token, over and
    /// over while the hands are played: what a view that grows with the
    /// deals costs its readers and every other table.
    #[arg(long, value_name = "DEALS", default_value_t = 0)]
    pub many_deals: u64,

    /// The store: a SQLite file (default: a fresh one in the temporary
    /// directory, removed afterwards) or a postgres:// URL.
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<String>,
}

/// One kind of request's times.
#[derive(Serialize)]
struct Times {
    kind: &'static str,
    requests: usize,
    p50_ms: f64,
    p99_ms: f64,
}

/// What `fairdeck table bench --format json` prints.
#[derive(Serialize)]
struct Report {
    store: String,
    tables: usize,
    seats: usize,
    clients: usize,
    hands_finished: usize,
    seconds: f64,
    hands_per_second: f64,
    requests: usize,
    errors: usize,
    all: Times,
    by_kind: Vec<Times>,
    /// The public view of the `--many-deals` table, read during the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    many_deals_public: Option<Times>,
    /// Median and p99 of one 4 KiB write and fsync beside the SQLite file.
    #[serde(skip_serializing_if = "Option::is_none")]
    fsync_p50_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fsync_p99_ms: Option<f64>,
    first_error: Option<String>,
}

/// Runs `fairdeck table bench`.
pub fn run(args: &BenchArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    seats_allowed(args.seats)?;
    if args.tables == 0 || args.tables > 1_000_000 || !(1..=256).contains(&args.clients) {
        return Err(usage("--tables must be 1..=1000000 and --clients 1..=256"));
    }
    let report = match args.db.as_deref() {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            let store = PostgresStore::connect(url).map_err(|e| anyhow::anyhow!("{e}"))?;
            measure(store, args, "postgresql".into(), None)?
        }
        db => {
            let (path, temporary) = match db {
                Some(file) => (PathBuf::from(file), false),
                None => (
                    std::env::temp_dir().join(format!(
                        "fairdeck-table-bench-{}.sqlite",
                        std::process::id()
                    )),
                    true,
                ),
            };
            if temporary {
                remove_on_signal(&path);
            }
            let store = SqliteStore::open(&path)
                .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
            let fsync = fsync_cost(&path)?;
            let report = measure(
                store,
                args,
                format!("sqlite {}", path.display()),
                Some(fsync),
            );
            if temporary {
                remove_database(&path);
            }
            report?
        }
    };
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => print(out.stdout(), &report)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses a seat count the service would refuse for a hold'em table (its
/// own check, so the two never disagree).
fn seats_allowed(seats: usize) -> anyhow::Result<()> {
    // No game seats a thousand; the cap only keeps the probe small.
    let probe = Hand::holdem("bench", seats.min(1000));
    let request = NewTable {
        manifest: probe.manifest,
        commit_seconds: 600,
        reveal_seconds: 600,
    };
    match request.validate() {
        Ok(()) if seats <= 1000 => Ok(()),
        Ok(()) => Err(usage(format!("--seats {seats}: too many seats"))),
        Err(e) => Err(usage(format!("--seats {seats}: {e}"))),
    }
}

/// The scratch file [`fsync_cost`] writes beside `db`.
fn fsync_probe(db: &Path) -> PathBuf {
    let dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    dir.join(format!(".fairdeck-fsync-probe-{}", std::process::id()))
}

/// Removes the SQLite file at `path` with its `-wal` and `-shm` files.
fn remove_database(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// On Ctrl-C, SIGTERM or SIGHUP, removes the temporary database and exits
/// 130, as an interrupted command does. (If no handler can be installed,
/// the signal ends the run as usual and the files stay, named by PID.)
fn remove_on_signal(path: &Path) {
    let path = path.to_path_buf();
    let _ = ctrlc::set_handler(move || {
        remove_database(&path);
        let _ = std::fs::remove_file(fsync_probe(&path));
        std::process::exit(130);
    });
}

fn measure<S: Store + Send + 'static>(
    store: S,
    args: &BenchArgs,
    name: String,
    fsync: Option<(f64, f64)>,
) -> anyhow::Result<Report> {
    let admin = {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| anyhow::anyhow!("no OS randomness: {e}"))?;
        key.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let run_tag = &admin[..8];
    let service = Service::new(store, &admin);
    // The store is dropped here, outside the runtime: PostgreSQL's client
    // blocks when it closes, which a runtime thread must not.
    let keep = Arc::clone(&service);
    let running = load::Running::start(service)?;
    let addr = running.addr.clone();
    let big = format!("bench-{run_tag}-many");
    if args.many_deals > 0 {
        fairdeck_client::hand::dealt_table(&mut Client::new(&addr), &admin, &big, args.many_deals)
            .map_err(|e| anyhow::anyhow!("the --many-deals table: {e}"))?;
    }
    let start = Instant::now();
    let (results, reads) = load::play_all(&addr, &admin, (run_tag, &big), args);
    let seconds = start.elapsed().as_secs_f64();
    running.stop();
    drop(keep);
    let hands_finished = results.iter().map(|r| r.0).sum();
    let timings: Vec<Timing> = results.iter().flat_map(|r| r.1.iter().copied()).collect();
    let first_error = results.iter().find_map(|r| r.2.clone());
    Ok(Report {
        store: name,
        tables: args.tables,
        seats: args.seats,
        clients: args.clients,
        hands_finished,
        seconds,
        hands_per_second: hands_finished as f64 / seconds,
        requests: timings.len(),
        errors: timings.iter().filter(|t| t.failed).count(),
        all: times("all", timings.iter().map(|t| t.time)),
        // Every kind, claims included: the rows add up to "all".
        by_kind: fairdeck_client::hand::Step::KINDS
            .iter()
            .map(|&k| {
                let of_kind = timings.iter().filter(|t| t.step.kind() == k);
                times(k, of_kind.map(|t| t.time))
            })
            .collect(),
        many_deals_public: reads.map(|r| times("many-deals public view", r.into_iter())),
        fsync_p50_ms: fsync.map(|f| f.0),
        fsync_p99_ms: fsync.map(|f| f.1),
        first_error,
    })
}

fn times(kind: &'static str, all: impl Iterator<Item = Duration>) -> Times {
    let mut ms: Vec<f64> = all.map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    Times {
        kind,
        requests: ms.len(),
        p50_ms: quantile(&ms, 0.50),
        p99_ms: quantile(&ms, 0.99),
    }
}

/// The q-quantile of sorted values (nearest rank); 0 for none.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Median and p99, in ms, of 200 writes of 4 KiB each followed by
/// `fdatasync`, in a scratch file beside `db`: what each acknowledged
/// change costs at least (SQLite syncs its WAL before answering).
fn fsync_cost(db: &Path) -> anyhow::Result<(f64, f64)> {
    let scratch = fsync_probe(db);
    let mut file = std::fs::File::create(&scratch)?;
    let page = [0x5a_u8; 4096];
    let mut ms = Vec::with_capacity(200);
    for _ in 0..200 {
        let start = Instant::now();
        file.write_all(&page)?;
        file.sync_data()?;
        ms.push(start.elapsed().as_secs_f64() * 1e3);
    }
    drop(file);
    let _ = std::fs::remove_file(&scratch);
    ms.sort_by(f64::total_cmp);
    Ok((quantile(&ms, 0.5), quantile(&ms, 0.99)))
}

fn print(w: &mut impl Write, r: &Report) -> std::io::Result<()> {
    writeln!(
        w,
        "{} tables × {} seats, {} clients, {}: {} hands in {:.1} s = {:.1} hands/s",
        r.tables, r.seats, r.clients, r.store, r.hands_finished, r.seconds, r.hands_per_second
    )?;
    writeln!(w, "{} requests, {} errors", r.requests, r.errors)?;
    writeln!(
        w,
        "{:<8} {:>9} {:>9} {:>9}",
        "request", "count", "p50 ms", "p99 ms"
    )?;
    for t in std::iter::once(&r.all).chain(&r.by_kind) {
        writeln!(
            w,
            "{:<8} {:>9} {:>9.2} {:>9.2}",
            t.kind, t.requests, t.p50_ms, t.p99_ms
        )?;
    }
    if let Some(t) = &r.many_deals_public {
        writeln!(
            w,
            "public view of the many-deals table: {} reads, p50 {:.2} ms, p99 {:.2} ms",
            t.requests, t.p50_ms, t.p99_ms
        )?;
    }
    if let (Some(p50), Some(p99)) = (r.fsync_p50_ms, r.fsync_p99_ms) {
        writeln!(
            w,
            "fsync beside the database (4 KiB write + fdatasync): p50 {p50:.2} ms, p99 {p99:.2} ms"
        )?;
    }
    if let Some(e) = &r.first_error {
        writeln!(w, "first error: {e}")?;
    }
    Ok(())
}
