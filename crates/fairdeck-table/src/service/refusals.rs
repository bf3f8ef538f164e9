//! Every refusal as JSON: axum's own answers (405 with an empty body, a
//! path that does not parse, a body it refuses) are rewritten into the
//! `{"error", "parameter", "limit"}` object the API sends everywhere else.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use fairdeck_http::error::ApiError;

/// The most of a non-JSON refusal's text kept in its JSON form.
const MAX_TEXT: usize = 1024;

/// The middleware: an answer of 400 or more that is not JSON becomes JSON
/// with the same status (and the same `Allow` or `Retry-After`).
pub async fn as_json(req: Request, next: Next) -> Response {
    let answer = next.run(req).await;
    let status = answer.status();
    let json = answer
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if status.as_u16() < 400 || json {
        return answer;
    }
    let (parts, body) = answer.into_parts();
    let text = axum::body::to_bytes(body, MAX_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let error = match (status, text.is_empty()) {
        (StatusCode::METHOD_NOT_ALLOWED, _) => {
            let allow = parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok());
            format!(
                "method not allowed here; this route takes {}",
                allow.unwrap_or("another method")
            )
        }
        (_, false) => text,
        (_, true) => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
    };
    let mut json = ApiError::bad(error, None)
        .with_status(status)
        .into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = parts.headers.get(&name) {
            json.headers_mut().insert(name, v.clone());
        }
    }
    json
}
