//! API tests of what is refused before any work, and how: cross-site and
//! rebinding requests, oversized heads, wrong methods, parameters the page
//! could not have sent; and that light and cheap requests never queue behind
//! heavy ones.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

use super::{call, get, refused, request, send};
use crate::page::api::AppState;
use crate::page::lanes;
use crate::page::limits::HEAVY_AT_ONCE;
use fairdeck_http::access::{Access, SECURITY};

/// A POST of `body` with the given content type (none when `None`).
fn post(uri: &str, content_type: Option<&str>, body: &str) -> (StatusCode, Value) {
    let mut r = request(Method::POST, uri);
    if let Some(t) = content_type {
        r = r.header("content-type", t);
    }
    let (status, _, json) = send(r.body(Body::from(body.to_string())).unwrap());
    (status, json)
}

#[test]
fn a_post_must_be_declared_json() {
    let body = r#"{"values": "2 1"}"#;
    for t in [
        Some("text/plain"),
        None,
        Some("application/x-www-form-urlencoded"),
    ] {
        let (status, r) = post("/api/chaos", t, body);
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{t:?}");
        assert!(r["error"].as_str().unwrap().contains("application/json"));
    }
    // Even with no body: a cross-site form posts the query string alone.
    let (status, _) = post("/api/audit?alg=naive-swap&n=10", Some("text/plain"), "");
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, r) = post("/api/chaos", Some("Application/JSON; charset=utf-8"), body);
    assert_eq!((status, &r["ascending"]), (StatusCode::OK, &Value::from(1)));
}

#[test]
fn only_this_servers_hosts_are_answered() {
    let with_host = |host: Option<&str>| {
        let mut r = Request::builder().uri("/api/chaos?values=2%201");
        if let Some(h) = host {
            r = r.header("host", h);
        }
        send(r.body(Body::empty()).unwrap())
    };
    let (status, _, r) = with_host(Some("rebind.example:8080"));
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert!(r["error"].as_str().unwrap().contains("--allow-host"), "{r}");
    let (status, _, _) = with_host(Some("localhost:9999"));
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    let (status, _, _) = with_host(None);
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for ok in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080"] {
        assert_eq!(with_host(Some(ok)).0, StatusCode::OK, "{ok}");
    }
}

#[test]
fn a_browser_request_from_another_site_is_refused() {
    for (site, expected) in [
        ("cross-site", StatusCode::FORBIDDEN),
        ("same-site", StatusCode::FORBIDDEN),
        ("same-origin", StatusCode::OK),
        ("none", StatusCode::OK),
    ] {
        let r = request(Method::GET, "/api/chaos?values=1")
            .header("sec-fetch-site", site)
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(r).0, expected, "{site}");
    }
}

