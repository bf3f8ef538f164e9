//! Reading a request body within the stack's limits: at most a given number
//! of bytes, arriving within [`BODY_TIME`].

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::transport::BODY_TIME;

/// The whole body, refused (413-style limit error, or 408) when it is
/// larger than `max_bytes` or slower than [`BODY_TIME`].
///
/// # Errors
///
/// The JSON error to answer with.
pub async fn read(body: Body, max_bytes: usize) -> Result<Bytes, ApiError> {
    tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, max_bytes))
        .await
        .map_err(|_| {
            ApiError::bad(
                format!("the body did not arrive within {} s", BODY_TIME.as_secs()),
                Some("body"),
            )
            .with_status(StatusCode::REQUEST_TIMEOUT)
        })?
        .map_err(|_| ApiError::limit("body", format!("at most {max_bytes} bytes")))
}

/// The body read as [`read`] does, then parsed as JSON into `T` (unknown
/// fields refused where `T` says so).
///
/// # Errors
///
/// As [`read`]; a 400 naming `body` when it is not a `T`.
pub async fn json<T: DeserializeOwned>(body: Body, max_bytes: usize) -> Result<T, ApiError> {
    let bytes = read(body, max_bytes).await?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad(
            format!("the body is not what this request takes: {e}"),
            Some("body"),
        )
    })
}
