//! The server's rules hold for the hidden-table routes too: the Host is
//! checked, changes are JSON only, bodies are bounded (a shuffle by the
//! deck's size), tokens are required, and every refusal is JSON.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use chacha20::ChaCha20Rng;
use fairdeck_hidden::Table;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::{PublicKey, SecretKey};
use fairdeck_table::service::hidden::{SHARE_BYTES_PER_CARD, SHUFFLE_BYTES_PER_CARD};
use rand_core::SeedableRng;
use serde_json::{Value, json};
use tower::ServiceExt;

use common::{ADMIN, HOST, app};

async fn call(
    app: &Router,
    (method, path): (&str, &str),
    (host, kind): (&str, &str),
    token: Option<&str>,
    body: String,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, host);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if method == "POST" {
        req = req.header(header::CONTENT_TYPE, kind);
    }
    let answer = app
        .clone()
        .oneshot(req.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = answer.status();
    let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes).expect("every answer is JSON");
    (status, value)
}

async fn json_call(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    call(
        app,
        (method, path),
        (HOST, "application/json"),
        token,
        body.to_string(),
    )
    .await
}

fn manifest() -> fairdeck_fair::Manifest {
    fairdeck_fair::Manifest {
        version: 3,
        table: "rules".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bo".into()],
        first: 1,
        last: 1,
    }
}

/// A real 52-card shuffle message, as JSON.
fn shuffle_json() -> String {
    let table = Table::new(manifest()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let pk = PublicKey(SecretKey::generate(&mut rng).public_key().0);
    let deck = PublishedDeck::from_deck(table.starting_deck());
    let (msg, _) = fairdeck_hidden::shuffle::shuffle(&table, 1, 0, &pk, &deck, &mut rng).unwrap();
    serde_json::to_string_pretty(&msg).unwrap()
}

#[tokio::test]
async fn the_server_rules_hold_for_hidden_tables() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let open = json!({"manifest": manifest(), "step_seconds": 60});
    let (code, answer) = json_call(&app, "POST", "/api/hidden", None, open.clone()).await;
    assert_eq!(code, StatusCode::UNAUTHORIZED, "{answer}");
    let (code, _) = json_call(&app, "POST", "/api/hidden", Some("wrong"), open.clone()).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    let text = (("POST", "/api/hidden"), (HOST, "text/plain"));
    let (code, answer) = call(&app, text.0, text.1, Some(ADMIN), open.to_string()).await;
    assert_eq!(code, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{answer}");
    let rebinding = (
        ("POST", "/api/hidden"),
        ("evil.example:8090", "application/json"),
    );
    let (code, answer) = call(
        &app,
        rebinding.0,
        rebinding.1,
        Some(ADMIN),
        open.to_string(),
    )
    .await;
    assert!(
        code.is_client_error() && answer["error"].is_string(),
        "{code} {answer}"
    );
    let v2 = json!({"manifest": {"version": 2, "table": "v2", "game": "holdem", "deck": "standard", "seats": ["a", "b"], "first": 1, "last": 1}, "step_seconds": 60});
    let (code, answer) = json_call(&app, "POST", "/api/hidden", Some(ADMIN), v2).await;
    assert_eq!(
        code,
        StatusCode::BAD_REQUEST,
        "a version-2 manifest: {answer}"
    );
    let (code, inv) = json_call(&app, "POST", "/api/hidden", Some(ADMIN), open).await;
    assert_eq!(code, StatusCode::CREATED, "{inv}");
    assert!(
        inv["links"][0]
            .as_str()
            .unwrap()
            .starts_with(&format!("http://{HOST}/"))
    );
    let seat0 = inv["seats"][0].as_str().unwrap();
    // A shuffle is bounded by the deck: a real one fits, more than the bound does not.
    let real = shuffle_json();
    let bound = 4096 + 52 * SHUFFLE_BYTES_PER_CARD;
    assert!(
        real.len() * 3 / 2 < bound && real.len() > 52 * 300,
        "{} bytes",
        real.len()
    );
    let path = "/api/hidden/rules/seats/0/shuffle";
    let big = format!("{real}{}", " ".repeat(bound - real.len() + 1));
    let (code, answer) = call(
        &app,
        ("POST", path),
        (HOST, "application/json"),
        Some(seat0),
        big,
    )
    .await;
    assert_eq!(
        (code, answer["parameter"].as_str()),
        (StatusCode::BAD_REQUEST, Some("body")),
        "{answer}"
    );
    assert!(
        answer["limit"]
            .as_str()
            .unwrap()
            .contains(&bound.to_string())
    );
    let (code, answer) = call(
        &app,
        ("POST", path),
        (HOST, "application/json"),
        Some(seat0),
        real,
    )
    .await;
    assert_eq!(
        code,
        StatusCode::CONFLICT,
        "in bounds, but the keys are not in: {answer}"
    );
    // A key message is small: its bound does not grow with the deck.
    let key_path = "/api/hidden/rules/seats/0/key";
    let long = format!("{{\"seat\": 0{}}}", " ".repeat(5000));
    let (code, answer) = call(
        &app,
        ("POST", key_path),
        (HOST, "application/json"),
        Some(seat0),
        long,
    )
    .await;
    assert_eq!(
        (code, answer["parameter"].as_str()),
        (StatusCode::BAD_REQUEST, Some("body"))
    );
    let shares_bound = 4096 + 52 * SHARE_BYTES_PER_CARD;
    assert!(shares_bound > 52 * 400, "every share of a deck fits");
    // Unknown fields, other tables, other seats, methods: JSON refusals.
    let (code, _) = json_call(
        &app,
        "POST",
        key_path,
        Some(seat0),
        json!({"seat": 0, "x": 1}),
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST);
    let (code, _) = json_call(&app, "GET", "/api/hidden/nope", None, Value::Null).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    let (code, _) = json_call(
        &app,
        "POST",
        "/api/hidden/rules/seats/7/key",
        Some(seat0),
        json!({}),
    )
    .await;
    assert_eq!(
        code,
        StatusCode::BAD_REQUEST,
        "an empty body is no key message"
    );
    let (code, _) = json_call(
        &app,
        "POST",
        "/api/hidden/rules/seats/x/key",
        Some(seat0),
        json!({}),
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST);
    let (code, answer) = json_call(&app, "DELETE", "/api/hidden/rules", None, Value::Null).await;
    assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED, "{answer}");
    let step = json!({"hand": 1, "to": "flop"});
    let (code, _) = json_call(&app, "POST", "/api/hidden/rules/advance", Some(seat0), step).await;
    assert_eq!(
        code,
        StatusCode::FORBIDDEN,
        "a seat's token does not move the hand on"
    );
}

