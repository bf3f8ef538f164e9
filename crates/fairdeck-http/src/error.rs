//! The JSON error every refusal is.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::transport::REQUEST_TIME;

/// A refused request: 400 (or 503 when busy) with `{"error", "parameter", "limit"}`.
#[derive(Debug, Serialize)]
pub struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    /// What is wrong, in one line.
    pub error: String,
    /// The parameter at fault, when one is.
    pub parameter: Option<String>,
    /// The limit it broke, when it broke one.
    pub limit: Option<String>,
}

impl ApiError {
    /// A bad request, optionally naming the parameter.
    pub fn bad(error: impl Into<String>, parameter: Option<&str>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            error: error.into(),
            parameter: parameter.map(str::to_string),
            limit: None,
        }
    }

    /// A parameter over (or under) its limit.
    pub fn limit(parameter: &str, limit: impl Into<String>) -> Self {
        let limit = limit.into();
        Self {
            status: StatusCode::BAD_REQUEST,
            error: format!("{parameter} must be {limit}"),
            parameter: Some(parameter.to_string()),
            limit: Some(limit),
        }
    }

    /// The server is busy or the work took too long.
    pub fn busy(error: impl Into<String>) -> Self {
        Self {
            status: StatusCode::SERVICE_UNAVAILABLE,
            error: error.into(),
            parameter: None,
            limit: Some(format!("{} s per request", REQUEST_TIME.as_secs())),
        }
    }

    /// Something failed on the server's side.
    pub fn internal(error: impl Into<String>) -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            error: error.into(),
            parameter: None,
            limit: None,
        }
    }

    /// The same error sent with another status.
    pub fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self)).into_response()
    }
}
