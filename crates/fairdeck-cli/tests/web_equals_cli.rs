//! The web page's API and the command line answer the same request with the
//! same JSON: both build it from the report layer (`fairdeck-report`), the
//! web from query parameters through serde, the CLI from its clap flags.
//! One test per operation, against a real `fairdeck serve`.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::Value;

/// A running `fairdeck serve` on a free loopback port; killed on drop.
struct Server {
    child: std::process::Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` on the server: the status line's code and the JSON body.
fn get(server: &Server, path: &str) -> (u16, Value) {
    let addr = &server.addr;
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Asserts that `/api/...` and `fairdeck ARGS --format json` give the same document.
fn same(server: &Server, api: &str, cli: &[&str]) -> Value {
    let (status, web) = get(server, api);
    assert_eq!(status, 200, "{api}: {web}");
    let mut args = cli.to_vec();
    args.extend(["--format", "json"]);
    let cli_json = common::json(&args);
    assert_eq!(web, cli_json, "{api} against fairdeck {}", cli.join(" "));
    web
}

fn deal(s: &Server) {
    let doc = same(
        s,
        "/api/deal?game=holdem&players=4&seed=table-7",
        &[
            "deal",
            "--game",
            "holdem",
            "--players",
            "4",
            "--seed",
            "table-7",
        ],
    );
    // Four hands, and the board and burns.
    assert!(doc["hands"].as_array().unwrap().len() > 4, "{doc}");
}

fn shuffle_steps(s: &Server) {
    let doc = same(
        s,
        "/api/shuffle-steps?alg=naive-swap&n=5&seed=s",
        &["shuffle", "naive-swap", "-n", "5", "--steps", "--seed", "s"],
    );
    assert_eq!(doc["steps"].as_array().unwrap().len(), 6);
}

fn exact(s: &Server) {
    let doc = same(
        s,
        "/api/exact?alg=naive-swap&n=3",
        &["exact", "naive-swap", "-n", "3"],
    );
    assert_eq!(doc["uniform"], false);
}

fn audit(s: &Server) {
    let doc = same(
        s,
        "/api/audit?alg=naive-swap&n=6&trials=3000&seed=s&alpha=0.001",
        &[
            "audit",
            "naive-swap",
            "-n",
            "6",
            "--trials",
            "3000",
            "--seed",
            "s",
            "--alpha",
            "0.001",
            "--positions",
        ],
    );
    assert_eq!(doc["positions"].as_array().unwrap().len(), 6);
}

fn mix(s: &Server) {
    same(
        s,
        "/api/mix?model=top-to-random&n=10&trials=200&max_shuffles=20&seed=s",
        &[
            "mix",
            "top-to-random",
            "-n",
            "10",
            "--trials",
            "200",
            "--max-shuffles",
            "20",
            "--seed",
            "s",
        ],
    );
    same(
        s,
        "/api/mix?model=riffle&n=52",
        &["mix", "riffle", "-n", "52"],
    );
}

fn chaos(s: &Server) {
    same(
        s,
        "/api/chaos?values=1%204%202%203%205",
        &["chaos", "1", "4", "2", "3", "5"],
    );
}

fn algorithms(s: &Server) {
    same(
        s,
        "/api/algorithms?alg=naive-swap",
        &["algorithms", "naive-swap"],
    );
}

fn fair_deal(s: &Server) {
    let secret = "ab".repeat(32);
    let doc = same(
        s,
        &format!("/api/fair/deal?server_secret={secret}&client_seed=alice&nonce=3&game=skat"),
        &[
            "fair",
            "deal",
            "--server-secret",
            &secret,
            "--client-seed",
            "alice",
            "--nonce",
            "3",
            "--game",
            "skat",
        ],
    );
    assert_eq!(doc["deck"], "piquet");
}

fn fair_commit_has_the_same_fields(s: &Server) {
    let addr = &s.addr;
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/fair/commit HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let web: Value = serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap();
    let cli = common::json(&["fair", "commit", "--format", "json"]);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&web), keys(&cli), "{web} {cli}");
    assert_ne!(web["commitment"], cli["commitment"], "two fresh secrets");
}

fn refusals_name_the_same_limit(s: &Server) {
    // The report layer's refusal reaches both front ends: exit 2 on the
    // command line, 400 naming the parameter on the web.
    let (status, web) = get(s, "/api/audit?alg=naive-swap&n=6&alpha=2");
    assert_eq!((status, web["parameter"].as_str()), (400, Some("alpha")));
    let out = common::usage_error(&["audit", "naive-swap", "-n", "6", "--alpha", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("alpha must be between 0 and 1"), "{stderr}");
    assert!(
        web["error"]
            .as_str()
            .unwrap()
            .contains("alpha must be between 0 and 1")
    );
}

/// Every operation against one server (a server warms its catalogue on
/// start: one is enough, and the tests stay fast).
#[test]
fn the_web_and_the_cli_give_the_same_json() {
    let args = ["serve", "--bind", "127.0.0.1:0"].map(std::ffi::OsStr::new);
    let (child, addr) = common::spawn_server(&args, "fairdeck serve:");
    let s = &Server { child, addr };
    deal(s);
    shuffle_steps(s);
    exact(s);
    audit(s);
    mix(s);
    chaos(s);
    algorithms(s);
    fair_deal(s);
    fair_commit_has_the_same_fields(s);
    refusals_name_the_same_limit(s);
}
