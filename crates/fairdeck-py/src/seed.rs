//! `seed=`: the same key the CLI's `--seed` gives, or 32 fresh OS bytes
//! (both from the report layer, [`fairdeck_report::random`]).

use fairdeck::rng::Seed;
use fairdeck_report::random::{KeyEntropy, fresh_seed};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use pyo3::exceptions::PyValueError;
use pyo3::types::{PyList, PyTuple};
use sha2::{Digest, Sha256};

use crate::convert::type_name;

fn type_error(seed: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "seed must be a str (64 hex digits or any text), an int, a sequence of ints, a \
         numpy.random.SeedSequence or None, not {}",
        type_name(seed)
    ))
}

fn is_numpy_integer(seed: &Bound<'_, PyAny>) -> PyResult<bool> {
    let numpy = seed.py().import("numpy")?;
    seed.is_instance(&numpy.getattr("integer")?)
}

fn is_numpy_array(seed: &Bound<'_, PyAny>) -> PyResult<bool> {
    let numpy = seed.py().import("numpy")?;
    seed.is_instance(&numpy.getattr("ndarray")?)
}

/// `operator.index(value)`, refused below zero as numpy refuses it.
fn non_negative<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let int = value
        .py()
        .import("operator")?
        .call_method1("index", (value,))?;
    if int.lt(0)? {
        return Err(PyValueError::new_err("expected non-negative integer"));
    }
    Ok(int)
}

/// The bits of a non-negative Python int, and its big-endian bytes.
fn int_bytes(int: &Bound<'_, PyAny>) -> PyResult<(u64, Vec<u8>)> {
    let bits: u64 = int.call_method0("bit_length")?.extract()?;
    let len = bits.div_ceil(8);
    let bytes: Vec<u8> = int.call_method1("to_bytes", (len, "big"))?.extract()?;
    Ok((bits, bytes))
}

/// A sequence of non-negative ints: the key is SHA-256 of
/// `"fairdeck-py/seed-list/"`, the count as 8 bytes little-endian, then for
/// each int its byte length (8 bytes little-endian) and its big-endian
/// bytes; the entropy bound is the sum of their bit lengths (at most 256).
fn int_list(items: &[Bound<'_, PyAny>]) -> PyResult<Key> {
    let mut hash = Sha256::new();
    hash.update(b"fairdeck-py/seed-list/");
    hash.update((items.len() as u64).to_le_bytes());
    let mut bits = 0u64;
    for item in items {
        if item.is_instance_of::<PyBool>()
            || !(item.is_instance_of::<PyInt>() || is_numpy_integer(item)?)
        {
            return Err(type_error(item));
        }
        let (b, bytes) = int_bytes(&non_negative(item)?)?;
        bits = bits.saturating_add(b);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(Key {
        seed: Seed::from_bytes(hash.finalize().into()),
        entropy: KeyEntropy {
            origin: "seed-list",
            bits: bits.min(256) as f64,
        },
    })
}

/// A `numpy.random.SeedSequence`: the key is its `generate_state(8,
/// numpy.uint32)` as 32 bytes little-endian (numpy's own way of keying a
/// bit generator from a seed sequence); the entropy bound is the bit
/// length of its `entropy` (at most 256).
fn seed_sequence(seq: &Bound<'_, PyAny>) -> PyResult<Key> {
    let numpy = seq.py().import("numpy")?;
    let words: Vec<u32> = seq
        .call_method1("generate_state", (8, numpy.getattr("uint32")?))?
        .call_method0("tolist")?
        .extract()?;
    let mut key = [0u8; 32];
    for (chunk, w) in key.chunks_exact_mut(4).zip(&words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    let entropy = seq.getattr("entropy")?;
    let bits = if entropy.is_instance_of::<PyInt>() {
        int_bytes(&entropy)?.0
    } else {
        let mut total = 0u64;
        for item in entropy.try_iter()? {
            total = total.saturating_add(int_bytes(&non_negative(&item?)?)?.0);
        }
        total
    };
    Ok(Key {
        seed: Seed::from_bytes(key),
        entropy: KeyEntropy {
            origin: "seed-sequence",
            bits: bits.min(256) as f64,
        },
    })
}

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
    /// hashed with SHA-256); a non-negative `int` (or numpy integer) means
    /// `--seed` of its decimal digits; a sequence of non-negative ints and a
    /// `numpy.random.SeedSequence` are keyed as `int_list` and
    /// `seed_sequence` say. A negative int is refused, as numpy refuses it.
    pub fn from_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(seed) = seed.filter(|s| !s.is_none()) else {
            let seed = fresh_seed().map_err(|e| PyOSError::new_err(format!("{e:#}")))?;
            return Ok(Key {
                seed,
                entropy: KeyEntropy::OS,
            });
        };
        if let Ok(s) = seed.cast::<PyString>() {
            return Ok(Self::from_text(s.to_str()?));
        }
        // A bool is an int (`True` keys as 1), as numpy seeds it.
        if seed.is_instance_of::<PyInt>() || is_numpy_integer(seed)? {
            let value = non_negative(seed)?;
            return Ok(Self::from_text(
                &value.call_method0("__index__")?.str()?.to_string(),
            ));
        }
        if seed.hasattr("generate_state")? && seed.hasattr("spawn_key")? {
            return seed_sequence(seed);
        }
        let items = if seed.is_instance_of::<PyList>() || seed.is_instance_of::<PyTuple>() {
            seed.try_iter()?.collect::<PyResult<Vec<_>>>()?
        } else if is_numpy_array(seed)? {
            seed.call_method0("tolist")?
                .try_iter()?
                .collect::<PyResult<Vec<_>>>()?
        } else {
            return Err(type_error(seed));
        };
        int_list(&items)
    }

    /// The key of `--seed text`.
    pub fn from_text(text: &str) -> Self {
        let (seed, entropy) = KeyEntropy::of_text(text);
        Key { seed, entropy }
    }
}
