//! The HTTP routes of hidden tables, merged into the service's router (so
//! the same guards hold: Host checked, JSON-only changes, slow clients cut
//! off, refusals counted, every error JSON).
//!
//! | route | who | what |
//! |---|---|---|
//! | `POST /api/hidden` | the admin token | open a table from a [`NewHiddenTable`]; answers the [`HiddenInvitation`](crate::hidden::HiddenInvitation) (tokens shown once) |
//! | `GET /api/hidden/{id}` | anyone | the [`Status`] |
//! | `GET /api/hidden/{id}/transcript[?hand=N]` | anyone | the §14 transcript so far (with `hand`: the keys and that hand only); version 3.1: with the room's signed head of its whole log |
//! | `GET /api/hidden/{id}/operator` | the operator | the status, as `GET /api/hidden/{id}`: the operator's token is good (the operator page asks before it shows a step) |
//! | `GET /api/hidden/{id}/seats/{seat}` | that seat | the [`SeatLink`](crate::hidden::SeatLink): the link's token is good (a page asks before it makes a key) |
//! | `POST /api/hidden/{id}/seats/{seat}/key` | that seat | a key message |
//! | `POST /api/hidden/{id}/seats/{seat}/shuffle` | that seat | a shuffle message (bounded by the deck's size) |
//! | `POST /api/hidden/{id}/seats/{seat}/shares` | that seat | a list of share messages of one stage |
//! | `POST /api/hidden/{id}/seats/{seat}/attestation` | that seat | version 3.1, once the table is over: the seat's signature on the whole log it verified |
//! | `POST /api/hidden/{id}/advance` | the operator | an [`Advance`] |
//!
//! A message that fails its check is answered 422 with its failure `kind`
//! and the `seat` (and `hand`); one that is early, 409.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use fairdeck_http::error::ApiError;
use getrandom::SysRng;
use rand_core::UnwrapErr;
use serde::Serialize;

use super::{MAX_BODY_BYTES, Service, bearer, now, private, refused};
use crate::hidden::desk;
use crate::hidden::store::{BoardCache, HiddenStore, load};
use crate::hidden::{Advance, BoardStatus, NewHiddenTable, Post, Refused, Status};
use crate::{Error, Store};

/// The largest shuffle message body per card of the deck: a ciphertext
/// (two 64-digit points in JSON, about 140 bytes) and the proof's five
/// per-card lists (about 66 bytes each), with room for indentation.
pub const SHUFFLE_BYTES_PER_CARD: usize = 1024;
/// The largest share list body per card of the deck (a share message is
/// about 330 bytes).
pub const SHARE_BYTES_PER_CARD: usize = 768;
/// What every bound adds for the envelope.
const ENVELOPE_BYTES: usize = 4096;

type Shared<S> = State<Arc<Service<S>>>;
type Answer = Result<Response, Response>;

/// A refused message as JSON: `{"error", "parameter", "limit", "kind", "seat", "hand"}`.
#[derive(Serialize)]
struct MessageRefusal {
    error: String,
    parameter: Option<String>,
    limit: Option<String>,
    kind: &'static str,
    seat: u64,
    hand: Option<u64>,
}

fn answer(r: Refused) -> Response {
    match r {
        Refused::Message { error, seat, hand } => {
            let body = MessageRefusal {
                error: Refused::message(error.clone(), seat, hand).to_string(),
                parameter: None,
                limit: None,
                kind: error.kind(),
                seat,
                hand,
            };
            (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response()
        }
        Refused::NotNow(why) => ApiError::bad(format!("not now: {why}"), None)
            .with_status(StatusCode::CONFLICT)
            .into_response(),
        Refused::Table(e) => refused(e).into_response(),
    }
}

fn api(e: ApiError) -> Response {
    e.into_response()
}

/// Runs `f` with the store and the boards' cache on a blocking thread.
async fn run<S, T>(
    svc: &Arc<Service<S>>,
    f: impl FnOnce((&mut S, &BoardCache)) -> Result<T, Refused> + Send + 'static,
) -> Result<T, Response>
where
    S: Store + Send + 'static,
    T: Send + 'static,
{
    let me = Arc::clone(svc);
    svc.with(move |room| Ok(f((room.store(), &me.hidden))))
        .await
        .map_err(api)?
        .map_err(answer)
}

/// `http://HOST` as the client named the service (checked by the access guard).
fn base(headers: &HeaderMap) -> String {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    format!("http://{}", host.unwrap_or("127.0.0.1:8090"))
}

async fn open<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    match bearer(&headers) {
        None => return Err(refused(Error::Unauthenticated).into_response()),
        Some(t) if !svc.admin.admits(&t) => return Err(refused(Error::Forbidden).into_response()),
        Some(_) => {}
    }
    let request: NewHiddenTable = fairdeck_http::body::json(body, MAX_BODY_BYTES)
        .await
        .map_err(api)?;
    let base = base(&headers);
    let invitation = run(&svc, move |(s, _)| {
        Ok(desk::open(s, &request, &mut SysRng, &base, now())?)
    })
    .await?;
    Ok(private(StatusCode::CREATED, invitation))
}

async fn status<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
) -> Answer {
    let board = run(&svc, move |s| desk::board(s, &id, now())).await?;
    Ok(private(StatusCode::OK, Status::of(&board)))
}

