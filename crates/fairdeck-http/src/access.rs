//! Who may ask, and what every answer carries.
//!
//! Before any handler runs, a request is refused (as a JSON error) when its
//! target or headers are too large (414, 431), when its `Host` is not one
//! this server answers to (421: a DNS-rebinding page names its own host),
//! when a browser says it comes from another site (403, from the
//! `Sec-Fetch-Site` header browsers send), or when it posts anything but
//! JSON (415: a cross-site form or `text/plain` fetch cannot set
//! `Content-Type: application/json` without the browser asking first).
//! Every answer, refused or not, gets the security headers.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::transport::{MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_BYTES};

/// Headers sent with every answer: no caching (the binary is the version),
/// no content sniffing, no framing, no referrer, and a policy that allows
/// nothing from elsewhere. Scripts come only from the page itself; of
/// the things `eval` would allow, only compiling WebAssembly is allowed
/// (`'wasm-unsafe-eval'`), for the browser seat.
pub const SECURITY: [(header::HeaderName, &str); 6] = [
    (header::CACHE_CONTROL, "no-cache"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
    (
        header::HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    ),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; \
         style-src 'self' 'unsafe-inline'; \
         connect-src 'self'; frame-ancestors 'none'; form-action 'self'",
    ),
];

/// The hosts and port a server answers to.
#[derive(Debug, Clone)]
pub struct Access {
    bind: SocketAddr,
    names: Vec<String>,
}

impl Access {
    /// A server bound to `bind` (its real port, after binding) that also
    /// answers to the host `names` (from `--allow-host`).
    ///
    /// It always answers to `localhost`, to loopback addresses, and to the
    /// address it is bound to (any IP address when bound to 0.0.0.0 or ::):
    /// an address typed as digits cannot be rebound by DNS.
    pub fn new(bind: SocketAddr, names: Vec<String>) -> Self {
        let names = names.into_iter().map(|n| n.to_ascii_lowercase()).collect();
        Self { bind, names }
    }

    /// Whether a `Host` header value names this server.
    pub fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        let port_ok = port.map_or(self.bind.port() == 80, |p| p == self.bind.port());
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        let name_ok = match name.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.bind.ip() || self.bind.ip().is_unspecified(),
            Err(_) => name == "localhost" || self.names.contains(&name),
        };
        port_ok && name_ok
    }
}

/// `"name:port"`, `"name"`, `"[v6]:port"` or `"[v6]"` as the name and the port.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        match after {
            "" => (v6, None),
            _ => (v6, Some(after.strip_prefix(':')?)),
        }
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    (!name.is_empty()).then_some((name, port))
}

/// The middleware: refuses what `refusal` finds, and adds [`SECURITY`] to
/// every answer.
pub async fn guard(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    let mut response = match refusal(&access, &req) {
        Some(error) => error.into_response(),
        None => next.run(req).await,
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// Why a request is refused before any handler sees it, if it is.
fn refusal(access: &Access, req: &Request) -> Option<ApiError> {
    let target = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if target > MAX_URI_BYTES {
        let e = ApiError::limit("url", format!("at most {MAX_URI_BYTES} bytes"));
        return Some(e.with_status(StatusCode::URI_TOO_LONG));
    }
    if let Some(e) = oversized(req.headers()) {
        return Some(e);
    }
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    match host {
        None => return Some(ApiError::bad("the request has no Host header", None)),
        Some(h) if !access.allows(h) => {
            let e = ApiError::bad(
                format!(
                    "this server does not answer to Host {h:?}; open it as http://{}/ \
                     (or start it with --allow-host NAME)",
                    access.bind
                ),
                None,
            );
            return Some(e.with_status(StatusCode::MISDIRECTED_REQUEST));
        }
        Some(_) => {}
    }
    let api = req.uri().path().starts_with("/api/");
    if api && cross_site(req.headers()) {
        let e = ApiError::bad("requests from other sites are refused", None);
        return Some(e.with_status(StatusCode::FORBIDDEN));
    }
    if api && req.method() == Method::POST && !is_json(req.headers()) {
        let e = ApiError::bad(
            "send the parameters as JSON, with Content-Type: application/json",
            Some("body"),
        );
        return Some(e.with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE));
    }
    None
}

/// A 431 when there are more than [`MAX_HEADERS`] headers or their text is
/// over [`MAX_HEADER_BYTES`].
fn oversized(headers: &HeaderMap) -> Option<ApiError> {
    let bytes: usize = headers
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        let limit = format!("at most {MAX_HEADERS} headers and {MAX_HEADER_BYTES} bytes");
        let e = ApiError::limit("headers", limit);
        return Some(e.with_status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
    }
    None
}

/// Whether a browser marked the request as coming from another site.
/// Clients that send no `Sec-Fetch-Site` (curl, scripts) are not browsers
/// a page can steer.
fn cross_site(headers: &HeaderMap) -> bool {
    headers
        .get("sec-fetch-site")
        .is_some_and(|v| !matches!(v.as_bytes(), b"same-origin" | b"none"))
}

/// Whether the body is declared as JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_forms_and_allowed_names_pass_others_do_not() {
        let a = Access::new("127.0.0.1:8080".parse().unwrap(), vec!["Box.lan".into()]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "box.lan:8080",
        ] {
            assert!(a.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.1:x",
            "[::1",
            ":8080",
            "10.0.0.1:8080",
            "box.lan.evil:8080",
        ] {
            assert!(!a.allows(bad), "{bad}");
        }
        let any = Access::new("0.0.0.0:80".parse().unwrap(), vec![]);
        assert!(any.allows("192.168.1.9") && any.allows("10.0.0.1:80"));
        assert!(!any.allows("rebind.example"));
    }
}
