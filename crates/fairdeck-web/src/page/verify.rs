//! `POST /api/fair/verify`: a transcript of any version and what the
//! player recorded, verified by the report layer
//! ([`fairdeck_report::verify`]); the answer is the verdict, the same JSON
//! as `fairdeck fair verify TRANSCRIPT --format json`.

use fairdeck_report::verify;

use super::api::{Answer, Shared, json, work};
use super::lanes::Lane;
use super::limits::{self, ApiError};
use super::words::page_spelling;

/// `POST /api/fair/verify`: `fairdeck fair verify TRANSCRIPT --format
/// json`, the transcript (of any version) and what the player recorded in
/// a JSON object ([`fairdeck_report::verify::VerifyRequest`]'s fields:
/// `transcript`, `commitment`, `lock`, `seat`, `seed`, `played`,
/// `server_secret`, `key`, `evidence`, `seat_keys`). The answer is the
/// verdict, whether it passed or not; a field the transcript's version
/// does not read is refused, naming it.
pub async fn fair_verify(state: Shared, req: axum::extract::Request) -> Answer {
    if req.uri().query().is_some_and(|q| !q.is_empty()) {
        let why = "send the transcript and evidence in the JSON body, not the query";
        return Err(ApiError::bad(why, Some("query")));
    }
    let body = fairdeck_http::body::read(req.into_body(), limits::MAX_TRANSCRIPT_BYTES).await?;
    let request = verify_request(&body)?;
    work(&state, Lane::Heavy, move || {
        json(verify::verify(&request, &verify::Spelled(&page_spelling))?)
    })
    .await
}

/// The body of `POST /api/fair/verify` as a request: a JSON object of its
/// fields only (an unknown or missing field named as the parameter).
fn verify_request(body: &[u8]) -> Result<verify::VerifyRequest, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}"), Some("body")))?;
    if !value.is_object() {
        return Err(ApiError::bad(
            "the body must be a JSON object",
            Some("body"),
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        let text = e.to_string();
        let named = ["unknown field `", "missing field `"]
            .iter()
            .find_map(|p| text.strip_prefix(p)?.split('`').next());
        ApiError::bad(text.clone(), Some(named.unwrap_or("body")))
    })
}
