//! The HTTP JSON API of `fairdeck table serve`, on the stack of
//! [`fairdeck_http`] (Host checked against the bound address, state-changing
//! requests only as JSON, slow clients cut off, every size bounded, every
//! error a JSON object).
//!
//! | route | who | what |
//! |---|---|---|
//! | `POST /api/tables` | the service's admin token | open a table from a [`NewTable`]; answers the [`Invitation`](crate::Invitation) (tokens shown once) |
//! | `GET /api/tables/{id}` | anyone | the [`PublicView`](crate::PublicView) |
//! | `GET /api/tables/{id}/operator/status` | the table's operator | the [`OperatorStatus`](crate::OperatorStatus) (no hole card), with an `ETag`: `If-None-Match` of an unchanged table answers 304 |
//! | `GET /api/tables/{id}/operator` | the table's operator | the [`OperatorView`](crate::OperatorView): every deal, on demand |
//! | `GET /api/tables/{id}/seats/{seat}` | that seat, from its device | the [`SeatView`](crate::SeatView): its own cards only |
//! | `POST /api/tables/{id}/seats/{seat}/claim` | that seat | `{"device"}`: binds the seat to this device ([`Room::claim`]) |
//! | `POST /api/tables/{id}/seats/{seat}/commit` | that seat, from its device | `{"commitment"}` |
//! | `POST /api/tables/{id}/seats/{seat}/reveal` | that seat, from its device | `{"seed"}` |
//! | `POST /api/tables/{id}/seats/{seat}/reissue` | operator | before the commitments close: a new token for the seat ([`Room::reissue`]) |
//! | `POST /api/tables/{id}/deal` | operator | deal every deal (`{}`) |
//! | `POST /api/tables/{id}/release` | operator | `{"deal", "street"[, "seat"]}` |
//! | `POST /api/tables/{id}/close` | operator | reveal S; the transcript becomes public |
//! | `POST /api/tables/{id}/void` | operator | after a deadline: name the late seats |
//! | `GET /api/tables/{id}/audit` | operator | check the stored history ([`Store::audit`]) |
//! | `/api/hidden/…` | | hidden (version-3) tables: [`hidden`] |
//!
//! Tokens travel as `Authorization: Bearer TOKEN` (the scheme in any case);
//! a seat's device secret as the `Fairdeck-Device` header ([`DEVICE_HEADER`])
//! on every seat request (in the body of the claim). Neither is logged.
//! 401 and 403 answers say no more than that (no hint which token would
//! do); answers for one token's holder carry `Cache-Control: no-store`;
//! every refusal, axum's own included, is a JSON object. Each change is one
//! call of [`Room`] on a blocking thread, behind one lock: SQLite has one
//! writer anyway, and several service processes share a PostgreSQL
//! database through its row locks. A `GET` reads only the table's row under
//! that lock and renders its view outside it; the public view is kept
//! rendered per table version ([`PublicCache`]). The audit reads the log
//! under the lock and replays it outside.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use fairdeck_http::access::{self, Access};
use fairdeck_http::error::ApiError;
use serde::Serialize;

pub mod hidden;
mod operator;
mod refusals;
mod seat;
mod views;

pub use seat::DEVICE_HEADER;
pub use views::{MAX_CACHED, PublicCache};

use crate::token::TokenHash;
use crate::{Error, NewTable, Refusal, ReleaseRequest, Room, Store};

/// Largest request body: a manifest of many seats and boards fits easily.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The service's state: the room, the admin token's hash, and the public
/// views rendered so far.
pub struct Service<S: Store> {
    room: Mutex<Room<S>>,
    admin: TokenHash,
    public: PublicCache,
    /// Hidden tables' boards, replayed once and brought up to date.
    hidden: crate::hidden::store::BoardCache,
}

impl<S: Store + Send + 'static> Service<S> {
    /// A service over `store`, opening tables for whoever shows `admin_token`.
    pub fn new(store: S, admin_token: &str) -> Arc<Self> {
        Arc::new(Service {
            room: Mutex::new(Room::new(store)),
            admin: TokenHash::of(admin_token),
            public: PublicCache::default(),
            hidden: crate::hidden::store::BoardCache::awake_since(now()),
        })
    }

    /// The table's stored snapshot: the one thing a `GET` reads under the lock.
    async fn snapshot(self: &Arc<Self>, id: String) -> Result<crate::Snapshot, ApiError> {
        self.with(move |room| room.store().load(&id)).await
    }

    /// Runs `f` with the room on a blocking thread.
    async fn with<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Room<S>) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, ApiError> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut room = me.room.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut room)
        })
        .await
        .map_err(|_| ApiError::internal("the request failed"))?
        .map_err(refused)
    }
}

