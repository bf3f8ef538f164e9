//! The version a transcript declares: `2` (sections 8–12 without the seat
//! lock) or `"2.1"` (with the seat lock and the count of deals played).

use core::fmt;

/// A transcript's version, written `2` or `"2.1"` in its JSON.
///
/// The manifest keeps version 2 in both: version 2.1 adds a step (the seat
/// lock) and two fields to the transcript, not a field to the manifest, so
/// its commitments and deals are computed exactly as in version 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TranscriptVersion {
    /// Version 2: no seat lock, no count of deals played.
    V2,
    /// Version 2.1: the seat lock `L` and the number of deals played.
    V2_1,
}

impl TranscriptVersion {
    /// `2` or `2.1`.
    pub fn name(self) -> &'static str {
        match self {
            TranscriptVersion::V2 => "2",
            TranscriptVersion::V2_1 => "2.1",
        }
    }
}

impl fmt::Display for TranscriptVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TranscriptVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TranscriptVersion::V2 => s.serialize_u64(2),
            TranscriptVersion::V2_1 => s.serialize_str("2.1"),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TranscriptVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = TranscriptVersion;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the version 2 or \"2.1\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                match v {
                    2 => Ok(TranscriptVersion::V2),
                    _ => Err(E::custom(format!("version {v} is not 2 or \"2.1\""))),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
                self.visit_u64(u64::try_from(v).map_err(|_| E::custom("a negative version"))?)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                match v {
                    "2.1" => Ok(TranscriptVersion::V2_1),
                    _ => Err(E::custom(format!("version {v:?} is not 2 or \"2.1\""))),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}
