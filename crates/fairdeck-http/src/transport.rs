//! The sizes and times the stack allows a client.

use std::time::Duration;

/// Longest request target (path and query) answered; longer is 414.
pub const MAX_URI_BYTES: usize = 16 * 1024;
/// Largest header block (names and values) answered; larger is 431.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Most header lines answered; more is 431.
pub const MAX_HEADERS: usize = 64;
/// Time a client has to send a request's head (line and headers); also the
/// longest a kept-alive connection may sit idle between requests.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// Time a client has to send a request's body.
pub const BODY_TIME: Duration = Duration::from_secs(10);
/// A request's time limit: queueing for a heavy-work slot plus the work.
pub const REQUEST_TIME: Duration = Duration::from_secs(20);
