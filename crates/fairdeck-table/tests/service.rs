//! The HTTP API of `fairdeck table serve` in process (axum router, a real
//! SQLite file): a hold'em hand from opening to the audit through HTTP, each
//! seat seeing only its own cards; every seat route refusing the other
//! seats' tokens and no token (401/403 without detail); and the stack's
//! refusals (Host, content type, body size, unknown route) as JSON.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use common::{ADMIN, HOST, app};

/// Sends one request; returns the status and the JSON answer.
async fn call(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call_from(app, method, path, token, None, body).await
}

/// [`call`] from a seat's device (`Fairdeck-Device`).
async fn call_from(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    device: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if let Some(d) = device {
        req = req.header("Fairdeck-Device", d);
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let answer = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = answer.status();
    let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A POST with a token; only its status.
async fn post(app: &Router, path: &str, token: &str, body: Value) -> StatusCode {
    call(app, "POST", path, Some(token), Some(body)).await.0
}

fn new_table(id: &str, players: usize) -> Value {
    serde_json::to_value(common::request(&common::holdem(id, players))).unwrap()
}

/// Opens a hold'em table of `players` seats with the admin token; returns
/// the invitation's JSON, the operator's token and the seats' tokens.
async fn open_table(app: &Router, id: &str, players: usize) -> (Value, String, Vec<String>) {
    let (status, inv) = call(
        app,
        "POST",
        "/api/tables",
        Some(ADMIN),
        Some(new_table(id, players)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let op = inv["operator"].as_str().unwrap().to_string();
    let seats = inv["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    (inv, op, seats)
}

#[tokio::test]
async fn a_holdem_hand_through_http() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (inv, op, seats) = open_table(&app, "h1", 3).await;
    let m = common::holdem("h1", 3);
    let (_, public) = call(&app, "GET", "/api/tables/h1", None, None).await;
    assert_eq!(public["commitment"], inv["commitment"]);
    // Dealing before the reveals is a conflict, not a success.
    let deal = || post(&app, "/api/tables/h1/deal", &op, json!({}));
    for (i, t) in seats.iter().enumerate() {
        let path = format!("/api/tables/h1/seats/{i}/claim");
        let body = json!({ "device": common::device(i) });
        assert_eq!(post(&app, &path, t, body).await, StatusCode::OK, "{path}");
    }
    for (change, before_deal) in [("commit", StatusCode::CONFLICT), ("reveal", StatusCode::OK)] {
        for (i, t) in seats.iter().enumerate() {
            let body = match change {
                "commit" => json!({ "commitment": common::commitment(&m, i) }),
                _ => json!({ "seed": common::seed("h1", i) }),
            };
            let path = format!("/api/tables/h1/seats/{i}/{change}");
            let device = Some(common::device(i));
            let (status, _) = call_from(&app, "POST", &path, Some(t), device, Some(body)).await;
            assert_eq!(status, StatusCode::OK, "{path}");
        }
        assert_eq!(deal().await, before_deal, "after every {change}");
    }
    // Each seat sees two hole cards, its own; no board yet; no transcript.
    let mut holes = Vec::new();
    for (i, t) in seats.iter().enumerate() {
        let path = format!("/api/tables/h1/seats/{i}");
        let device = Some(common::device(i));
        let (status, view) = call_from(&app, "GET", &path, Some(t), device, None).await;
        assert_eq!(status, StatusCode::OK);
        let cards = view["hands"][0]["cards"].as_array().unwrap().clone();
        assert_eq!(cards.len(), 2, "{view}");
        assert!(view["transcript"].is_null());
        assert!(
            view["community"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["shown"].as_array().unwrap().is_empty())
        );
        holes.push(cards);
    }
    // No seat's view names a card of another seat's hand.
    for (i, t) in seats.iter().enumerate() {
        let path = format!("/api/tables/h1/seats/{i}");
        let device = Some(common::device(i));
        let (_, view) = call_from(&app, "GET", &path, Some(t), device, None).await;
        let text = view.to_string();
        for (j, other) in holes.iter().enumerate().filter(|&(j, _)| j != i) {
            for card in other {
                assert!(
                    !text.contains(&card.to_string()),
                    "seat {i} sees {card} of seat {j}: {text}"
                );
            }
        }
    }
    let release = |street: &str| json!({ "deal": 0, "street": street });
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables/h1/release",
            Some(&op),
            Some(release("turn"))
        )
        .await
        .0,
        StatusCode::CONFLICT
    );
    for street in ["flop", "turn", "river"] {
        assert_eq!(
            call(
                &app,
                "POST",
                "/api/tables/h1/release",
                Some(&op),
                Some(release(street))
            )
            .await
            .0,
            StatusCode::OK
        );
    }
    let (_, public) = call(&app, "GET", "/api/tables/h1", None, None).await;
    let shown: usize = public["community"][0]["shown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cards"].as_array().unwrap().len())
        .sum();
    assert_eq!(shown, 5, "{public}");
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables/h1/close",
            Some(&op),
            Some(json!({}))
        )
        .await
        .0,
        StatusCode::OK
    );
    let (_, public) = call(&app, "GET", "/api/tables/h1", None, None).await;
    assert!(public["transcript"].is_object());
    let (status, audit) = call(&app, "GET", "/api/tables/h1/audit", Some(&op), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(audit["transcript_valid"], json!(true), "{audit}");
}

