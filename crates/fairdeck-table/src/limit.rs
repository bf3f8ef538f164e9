//! Refused tokens, counted per client address and per table, without ever
//! refusing a right token.
//!
//! Every request is checked as usual: a right token is always accepted, from
//! any address, however many wrong ones that address sent before (a player
//! behind the same home network or load balancer as a broken link is not
//! locked out). Only refusals are throttled: once one address has earned
//! [`MAX_REFUSALS`] answers of 401 or 403 on one table (or on the admin
//! route) within [`WINDOW`], each further refusal there is answered 429, with
//! `Retry-After`, after a pause of [`PAUSE`] (a guesser on one connection is
//! slowed to one guess per pause; a right token is never paused, since only
//! a refusal is). Another table, and the public views, are not affected.
//!
//! Tokens are 256-bit, so guessing cannot succeed anyway; the limit slows a
//! guesser, tells them and the logs so, and stops a page that keeps a broken
//! link open from hammering the room.
//!
//! The addresses come from the connection ([`ConnectInfo`], set by
//! `fairdeck_http::connection`); a request without one (an in-process
//! caller) is not counted. At most [`MAX_KEYS`] (address, table) pairs are
//! remembered, each with at most [`MAX_REFUSALS`] times; beyond that the
//! pairs whose refusals have all expired are forgotten first, then all.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use fairdeck_http::error::ApiError;

/// Refusals one address may earn on one table within [`WINDOW`] before
/// its refusals there are paused and answered 429.
pub const MAX_REFUSALS: usize = 30;
/// The window refusals are counted over.
pub const WINDOW: Duration = Duration::from_secs(60);
/// (address, table) pairs remembered at most.
pub const MAX_KEYS: usize = 10_000;
/// How long a refusal over the limit waits before it is answered.
pub const PAUSE: Duration = Duration::from_secs(1);
/// The longest table id kept in a key (longer ids are cut; ids are bounded anyway).
const MAX_KEY_TABLE: usize = 64;

/// Who is counted: a client address and the table its requests name
/// (`None` for the admin route that opens tables).
type Key = (IpAddr, Option<String>);

/// The refusals of each (address, table) within the window.
#[derive(Default)]
pub struct Refusals {
    seen: Mutex<HashMap<Key, VecDeque<Instant>>>,
}

/// The table a request's path names: `/api/tables/{id}/…` and
/// `/api/hidden/{id}/…` give `id` (keyed apart: a version-2 table and a
/// hidden table may share an id, and each is counted on its own).
pub fn table_of(path: &str) -> Option<String> {
    let (kind, rest) = [("t", "/api/tables/"), ("h", "/api/hidden/")]
        .iter()
        .find_map(|(kind, prefix)| Some((kind, path.strip_prefix(prefix)?)))?;
    let id = rest.split('/').next().filter(|id| !id.is_empty())?;
    let mut end = id.len().min(MAX_KEY_TABLE);
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    Some(format!("{kind}:{}", &id[..end]))
}

impl Refusals {
    /// Counts one refusal of `ip` on `table` at `now`; returns whether the
    /// pair is now over [`MAX_REFUSALS`] within the window, and if so the
    /// seconds until its oldest refusal expires. O(1) amortized, except a
    /// sweep of every pair when [`MAX_KEYS`] are full.
    pub fn record(&self, ip: IpAddr, table: Option<String>, now: Instant) -> Option<u64> {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (ip, table);
        if seen.len() >= MAX_KEYS && !seen.contains_key(&key) {
            seen.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|&t| now.duration_since(t) < WINDOW)
            });
            if seen.len() >= MAX_KEYS {
                seen.clear();
            }
        }
        let times = seen.entry(key).or_default();
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= WINDOW)
        {
            times.pop_front();
        }
        let over = times.len() >= MAX_REFUSALS;
        times.push_back(now);
        while times.len() > MAX_REFUSALS {
            times.pop_front();
        }
        over.then(|| {
            let oldest = times.front().copied().unwrap_or(now);
            let left = WINDOW.saturating_sub(now.duration_since(oldest));
            left.as_secs().max(1)
        })
    }

    /// Pairs remembered now.
    pub fn len(&self) -> usize {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no pair is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The middleware: every request is answered as usual; a 401 or 403 is
/// counted, and one over the limit is paused and answered 429 instead.
pub async fn guard(State(refusals): State<Arc<Refusals>>, req: Request, next: Next) -> Response {
    let ip = (req.extensions().get::<ConnectInfo<SocketAddr>>()).map(|c| c.0.ip());
    let table = table_of(req.uri().path());
    let answer = next.run(req).await;
    let refused = matches!(
        answer.status(),
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
    );
    let Some(ip) = ip.filter(|_| refused) else {
        return answer;
    };
    let Some(retry) = refusals.record(ip, table, Instant::now()) else {
        return answer;
    };
    tokio::time::sleep(PAUSE).await;
    let e = ApiError::bad(
        format!(
            "too many refused tokens for this table from this address: at most \
             {MAX_REFUSALS} a minute; check the link, then try again in {retry} s"
        ),
        None,
    );
    let mut answer = e.with_status(StatusCode::TOO_MANY_REQUESTS).into_response();
    if let Ok(value) = header::HeaderValue::from_str(&retry.to_string()) {
        answer.headers_mut().insert(header::RETRY_AFTER, value);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_over_after_its_refusals_and_freed_when_they_expire() {
        let r = Refusals::default();
        let (a, b) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t = || Some("t1".to_string());
        let t0 = Instant::now();
        for _ in 0..MAX_REFUSALS {
            assert_eq!(r.record(a, t(), t0), None);
        }
        assert_eq!(r.record(a, t(), t0), Some(60));
        assert_eq!(
            r.record(b, t(), t0),
            None,
            "another address is not affected"
        );
        assert_eq!(r.record(a, None, t0), None, "nor the admin route");
        assert_eq!(
            r.record(a, Some("t2".into()), t0),
            None,
            "nor another table"
        );
        assert_eq!(r.record(a, t(), t0 + WINDOW), None, "the window moved on");
    }

    #[test]
    fn memory_stays_bounded() {
        let r = Refusals::default();
        let t0 = Instant::now();
        for i in 0..(MAX_KEYS as u32 + 10) {
            r.record(IpAddr::from(i.to_be_bytes()), Some("t".into()), t0);
            r.record("10.0.0.1".parse().unwrap(), Some(i.to_string()), t0);
        }
        assert!(r.len() <= MAX_KEYS);
    }

    #[test]
    fn the_table_comes_from_the_path() {
        assert_eq!(table_of("/api/tables/t1/seats/0"), Some("t:t1".into()));
        assert_eq!(table_of("/api/tables/t1"), Some("t:t1".into()));
        assert_eq!(table_of("/api/tables"), None);
        assert_eq!(table_of("/api/tables/"), None);
        assert_eq!(
            table_of("/api/hidden/h1/seats/2/shuffle"),
            Some("h:h1".into())
        );
        assert_eq!(table_of("/api/hidden/h1"), Some("h:h1".into()));
        assert_eq!(table_of("/api/hidden"), None, "the admin route");
        assert_eq!(table_of("/api/hidden/"), None);
        assert_ne!(table_of("/api/hidden/t1"), table_of("/api/tables/t1"));
        for kind in ["tables", "hidden"] {
            let long = format!("/api/{kind}/{}/deal", "é".repeat(100));
            assert!(table_of(&long).unwrap().len() <= MAX_KEY_TABLE + 2);
        }
    }
}