/// A table error as the answer a client sees.
fn refused(e: Error) -> ApiError {
    let (status, text) = match e.refusal() {
        Refusal::BadRequest => (StatusCode::BAD_REQUEST, e.to_string()),
        Refusal::Unauthenticated => (StatusCode::UNAUTHORIZED, "a token is required".into()),
        Refusal::Forbidden => (
            StatusCode::FORBIDDEN,
            "this token does not allow that".into(),
        ),
        Refusal::NotFound => (StatusCode::NOT_FOUND, e.to_string()),
        Refusal::Conflict => (StatusCode::CONFLICT, e.to_string()),
        Refusal::Internal => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Refusal::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let parameter = match &e {
        Error::Invalid { parameter, .. } => Some(*parameter),
        Error::ClaimedElsewhere | Error::Unclaimed => Some("device"),
        _ => None,
    };
    ApiError::bad(text, parameter).with_status(status)
}

/// The bearer token of a request, if it carries one (the scheme's name is
/// matched without regard to case, as RFC 9110 section 11.1 asks).
fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// A seat number from the path, or a JSON 400 naming `seat`.
fn seat_number(text: &str) -> Result<usize, ApiError> {
    text.parse().map_err(|_| {
        ApiError::bad(
            format!("invalid seat: {text:?} is not a seat number"),
            Some("seat"),
        )
    })
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn ok<T: Serialize>(status: StatusCode, value: T) -> Response {
    (status, axum::Json(value)).into_response()
}

/// An answer for one token's holder only: no cache may keep it (a seat's
/// cards, the operator's deals, tokens).
fn private<T: Serialize>(status: StatusCode, value: T) -> Response {
    let mut answer = ok(status, value);
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    answer
}

type Shared<S> = State<Arc<Service<S>>>;
type Answer = Result<Response, ApiError>;

async fn open_table<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    match bearer(&headers) {
        None => return Err(refused(Error::Unauthenticated)),
        Some(t) if !svc.admin.admits(&t) => return Err(refused(Error::Forbidden)),
        Some(_) => {}
    }
    let request: NewTable = fairdeck_http::body::json(body, MAX_BODY_BYTES).await?;
    let invitation = svc
        .with(move |room| room.open_table(&request, now()))
        .await?;
    Ok(private(StatusCode::CREATED, invitation))
}

async fn public<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
) -> Answer {
    let snapshot = svc.snapshot(id.clone()).await?;
    let seq = snapshot.seq;
    let json = match svc.public.get(&id, seq) {
        Some(json) => json,
        None => {
            let json = views::off_lock(move || views::public_json(&snapshot.state)).await?;
            svc.public.put(id, seq, json.clone());
            json
        }
    };
    let kind = header::HeaderValue::from_static("application/json");
    Ok(([(header::CONTENT_TYPE, kind)], json).into_response())
}

/// The operator's changes without a body of their own (`{}` is sent).
#[derive(Clone, Copy)]
enum Step {
    Deal,
    Close,
    Void,
}

async fn step<S: Store + Send + 'static>(
    svc: Arc<Service<S>>,
    id: String,
    headers: HeaderMap,
    body: Body,
    step: Step,
) -> Answer {
    let token = bearer(&headers);
    let _: serde::de::IgnoredAny = fairdeck_http::body::json(body, MAX_BODY_BYTES).await?;
    let view = svc
        .with(move |r| match step {
            Step::Deal => r.deal(&id, token.as_deref(), now()),
            Step::Close => r.close(&id, token.as_deref(), now()),
            Step::Void => r.void_late(&id, token.as_deref(), now()),
        })
        .await?;
    Ok(private(StatusCode::OK, view))
}

async fn release<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let token = bearer(&headers);
    let request: ReleaseRequest = fairdeck_http::body::json(body, MAX_BODY_BYTES).await?;
    let street = request.validate().map_err(refused)?;
    let view = svc
        .with(move |r| r.release(&id, token.as_deref(), request.deal, street, now()))
        .await?;
    Ok(private(StatusCode::OK, view))
}

