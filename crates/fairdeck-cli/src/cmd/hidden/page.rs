//! `fairdeck hidden seat --link URL --page`: the browser seat of a hidden
//! table, served on loopback from the player's own binary, so that the
//! room serves no code the seat runs (§11 of `docs/hidden-dealing.md`).
//!
//! The local server answers the seat page's files from the page assets
//! compiled into this binary (the same files and rule as the table
//! service's, [`fairdeck_table::service::page_file`]), and passes the
//! page's calls to the seat API of the link's one table on to the room,
//! JSON in and JSON out: a room's answer that is not JSON never reaches
//! the page, and nothing from the room is served as a page or a script.
//! On the way it keeps what the room signed for this seat (the receipts
//! in the answers to its posts and the heads of the transcripts it was
//! served, §19) in the seat's evidence file, for `fair verify --evidence`:
//! they outlive the browser tab.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use fairdeck_client::wire::evidence_in;
use fairdeck_client::{Client, Link};
use fairdeck_hidden::Table;
use fairdeck_hidden::head::Evidence;
use fairdeck_hidden::ledger::evidence_signed;
use fairdeck_hidden::record::{MAX_BYTES, Record};
use fairdeck_hidden::signature::Context;
use fairdeck_hidden::wire::Hex32;
use fairdeck_http::access::Access;
use fairdeck_http::error::ApiError;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::failure::{note, usage};

/// The largest post passed on (the room sets its own, smaller limits).
const MAX_POST_BYTES: usize = 16 << 20;

/// What `/table/served-by.js` says on the page this binary serves.
const SERVED_BY: &str = "// Served by `fairdeck hidden seat --page`: the player's own fairdeck.\n\
                         export const servedBy = 'player';\n";

/// The seat's side of the room: where to pass calls on, and what the room
/// signed for this seat so far.
struct Relay {
    link: Link,
    /// The table's signing context and room key (version 3.1), read from
    /// the transcript served at the start: evidence is kept only when the
    /// room signed it under that key.
    room: Option<(Context, Hex32)>,
    evidence: Mutex<Vec<Evidence>>,
    file: PathBuf,
}

impl Relay {
    /// The path prefix of the link's table in the seat API.
    fn base(&self) -> String {
        format!("/api/hidden/{}", self.link.table)
    }

    /// Keeps new room-signed items and rewrites the evidence file.
    fn keep(&self, items: Vec<Evidence>) {
        let Some((ctx, room)) = &self.room else {
            return;
        };
        let mut kept = self.evidence.lock().unwrap_or_else(|e| e.into_inner());
        let before = kept.len();
        for item in items {
            if evidence_signed(ctx, room, &item).is_ok() && !kept.contains(&item) {
                kept.push(item);
            }
        }
        if kept.len() == before {
            return;
        }
        let text = serde_json::to_string_pretty(&*kept).unwrap_or_default() + "\n";
        if let Err(e) = std::fs::write(&self.file, text) {
            note(format_args!(
                "cannot write the seat's evidence to {}: {e}",
                self.file.display()
            ));
        }
    }
}

/// A JSON error answer.
fn refuse(status: StatusCode, why: impl Into<String>) -> Response {
    ApiError::bad(why, None).with_status(status).into_response()
}

/// Whether `query` is one the seat page sends (`hand=N`) or none.
fn query_ok(query: Option<&str>) -> bool {
    match query {
        None => true,
        Some(q) => q.strip_prefix("hand=").is_some_and(|n| {
            !n.is_empty() && n.len() <= 20 && n.bytes().all(|b| b.is_ascii_digit())
        }),
    }
}

/// Whether `rest` (the path after the table's prefix) is one of the seat
/// API's: plain segments of letters, digits, `-` and `_`.
fn rest_ok(rest: &str) -> bool {
    rest.is_empty()
        || rest.strip_prefix('/').is_some_and(|r| {
            r.split('/').all(|s| {
                !s.is_empty()
                    && s.len() <= 64
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        })
}

async fn handle(
    State(relay): State<Arc<Relay>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let path = uri.path();
    if !path.starts_with("/api/") {
        return page_file(path, &method);
    }
    let base = relay.base();
    let rest = path.strip_prefix(&base);
    if !rest.is_some_and(rest_ok) || !query_ok(uri.query()) {
        return refuse(
            StatusCode::NOT_FOUND,
            format!(
                "this seat page passes on only the seat API of table {}",
                relay.link.table
            ),
        );
    }
    let body = match method {
        Method::GET => None,
        Method::POST => match fairdeck_http::body::json::<Value>(body, MAX_POST_BYTES).await {
            Ok(value) => Some(value),
            Err(e) => return e.into_response(),
        },
        _ => {
            return refuse(
                StatusCode::METHOD_NOT_ALLOWED,
                "only GET and POST are passed on",
            );
        }
    };
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    let target = uri
        .path_and_query()
        .map_or(path, |pq| pq.as_str())
        .to_string();
    pass_on(&relay, method, target, token, body).await
}

/// A page file of the seat page (the table service's, and the line that
/// names who serves it), for GET and HEAD only.
fn page_file(path: &str, method: &Method) -> Response {
    let get = matches!(*method, Method::GET | Method::HEAD);
    let file = match path {
        "/table/served-by.js" => Some(("text/javascript; charset=utf-8", SERVED_BY.as_bytes())),
        _ => fairdeck_table::service::page_file(path),
    };
    match file {
        Some((kind, bytes)) if get => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        _ => refuse(StatusCode::NOT_FOUND, "no such page"),
    }
}

/// Passes one seat API call on to the room and its answer back, keeping
/// the receipts and signed heads of a successful answer.
async fn pass_on(
    relay: &Relay,
    method: Method,
    target: String,
    token: Option<String>,
    body: Option<Value>,
) -> Response {
    let addr = relay.link.addr.clone();
    let posted = body.is_some();
    let answer = tokio::task::spawn_blocking(move || {
        let mut client = Client::new(&addr).with_max_answer(MAX_BYTES + 4096);
        client.call(method.as_str(), &target, token.as_deref(), body.as_ref())
    })
    .await;
    let (code, value) = match answer {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            return refuse(
                StatusCode::BAD_GATEWAY,
                format!("the room at {} did not answer: {e}", relay.link.addr),
            );
        }
        Err(_) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "the call was cancelled"),
    };
    if code == 200 {
        relay.keep(evidence_in(&value, posted));
    }
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_GATEWAY);
    (status, axum::Json(value)).into_response()
}

