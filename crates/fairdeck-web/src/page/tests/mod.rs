//! API tests: every endpoint, called through the router without a socket,
//! with good, bad and oversized input.

mod refusals;
mod verify;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

use super::api::AppState;
use fairdeck_http::access::Access;

/// The app as `fairdeck serve --bind 127.0.0.1:8080` serves it.
pub(super) fn router() -> axum::Router {
    super::app(
        std::sync::Arc::new(AppState::new()),
        Access::new("127.0.0.1:8080".parse().unwrap(), vec![]),
    )
}

/// A request with the Host a browser on this machine sends.
pub(super) fn request(method: Method, uri: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:8080")
}

/// Sends one request; returns the status, the headers and the body as JSON.
pub(super) fn send(request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = router().oneshot(request).await.unwrap();
        let (parts, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (parts.status, parts.headers, json)
    })
}

/// Sends one JSON request and returns the status and the body parsed as JSON.
pub(super) fn call(method: Method, uri: &str, body: Option<String>) -> (StatusCode, Value) {
    let request = request(method, uri)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let (status, _, json) = send(request);
    (status, json)
}

pub(super) fn get(uri: &str) -> (StatusCode, Value) {
    call(Method::GET, uri, None)
}

/// Asserts a 400 naming `parameter`, and returns the error text.
pub(super) fn refused(uri: &str, parameter: &str) -> String {
    let (status, body) = get(uri);
    assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
    assert_eq!(body["parameter"], parameter, "{uri}: {body}");
    body["error"].as_str().unwrap().to_string()
}

#[test]
fn deal_is_the_cli_json_and_replays_from_its_seed() {
    let (status, a) = get("/api/deal?seed=demo&game=bridge");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(a["deck_size"], 52);
    assert_eq!(a["hands"].as_array().unwrap().len(), 4);
    assert_eq!(a["entropy_source"], "seed-text");
    // The same seed (as the hex key the report printed) deals the same hands.
    let (_, b) = get(&format!("/api/deal?seed={}", a["seed"].as_str().unwrap()));
    assert_eq!(a["hands"], b["hands"]);
    // The report layer makes the same document for the same request (the
    // CLI's side: crates/fairdeck-cli/tests/web_equals_cli.rs).
    let request = fairdeck_report::deal::Request {
        random: fairdeck_report::random::RandomRequest::seeded("demo"),
        ..Default::default()
    };
    let mut random = request.random.randomness().unwrap();
    let report = fairdeck_report::deal::run(&request, &mut random).unwrap().0;
    let cli = serde_json::to_value(report).unwrap();
    assert_eq!(cli, a);
}

#[test]
fn deal_refuses_bad_and_oversized_input() {
    assert!(refused("/api/deal?players=99", "players").contains("1 to 10"));
    refused("/api/deal?deck=shoe:9", "deck");
    refused("/api/deal?deck=tarot", "deck");
    refused("/api/deal?game=chess", "game");
    refused("/api/deal?entropy=dice", "entropy");
    refused(&format!("/api/deal?seed={}", "x".repeat(2000)), "seed");
    refused(&format!("/api/deal?game={}", "x".repeat(9000)), "query");
    let (_, body) = get("/api/deal?players=0");
    assert_eq!(body["limit"], "an integer from 1 to 10");
}

