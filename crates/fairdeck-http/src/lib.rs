//! # fairdeck-http
//!
//! The loopback HTTP stack every fairdeck server stands on — the page of
//! `fairdeck serve` (`fairdeck-web`), the table service (`fairdeck-table`)
//! and the browser seat of `fairdeck hidden seat --page` alike. It serves
//! no page and knows no route of its own; each server brings its own.
//!
//! * [`access`]: who may ask. A request whose `Host` is not the server's
//!   (DNS rebinding), that a browser marks as cross-site, that posts anything
//!   but JSON, or whose head is too large is refused before any handler
//!   runs; every answer carries the security headers.
//! * [`connection`]: the accept loop, with a time limit on each request's
//!   head and on idle kept-alive connections, and hyper's own refusals
//!   rewritten as JSON.
//! * [`body`]: a request body read within a size and a time limit.
//! * [`error`]: the JSON error every refusal is, `{"error", "parameter",
//!   "limit"}`.
//! * [`transport`]: the sizes and times the stack allows.
//!
//! Servers bind loopback by default; [`access::Access`] is built from the
//! address actually bound and the extra host names its operator allowed.
//!
//! ```no_run
//! use std::sync::Arc;
//! use axum::{Router, routing::get};
//! use fairdeck_http::access::{self, Access};
//!
//! # async fn run() -> std::io::Result<()> {
//! let bind: std::net::SocketAddr = "127.0.0.1:0".parse().unwrap();
//! let listener = tokio::net::TcpListener::bind(bind).await?;
//! let access = Access::new(listener.local_addr()?, vec![]);
//! let guard = axum::middleware::from_fn_with_state(Arc::new(access), access::guard);
//! let app = Router::new().route("/", get(|| async { "hello" })).layer(guard);
//! fairdeck_http::connection::serve(listener, app, std::future::pending()).await
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod body;
pub mod connection;
pub mod error;
pub mod transport;
