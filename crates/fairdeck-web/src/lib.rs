//! # fairdeck-web
//!
//! The page of `fairdeck serve` and its JSON API, built on the report layer
//! ([`fairdeck_report`]) and nothing of the command line:
//!
//! * [`page`]: the router (the API under `/api/`, the page's files
//!   everywhere else), the API's handlers, the bounds on every parameter,
//!   and the server that `fairdeck serve` starts.
//!
//! It stands on `fairdeck-http`, the loopback HTTP stack it shares with the
//! table service (Host and same-site checks, JSON-only posts, time limits,
//! bounded bodies, JSON errors), and serves the files `fairdeck-pages`
//! embeds. The page itself — HTML, scripts, style sheet — is in `web/`
//! beside this crate, with its node tests (`web/test`, `web/e2e`).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod page;
