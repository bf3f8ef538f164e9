//! The page's files, compiled into the binary by `build.rs` (nothing is read
//! from disk or fetched from the network at run time).

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// Headers sent with every file: no caching (the binary is the version),
/// no content sniffing, and a policy that allows nothing from elsewhere.
const SECURITY: [(header::HeaderName, &str); 3] = [
    (header::CACHE_CONTROL, "no-cache"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
         connect-src 'self'; frame-ancestors 'none'",
    ),
];

/// The embedded file at the request's path (`/` is `index.html`), or 404.
pub async fn serve(req: Request) -> Response {
    let path = match req.uri().path() {
        "/" => "/index.html",
        p => p,
    };
    match find(path) {
        Some(bytes) => {
            let mut response =
                ([(header::CONTENT_TYPE, content_type(path))], bytes).into_response();
            for (name, value) in SECURITY {
                response
                    .headers_mut()
                    .insert(name, header::HeaderValue::from_static(value));
            }
            response
        }
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

/// The bytes of the file served at `path`.
pub fn find(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(url, _)| *url == path).map(|(_, b)| *b)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}