#[tokio::test]
async fn a_seat_checks_its_link_with_its_token_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let inv = open_rules_table(&app).await;
    let (seat0, seat1) = (inv["seats"][0].as_str(), inv["seats"][1].as_str());
    let at = "/api/hidden/rules/seats/1";
    let (code, answer) = json_call(&app, "GET", at, seat1, Value::Null).await;
    assert_eq!(code, StatusCode::OK, "{answer}");
    let want = json!({"table": "rules", "seat": 1, "name": "bo", "key_sent": false});
    assert_eq!(answer, want);
    // Another seat's token, no token, a seat the table does not have, no table.
    let refusals = [
        (at, seat0, StatusCode::FORBIDDEN),
        (at, None, StatusCode::UNAUTHORIZED),
        ("/api/hidden/rules/seats/2", seat1, StatusCode::FORBIDDEN),
        ("/api/hidden/rules/seats/x", seat1, StatusCode::BAD_REQUEST),
        ("/api/hidden/nope/seats/1", seat1, StatusCode::NOT_FOUND),
    ];
    refused_reads_store_nothing(&app, &refusals).await;
}

#[tokio::test]
async fn the_operator_checks_its_link_with_its_token_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let inv = open_rules_table(&app).await;
    let (operator, seat0) = (inv["operator"].as_str(), inv["seats"][0].as_str());
    let at = "/api/hidden/rules/operator";
    let (code, answer) = json_call(&app, "GET", at, operator, Value::Null).await;
    assert_eq!(code, StatusCode::OK, "{answer}");
    let (_, public) = json_call(&app, "GET", "/api/hidden/rules", None, Value::Null).await;
    assert_eq!(answer, public, "the operator reads the public status");
    // A seat's token, no token, no table: refused, as JSON.
    let refusals = [
        (at, seat0, StatusCode::FORBIDDEN),
        (at, None, StatusCode::UNAUTHORIZED),
        ("/api/hidden/nope/operator", operator, StatusCode::NOT_FOUND),
    ];
    refused_reads_store_nothing(&app, &refusals).await;
}

/// Opens the hidden table "rules" (a minute per step) and returns its invitation.
async fn open_rules_table(app: &Router) -> Value {
    let open = json!({"manifest": manifest(), "step_seconds": 60});
    let (code, inv) = json_call(app, "POST", "/api/hidden", Some(ADMIN), open).await;
    assert_eq!(code, StatusCode::CREATED, "{inv}");
    inv
}

/// Each read of `refusals` is refused with its status and a JSON error, and
/// the table "rules" still holds only its opening entry.
async fn refused_reads_store_nothing(app: &Router, refusals: &[(&str, Option<&str>, StatusCode)]) {
    for &(path, token, want) in refusals {
        let (code, answer) = json_call(app, "GET", path, token, Value::Null).await;
        assert_eq!(code, want, "{path}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (_, status) = json_call(app, "GET", "/api/hidden/rules", None, Value::Null).await;
    assert_eq!(status["entries"], 1, "a check stores nothing: {status}");
}
