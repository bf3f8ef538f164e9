//! `seed=`: the same key the CLI's `--seed` gives, or 32 fresh OS bytes
//! (both from the report layer, [`fairdeck_report::random`]).

use fairdeck::rng::Seed;
use fairdeck_report::random::{KeyEntropy, fresh_seed};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::convert::type_name;

/// A run's key, where it came from, and how much entropy it can hold.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The 256-bit key.
    pub seed: Seed,
    /// `os` (fresh key), `hex-key` or `seed-text`, and the key's entropy
    /// bound, as the CLI says.
    pub entropy: KeyEntropy,
}

impl Key {
    /// Reads `seed=`: `None` draws a fresh key; a `str` means what
    /// `--seed TEXT` means (64 hex digits are the key, any other text is
    /// hashed with SHA-256); an `int` means `--seed` of its decimal digits.
    pub fn from_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(seed) = seed.filter(|s| !s.is_none()) else {
            let seed = fresh_seed().map_err(|e| PyOSError::new_err(format!("{e:#}")))?;
            return Ok(Key {
                seed,
                entropy: KeyEntropy::OS,
            });
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
        let (seed, entropy) = KeyEntropy::of_text(text);
        Key { seed, entropy }
    }
}