/// The loopback address the page is served on by default: a port fixed by
/// the room, table and seat, so that a restart serves the page at the same
/// origin and the browser finds the seat's key it kept there.
fn default_bind(link: &Link) -> SocketAddr {
    let tag = format!("{}\n{}\n{}", link.addr, link.table, link.seat);
    let digest = Sha256::digest(tag.as_bytes());
    let port = 20_000 + u16::from_be_bytes([digest[0], digest[1]]) % 30_000;
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// The signing context of the link's table (version 3.1), from the
/// transcript the room serves now; `None` for a version-3 table.
fn room_of(client: &mut Client, link: &Link) -> anyhow::Result<Option<(Context, Hex32)>> {
    let path = format!("/api/hidden/{}/transcript", link.table);
    let (code, value) = client
        .call("GET", &path, None, None)
        .map_err(|e| anyhow::anyhow!("cannot reach the room at {}: {e}", link.addr))?;
    if code != 200 {
        let why = value["error"].as_str().unwrap_or("");
        return Err(usage(format!(
            "--link: the room answered {code} for table {}: {why}",
            link.table
        )));
    }
    let record = Record::from_json(&value.to_string())
        .map_err(|e| anyhow::anyhow!("the served transcript: {e}"))?;
    let Some(room) = record.room else {
        return Ok(None);
    };
    let table =
        Table::new(record.manifest).map_err(|e| anyhow::anyhow!("the served transcript: {e}"))?;
    Ok(Some((Context::new(&table, Some(&room)), room)))
}

/// Runs `fairdeck hidden seat --page`: serves the seat page until Ctrl-C.
pub(super) fn run(
    link: Link,
    bind: Option<SocketAddr>,
    evidence: PathBuf,
) -> anyhow::Result<ExitCode> {
    if !fairdeck_table::service::browser_seat() {
        return Err(anyhow::anyhow!(
            "this fairdeck was built without the browser seat (its WebAssembly module): add the target with `rustup target add wasm32-unknown-unknown` and build again"
        ));
    }
    let bind = bind.unwrap_or_else(|| default_bind(&link));
    if !bind.ip().is_loopback() {
        return Err(usage(format!(
            "--page-bind: {bind} is not a loopback address (the seat page holds the seat's key)"
        )));
    }
    let mut client = Client::new(&link.addr).with_max_answer(MAX_BYTES + 4096);
    let room = room_of(&mut client, &link)?;
    let table = link.table.clone();
    let (seat, token) = (link.seat, link.token.clone());
    let relay = Arc::new(Relay {
        link,
        room,
        evidence: Mutex::new(Vec::new()),
        file: evidence,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| {
            anyhow::anyhow!(
                "cannot serve the seat page on {bind}: {e} (choose another address with --page-bind; the browser keeps the seat's key for each address)"
            )
        })?;
        let local = listener.local_addr()?;
        let url = format!(
            "http://{local}/table/hidden.html#table={table}&seat={seat}&token={token}"
        );
        let mut out = std::io::stdout().lock();
        writeln!(out, "seat {seat}: open {url}")?;
        out.flush()?;
        drop(out);
        note(format_args!(
            "the seat page is served from this fairdeck on {local}; the room's receipts go to {}; press Ctrl-C to stop",
            relay.file.display()
        ));
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(relay)
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(Access::new(local, Vec::new())),
                fairdeck_http::access::guard,
            ));
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        fairdeck_http::connection::serve(listener, app, shutdown).await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_seat_apis_paths_and_queries_pass() {
        assert!(rest_ok(""));
        assert!(rest_ok("/transcript"));
        assert!(rest_ok("/seats/2/shuffle"));
        for bad in ["/", "//x", "/../x", "/a b", "/seats/%2e%2e", "x"] {
            assert!(!rest_ok(bad), "{bad}");
        }
        assert!(query_ok(None));
        assert!(query_ok(Some("hand=12")));
        for bad in ["", "hand=", "hand=1&x=2", "hand=-1", "x=1"] {
            assert!(!query_ok(Some(bad)), "{bad}");
        }
    }

    #[test]
    fn the_default_address_is_loopback_and_fixed_by_the_seat() {
        let link = |seat| Link {
            addr: "127.0.0.1:8090".into(),
            table: "t".into(),
            seat,
            token: "x".into(),
        };
        let a = default_bind(&link(0));
        assert!(a.ip().is_loopback());
        assert_eq!(a, default_bind(&link(0)));
        assert_ne!(a, default_bind(&link(1)));
        assert!((20_000..50_000).contains(&a.port()));
    }
}
