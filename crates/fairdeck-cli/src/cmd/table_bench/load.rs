//! The load of `fairdeck table bench`: the service on a port of its own,
//! the clients that play its tables, and the public reader beside them.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use fairdeck_client::Client;
use fairdeck_client::hand::{Hand, Timing};
use fairdeck_table::Store;
use fairdeck_table::service::{Service, serve};
use std::sync::Arc;

use super::BenchArgs;

/// The service on a loopback port of its own, on a runtime thread.
pub(super) struct Running {
    pub(super) addr: String,
    stop: tokio::sync::oneshot::Sender<()>,
    server: std::thread::JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub(super) fn start<S: Store + Send + 'static>(
        service: Arc<Service<S>>,
    ) -> anyhow::Result<Running> {
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        let server = std::thread::spawn(move || {
            let served = runtime.block_on(async move {
                let bind = "127.0.0.1:0".parse().expect("a literal address");
                let ready = move |local| {
                    let _ = addr_tx.send(local);
                };
                let shutdown = async {
                    let _ = stop_rx.await;
                };
                serve(service, bind, Vec::new(), ready, shutdown).await
            });
            drop(runtime);
            served
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| anyhow::anyhow!("the service did not start"))?
            .to_string();
        Ok(Running { addr, stop, server })
    }

    pub(super) fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.server.join();
    }
}

/// What each client thread did: hands finished, request timings, the
/// first error.
pub(super) type ClientRun = (usize, Vec<Timing>, Option<String>);

/// One client's share of the tables (every `clients`-th from `c`), played
/// to the end.
fn play_tables(addr: &str, admin: &str, run_tag: &str, c: usize, args: &BenchArgs) -> ClientRun {
    let mut client = Client::new(addr);
    let (mut done, mut timings, mut first_error) = (0, Vec::new(), None);
    for t in (c..args.tables).step_by(args.clients) {
        let mut hand = Hand::holdem(&format!("bench-{run_tag}-{t}"), args.seats);
        match hand.play(&mut client, admin, &mut timings, false, usize::MAX) {
            Ok(()) => done += 1,
            Err(e) => {
                first_error.get_or_insert_with(|| e.to_string());
            }
        }
    }
    (done, timings, first_error)
}

/// Every client at once, and the public reader of the `--many-deals`
/// table `big` while they play.
pub(super) fn play_all(
    addr: &str,
    admin: &str,
    (run_tag, big): (&str, &str),
    args: &BenchArgs,
) -> (Vec<ClientRun>, Option<Vec<Duration>>) {
    let playing = std::sync::atomic::AtomicBool::new(true);
    std::thread::scope(|scope| {
        let reader = (args.many_deals > 0).then(|| {
            let playing = &playing;
            scope.spawn(move || read_while(addr, &format!("/api/tables/{big}"), playing))
        });
        let workers: Vec<_> = (0..args.clients)
            .map(|c| scope.spawn(move || play_tables(addr, admin, run_tag, c, args)))
            .collect();
        let results: Vec<ClientRun> = workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or((0, Vec::new(), Some("a client panicked".into())))
            })
            .collect();
        playing.store(false, std::sync::atomic::Ordering::Relaxed);
        let reads = reader.map(|r| r.join().unwrap_or_default());
        (results, reads)
    })
}

/// Reads `path` without a token until `playing` falls; each read's time
/// (failed reads are not counted).
fn read_while(addr: &str, path: &str, playing: &std::sync::atomic::AtomicBool) -> Vec<Duration> {
    let mut client = Client::new(addr);
    let mut out = Vec::new();
    while playing.load(std::sync::atomic::Ordering::Relaxed) {
        let start = Instant::now();
        if let Ok((200, _)) = client.call("GET", path, None, None) {
            out.push(start.elapsed());
        }
    }
    out
}
