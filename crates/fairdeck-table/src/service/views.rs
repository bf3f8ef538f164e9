//! The views a `GET` answers, rendered outside the room's lock: under the
//! lock only the table's snapshot is read (one row), so a table of many
//! deals costs its own readers the rendering and never stalls another
//! table. The public view, which anyone may ask for as often as they
//! like, is kept rendered per table and version ([`PublicCache`]).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use axum::body::Bytes;
use fairdeck_http::error::ApiError;

use crate::state::TableState;
use crate::{Access, Error, OperatorView, SeatPass, SeatView};

/// Tables whose rendered public view is kept at most. Past that the cache
/// starts again empty (a miss costs one rendering, nothing else).
pub const MAX_CACHED: usize = 1024;

/// Each table's rendered public view (JSON), with the log place it was
/// rendered at: a view is served only for the very same place.
#[derive(Default)]
pub struct PublicCache {
    views: Mutex<HashMap<String, (u64, Bytes)>>,
}

impl PublicCache {
    /// The view of `table` rendered at `seq`, if kept.
    pub fn get(&self, table: &str, seq: u64) -> Option<Bytes> {
        let views = self.views.lock().unwrap_or_else(PoisonError::into_inner);
        views
            .get(table)
            .filter(|(at, _)| *at == seq)
            .map(|(_, b)| b.clone())
    }

    /// Keeps `json` as `table`'s view at `seq` (unless a later one is kept).
    pub fn put(&self, table: String, seq: u64, json: Bytes) {
        let mut views = self.views.lock().unwrap_or_else(PoisonError::into_inner);
        if views.len() >= MAX_CACHED && !views.contains_key(&table) {
            views.clear();
        }
        let entry = views.entry(table).or_insert((seq, json.clone()));
        if entry.0 <= seq {
            *entry = (seq, json);
        }
    }
}

/// Runs `f` on a blocking thread without any lock; its error as the API's.
pub async fn off_lock<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal("the request failed"))?
        .map_err(super::refused)
}

/// The public view as JSON. O(deals · deck) at worst (see
/// [`TableState::public_view`]).
pub fn public_json(state: &TableState) -> Result<Bytes, Error> {
    serde_json::to_vec(&state.public_view())
        .map(Bytes::from)
        .map_err(|e| Error::Storage(e.to_string()))
}

/// Seat `seat`'s view, if `pass` shows that seat's token and its device.
pub fn seat(state: &TableState, seat: usize, pass: SeatPass<'_>) -> Result<SeatView, Error> {
    pass.check(state, seat, false)?;
    state.seat_view(seat).ok_or(Error::Forbidden)
}

/// The operator's view, if `token` is the operator's.
pub fn operator(state: &TableState, token: Option<&str>) -> Result<OperatorView, Error> {
    state.authorize(Access::Operator, token)?;
    Ok(state.operator_view())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_served_for_its_own_version_only() {
        let cache = PublicCache::default();
        cache.put("t".into(), 3, Bytes::from_static(b"three"));
        assert_eq!(cache.get("t", 3).as_deref(), Some(&b"three"[..]));
        assert_eq!(cache.get("t", 4), None, "a later version is rendered anew");
        assert_eq!(cache.get("u", 3), None);
        // A slow rendering of an older version does not replace a newer one.
        cache.put("t".into(), 5, Bytes::from_static(b"five"));
        cache.put("t".into(), 4, Bytes::from_static(b"four"));
        assert_eq!(cache.get("t", 5).as_deref(), Some(&b"five"[..]));
        for i in 0..(MAX_CACHED + 5) {
            cache.put(i.to_string(), 0, Bytes::new());
        }
        assert!(cache.views.lock().unwrap().len() <= MAX_CACHED);
    }
}