#[tokio::test]
async fn every_seat_route_refuses_other_tokens_and_none() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (_, op, seats) = open_table(&app, "a1", 3).await;
    let m = common::holdem("a1", 3);
    for seat in 0..3 {
        let routes = [
            ("GET", format!("/api/tables/a1/seats/{seat}"), None),
            (
                "POST",
                format!("/api/tables/a1/seats/{seat}/commit"),
                Some(json!({ "commitment": common::commitment(&m, seat) })),
            ),
            (
                "POST",
                format!("/api/tables/a1/seats/{seat}/reveal"),
                Some(json!({ "seed": common::seed("a1", seat) })),
            ),
        ];
        for (method, path, body) in &routes {
            let (status, answer) = call(&app, method, path, None, body.clone()).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
            assert_eq!(answer["error"], "a token is required");
            let others = seats
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != seat)
                .map(|(_, t)| t.clone());
            for t in others.chain([op.clone(), ADMIN.to_string(), "0".repeat(64)]) {
                let (status, answer) = call(&app, method, path, Some(&t), body.clone()).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
                assert_eq!(answer["error"], "this token does not allow that");
            }
        }
    }
    for path in [
        "/api/tables/a1/deal",
        "/api/tables/a1/close",
        "/api/tables/a1/void",
    ] {
        assert_eq!(
            call(&app, "POST", path, None, Some(json!({}))).await.0,
            StatusCode::UNAUTHORIZED
        );
        for t in seats.iter().chain([&ADMIN.to_string()]) {
            assert_eq!(
                call(&app, "POST", path, Some(t), Some(json!({}))).await.0,
                StatusCode::FORBIDDEN,
                "{path}"
            );
        }
    }
    for t in [None, Some(seats[0].as_str()), Some(op.as_str())] {
        let status = call(&app, "POST", "/api/tables", t, Some(new_table("a2", 2)))
            .await
            .0;
        assert!(status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN);
    }
    assert_eq!(
        call(
            &app,
            "GET",
            "/api/tables/a1/operator",
            Some(&seats[1]),
            None
        )
        .await
        .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        call(&app, "GET", "/api/tables/a1/audit", None, None)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_stack_refuses_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    // Another Host (DNS rebinding): 421.
    let req = Request::get("/api/tables/x")
        .header(header::HOST, "evil.example:8090")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.clone().oneshot(req).await.unwrap().status(),
        StatusCode::MISDIRECTED_REQUEST
    );
    // A form post (no JSON content type): 415.
    let req = Request::post("/api/tables")
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "text/plain")
        .header(header::AUTHORIZATION, format!("Bearer {ADMIN}"))
        .body(Body::from(new_table("f1", 2).to_string()))
        .unwrap();
    assert_eq!(
        app.clone().oneshot(req).await.unwrap().status(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    // Too large a body, unknown fields, a bad manifest, an unknown table and route.
    let huge = json!({ "seed": "x".repeat(70_000) });
    let (status, answer) = call(
        &app,
        "POST",
        "/api/tables/x/seats/0/reveal",
        Some("t"),
        Some(huge),
    )
    .await;
    assert_eq!(
        (status, answer["parameter"].as_str()),
        (StatusCode::BAD_REQUEST, Some("body"))
    );
    let mut extra = new_table("f2", 2);
    extra["surprise"] = json!(1);
    assert_eq!(
        call(&app, "POST", "/api/tables", Some(ADMIN), Some(extra))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    let mut bad = new_table("f3", 2);
    bad["manifest"]["version"] = json!(1);
    let (status, answer) = call(&app, "POST", "/api/tables", Some(ADMIN), Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(
        call(&app, "GET", "/api/tables/none", None, None).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, answer) = call(&app, "GET", "/api/nowhere", None, None).await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("no such endpoint"))
    );
    // Opening the same table twice is a conflict.
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables",
            Some(ADMIN),
            Some(new_table("d1", 2))
        )
        .await
        .0,
        StatusCode::CREATED
    );
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables",
            Some(ADMIN),
            Some(new_table("d1", 2))
        )
        .await
        .0,
        StatusCode::CONFLICT
    );
}