#[test]
fn shuffle_steps_records_every_state() {
    let (status, r) = get("/api/shuffle-steps?alg=fisher-yates&n=5&seed=s");
    assert_eq!(status, StatusCode::OK);
    let steps = r["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5); // start + 4 swaps
    assert_eq!(steps[0]["deck"], serde_json::json!([1, 2, 3, 4, 5]));
    assert_eq!(steps[4]["deck"], r["result"]);
    refused("/api/shuffle-steps?alg=fisher-yates&n=13", "n");
    refused("/api/shuffle-steps?alg=bogo&n=3", "alg");
    refused("/api/shuffle-steps?n=3", "alg");
}

#[test]
fn tree_has_every_path_and_the_seeded_one() {
    let (status, t) = get("/api/tree?alg=naive-swap&n=3&seed=s");
    assert_eq!(status, StatusCode::OK);
    let leaves = t["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 27);
    assert!(leaves.iter().any(|l| l["rolls"] == t["taken"]));
    refused("/api/tree?alg=naive-swap&n=5", "n");
    let (status, _) = get("/api/tree?alg=rejection&n=4");
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[test]
fn exact_gives_fractions_and_refuses_big_walks() {
    let (status, r) = get("/api/exact?alg=naive-swap&n=3");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["total_variation"], "1/18");
    assert_eq!(r["uniform"], false);
    let (_, fy) = get("/api/exact?alg=fisher-yates&n=4");
    assert_eq!(fy["uniform"], true);
    // A rejection loop cut at a depth is uniform on its resolved paths only.
    let (_, rej) = get("/api/exact?alg=rejection&n=4");
    assert_eq!(rej["uniform"], false, "{rej}");
    assert_eq!(rej["uniform_on_resolved"], true);
    refused("/api/exact?alg=naive-swap&n=8", "n");
    refused("/api/exact?alg=sort-keys&n=6", "max_paths");
    refused("/api/exact?alg=naive-swap&n=3&max_paths=0", "max_paths");
}

#[test]
fn audit_finds_the_biased_shuffle_and_bounds_the_work() {
    // naive-swap on 10 cards deviates from 1/n by up to ~20% per cell: 20 000
    // shuffles fail the positions test at the per-test alpha (false alarm 1e-6).
    let (status, r) = get("/api/audit?alg=naive-swap&n=10&trials=20000&seed=t");
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["verdict"], "biased");
    let positions = r["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 10);
    let total: u64 = positions[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 20000);
    // The uniform control: Fisher–Yates passes at the same false-alarm rate.
    let (_, fy) = get("/api/audit?alg=fisher-yates&n=10&trials=20000&seed=t");
    assert_eq!(fy["verdict"], "no bias detected");
    assert!(fy["detectable"][0]["size"].as_f64().unwrap() > 0.0, "{fy}");
    refused("/api/audit?alg=naive-swap&n=200&trials=200000", "trials");
    refused("/api/audit?alg=naive-swap&n=1", "n");
    refused("/api/audit?alg=naive-swap&n=10&alpha=2", "alpha");
}

#[test]
fn mix_draws_the_seven_shuffles_curve() {
    let (status, r) = get("/api/mix?model=riffle&n=52");
    assert_eq!(status, StatusCode::OK);
    let rows = r["rows"].as_array().unwrap();
    assert!(rows[6]["total_variation"].as_f64().unwrap() < 0.5);
    assert!(rows[5]["total_variation"].as_f64().unwrap() > 0.5);
    refused("/api/mix?model=shaker&n=10", "model");
    refused("/api/mix?model=riffle&n=53", "n");
    refused("/api/mix?model=overhand&n=52&trials=4000", "trials");
    refused(
        "/api/mix?model=riffle&n=20&max_shuffles=1000&step=1",
        "step",
    );
}

#[test]
fn chaos_counts_swaps_from_query_and_json_body() {
    let (status, r) = get("/api/chaos?values=1%204%202%203%205");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["chaos"], 2);
    let body = Some(r#"{"values": [5, 4, 3, 2, 1]}"#.to_string());
    let (status, r) = call(Method::POST, "/api/chaos", body);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["chaos"], 0);
    assert!(refused("/api/chaos?values=1%201", "values").contains("distinct"));
    refused("/api/chaos?values=a", "values");
    refused("/api/chaos", "values");
}

#[test]
fn oversized_and_malformed_bodies_are_refused() {
    let big = format!(r#"{{"values": "{}"}}"#, "1 ".repeat(10_000));
    let (status, r) = call(Method::POST, "/api/chaos", Some(big));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(r["parameter"], "body");
    assert_eq!(r["limit"], "at most 16384 bytes");
    let (status, r) = call(Method::POST, "/api/chaos", Some("{not json".into()));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(r["parameter"], "body");
    let (status, _) = call(Method::POST, "/api/chaos", Some("[1, 2]".into()));
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[test]
fn algorithms_lists_the_catalogue() {
    let (status, r) = get("/api/algorithms?alg=sattolo");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r[0]["name"], "sattolo");
    assert_eq!(r[0]["exact"][0]["uniform"], false);
    refused("/api/algorithms?alg=nope", "alg");
}

#[test]
fn fair_commit_then_deal_is_verifiable() {
    let (status, c) = call(Method::POST, "/api/fair/commit", None);
    assert_eq!(status, StatusCode::OK);
    let secret = c["server_secret"].as_str().unwrap();
    let uri = format!("/api/fair/deal?server_secret={secret}&client_seed=alice&nonce=3");
    let (status, d) = get(&uri);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(d["commitment"], c["commitment"]);
    assert_eq!(d["cards"].as_array().unwrap().len(), 52);
    refused(
        "/api/fair/deal?server_secret=00&client_seed=a&nonce=1",
        "server_secret",
    );
    refused("/api/fair/deal?client_seed=a&nonce=1", "server_secret");
    refused(
        &format!("/api/fair/deal?server_secret={secret}&client_seed=a&nonce=x"),
        "nonce",
    );
    refused(
        "/api/fair/deal?secret_file=/etc/passwd&client_seed=a&nonce=1",
        "secret_file",
    );
    let (status, _) = get("/api/fair/commit");
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[test]
fn pages_are_served_from_the_binary() {
    for path in [
        "/",
        "/style.css",
        "/js/app.js",
        "/js/cards.js",
        "/js/pages/verify.js",
    ] {
        let (status, _, _) = send(request(Method::GET, path).body(Body::empty()).unwrap());
        assert_eq!(status, StatusCode::OK, "{path}");
    }
    let (status, body) = get("/api/nothing");
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("no such endpoint"));
}

#[test]
fn the_table_service_pages_are_not_served_here() {
    // They call the table service's API, which `fairdeck serve` has not.
    let (status, body) = get("/table/play.html");
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = get("/js/fairspec-v2.js");
    assert_eq!(status, StatusCode::OK);
}

#[test]
fn the_browser_seat_is_served_as_webassembly_under_a_policy_that_allows_it() {
    const SEAT: &str = "/js/hidden/seat.wasm";
    let (status, headers, _) = send(request(Method::GET, SEAT).body(Body::empty()).unwrap());
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval';"),
        "{csp}"
    );
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    let (js, _) = get("/js/hidden/seat.js");
    assert_eq!(js, StatusCode::OK);
    let Some(bytes) = fairdeck_pages::find(SEAT) else {
        // Built without the seat (FAIRDECK_WASM=skip, or no wasm32 target and not
        // required): a JSON 404, which seat.js turns into what is missing.
        assert_eq!(status, StatusCode::NOT_FOUND);
        return;
    };
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/wasm");
    assert_eq!(&bytes[..4], b"\0asm", "a WebAssembly module");
}