/// The status, for the operator's token only (the operator page's check of its link).
async fn operator<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let token = bearer(&headers);
    let board = run(&svc, move |s| {
        desk::operator_read(s, &id, token.as_deref(), now())
    })
    .await?;
    Ok(private(StatusCode::OK, Status::of(&board)))
}

/// `?hand=N`: the transcript of one hand (with the table's keys and void).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneHand {
    hand: Option<u64>,
}

async fn transcript<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    query: Result<Query<OneHand>, QueryRejection>,
) -> Answer {
    let Query(one) = query.map_err(|e| api(ApiError::bad(e.body_text(), Some("hand"))))?;
    let board = run(&svc, move |s| desk::board(s, &id, now())).await?;
    let mut record = board.served(&mut UnwrapErr(SysRng));
    if let Some(n) = one.hand {
        record.hands.retain(|h| h.hand == n);
    }
    let json = record.to_json();
    let kind = header::HeaderValue::from_static("application/json");
    let mut answer = ([(header::CONTENT_TYPE, kind)], json).into_response();
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    Ok(answer)
}

/// A seat number of the path, or a 400.
fn seat_of(seat: &str) -> Result<u64, ApiError> {
    seat.parse().map_err(|_| {
        let why = format!("invalid seat: {seat:?} is not a seat number");
        ApiError::bad(why, Some("seat"))
    })
}

async fn seat_link<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let seat = seat_of(&seat).map_err(api)?;
    let token = bearer(&headers);
    let link = run(&svc, move |s| {
        desk::seat_link(s, &id, (seat, token.as_deref()), now())
    })
    .await?;
    Ok(private(StatusCode::OK, link))
}

/// The deck size of table `id` (bounds a body).
fn deck_size<S: HiddenStore + ?Sized>(
    (s, cache): (&mut S, &BoardCache),
    id: &str,
) -> Result<usize, Refused> {
    Ok(load(s, cache, id)?.table.deck_size())
}

/// A seat's message kinds, each with its route.
#[derive(Clone, Copy)]
enum Kind {
    Key,
    Shuffle,
    Shares,
    Attestation,
}

async fn seat_post<S: Store + Send + 'static>(
    svc: Arc<Service<S>>,
    (id, seat): (String, String),
    headers: HeaderMap,
    body: Body,
    kind: Kind,
) -> Answer {
    let seat = seat_of(&seat).map_err(api)?;
    let token = bearer(&headers);
    let limit = match kind {
        Kind::Key | Kind::Attestation => ENVELOPE_BYTES,
        _ => {
            let at = id.clone();
            let n = run(&svc, move |s| deck_size(s, &at)).await?;
            let per = match kind {
                Kind::Shuffle => SHUFFLE_BYTES_PER_CARD,
                _ => SHARE_BYTES_PER_CARD,
            };
            ENVELOPE_BYTES + n * per
        }
    };
    let post = match kind {
        Kind::Key => Post::Key(fairdeck_http::body::json(body, limit).await.map_err(api)?),
        Kind::Shuffle => Post::Shuffle(Box::new(
            fairdeck_http::body::json(body, limit).await.map_err(api)?,
        )),
        Kind::Shares => Post::Shares(fairdeck_http::body::json(body, limit).await.map_err(api)?),
        Kind::Attestation => {
            Post::Attestation(fairdeck_http::body::json(body, limit).await.map_err(api)?)
        }
    };
    let sent = match &post {
        Post::Shares(m) => m.len(),
        Post::Attestation(_) => 0, // not in the log: no receipt
        _ => 1,
    };
    let board = run(&svc, move |s| {
        desk::post(s, &id, (seat, token.as_deref()), post, now())
    })
    .await?;
    let mut status = Status::of(&board);
    status.receipts = board.receipts(sent, &mut UnwrapErr(SysRng));
    Ok(private(StatusCode::OK, status))
}

async fn advance<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let token = bearer(&headers);
    let step: Advance = fairdeck_http::body::json(body, MAX_BODY_BYTES)
        .await
        .map_err(api)?;
    let board = run(&svc, move |s| {
        desk::advance(s, &id, token.as_deref(), &step, now())
    })
    .await?;
    Ok(private(StatusCode::OK, Status::of(&board)))
}

/// The routes of hidden tables, to merge into the service's router.
pub fn routes<S: Store + Send + 'static>() -> Router<Arc<Service<S>>> {
    let seat = |k: Kind| {
        move |State(svc): Shared<S>,
              Path(at): Path<(String, String)>,
              headers: HeaderMap,
              body: Body| { seat_post(svc, at, headers, body, k) }
    };
    Router::new()
        .route("/api/hidden", post(open::<S>))
        .route("/api/hidden/{id}", get(status::<S>))
        .route("/api/hidden/{id}/transcript", get(transcript::<S>))
        .route("/api/hidden/{id}/advance", post(advance::<S>))
        .route("/api/hidden/{id}/operator", get(operator::<S>))
        .route("/api/hidden/{id}/seats/{seat}", get(seat_link::<S>))
        .route("/api/hidden/{id}/seats/{seat}/key", post(seat(Kind::Key)))
        .route(
            "/api/hidden/{id}/seats/{seat}/shuffle",
            post(seat(Kind::Shuffle)),
        )
        .route(
            "/api/hidden/{id}/seats/{seat}/shares",
            post(seat(Kind::Shares)),
        )
        .route(
            "/api/hidden/{id}/seats/{seat}/attestation",
            post(seat(Kind::Attestation)),
        )
}
