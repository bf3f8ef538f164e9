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
//! * [`page`]: the page of `fairdeck serve` and its JSON API, built on the
//!   report layer ([`fairdeck_report`]) and nothing of the command line.
//!
//! Servers bind loopback by default; [`access::Access`] is built from the
//! address actually bound.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod body;
pub mod connection;
pub mod error;
pub mod page;
pub mod transport;

use std::net::SocketAddr;

/// A server's `--bind` read as an address, and every `--allow-host` checked
/// to be a bare host name (letters, digits, `-` and `.`).
///
/// # Errors
///
/// One line naming the flag and the value, for a usage error.
pub fn listen_address(bind: &str, allow_hosts: &[String]) -> Result<SocketAddr, String> {
    let address: SocketAddr = bind
        .parse()
        .map_err(|_| format!("--bind wants ADDR:PORT, e.g. 127.0.0.1:8080 (got {bind:?})"))?;
    for name in allow_hosts {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        if !ok {
            return Err(format!(
                "--allow-host wants a host name without a port, e.g. box.lan (got {name:?})"
            ));
        }
    }
    Ok(address)
}
