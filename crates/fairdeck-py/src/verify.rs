//! `fairdeck.verify`: `fairdeck fair verify TRANSCRIPT --format json` as a
//! dict, for a transcript of any version (1, 2, 2.1, 3, 3.1).
//!
//! The keyword arguments become `fairdeck_report::verify::VerifyRequest`
//! (the CLI's flags, file contents instead of file names), and the
//! report's JSON becomes the dict, so its keys and values are the CLI's by
//! construction; the verdict's advice names the keywords (`commitment=`).

use fairdeck_report::verify::{self as report, SeatKey, Spelled, VerifyRequest};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::boundary::guard;
use crate::convert::{keyword, report_error, value_error};

/// Verifies a fair-dealing transcript of any version against what the
/// player recorded, as ``fairdeck fair verify TRANSCRIPT --format json``.
///
/// ``transcript`` is the JSON text; ``commitment`` and ``lock`` are 64 hex
/// digits, ``seat`` and ``seed`` the player's own, ``played`` the deal
/// numbers shown (``"0,1,2"`` or ``"0-2"``), ``server_secret`` a version 1
/// deal's secret; ``key`` and ``evidence`` are the texts of a version 3
/// seat's key file and evidence file, ``seat_keys`` a list of
/// ``"SEAT=FINGERPRINT"``. Returns the verdict as a dict (``verdict``,
/// ``differences``, ``message``, … as the CLI prints them).
///
/// Raises ValueError for a transcript that is not one, an argument its
/// version does not read, or one that is not valid, naming the keyword.
#[pyfunction]
#[pyo3(signature = (
    transcript, *, commitment=None, lock=None, seat=None, seed=None, played=None,
    server_secret=None, key=None, evidence=None, seat_keys=None,
))]
#[allow(clippy::too_many_arguments)] // one per keyword argument, as the CLI's flags
pub fn verify<'py>(
    py: Python<'py>,
    transcript: String,
    commitment: Option<String>,
    lock: Option<String>,
    seat: Option<String>,
    seed: Option<String>,
    played: Option<String>,
    server_secret: Option<String>,
    key: Option<String>,
    evidence: Option<String>,
    seat_keys: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seat_keys = (seat_keys.unwrap_or_default().iter())
        .map(|pin| pin.parse::<SeatKey>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(format!("seat_keys=: {e}")))?;
    let request = VerifyRequest {
        transcript,
        commitment,
        lock,
        seat,
        seed,
        played,
        server_secret,
        key,
        evidence,
        seat_keys,
    };
    let verdict = guard("verify", || {
        Ok(py.detach(|| report::verify(&request, &Spelled(&keyword))))
    })?
    .map_err(report_error)?;
    let text = serde_json::to_string(&verdict).map_err(value_error)?;
    py.import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()
        .map_err(Into::into)
}
