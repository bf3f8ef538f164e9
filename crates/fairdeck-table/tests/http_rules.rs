//! The HTTP API's rules, in process: every refusal is JSON (405, a seat
//! that is not a number), table ids the page's pattern takes and nothing
//! else, answers for one token's holder are never stored by a cache, and
//! the `Bearer` scheme is matched without regard to case.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode, header};
use fairdeck_table::TABLE_ID_PATTERN;
use serde_json::{Value, json};
use tower::ServiceExt;

use common::{ADMIN, HOST, app};

/// One request with an `Authorization` header as given.
async fn send(
    app: &Router,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: Option<Value>,
) -> Response<Body> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if let Some(a) = auth {
        req = req.header(header::AUTHORIZATION, a);
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    app.clone().oneshot(req.body(body).unwrap()).await.unwrap()
}

/// The status, the `Cache-Control` header and the JSON body (`Null` when not JSON).
async fn parts(answer: Response<Body>) -> (StatusCode, String, Value) {
    let status = answer.status();
    let cache = answer
        .headers()
        .get(header::CACHE_CONTROL)
        .map_or(String::new(), |v| v.to_str().unwrap().to_string());
    let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22)
        .await
        .unwrap();
    (
        status,
        cache,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn new_table(id: &str) -> Value {
    serde_json::to_value(common::request(&common::holdem(id, 2))).unwrap()
}

async fn open(app: &Router, id: &str) -> (StatusCode, String, Value) {
    let auth = format!("Bearer {ADMIN}");
    parts(send(app, "POST", "/api/tables", Some(&auth), Some(new_table(id))).await).await
}

#[tokio::test]
async fn every_refusal_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    assert_eq!(open(&app, "j1").await.0, StatusCode::CREATED);
    for (method, path, status) in [
        ("DELETE", "/api/tables/j1", StatusCode::METHOD_NOT_ALLOWED),
        ("GET", "/api/tables/j1/deal", StatusCode::METHOD_NOT_ALLOWED),
        ("PUT", "/api/tables", StatusCode::METHOD_NOT_ALLOWED),
        ("GET", "/api/tables/j1/seats/abc", StatusCode::BAD_REQUEST),
        ("GET", "/api/tables/j1/seats/-1", StatusCode::BAD_REQUEST),
    ] {
        let (got, _, body) = parts(send(&app, method, path, Some("Bearer x"), None).await).await;
        assert_eq!(got, status, "{method} {path}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(!error.is_empty(), "{method} {path}: {body}");
        if status == StatusCode::BAD_REQUEST {
            assert_eq!(body["parameter"], "seat", "{body}");
        } else {
            assert!(error.contains("method not allowed"), "{error}");
        }
    }
    let answer = send(&app, "DELETE", "/api/tables/j1", None, None).await;
    assert!(answer.headers().contains_key(header::ALLOW));
}

#[tokio::test]
async fn table_ids_follow_the_pages_pattern() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    for bad in ["..", "a/b?c#d", ".x", "-x", "a b", "%2e%2e"] {
        let (status, _, body) = open(&app, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert_eq!(body["parameter"], "table", "{bad}: {body}");
    }
    assert_eq!(open(&app, "room-1.table_2").await.0, StatusCode::CREATED);
    // The page that opens tables checks the very same pattern.
    let page = fairdeck_pages::find("/table/index.html").unwrap();
    let page = String::from_utf8_lossy(page);
    assert!(
        page.contains(&format!("pattern=\"{TABLE_ID_PATTERN}\"")),
        "the page's table id pattern is not the service's"
    );
}

#[tokio::test]
async fn answers_for_one_holder_are_not_stored_and_bearer_is_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (status, cache, inv) = open(&app, "c1").await;
    assert_eq!((status, cache.as_str()), (StatusCode::CREATED, "no-store"));
    let seat = inv["seats"][0].as_str().unwrap();
    let op = inv["operator"].as_str().unwrap();
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let auth = format!("{scheme} {seat}");
        let (status, cache, _) =
            parts(send(&app, "GET", "/api/tables/c1/seats/0", Some(&auth), None).await).await;
        assert_eq!(
            (status, cache.as_str()),
            (StatusCode::OK, "no-store"),
            "{scheme}"
        );
    }
    let auth = format!("bearer {op}");
    let (status, cache, _) =
        parts(send(&app, "GET", "/api/tables/c1/operator", Some(&auth), None).await).await;
    assert_eq!((status, cache.as_str()), (StatusCode::OK, "no-store"));
    let auth = format!("Bearer {seat}");
    let claim = json!({ "device": common::device(0) });
    let claimed = send(
        &app,
        "POST",
        "/api/tables/c1/seats/0/claim",
        Some(&auth),
        Some(claim),
    );
    let (status, cache, _) = parts(claimed.await).await;
    assert_eq!((status, cache.as_str()), (StatusCode::OK, "no-store"));
    let commit = json!({ "commitment": common::commitment(&common::holdem("c1", 2), 0) });
    let req = Request::builder()
        .method("POST")
        .uri("/api/tables/c1/seats/0/commit")
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, &auth)
        .header(header::CONTENT_TYPE, "application/json")
        .header("Fairdeck-Device", common::device(0));
    let req = req.body(Body::from(commit.to_string())).unwrap();
    let (status, cache, _) = parts(app.clone().oneshot(req).await.unwrap()).await;
    assert_eq!((status, cache.as_str()), (StatusCode::OK, "no-store"));
    // The public view holds no secret: it may be revalidated, as before.
    let (status, cache, _) = parts(send(&app, "GET", "/api/tables/c1", None, None).await).await;
    assert_eq!((status, cache.as_str()), (StatusCode::OK, "no-cache"));
    // Another scheme is no token at all.
    let auth = format!("Basic {seat}");
    let (status, _, _) =
        parts(send(&app, "GET", "/api/tables/c1/seats/0", Some(&auth), None).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_hidden_seat_page_and_the_browser_seat_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let mut served = vec![
        ("/table/hidden.html", "text/html"),
        ("/table/hidden.js", "javascript"),
        ("/js/hidden/seat.js", "javascript"),
    ];
    // The module is embedded only when fairdeck was built with the wasm32 target.
    if fairdeck_pages::find("/js/hidden/seat.wasm").is_some() {
        served.push(("/js/hidden/seat.wasm", "application/wasm"));
    }
    for (path, kind) in served {
        let answer = send(&app, "GET", path, None, None).await;
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
        let content = answer.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content.contains(kind), "{path}: {content}");
    }
    // The rest of the main page's scripts stay unserved here.
    let answer = send(&app, "GET", "/js/app.js", None, None).await;
    assert_eq!(answer.status(), StatusCode::NOT_FOUND);
}
