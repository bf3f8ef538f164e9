//! Refused tokens, counted per client address: after [`MAX_REFUSALS`]
//! answers of 401 or 403 to one address within [`WINDOW`], every request
//! from it that carries a token is answered 429 until the window has moved
//! on. Tokens are 256-bit, so guessing cannot succeed anyway; the limit
//! keeps a guesser from costing the room a token check per request, and
//! says so in the logs of whoever is trying.
//!
//! The addresses come from the connection ([`ConnectInfo`], set by
//! `fairdeck_web::connection`); a request without one (an in-process
//! caller) is not counted. At most [`MAX_ADDRESSES`] addresses are
//! remembered; beyond that the ones whose refusals have all expired are
//! forgotten first, then all.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use fairdeck_web::error::ApiError;

/// Refusals one address may earn within [`WINDOW`].
pub const MAX_REFUSALS: usize = 30;
/// The window refusals are counted over.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at most.
pub const MAX_ADDRESSES: usize = 10_000;

/// The refusals of each address within the window.
#[derive(Default)]
pub struct Refusals {
    seen: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl Refusals {
    /// Whether `ip` has used up its refusals at `now`.
    pub fn blocked(&self, ip: IpAddr, now: Instant) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(times) = seen.get_mut(&ip) else {
            return false;
        };
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= WINDOW)
        {
            times.pop_front();
        }
        times.len() >= MAX_REFUSALS
    }

    /// Counts one refusal of `ip` at `now`.
    pub fn record(&self, ip: IpAddr, now: Instant) {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.len() >= MAX_ADDRESSES && !seen.contains_key(&ip) {
            seen.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|&t| now.duration_since(t) < WINDOW)
            });
            if seen.len() >= MAX_ADDRESSES {
                seen.clear();
            }
        }
        let times = seen.entry(ip).or_default();
        times.push_back(now);
        while times.len() > MAX_REFUSALS {
            times.pop_front();
        }
    }
}

/// The middleware: 429 for a token from an address over its refusals;
/// otherwise the request, and its 401 or 403 counted.
pub async fn guard(State(refusals): State<Arc<Refusals>>, req: Request, next: Next) -> Response {
    let ip = (req.extensions().get::<ConnectInfo<SocketAddr>>()).map(|c| c.0.ip());
    let has_token = req.headers().contains_key(header::AUTHORIZATION);
    if let Some(ip) = ip
        && has_token
        && refusals.blocked(ip, Instant::now())
    {
        let e = ApiError::bad(
            format!(
                "too many refused tokens from this address: at most {MAX_REFUSALS} a minute; try again later"
            ),
            None,
        );
        let mut answer = e.with_status(StatusCode::TOO_MANY_REQUESTS).into_response();
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("60"));
        return answer;
    }
    let answer = next.run(req).await;
    if let Some(ip) = ip
        && matches!(
            answer.status(),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        )
    {
        refusals.record(ip, Instant::now());
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_blocked_after_its_refusals_and_freed_when_they_expire() {
        let r = Refusals::default();
        let (a, b) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        for _ in 0..MAX_REFUSALS {
            assert!(!r.blocked(a, t0));
            r.record(a, t0);
        }
        assert!(r.blocked(a, t0));
        assert!(!r.blocked(b, t0), "another address is not affected");
        assert!(!r.blocked(a, t0 + WINDOW), "the window moved on");
    }

    #[test]
    fn memory_stays_bounded() {
        let r = Refusals::default();
        let t0 = Instant::now();
        for i in 0..(MAX_ADDRESSES as u32 + 10) {
            r.record(IpAddr::from(i.to_be_bytes()), t0);
        }
        assert!(r.seen.lock().unwrap().len() <= MAX_ADDRESSES);
    }
}
