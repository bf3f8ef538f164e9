//! # fairdeck-web
//!
//! The HTTP stack every fairdeck server stands on — the page of
//! `fairdeck serve` and the table service alike:
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
//! address actually bound.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod body;
pub mod connection;
pub mod error;
pub mod transport;
