//! The JSON bodies of the state-changing requests other than opening a
//! table ([`NewTable`](crate::NewTable)), for a front end to deserialize.

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::event::Street;

/// A seat publishes its commitment: `{"commitment": "64 hex digits"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommitRequest {
    /// `c_i` (spec section 8.4).
    pub commitment: String,
}

/// A seat reveals its seed: `{"seed": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealRequest {
    /// The seed, at most 256 bytes of UTF-8.
    pub seed: String,
}

/// A seat's holder claims it on this device: `{"device": "64 hex digits"}`,
/// the secret the page drew and keeps (see [`Room::claim`](crate::Room::claim)).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The device's secret.
    pub device: String,
}

impl core::fmt::Debug for ClaimRequest {
    /// Never prints the secret.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ClaimRequest(…)")
    }
}

/// The operator releases community cards:
/// `{"deal": 0, "street": "flop"}` (or `turn`, `river`), or
/// `{"deal": 1, "street": "dummy", "seat": 2}` for bridge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseRequest {
    /// The deal number.
    pub deal: u64,
    /// `flop`, `turn`, `river` or `dummy`.
    pub street: String,
    /// The dummy's seat index (bridge only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
}

impl ReleaseRequest {
    /// The release as a [`Street`].
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for another street name, a dummy without a seat,
    /// or a seat given with a hold'em street.
    pub fn validate(&self) -> Result<Street, Error> {
        match (self.street.as_str(), self.seat) {
            ("flop", None) => Ok(Street::Flop),
            ("turn", None) => Ok(Street::Turn),
            ("river", None) => Ok(Street::River),
            ("dummy", Some(seat)) => Ok(Street::Dummy { seat }),
            ("dummy", None) => Err(Error::invalid("seat", "the dummy needs its seat")),
            ("flop" | "turn" | "river", Some(_)) => {
                Err(Error::invalid("seat", "only the dummy names a seat"))
            }
            (other, _) => Err(Error::invalid(
                "street",
                format!("{other:?} is not flop, turn, river or dummy"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(json: &str) -> Result<Street, Error> {
        serde_json::from_str::<ReleaseRequest>(json)
            .map_err(|e| Error::invalid("body", e.to_string()))?
            .validate()
    }

    #[test]
    fn release_bodies() {
        assert_eq!(
            release(r#"{"deal": 0, "street": "flop"}"#),
            Ok(Street::Flop)
        );
        assert_eq!(
            release(r#"{"deal": 1, "street": "dummy", "seat": 2}"#),
            Ok(Street::Dummy { seat: 2 })
        );
        for bad in [
            r#"{"deal": 0, "street": "fourth"}"#,
            r#"{"deal": 0, "street": "dummy"}"#,
            r#"{"deal": 0, "street": "turn", "seat": 1}"#,
            r#"{"deal": 0, "street": "flop", "extra": 1}"#,
            r#"{"deal": -1, "street": "flop"}"#,
        ] {
            assert!(matches!(release(bad), Err(Error::Invalid { .. })), "{bad}");
        }
        let c: Result<CommitRequest, _> = serde_json::from_str(r#"{"commitment": "ab", "x": 1}"#);
        assert!(c.is_err());
    }
}
