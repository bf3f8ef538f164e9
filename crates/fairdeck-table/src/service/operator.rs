//! The operator's routes that are not a plain step: the light status the
//! operator's page polls (no hole card; an unchanged table answers 304),
//! every deal on demand, the audit (the log read under the lock, replayed
//! outside it), and re-issuing a seat's link.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use fairdeck_http::error::ApiError;
use serde::Serialize;

use super::{Answer, MAX_BODY_BYTES, Shared, bearer, now, private, refused, seat_number, views};
use crate::{Access, Store};

/// The entity tag of a table's status at `version`.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}

/// Whether `If-None-Match` names `tag` (or is `*`).
fn unchanged(headers: &HeaderMap, tag: &str) -> bool {
    let Some(value) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    value
        .split(',')
        .map(str::trim)
        .any(|t| t == "*" || t == tag || t.strip_prefix("W/") == Some(tag))
}

/// `GET …/operator/status`: the [`OperatorStatus`](crate::OperatorStatus)
/// with its `ETag`, or 304 with no body when `If-None-Match` names it.
/// Under the lock only the table's row is read; the token is checked
/// before the version is told.
pub async fn status<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let token = bearer(&headers);
    let snapshot = svc.snapshot(id).await?;
    snapshot
        .state
        .authorize(Access::Operator, token.as_deref())
        .map_err(refused)?;
    let tag = etag(snapshot.seq);
    let mut answer = if unchanged(&headers, &tag) {
        let mut answer = StatusCode::NOT_MODIFIED.into_response();
        answer
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        answer
    } else {
        let view =
            views::off_lock(move || Ok(snapshot.state.operator_status(snapshot.seq))).await?;
        private(StatusCode::OK, view)
    };
    let tag = HeaderValue::from_str(&tag).map_err(|_| ApiError::internal("a bad tag"))?;
    answer.headers_mut().insert(header::ETAG, tag);
    Ok(answer)
}

/// `GET …/operator`: every deal as dealt, for the operator to ask for
/// when wanted (the page never polls it).
pub async fn deals<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let token = bearer(&headers);
    let snapshot = svc.snapshot(id).await?;
    let view = views::off_lock(move || views::operator(&snapshot.state, token.as_deref())).await?;
    Ok(private(StatusCode::OK, view))
}

/// `GET …/audit`: the table's row and log read under the lock, checked
/// and replayed outside it.
pub async fn audit<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let token = bearer(&headers);
    let (snapshot, log) = svc
        .with(move |r| {
            let snapshot = r.store().load(&id)?;
            snapshot
                .state
                .authorize(Access::Operator, token.as_deref())?;
            let log = r.store().log(&id)?;
            Ok((snapshot, log))
        })
        .await?;
    let audit = views::off_lock(move || crate::audited(&snapshot, &log)).await?;
    Ok(private(StatusCode::OK, AuditAnswer::from(&audit)))
}

/// `GET …/audit`: the chain checked and replayed (or a 500 naming the first
/// entry that does not check), and the final transcript's verification.
#[derive(Serialize)]
struct AuditAnswer {
    entries: usize,
    head: String,
    /// `null` until the table is closed or void.
    transcript_valid: Option<bool>,
    differences: Vec<String>,
    deals_checked: usize,
}

impl From<&crate::ledger::Audit> for AuditAnswer {
    fn from(a: &crate::ledger::Audit) -> Self {
        let v = a.verification.as_ref();
        AuditAnswer {
            entries: a.entries,
            head: a.head.clone(),
            transcript_valid: v.map(|v| v.is_valid()),
            differences: v.map_or_else(Vec::new, |v| {
                v.differences.iter().map(ToString::to_string).collect()
            }),
            deals_checked: v.map_or(0, |v| v.deals_checked),
        }
    }
}

/// `POST …/seats/{seat}/reissue` with `{}`: the seat's new token, shown once.
pub async fn reissue<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let token = bearer(&headers);
    let seat = seat_number(&seat)?;
    let _: serde::de::IgnoredAny = fairdeck_http::body::json(body, MAX_BODY_BYTES).await?;
    let answer = svc
        .with(move |r| r.reissue(&id, token.as_deref(), seat, now()))
        .await?;
    Ok(private(StatusCode::OK, answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_names_the_tag() {
        let mut headers = HeaderMap::new();
        assert!(!unchanged(&headers, "\"3\""));
        for (value, hit) in [
            ("\"3\"", true),
            ("W/\"3\"", true),
            ("\"2\", \"3\"", true),
            ("*", true),
            ("\"4\"", false),
            ("3", false),
        ] {
            headers.insert(header::IF_NONE_MATCH, value.parse().unwrap());
            assert_eq!(unchanged(&headers, "\"3\""), hit, "{value}");
        }
    }
}