#[test]
fn every_answer_has_the_security_headers_and_errors_are_json() {
    let big_uri = format!("/api/deal?seed={}", "x".repeat(17_000));
    let mut many = request(Method::GET, "/api/deal");
    for i in 0..70 {
        many = many.header(format!("x-h{i}"), "1");
    }
    let cases = [
        (request(Method::GET, "/api/chaos?values=1"), StatusCode::OK),
        (
            request(Method::GET, "/api/deal?players=99"),
            StatusCode::BAD_REQUEST,
        ),
        (request(Method::GET, "/api/nothing"), StatusCode::NOT_FOUND),
        (request(Method::GET, "/nothing.js"), StatusCode::NOT_FOUND),
        (request(Method::POST, "/"), StatusCode::METHOD_NOT_ALLOWED),
        (
            request(Method::PUT, "/style.css"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            request(Method::PUT, "/api/deal"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (request(Method::GET, &big_uri), StatusCode::URI_TOO_LONG),
        (many, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE),
    ];
    for (builder, expected) in cases {
        let (status, headers, body) = send(builder.body(Body::empty()).unwrap());
        assert_eq!(status, expected);
        for (name, value) in SECURITY {
            assert_eq!(headers[&name], value, "{name} on {status}");
        }
        if status != StatusCode::OK {
            assert!(body["error"].is_string(), "{status}: {body}");
        }
    }
    let (_, headers, _) = send(request(Method::POST, "/").body(Body::empty()).unwrap());
    assert_eq!(headers["allow"], "GET, HEAD");
}

#[test]
fn one_deck_limit_for_every_deal() {
    let limit = refused("/api/deal?deck=shoe:9", "deck");
    let fair = refused(
        "/api/fair/deal?server_secret=00&client_seed=a&nonce=1&deck=shoe:1000",
        "deck",
    );
    assert_eq!(limit, fair);
    assert!(limit.contains("at most 416 cards"), "{limit}");
    let (status, _) = get("/api/deal?deck=shoe:8&seed=s");
    assert_eq!(status, StatusCode::OK);
}

#[test]
fn numbers_and_switches_take_only_what_the_page_sends() {
    for players in ["%2B7", "%207", "7%20", "7.0", "-1", ""] {
        let e = refused(
            &format!("/api/deal?game=holdem&players={players}"),
            "players",
        );
        assert_eq!(e, "players must be an integer from 1 to 10", "{players}");
    }
    assert_eq!(get("/api/deal?game=holdem&players=7").0, StatusCode::OK);
    assert_eq!(
        refused("/api/deal?strict=yes", "strict"),
        "strict must be true or false"
    );
    for ok in ["true", "false"] {
        assert_eq!(get(&format!("/api/deal?strict={ok}")).0, StatusCode::OK);
    }
    let e = refused("/api/deal?game=bridge&players=3", "players");
    assert!(e.ends_with("bridge is played by 4 players, not 3"), "{e}");
    let e = refused("/api/mix?n=10", "model");
    assert!(e.contains("riffle"), "{e}");
}

#[test]
fn messages_name_the_pages_fields_not_cli_flags() {
    // Overhand on 52 cards over 3000 trials is past the mixing budget.
    let (status, r) = get("/api/mix?model=overhand&n=52&trials=3000&max_shuffles=1000&step=10");
    assert_eq!(status, StatusCode::BAD_REQUEST, "{r}");
    let e = r["error"].as_str().unwrap();
    assert!(!e.contains("--") && !e.contains("allow"), "{e}");
    for (uri, field) in [
        ("/api/deal?game=chess", "game"),
        ("/api/deal?generator=nope", "generator"),
        ("/api/audit?alg=naive-swap&n=10&alpha=2", "alpha"),
    ] {
        let e = refused(uri, field);
        assert!(e.contains(field) && !e.contains("--"), "{uri}: {e}");
    }
}

/// The app over `state`, as `fairdeck serve --bind 127.0.0.1:8080` serves it.
fn app_of(state: &Arc<AppState>) -> axum::Router {
    crate::page::app(
        Arc::clone(state),
        Access::new("127.0.0.1:8080".parse().unwrap(), vec![]),
    )
}

/// Whether `uri` is answered (200) within `ms` milliseconds; `false` when it
/// is still waiting for a permit then.
async fn answered_within(app: &axum::Router, uri: &str, ms: u64) -> bool {
    let req = request(Method::GET, uri).body(Body::empty()).unwrap();
    let waiting = app.clone().oneshot(req);
    match tokio::time::timeout(std::time::Duration::from_millis(ms), waiting).await {
        Ok(response) => {
            assert_eq!(response.unwrap().status(), StatusCode::OK, "{uri}");
            true
        }
        Err(_) => false,
    }
}

/// Requests that are cheap by their size, whatever their route.
const CHEAP: [&str; 3] = [
    "/api/exact?alg=fisher-yates&n=3",
    "/api/audit?alg=fisher-yates&n=10&trials=100&seed=x",
    "/api/mix?model=riffle&n=52&max_shuffles=3&seed=x",
];
/// Requests that are heavy by their size (about a second each).
const HEAVY: [&str; 2] = [
    "/api/exact?alg=naive-swap&n=7",
    "/api/audit?alg=fisher-yates&n=52&trials=192307&seed=x",
];

#[test]
fn light_and_cheap_requests_answer_while_every_heavy_permit_is_taken() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let state = Arc::new(AppState::new());
        let app = app_of(&state);
        // Stand-ins for running audits: all heavy permits held for the whole test.
        let _held = Arc::clone(&state.lanes.heavy)
            .acquire_many_owned(HEAVY_AT_ONCE as u32)
            .await
            .unwrap();
        for uri in [
            "/api/tree?alg=fisher-yates&n=3",
            "/api/algorithms",
            "/api/algorithms?alg=sattolo",
            "/api/deal?seed=x",
        ] {
            assert!(answered_within(&app, uri, 20_000).await, "{uri} waited");
        }
        // Issue 36: a small exact walk, audit or curve has its own lane.
        for uri in CHEAP {
            assert!(answered_within(&app, uri, 20_000).await, "{uri} waited");
        }
        // A heavy request would wait for a permit until the request's time
        // limit and then answer 503.
        for uri in HEAVY {
            assert!(!answered_within(&app, uri, 300).await, "{uri} ran");
        }
    });
}

#[test]
fn cheap_requests_wait_for_the_cheap_lane_only() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let state = Arc::new(AppState::new());
        let app = app_of(&state);
        let held = Arc::clone(&state.lanes.cheap)
            .acquire_many_owned(lanes::CHEAP_AT_ONCE as u32)
            .await
            .unwrap();
        // The cheap lane full: a cheap request waits, a light one does not.
        assert!(
            !answered_within(&app, CHEAP[0], 300).await,
            "ran without a permit"
        );
        assert!(answered_within(&app, "/api/deal?seed=x", 20_000).await);
        drop(held);
        assert!(answered_within(&app, CHEAP[0], 20_000).await);
    });
}

#[test]
fn a_json_body_is_still_read_from_post() {
    let (status, r) = call(
        Method::POST,
        "/api/chaos",
        Some(r#"{"values":[2,1]}"#.into()),
    );
    assert_eq!((status, &r["ascending"]), (StatusCode::OK, &Value::from(1)));
}

#[test]
fn the_overhand_report_speaks_of_overhand_only() {
    let (status, r) = get("/api/mix?model=overhand&n=20&trials=50&max_shuffles=10&seed=o");
    assert_eq!(status, StatusCode::OK, "{r}");
    let method = r["method"].as_str().unwrap();
    assert!(
        method.starts_with("simulated") && !method.contains("top-to-random"),
        "{method}"
    );
    let (_, t) = get("/api/mix?model=top-to-random&n=20&trials=50&max_shuffles=10&seed=o");
    assert!(t["method"].as_str().unwrap().contains("exact upper bound"));
}
