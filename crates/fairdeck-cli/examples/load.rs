//! A bounded load test of `fairdeck serve` on loopback, run by hand (not in CI):
//! `cargo run --release --example load -- 127.0.0.1:PORT [REQUESTS] [THREADS]`.
//! Sends REQUESTS (default 4000, at most 20000) `GET /api/deal` requests from
//! THREADS (default 8) keep-alive connections; prints requests/s, latency
//! percentiles and the error count. Refuses any address off loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr: SocketAddr = args.get(1).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        eprintln!("usage: load ADDR:PORT [REQUESTS] [THREADS]");
        std::process::exit(2)
    });
    if !addr.ip().is_loopback() {
        eprintln!("load: only loopback addresses");
        std::process::exit(2);
    }
    let total: usize = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4000)
        .min(20_000);
    let threads: usize = args
        .get(3)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8)
        .clamp(1, 64);
    let start = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|t| std::thread::spawn(move || run(addr, total / threads, t)))
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for w in workers {
        let (l, e) = w.join().unwrap_or_default();
        latencies.extend(l);
        errors += e;
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{} requests in {elapsed:.2} s: {:.0} requests/s; latency p50 {:?}, p99 {:?}, max {:?}; errors {errors}",
        latencies.len() + errors,
        (latencies.len() + errors) as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or_default()
    );
}

/// One connection's share: returns the latencies of good answers and the error count.
fn run(addr: SocketAddr, count: usize, thread: usize) -> (Vec<Duration>, usize) {
    let mut latencies = Vec::with_capacity(count);
    let mut errors = 0;
    let Ok(stream) = TcpStream::connect(addr) else {
        return (latencies, count);
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut writer = stream.try_clone().expect("a socket clones");
    let mut reader = BufReader::new(stream);
    for i in 0..count {
        let request =
            format!("GET /api/deal?seed=load-{thread}-{i} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let t = Instant::now();
        match writer
            .write_all(request.as_bytes())
            .and_then(|()| response(&mut reader))
        {
            Ok(200) => latencies.push(t.elapsed()),
            _ => errors += 1,
        }
    }
    (latencies, errors)
}

/// Reads one response; returns its status.
fn response(reader: &mut BufReader<TcpStream>) -> std::io::Result<u16> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(status)
}
