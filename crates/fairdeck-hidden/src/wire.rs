//! 32-byte fields as they travel: 64 lowercase hex digits (`docs/hidden-dealing.md` §2).
//!
//! A [`Hex32`] is only bytes: whether they are a canonical point or scalar is
//! checked where they are used ([`crate::group::decode_point`],
//! [`crate::group::decode_scalar`]), so a message always parses and the
//! verifier names the exact failure.

use core::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::Error;

/// 32 bytes written as exactly 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hex32(pub [u8; 32]);

impl Hex32 {
    /// Parses exactly 64 lowercase hex digits. O(1).
    ///
    /// # Errors
    ///
    /// [`Error::Hex`] for any other text (uppercase included).
    ///
    /// ```
    /// use fairdeck_hidden::wire::Hex32;
    /// let h = Hex32::parse(&"0a".repeat(32)).unwrap();
    /// assert_eq!(h.0, [10; 32]);
    /// assert!(Hex32::parse(&"0A".repeat(32)).is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Hex32, Error> {
        let digits = text.as_bytes();
        if digits.len() != 64 {
            return Err(Error::Hex);
        }
        let mut out = [0u8; 32];
        for (o, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
            *o = (nibble(pair[0])? << 4) | nibble(pair[1])?;
        }
        Ok(Hex32(out))
    }
}

fn nibble(d: u8) -> Result<u8, Error> {
    match d {
        b'0'..=b'9' => Ok(d - b'0'),
        b'a'..=b'f' => Ok(d - b'a' + 10),
        _ => Err(Error::Hex),
    }
}

impl fmt::Display for Hex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Hex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex32({self})")
    }
}

impl Serialize for Hex32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

struct HexVisitor;

impl Visitor<'_> for HexVisitor {
    type Value = Hex32;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("64 lowercase hex digits")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex32, E> {
        Hex32::parse(v).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Hex32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex32, D::Error> {
        d.deserialize_str(HexVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_bad_text() {
        let h = Hex32([0xab; 32]);
        assert_eq!(Hex32::parse(&h.to_string()), Ok(h));
        for bad in [
            "",
            "ab",
            &"g0".repeat(32),
            &"AB".repeat(32),
            &"ab".repeat(33),
        ] {
            assert_eq!(Hex32::parse(bad), Err(Error::Hex), "{bad}");
        }
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(serde_json::from_str::<Hex32>(&json).unwrap(), h);
        assert!(serde_json::from_str::<Hex32>("\"zz\"").is_err());
    }
}
