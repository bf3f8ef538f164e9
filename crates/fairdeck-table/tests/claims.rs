//! Issue 32, items 9 and 10 through the HTTP API in process (a real SQLite
//! file): a seat is claimed on one device and another device with the same
//! link can neither see nor act for it; the operator re-issues a seat's link
//! before the commitments close and is refused after; claims survive a
//! restart; the operator's status poll carries no hole card and answers an
//! unchanged table with 304; the audit still checks the whole history.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use common::{ADMIN, HOST, app, commitment, device, holdem, seed};

/// One request with what a client may show: a token, a device secret,
/// an `If-None-Match`.
#[derive(Default, Clone, Copy)]
struct Shows<'a> {
    token: Option<&'a str>,
    device: Option<&'a str>,
    if_none_match: Option<&'a str>,
}

fn token(t: &str) -> Shows<'_> {
    Shows {
        token: Some(t),
        ..Shows::default()
    }
}

fn seat<'a>(t: &'a str, d: &'a str) -> Shows<'a> {
    Shows {
        token: Some(t),
        device: Some(d),
        ..Shows::default()
    }
}

/// Sends one request; the status, the headers and the body as text.
async fn send(
    app: &Router,
    method: &str,
    path: &str,
    shows: Shows<'_>,
    body: Option<Value>,
) -> (StatusCode, HeaderMap, String) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if let Some(t) = shows.token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if let Some(d) = shows.device {
        req = req.header("Fairdeck-Device", d);
    }
    if let Some(tag) = shows.if_none_match {
        req = req.header(header::IF_NONE_MATCH, tag);
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let answer = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let (status, headers) = (answer.status(), answer.headers().clone());
    let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22)
        .await
        .unwrap();
    (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
}

