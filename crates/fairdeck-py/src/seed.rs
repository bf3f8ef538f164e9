//! `seed=`: the same key the CLI's `--seed` gives, or 32 fresh OS bytes.

use fairdeck::rng::{Seed, seed_text_bits};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::convert::type_name;

/// A run's key, where it came from, and how much entropy it can hold.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The 256-bit key.
    pub seed: Seed,
    /// `os` (fresh key), `hex-key` (64 hex digits) or `seed-text`, as the CLI says.
    pub origin: &'static str,
    /// Upper bound on the key's entropy in bits.
    pub bits: f64,
}

impl Key {
    /// Reads `seed=`: `None` draws a fresh key; a `str` means what
    /// `--seed TEXT` means (64 hex digits are the key, any other text is
    /// hashed with SHA-256); an `int` means `--seed` of its decimal digits.
    pub fn from_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(seed) = seed.filter(|s| !s.is_none()) else {
            return fresh();
        };
        let text = if let Ok(s) = seed.cast::<PyString>() {
            s.to_str()?.to_string()
        } else if seed.is_instance_of::<PyInt>() && !seed.is_instance_of::<PyBool>() {
            seed.str()?.to_str()?.to_string()
        } else {
            return Err(PyTypeError::new_err(format!(
                "seed must be a str (64 hex digits or any text), an int or None, not {}",
                type_name(seed)
            )));
        };
        Ok(Self::from_text(&text))
    }

    /// The key of `--seed text`.
    pub fn from_text(text: &str) -> Self {
        let bits = seed_text_bits(text);
        let origin = if Seed::hex_key(text).is_some() {
            "hex-key"
        } else {
            "seed-text"
        };
        Key {
            seed: Seed::parse(text),
            origin,
            bits,
        }
    }
}

/// 256 bits from the operating system, as the CLI draws them without `--seed`.
fn fresh() -> PyResult<Key> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| {
        PyOSError::new_err(format!(
            "cannot read entropy from the operating system: {e}"
        ))
    })?;
    Ok(Key {
        seed: Seed::from_bytes(key),
        origin: "os",
        bits: 256.0,
    })
}
