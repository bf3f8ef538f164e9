//! The page's files, from those `fairdeck-pages` compiles into the binary
//! (nothing is read from disk or fetched from the network at run time).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use fairdeck_pages::{content_type, find};

use super::limits::ApiError;

/// The embedded file at the request's path (`/` is `index.html`), or a
/// JSON 404; only GET and HEAD (405 otherwise). The security headers are
/// added by [`fairdeck_http::access::guard`].
pub async fn serve(req: Request) -> Response {
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        let e = ApiError::bad(
            format!("the page's files answer GET only, not {}", req.method()),
            None,
        );
        let mut response = e
            .with_status(StatusCode::METHOD_NOT_ALLOWED)
            .into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let path = match req.uri().path() {
        "/" => "/index.html",
        p => p,
    };
    // The table service's pages call its API, which this server has not.
    let elsewhere = path.starts_with("/table/");
    match find(path).filter(|_| !elsewhere) {
        Some(bytes) => ([(header::CONTENT_TYPE, content_type(path))], bytes).into_response(),
        None => ApiError::bad(format!("no such page or file: {path}"), None)
            .with_status(StatusCode::NOT_FOUND)
            .into_response(),
    }
}