/// The API's router, behind the access guard of `access`.
pub fn router<S: Store + Send + 'static>(svc: Arc<Service<S>>, access: Access) -> Router {
    let steps = |s: Step| {
        move |State(svc): Shared<S>, Path(id): Path<String>, headers: HeaderMap, body: Body| {
            step(svc, id, headers, body, s)
        }
    };
    Router::new()
        .route("/api/tables", post(open_table::<S>))
        .route("/api/tables/{id}", get(public::<S>))
        .route("/api/tables/{id}/operator", get(operator::deals::<S>))
        .route(
            "/api/tables/{id}/operator/status",
            get(operator::status::<S>),
        )
        .route("/api/tables/{id}/audit", get(operator::audit::<S>))
        .route("/api/tables/{id}/seats/{seat}", get(seat::view::<S>))
        .route(
            "/api/tables/{id}/seats/{seat}/claim",
            post(seat::claim::<S>),
        )
        .route(
            "/api/tables/{id}/seats/{seat}/commit",
            post(seat::commit::<S>),
        )
        .route(
            "/api/tables/{id}/seats/{seat}/reveal",
            post(seat::reveal::<S>),
        )
        .route(
            "/api/tables/{id}/seats/{seat}/reissue",
            post(operator::reissue::<S>),
        )
        .route("/api/tables/{id}/deal", post(steps(Step::Deal)))
        .route("/api/tables/{id}/close", post(steps(Step::Close)))
        .route("/api/tables/{id}/void", post(steps(Step::Void)))
        .route("/api/tables/{id}/release", post(release::<S>))
        .merge(hidden::routes::<S>())
        .fallback(pages)
        .with_state(svc)
        .layer(axum::middleware::from_fn(refusals::as_json))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(crate::limit::Refusals::default()),
            crate::limit::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(access),
            access::guard,
        ))
}

/// The files the table pages need, from the page files compiled in by
/// [`fairdeck_pages`]: the pages under `/table/` (`/` is the page that opens
/// a table), the card faces, the independent verifier, the browser seat of
/// hidden tables (`/table/hidden.html` runs it) and the style sheet.
/// Everything else is a JSON 404.
const SHARED: [&str; 8] = [
    "/js/cards.js",
    "/js/hidden/seat.js",
    SEAT_MODULE,
    "/js/fairspec.js",
    "/js/fairspec-decks.js",
    "/js/fairspec-json.js",
    "/js/fairspec-v2.js",
    "/style.css",
];

/// The browser seat's WebAssembly module, which a build without the
/// `wasm32-unknown-unknown` target lacks.
pub const SEAT_MODULE: &str = "/js/hidden/seat.wasm";

/// Whether this build serves browser seats of hidden tables (it has
/// [`SEAT_MODULE`]).
pub fn browser_seat() -> bool {
    page_file(SEAT_MODULE).is_some()
}

/// A file of the table pages: its content type and bytes, for a path the
/// pages use (`/` and `/table/` are the page that opens a table); `None`
/// for anything else. `fairdeck hidden seat --page` serves the seat page
/// from the player's own binary by the same rule.
pub fn page_file(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = match path {
        "/" | "/table" | "/table/" => "/table/index.html",
        p => p,
    };
    let page = path.starts_with("/table/") || SHARED.contains(&path);
    let bytes = fairdeck_pages::find(path).filter(|_| page && !path.starts_with("/api/"))?;
    Some((fairdeck_pages::content_type(path), bytes))
}

async fn pages(method: axum::http::Method, uri: axum::http::Uri) -> axum::response::Response {
    use axum::response::IntoResponse;
    match page_file(uri.path()) {
        Some((kind, bytes))
            if matches!(method, axum::http::Method::GET | axum::http::Method::HEAD) =>
        {
            ([(axum::http::header::CONTENT_TYPE, kind)], bytes).into_response()
        }
        _ => ApiError::bad("no such endpoint", None)
            .with_status(StatusCode::NOT_FOUND)
            .into_response(),
    }
}

/// Binds `bind` and serves until `shutdown` completes; `ready` gets the
/// address actually bound (port 0 picks one).
///
/// # Errors
///
/// When the address cannot be bound.
pub async fn serve<S: Store + Send + 'static>(
    svc: Arc<Service<S>>,
    bind: SocketAddr,
    allow_hosts: Vec<String>,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    let local = listener.local_addr()?;
    ready(local);
    let app = router(svc, Access::new(local, allow_hosts));
    fairdeck_http::connection::serve(listener, app, shutdown).await
}
