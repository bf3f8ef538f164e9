//! What a seat's request shows (its token and its device's secret), and
//! what re-issuing a seat's link hands the operator.

use crate::Error;
use crate::state::{Access, TableState};
use crate::token::Token;

/// What a request for a seat shows: the seat's token and the secret of
/// the device it comes from (`None` for either when it shows none).
/// `Debug` shows neither.
#[derive(Clone, Copy, Default)]
pub struct SeatPass<'a> {
    /// The seat's token (its link).
    pub token: Option<&'a str>,
    /// The device's secret (see [`Room::claim`](crate::Room::claim)).
    pub device: Option<&'a str>,
}

impl<'a> SeatPass<'a> {
    /// A seat's token and device secret.
    pub fn new(token: &'a str, device: &'a str) -> SeatPass<'a> {
        SeatPass {
            token: Some(token),
            device: Some(device),
        }
    }

    /// Checks the token, then the device (to act for the seat when `act`,
    /// else to look at it).
    ///
    /// # Errors
    ///
    /// As [`TableState::authorize`] and [`TableState::authorize_device`].
    pub fn check(&self, state: &TableState, seat: usize, act: bool) -> Result<(), Error> {
        state.authorize(Access::Seat(seat), self.token)?;
        state.authorize_device(seat, self.device, act)
    }
}

impl core::fmt::Debug for SeatPass<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SeatPass(…)")
    }
}

/// A re-issued seat link: its new token, shown once. Its JSON is the
/// operator's answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reissue {
    /// The table's id.
    pub table: String,
    /// The seat's index.
    pub seat: usize,
    /// The seat's new token (the old one is refused from now on).
    pub token: Token,
}
