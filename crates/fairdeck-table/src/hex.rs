//! Hex text for 32-byte values, and 32 fresh random bytes.

use rand_core::TryCryptoRng;

use crate::Error;

/// Lowercase hex digits of `bytes`. O(n).
pub(crate) fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Exactly 64 hex digits (either case) as 32 bytes.
pub(crate) fn decode32(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
        *o = u8::from_str_radix(core::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// 32 bytes from a cryptographic source.
pub(crate) fn draw<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<[u8; 32], Error> {
    let mut out = [0u8; 32];
    rng.try_fill_bytes(&mut out)
        .map_err(|e| Error::Entropy(format!("{e:?}")))?;
    Ok(out)
}

/// Serde as 64 hex digits.
pub(crate) mod bytes32 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

    pub(crate) fn serialize<S: Serializer>(b: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::encode(b))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(d)?;
        super::decode32(&text).ok_or_else(|| D::Error::custom("expected 64 hex digits"))
    }
}
