//! `fairdeck serve`: the local web page and its JSON API (axum on tokio).
//!
//! The page's files are compiled into the binary ([`assets`]); the API
//! ([`api`]) answers with the same JSON as the CLI's `--format json`, within
//! the bounds of [`limits`].

pub mod api;
pub mod assets;
pub mod limits;
pub mod tree;

#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};

use api::AppState;
use limits::ApiError;

/// The whole app: the API under `/api/`, the page's files everywhere else.
pub fn router() -> Router {
    let state = Arc::new(AppState::new());
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
        .fallback(unknown_api)
        .with_state(state);
    Router::new().nest("/api", api).fallback(assets::serve)
}

async fn unknown_api(req: Request) -> impl IntoResponse {
    let mut e = ApiError::bad(format!("no such endpoint: {}", req.uri().path()), None);
    e = e.with_status(StatusCode::NOT_FOUND);
    e
}

/// Binds `bind`, prints the page's URL on stdout and serves until Ctrl-C.
///
/// # Errors
///
/// When the address cannot be bound or the runtime cannot start.
pub fn serve(bind: SocketAddr, open: bool) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {bind}: {e}"))?;
        let local = listener.local_addr()?;
        let url = format!("http://{local}/");
        println!("fairdeck serve: {url}");
        if !local.ip().is_loopback() {
            eprintln!(
                "fairdeck: note: listening on {local}: anyone who can reach this address can use the page"
            );
        }
        eprintln!("fairdeck: press Ctrl-C to stop");
        if open {
            open_browser(&url);
        }
        axum::serve(listener, router())
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
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
        eprintln!("fairdeck: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
