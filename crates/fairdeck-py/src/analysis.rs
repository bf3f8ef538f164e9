//! `fairdeck.exact` and `fairdeck.audit`: the CLI's `exact` and `audit
//! --input`, returning dicts with the CLI's JSON keys.

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::exact::{self as walk, Limits};
use fairdeck_audit::stats::{self, Tally};
use fairdeck_report::audit as report;
use num_rational::BigRational;
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::numpy;
use crate::boundary::{buffer, guard};
use crate::convert::value_error;

/// Largest n `exact` accepts (9! = 362880 outcomes), as the CLI.
const EXACT_MAX_N: usize = 9;

/// The exact output distribution of a catalogue algorithm on n items
/// (``fairdeck exact ALG -n N``): every path of its choice tree is walked
/// and the probabilities are summed as fractions.
///
/// Returns a dict with the CLI's JSON keys: ``algorithm``, ``n``, ``paths``,
/// ``depth``, ``support``, ``orders`` (n!), ``uniform``, ``total_variation``
/// and ``unresolved`` (``fractions.Fraction``), and ``outcomes``: a dict from
/// each reachable permutation (a tuple of 0..n-1) to its probability as a
/// ``Fraction``. Unbounded algorithms are cut at ``max_depth`` rolls; the
/// probability on cut paths is ``unresolved``.
///
/// Raises ValueError for an unknown algorithm, n outside 1..9, or a walk
/// that needs more than ``max_paths`` paths.
#[pyfunction]
#[pyo3(signature = (algorithm, n, max_paths=10_000_000, max_depth=200))]
pub fn exact<'py>(
    py: Python<'py>,
    algorithm: &str,
    n: usize,
    max_paths: u64,
    max_depth: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let alg: Algorithm = algorithm.parse().map_err(value_error)?;
    if !(1..=EXACT_MAX_N).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "n must be between 1 and {EXACT_MAX_N}, got {n}"
        )));
    }
    if max_paths == 0 {
        return Err(PyValueError::new_err("max_paths must be positive"));
    }
    let limits = Limits {
        max_paths,
        max_depth,
    };
    let d = guard("exact", || {
        py.detach(|| walk::distribution(n, |w| alg.permute(n, w), limits))
            .map_err(value_error)
    })?;
    let fraction = fraction_type(py)?;
    let to_fraction = |q: &BigRational| fraction.call1((q.numer().clone(), q.denom().clone()));
    let outcomes = PyDict::new(py);
    for (p, q) in &d.outcomes {
        outcomes.set_item(PyTuple::new(py, p)?, to_fraction(q)?)?;
    }
    let tv = d.total_variation();
    let doc = PyDict::new(py);
    doc.set_item("algorithm", alg.name())?;
    doc.set_item("n", d.n)?;
    doc.set_item("paths", d.paths)?;
    doc.set_item("depth", d.depth)?;
    doc.set_item("support", d.support())?;
    doc.set_item("orders", walk::factorial(d.n))?;
    let (at_least, at_most) = d.total_variation_bounds();
    doc.set_item("uniform", d.is_exactly_uniform())?;
    doc.set_item("uniform_on_resolved", d.is_uniform())?;
    doc.set_item("total_variation", to_fraction(&tv)?)?;
    doc.set_item("total_variation_at_least", to_fraction(&at_least)?)?;
    doc.set_item("total_variation_at_most", to_fraction(&at_most)?)?;
    doc.set_item("unresolved", to_fraction(&d.unresolved)?)?;
    doc.set_item("outcomes", outcomes)?;
    Ok(doc)
}

fn fraction_type(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("fractions")?.getattr("Fraction")
}

