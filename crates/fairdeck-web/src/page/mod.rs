//! The page of `fairdeck serve` and its JSON API (axum on tokio).
//!
//! The page's files are compiled into the binary ([`assets`]); the API
//! ([`api`]) maps each request's parameters to the report layer's request
//! ([`fairdeck_report`]) and answers with its report, the same JSON as the
//! CLI's `--format json` by construction, within the bounds of [`limits`].

pub mod api;
pub mod assets;
pub mod lanes;
pub mod limits;
mod verify;
pub mod words;

#[cfg(test)]
mod tests;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};

use api::AppState;
use fairdeck_http::access::{self, Access};
use fairdeck_http::connection;
use limits::ApiError;

/// The whole app over `state`: the API under `/api/`, the page's files
/// everywhere else, every request through [`access::guard`].
pub fn app(state: Arc<AppState>, access: Access) -> Router {
    let api = Router::new()
        .route("/deal", get(api::deal).post(api::deal))
        .route(
            "/shuffle-steps",
            get(api::shuffle_steps).post(api::shuffle_steps),
        )
        .route("/tree", get(api::tree).post(api::tree))
        .route("/exact", get(api::exact).post(api::exact))
        .route("/audit", get(api::audit).post(api::audit))
        .route("/mix", get(api::mix).post(api::mix))
        .route("/chaos", get(api::chaos).post(api::chaos))
        .route("/algorithms", get(api::algorithms).post(api::algorithms))
        .route("/fair/commit", post(api::fair_commit))
        .route("/fair/deal", get(api::fair_deal).post(api::fair_deal))
        .route("/fair/verify", post(verify::fair_verify))
        .fallback(unknown_api)
        .method_not_allowed_fallback(wrong_method)
        .with_state(state);
    let guard = axum::middleware::from_fn_with_state(Arc::new(access), access::guard);
    Router::new()
        .nest("/api", api)
        .fallback(assets::serve)
        .layer(guard)
}

async fn unknown_api(req: Request) -> impl IntoResponse {
    let e = ApiError::bad(format!("no such endpoint: {}", req.uri().path()), None);
    e.with_status(StatusCode::NOT_FOUND)
}

async fn wrong_method(req: Request) -> impl IntoResponse {
    let e = ApiError::bad(
        format!("{} does not answer {}", req.uri().path(), req.method()),
        None,
    );
    e.with_status(StatusCode::METHOD_NOT_ALLOWED)
}

/// Binds `bind`, prints the page's URL on stdout and serves until Ctrl-C,
/// answering to the `Host` names in `allow_hosts` besides its own address.
///
/// # Errors
///
/// When the address cannot be bound or the runtime cannot start.
pub fn serve(bind: SocketAddr, allow_hosts: Vec<String>, open: bool) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {bind}: {e}")))?;
        let local = listener.local_addr()?;
        let url = format!("http://{local}/");
        announce(&url);
        if !local.ip().is_loopback() {
            note(format_args!(
                "note: listening on {local}: anyone who can reach this address can use the page"
            ));
        }
        note("press Ctrl-C to stop");
        let state = Arc::new(AppState::new());
        // The catalogue (exact verdicts of every algorithm) is computed now,
        // off the work lanes, so the first page never waits for it.
        let warm = Arc::clone(&state);
        tokio::spawn(async move { warm.warm().await });
        if open {
            open_browser(&url);
        }
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        connection::serve(
            listener,
            app(state, Access::new(local, allow_hosts)),
            shutdown,
        )
        .await
    })
}

/// Writes `fairdeck: MESSAGE` on stderr; a stderr that cannot be written is
/// ignored (there is nowhere left to report it).
fn note(message: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr().lock(), "fairdeck: {message}");
}

/// Prints the page's address on stdout, the line scripts wait for. A stdout
/// that cannot be written (`> /dev/full`, a closed pipe) does not stop the
/// server: the address goes to stderr instead.
fn announce(url: &str) {
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "fairdeck serve: {url}").and_then(|()| out.flush());
    if let Err(e) = written {
        note(format_args!(
            "cannot write the address to stdout ({e}); serving on {url}"
        ));
    }
}

/// Asks the desktop to open `url`; says so on stderr when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        note(format_args!(
            "cannot open a browser ({opener}: {e}); open {url} yourself"
        ));
    }
}