/// [`send`]'s status and JSON body.
async fn call(
    app: &Router,
    method: &str,
    path: &str,
    shows: Shows<'_>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, text) = send(app, method, path, shows, body).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Opens hold'em table `id` of `players`; the operator's and seats' tokens.
async fn open(app: &Router, id: &str, players: usize) -> (String, Vec<String>) {
    let request = serde_json::to_value(common::request(&holdem(id, players))).unwrap();
    let (status, inv) = call(app, "POST", "/api/tables", token(ADMIN), Some(request)).await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let seats = inv["seats"].as_array().unwrap();
    let seats = seats.iter().map(|t| t.as_str().unwrap().into()).collect();
    (inv["operator"].as_str().unwrap().into(), seats)
}

fn claim_body(d: &str) -> Option<Value> {
    Some(json!({ "device": d }))
}

fn commit_body(id: &str, players: usize, i: usize) -> Option<Value> {
    Some(json!({ "commitment": commitment(&holdem(id, players), i) }))
}

#[tokio::test]
async fn a_seat_claimed_on_one_device_refuses_every_other() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (_, seats) = open(&app, "c1", 2).await;
    let (phone, laptop) = (device(0), device(9));
    let path = "/api/tables/c1/seats/0";
    // Unclaimed: the link may look, but not commit; the view says unclaimed.
    let (status, view) = call(&app, "GET", path, seat(&seats[0], laptop), None).await;
    assert_eq!(
        (status, &view["seats"][0]["claimed"]),
        (StatusCode::OK, &json!(false))
    );
    let commit = format!("{path}/commit");
    let (status, e) = call(
        &app,
        "POST",
        &commit,
        seat(&seats[0], phone),
        commit_body("c1", 2, 0),
    )
    .await;
    assert_eq!(
        (status, &e["parameter"]),
        (StatusCode::CONFLICT, &json!("device")),
        "{e}"
    );
    assert!(e["error"].as_str().unwrap().contains("not claimed"), "{e}");
    // A device secret that is not 64 lowercase hex digits is refused.
    for bad in ["", "ab", &"A".repeat(64)] {
        let (status, e) = call(
            &app,
            "POST",
            &format!("{path}/claim"),
            token(&seats[0]),
            claim_body(bad),
        )
        .await;
        assert_eq!(
            (status, &e["parameter"]),
            (StatusCode::BAD_REQUEST, &json!("device")),
            "{e}"
        );
    }
    // The phone claims; claiming again from it changes nothing.
    let claim = format!("{path}/claim");
    for _ in 0..2 {
        let (status, view) = call(&app, "POST", &claim, token(&seats[0]), claim_body(phone)).await;
        assert_eq!(
            (status, &view["seats"][0]["claimed"]),
            (StatusCode::OK, &json!(true)),
            "{view}"
        );
    }
    // The laptop (or no device at all) is told the seat is claimed elsewhere.
    for other in [Some(laptop), None] {
        let shows = Shows {
            device: other,
            ..token(&seats[0])
        };
        for (method, route, body) in [
            ("GET", path.to_string(), None),
            ("POST", commit.clone(), commit_body("c1", 2, 0)),
            ("POST", claim.clone(), claim_body(laptop)),
        ] {
            let (status, e) = call(&app, method, &route, shows, body).await;
            assert_eq!(status, StatusCode::CONFLICT, "{route}: {e}");
            assert_eq!(
                e["error"],
                json!("this seat is already claimed on another device")
            );
            assert_eq!(e["parameter"], json!("device"));
        }
    }
    // The phone commits; seat 1's token with the phone's secret is still seat 1's business.
    let (status, _) = call(
        &app,
        "POST",
        &commit,
        seat(&seats[0], phone),
        commit_body("c1", 2, 0),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&app, "GET", path, seat(&seats[1], phone), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The secret is never echoed back.
    let (_, _, text) = send(&app, "GET", path, seat(&seats[0], phone), None).await;
    assert!(!text.contains(phone));
}

#[tokio::test]
async fn the_operator_reissues_a_link_until_the_commitments_close() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (op, seats) = open(&app, "r1", 2).await;
    // The operator's browser opened seat 0's link first and claimed and committed.
    let claim = "/api/tables/r1/seats/0/claim";
    let commit = "/api/tables/r1/seats/0/commit";
    call(&app, "POST", claim, token(&seats[0]), claim_body(device(7))).await;
    let (status, _) = call(
        &app,
        "POST",
        commit,
        seat(&seats[0], device(7)),
        commit_body("r1", 2, 0),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Only the operator re-issues.
    let reissue = "/api/tables/r1/seats/0/reissue";
    let (status, _) = call(&app, "POST", reissue, token(&seats[0]), Some(json!({}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, fresh) = call(&app, "POST", reissue, token(&op), Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    assert_eq!((&fresh["table"], &fresh["seat"]), (&json!("r1"), &json!(0)));
    let fresh = fresh["token"].as_str().unwrap().to_string();
    assert_ne!(fresh, seats[0]);
    // The old link is refused; the claim and the commitment are gone.
    let (status, _) = call(
        &app,
        "GET",
        "/api/tables/r1/seats/0",
        seat(&seats[0], device(7)),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, public) = call(&app, "GET", "/api/tables/r1", Shows::default(), None).await;
    assert_eq!(public["seats"][0]["claimed"], json!(false));
    assert_eq!(public["seats"][0]["commitment"], Value::Null);
    // The player claims on their own device with the new link and commits.
    let (status, _) = call(&app, "POST", claim, token(&fresh), claim_body(device(0))).await;
    assert_eq!(status, StatusCode::OK);
    for (i, t) in [(0, fresh.as_str()), (1, seats[1].as_str())] {
        if i == 1 {
            call(
                &app,
                "POST",
                "/api/tables/r1/seats/1/claim",
                token(t),
                claim_body(device(1)),
            )
            .await;
        }
        let path = format!("/api/tables/r1/seats/{i}/commit");
        let (status, e) = call(
            &app,
            "POST",
            &path,
            seat(t, device(i)),
            commit_body("r1", 2, i),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{e}");
    }
    // Every seat committed: the commitments are closed, no link is re-issued.
    let (status, e) = call(&app, "POST", reissue, token(&op), Some(json!({}))).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("re-issue a seat link"),
        "{e}"
    );
    assert!(e["error"].as_str().unwrap().contains("revealing"), "{e}");
    for i in 0..2 {
        let t = if i == 0 {
            fresh.as_str()
        } else {
            seats[1].as_str()
        };
        let path = format!("/api/tables/r1/seats/{i}/reveal");
        let body = Some(json!({ "seed": seed("r1", i) }));
        assert_eq!(
            call(&app, "POST", &path, seat(t, device(i)), body).await.0,
            StatusCode::OK
        );
    }
    // The history, re-issue and all, audits; the reissue is in the log.
    let (status, audit) = call(&app, "GET", "/api/tables/r1/audit", token(&op), None).await;
    assert_eq!(status, StatusCode::OK, "{audit}");
    // created, claim, commit, re-issue, 2 claims, 2 commitments, 2 reveals
    assert_eq!(audit["entries"], json!(10), "{audit}");
}

#[tokio::test]
async fn a_link_is_not_reissued_after_the_commit_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let store = fairdeck_table::SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let mut room = fairdeck_table::Room::new(store);
    let m = holdem("late", 2);
    let inv = room.open_table(&common::request(&m), common::T0).unwrap();
    let op = Some(inv.operator.as_str());
    let deadline = common::T0 + 600;
    room.reissue(&m.table, op, 1, deadline).unwrap();
    assert!(matches!(
        room.reissue(&m.table, op, 1, deadline + 1),
        Err(fairdeck_table::Error::Late { .. })
    ));
    assert!(matches!(
        room.reissue(&m.table, op, 2, deadline),
        Err(fairdeck_table::Error::Invalid {
            parameter: "seat",
            ..
        })
    ));
}

#[tokio::test]
async fn claims_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (_, seats) = {
        let app = app(&dir);
        let opened = open(&app, "k1", 2).await;
        let claim = "/api/tables/k1/seats/1/claim";
        assert_eq!(
            call(
                &app,
                "POST",
                claim,
                token(&opened.1[1]),
                claim_body(device(1))
            )
            .await
            .0,
            StatusCode::OK
        );
        opened
    };
    // A new service over the same file: the claim holds.
    let app = app(&dir);
    let path = "/api/tables/k1/seats/1";
    let (status, e) = call(&app, "GET", path, seat(&seats[1], device(5)), None).await;
    assert_eq!(
        (status, &e["parameter"]),
        (StatusCode::CONFLICT, &json!("device")),
        "{e}"
    );
    let (status, view) = call(&app, "GET", path, seat(&seats[1], device(1)), None).await;
    assert_eq!(
        (status, &view["seats"][1]["claimed"]),
        (StatusCode::OK, &json!(true))
    );
}

#[tokio::test]
async fn the_operator_status_has_no_hole_card_and_answers_304_when_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir);
    let (op, seats) = open(&app, "s1", 3).await;
    let status_path = "/api/tables/s1/operator/status";
    let (status, headers, body) = send(&app, "GET", status_path, token(&op), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let first = headers[header::ETAG].to_str().unwrap().to_string();
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    let view: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(view["version"], json!(0));
    assert_eq!(view["commitment"].as_str().unwrap().len(), 64);
    // Unchanged: 304, no body. A seat's token is refused, tag or not.
    let unchanged = Shows {
        if_none_match: Some(&first),
        ..token(&op)
    };
    let (status, headers, body) = send(&app, "GET", status_path, unchanged, None).await;
    assert_eq!((status, body.as_str()), (StatusCode::NOT_MODIFIED, ""));
    assert_eq!(headers[header::ETAG].to_str().unwrap(), first);
    let as_seat = Shows {
        if_none_match: Some(&first),
        ..token(&seats[0])
    };
    assert_eq!(
        send(&app, "GET", status_path, as_seat, None).await.0,
        StatusCode::FORBIDDEN
    );
    // Play to the deal: the tag changes with every change.
    for change in ["claim", "commit", "reveal"] {
        for (i, t) in seats.iter().enumerate() {
            let body = match change {
                "claim" => claim_body(device(i)),
                "commit" => commit_body("s1", 3, i),
                _ => Some(json!({ "seed": seed("s1", i) })),
            };
            let path = format!("/api/tables/s1/seats/{i}/{change}");
            assert_eq!(
                call(&app, "POST", &path, seat(t, device(i)), body).await.0,
                StatusCode::OK
            );
        }
    }
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables/s1/deal",
            token(&op),
            Some(json!({}))
        )
        .await
        .0,
        StatusCode::OK
    );
    let (status, headers, body) = send(&app, "GET", status_path, unchanged, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::ETAG].to_str().unwrap(),
        "\"10\"",
        "created, 3 × 3 changes, dealt"
    );
    let view: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        view["lock"].as_str().unwrap().len(),
        64,
        "L is in the status"
    );
    // Every hole card is in the on-demand view, none in the status.
    let (_, deals) = call(&app, "GET", "/api/tables/s1/operator", token(&op), None).await;
    let piles = deals["deals"][0]["piles"].as_array().unwrap();
    let holes: Vec<String> = piles
        .iter()
        .filter(|p| p["role"] == json!("player"))
        .flat_map(|p| p["cards"].as_array().unwrap().iter().map(|c| c.to_string()))
        .collect();
    assert_eq!(holes.len(), 6);
    assert!(body.len() < 2048, "a small status: {} bytes", body.len());
    for card in &holes {
        assert!(
            !body.contains(card.as_str()),
            "the status carries {card}: {body}"
        );
    }
    assert!(view.get("deals").is_none());
    // Until the close another device may not look at a seat; after it, it
    // may (everything is public then), and still may not act.
    let elsewhere = seat(&seats[0], device(9));
    let look = "/api/tables/s1/seats/0";
    assert_eq!(
        call(&app, "GET", look, elsewhere, None).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        call(
            &app,
            "POST",
            "/api/tables/s1/close",
            token(&op),
            Some(json!({}))
        )
        .await
        .0,
        StatusCode::OK
    );
    let (status, view) = call(&app, "GET", look, elsewhere, None).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["hands"][0]["cards"].as_array().unwrap().len(), 2);
    let claim = call(
        &app,
        "POST",
        "/api/tables/s1/seats/0/claim",
        token(&seats[0]),
        claim_body(device(9)),
    );
    assert_eq!(claim.await.0, StatusCode::CONFLICT);
}