/// Statistical audit of permutations produced by any code: the CLI's
/// ``fairdeck audit --input FILE``, on a 2-D integer array (or list of
/// lists) with one permutation per row.
///
/// ``base`` is 0 or 1 (the numbering of the rows); by default it is detected
/// from the first row, as the CLI does: 0 if it contains 0, else 1.
/// ``alpha`` is the family-wise false-alarm rate (Bonferroni over the tests).
///
/// ``detect`` asks for the shuffles needed to catch a card × position bias
/// of that size; ``tolerance`` (with ``confidence``) asks for the
/// equivalence check that alone can say ``"uniform within tolerance"``.
///
/// Returns a dict with the CLI's JSON keys: ``source``, ``n``, ``trials``,
/// ``verdict`` (``"biased"``, ``"no bias detected"``, ``"uniform within
/// tolerance"``, ``"undecided"`` or ``"inconclusive"`` — never a bare
/// "uniform"), ``detectable`` (per test: the smallest bias it would have
/// caught with probability 0.8), ``detect`` and ``equivalence`` when asked,
/// ``alpha``, ``per_test_alpha``, ``tests`` (``name``, ``statistic``,
/// ``dof``, ``p_value``, ``passed``), ``failed`` and ``skipped``.
///
/// Raises TypeError for a non-integer array, ValueError for a wrong shape
/// or a row that is not a permutation.
#[pyfunction]
#[pyo3(signature = (perms, alpha=stats::DEFAULT_ALPHA, base=None, detect=None, tolerance=None, confidence=0.999))]
pub fn audit<'py>(
    py: Python<'py>,
    perms: &Bound<'py, PyAny>,
    alpha: f64,
    base: Option<usize>,
    detect: Option<f64>,
    tolerance: Option<f64>,
    confidence: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let open_unit = |x: f64| x > 0.0 && x < 1.0;
    for (name, value) in [
        ("alpha", Some(alpha)),
        ("detect", detect),
        ("tolerance", tolerance),
        ("confidence", Some(confidence)),
    ] {
        if value.is_some_and(|v| !open_unit(v)) {
            return Err(PyValueError::new_err(format!(
                "{name} must be between 0 and 1"
            )));
        }
    }
    if base.is_some_and(|b| b > 1) {
        return Err(PyValueError::new_err("base must be 0 or 1"));
    }
    let rows = integer_rows(py, perms)?;
    let tally = guard("audit", || tally(py, &rows, base))?;
    if tally.trials == 0 || tally.n < 2 {
        return Err(PyValueError::new_err(
            "no permutations of at least 2 items to audit",
        ));
    }
    // One rule for every front end: the report layer's request, validation
    // and verdict, as `fairdeck audit --input` (issue 34).
    let request: report::Request = serde_json::from_value(serde_json::json!({
        "alpha": alpha, "detect": detect, "tolerance": tolerance, "confidence": confidence,
    }))
    .map_err(value_error)?;
    let judged = guard("audit", || {
        py.detach(|| report::judge(&request, "array".into(), None, &tally))
            .map_err(value_error)
    })?;
    let text = serde_json::to_string(&judged).map_err(value_error)?;
    Ok(py
        .import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()?)
}

/// `perms` as a C-contiguous 2-D `int64` array.
fn integer_rows<'py>(
    py: Python<'py>,
    perms: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArray2<'py, i64>> {
    let np = numpy(py)?;
    let arr = np.call_method1("asarray", (perms,))?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 2 {
        return Err(PyValueError::new_err(format!(
            "perms must be a 2-D array (one permutation per row), got {ndim} dimension(s)"
        )));
    }
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "perms must hold integers, not {}",
            dtype.str()?
        )));
    }
    let cast = np.call_method1("ascontiguousarray", (arr, "int64"))?;
    cast.extract()
}

/// Counts the rows (shifted by the base) into a tally, without the GIL.
fn tally(py: Python<'_>, rows: &PyReadonlyArray2<'_, i64>, base: Option<usize>) -> PyResult<Tally> {
    let n = rows.shape()[1];
    // The tally keeps an n × n table of position counts (8 bytes each).
    let cells = n
        .checked_mul(n)
        .ok_or_else(|| PyValueError::new_err(format!("rows of {n} items are too long to audit")))?;
    buffer::<u64>(cells, "audit")?;
    let data = rows.as_slice().map_err(value_error)?;
    if data.is_empty() || n == 0 {
        return Ok(Tally::new(n));
    }
    let base = base.unwrap_or_else(|| usize::from(!data[..n].contains(&0))) as i64;
    py.detach(|| {
        let mut tally = Tally::new(n);
        let mut p = vec![0usize; n];
        for (row, values) in data.chunks_exact(n).enumerate() {
            for (slot, &v) in p.iter_mut().zip(values) {
                let shifted = v.checked_sub(base).and_then(|s| usize::try_from(s).ok());
                *slot = shifted.ok_or_else(|| {
                    PyValueError::new_err(format!("row {row}: value {v} is below the base {base}"))
                })?;
            }
            tally
                .add(&p)
                .map_err(|e| PyValueError::new_err(format!("row {row}: {e}")))?;
        }
        Ok(tally)
    })
}
