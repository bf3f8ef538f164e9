//! `Generator.deal`: the report layer's deal document, as a dict.
//!
//! The keyword arguments become `fairdeck_report::deal::Request` (whose
//! `validate` holds every default and rule the CLI applies too), the
//! generator's stream deals, and the report's JSON becomes the dict, so its
//! keys and values are the CLI's by construction.

use fairdeck::cards::DealShape;
use fairdeck_report::deal::{KeySource, Request};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{report_error, value_error};
use crate::seed::Key;
use crate::stream::Stream;

/// What to deal: the CLI's `--game`, `--players`, `--cards`, `--deck`.
pub struct DealArgs<'a> {
    pub game: Option<&'a str>,
    pub players: Option<usize>,
    pub cards: Option<usize>,
    pub deck: Option<&'a str>,
}

impl DealArgs<'_> {
    fn request(&self) -> Request {
        Request {
            game: self.game.map(str::to_string),
            players: self.players,
            cards: self.cards,
            deck: self.deck.map(str::to_string),
            ..Request::default()
        }
    }
}

/// Shuffles a deck and deals it; returns the CLI's JSON document as a dict
/// (keys in the CLI's order).
pub fn deal<'py>(
    py: Python<'py>,
    (key, stream): (&Key, &Stream),
    args: &DealArgs<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let plan = args.request().validate().map_err(report_error)?;
    warn_short_key(py, key, &plan.shape)?;
    let source = KeySource {
        seed: key.seed.to_hex(),
        generator: stream.kind.name(),
        key: key.entropy,
    };
    let shuffled = stream
        .with(|dice| plan.deal_with(dice, source))
        .map_err(report_error)?;
    let text = serde_json::to_string(&plan.report(shuffled, None)).map_err(value_error)?;
    py.import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()
        .map_err(Into::into)
}

/// A `UserWarning` when a seed text holds fewer bits than the deal needs,
/// as the CLI warns on stderr: most deals can never come out.
fn warn_short_key(py: Python<'_>, key: &Key, shape: &DealShape) -> PyResult<()> {
    let needed = shape.bits();
    if key.entropy.origin != "seed-text" || key.entropy.bits >= needed {
        return Ok(());
    }
    let message = format!(
        "the seed text holds at most {:.1} bits but a deal ({} deals) needs {needed:.1}: at \
         most 1 in 2^{:.0} of the deals can ever be dealt; use a 64-hex-digit key or seed=None",
        key.entropy.bits,
        shape.formula(),
        needed - key.entropy.bits
    );
    let message = std::ffi::CString::new(message).map_err(value_error)?;
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}
