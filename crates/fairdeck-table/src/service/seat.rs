//! A seat's routes: its view, the claim that binds it to one device, and
//! its commitment and reveal. Every one shows the seat's token; all but the
//! claim show the device's secret in the [`DEVICE_HEADER`] header.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};

use super::{Answer, MAX_BODY_BYTES, Shared, bearer, now, private, seat_number, views};
use crate::{ClaimRequest, CommitRequest, RevealRequest, SeatPass, Store};

/// The header that carries a seat's device secret (64 hex digits).
pub const DEVICE_HEADER: &str = "fairdeck-device";

/// The device secret a request shows, if any.
fn device(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(DEVICE_HEADER)?.to_str().ok()?;
    Some(value.trim().to_string())
}

/// `GET …/seats/{seat}`: the seat's view, rendered outside the lock.
pub async fn view<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let (token, device) = (bearer(&headers), device(&headers));
    let seat = seat_number(&seat)?;
    let snapshot = svc.snapshot(id).await?;
    let view = views::off_lock(move || {
        let pass = SeatPass {
            token: token.as_deref(),
            device: device.as_deref(),
        };
        views::seat(&snapshot.state, seat, pass)
    })
    .await?;
    Ok(private(StatusCode::OK, view))
}

/// A seat's changes, each with its JSON body.
enum SeatChange {
    Claim(ClaimRequest),
    Commit(CommitRequest),
    Reveal(RevealRequest),
}

/// A seat's POST: its body read (bounded) as `T`, made a change by `wrap`,
/// applied with the seat's token and device secret.
async fn change<S: Store + Send + 'static, T: serde::de::DeserializeOwned>(
    svc: Arc<super::Service<S>>,
    (id, seat): (String, String),
    headers: HeaderMap,
    (body, wrap): (Body, fn(T) -> SeatChange),
) -> Answer {
    let change = wrap(fairdeck_http::body::json(body, MAX_BODY_BYTES).await?);
    let (token, device) = (bearer(&headers), device(&headers));
    let seat = seat_number(&seat)?;
    let view = svc
        .with(move |r| {
            let pass = SeatPass {
                token: token.as_deref(),
                device: device.as_deref(),
            };
            match &change {
                SeatChange::Claim(c) => {
                    let pass = SeatPass {
                        device: Some(&c.device),
                        ..pass
                    };
                    r.claim(&id, seat, pass, now())
                }
                SeatChange::Commit(c) => r.commit(&id, seat, pass, &c.commitment, now()),
                SeatChange::Reveal(v) => r.reveal(&id, seat, pass, &v.seed, now()),
            }
        })
        .await?;
    Ok(private(StatusCode::OK, view))
}

/// `POST …/seats/{seat}/claim` with `{"device"}`.
pub async fn claim<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(at): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    change(svc, at, headers, (body, SeatChange::Claim)).await
}

/// `POST …/seats/{seat}/commit` with `{"commitment"}`.
pub async fn commit<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(at): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    change(svc, at, headers, (body, SeatChange::Commit)).await
}

/// `POST …/seats/{seat}/reveal` with `{"seed"}`.
pub async fn reveal<S: Store + Send + 'static>(
    State(svc): Shared<S>,
    Path(at): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    change(svc, at, headers, (body, SeatChange::Reveal)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_header_is_read_trimmed() {
        let mut headers = HeaderMap::new();
        assert_eq!(device(&headers), None);
        headers.insert(DEVICE_HEADER, " ab ".parse().unwrap());
        assert_eq!(device(&headers).as_deref(), Some("ab"));
    }
}
