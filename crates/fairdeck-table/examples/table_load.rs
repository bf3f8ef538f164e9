//! A load benchmark (not a test): N hold'em tables × P seats through a
//! full hand, one state change at a time, on a SQLite file or a PostgreSQL
//! server. Prints state changes per second, hands per second, and the p50
//! and p99 latency of one change (each one durable before it returns).
//!
//! ```text
//! cargo run --release -p fairdeck-table --example table_load -- sqlite target/load.sqlite 200 6
//! cargo run --release -p fairdeck-table --example table_load -- sqlite /dev/shm/load.sqlite 200 6   # fsync is free on tmpfs
//! cargo run --release -p fairdeck-table --example table_load -- postgres "host=/tmp/pg user=fairdeck dbname=postgres" 200 6
//! ```

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fairdeck_fair::Manifest;
use fairdeck_table::{Error, NewTable, PostgresStore, Room, SeatPass, SqliteStore, Store, Street};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, target, tables, seats] = &args[..] else {
        eprintln!("usage: table_load sqlite|postgres FILE|URL TABLES SEATS");
        std::process::exit(2);
    };
    let (tables, seats): (usize, usize) = match (tables.parse(), seats.parse()) {
        (Ok(t), Ok(s)) if (2..=22).contains(&s) => (t, s),
        _ => {
            eprintln!("table_load: TABLES must be a count and SEATS 2 to 22");
            std::process::exit(2);
        }
    };
    let result = match kind.as_str() {
        "sqlite" => SqliteStore::open(target.as_ref()).and_then(|s| run(s, tables, seats)),
        "postgres" => PostgresStore::connect(target).and_then(|s| run(s, tables, seats)),
        _ => {
            eprintln!("table_load: the store is sqlite or postgres");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("table_load: {e}");
        std::process::exit(1);
    }
}

fn run<S: Store>(store: S, tables: usize, seats: usize) -> Result<(), Error> {
    let mut room = Room::new(store);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let run = format!("load-{}-{now}", std::process::id());
    let mut times: Vec<Duration> = Vec::new();
    let started = Instant::now();
    for t in 0..tables {
        hand(&mut room, &format!("{run}-{t}"), seats, now, &mut times)?;
    }
    let total = started.elapsed();
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
    println!(
        "{tables} tables x {seats} seats: {} state changes in {:.2} s: {:.0} changes/s, {:.1} hands/s, \
         per change p50 {:.2} ms, p99 {:.2} ms",
        times.len(),
        total.as_secs_f64(),
        times.len() as f64 / total.as_secs_f64(),
        tables as f64 / total.as_secs_f64(),
        pct(0.5),
        pct(0.99)
    );
    Ok(())
}

fn timed<T>(times: &mut Vec<Duration>, f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    let start = Instant::now();
    let out = f()?;
    times.push(start.elapsed());
    Ok(out)
}

fn hand<S: Store>(
    room: &mut Room<S>,
    id: &str,
    seats: usize,
    now: u64,
    times: &mut Vec<Duration>,
) -> Result<(), Error> {
    let manifest = Manifest {
        version: 2,
        table: id.into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: (0..seats).map(|i| format!("seat {i}")).collect(),
        first: 0,
        last: 0,
    };
    let table = manifest
        .check()
        .map_err(|e| Error::Manifest(e.to_string()))?;
    let request = NewTable {
        manifest,
        commit_seconds: 600,
        reveal_seconds: 600,
    };
    let inv = timed(times, || room.open_table(&request, now))?;
    let seed = |i: usize| format!("{id} seat {i}");
    // Each seat's device secret: 64 hex digits.
    let devices: Vec<String> = (0..seats).map(|i| format!("{i:064x}")).collect();
    let pass = |_: &_, i: usize| SeatPass::new(inv.seats[i].as_str(), &devices[i]);
    for i in 0..seats {
        timed(times, || room.claim(id, i, pass(&inv, i), now))?;
    }
    for i in 0..seats {
        let c = table.seat_commitment(i, &seed(i)).to_hex();
        timed(times, || room.commit(id, i, pass(&inv, i), &c, now))?;
    }
    for i in 0..seats {
        timed(times, || room.reveal(id, i, pass(&inv, i), &seed(i), now))?;
    }
    let op = Some(inv.operator.as_str());
    timed(times, || room.deal(id, op, now))?;
    for street in [Street::Flop, Street::Turn, Street::River] {
        timed(times, || room.release(id, op, 0, street, now))?;
    }
    timed(times, || room.close(id, op, now))?;
    Ok(())
}
