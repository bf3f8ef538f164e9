//! `choice(p=…)`: picks in proportion to float weights, exactly.
//!
//! A float64 is an exact binary fraction `m · 2^e`. The weights are scaled
//! to one common power of two, which makes every weight an integer `w_i`
//! (a big integer when their exponents are far apart), and item `i` is
//! picked with probability `w_i / Σ w` exactly — the given floats
//! normalised by their exact sum, which numpy only checks to be within
//! `sqrt(eps)` of 1. A pick draws one uniform integer below `Σ w` by
//! rejection (never a float) and finds the item whose cumulative weight
//! passes it. Without replacement, each pick removes its item's weight
//! (successive sampling, as numpy does), in O(log n) per pick.

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::AnyRng;
use num_bigint::BigUint;
use pyo3::exceptions::{PyTypeError, PyValueError};

use crate::convert::type_name;
use pyo3::prelude::*;
use rand_core::Rng;

/// The weights as integers over one common power of two, in a Fenwick tree.
pub struct Weights {
    /// Fenwick tree of the weights (1-based).
    tree: Vec<BigUint>,
    /// The sum of the weights still in the tree.
    total: BigUint,
    /// Items whose weight is not zero.
    nonzero: usize,
}

/// The exact value of a finite, non-negative float: `(m, e)` with value `m · 2^e`.
fn parts(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let mantissa = bits & ((1 << 52) - 1);
    if exponent == 0 {
        (mantissa, -1074)
    } else {
        (mantissa | (1 << 52), exponent - 1075)
    }
}

impl Weights {
    /// Reads `p` (checked as numpy checks it) for a population of `n`.
    pub fn from_p(p: &Bound<'_, PyAny>, n: u64) -> PyResult<Self> {
        let numpy = p.py().import("numpy")?;
        // numpy's order and exception types: `len(p)` first (a number is a
        // TypeError), then the cast to float64, which must be `safe` for
        // numbers (complex numbers and objects are a TypeError) and parses
        // strs (a ValueError when one is not a number).
        if p.len().is_err() {
            return Err(PyTypeError::new_err(format!(
                "p must be a sequence of probabilities, not {}",
                type_name(p)
            )));
        }
        let given = numpy.call_method1("asarray", (p,))?;
        let float64 = numpy.getattr("float64")?;
        let dtype = given.getattr("dtype")?;
        let text = matches!(
            dtype.getattr("kind")?.extract::<String>()?.as_str(),
            "U" | "S"
        );
        if !text
            && !numpy
                .call_method1("can_cast", (&dtype, &float64, "safe"))?
                .is_truthy()?
        {
            return Err(PyTypeError::new_err(format!(
                "p of dtype {} does not cast to float64 under the 'safe' rule",
                dtype.repr()?
            )));
        }
        let array = numpy.call_method1("asarray", (&given, float64))?;
        if array.getattr("ndim")?.extract::<usize>()? != 1 {
            return Err(PyValueError::new_err("p must be 1-dimensional"));
        }
        let values: Vec<f64> = array.call_method0("tolist")?.extract()?;
        if values.len() as u64 != n {
            return Err(PyValueError::new_err("a and p must have same size"));
        }
        if values.iter().any(|v| v.is_nan()) {
            return Err(PyValueError::new_err("probabilities contain NaN"));
        }
        if values.iter().any(|&v| v < 0.0 || v.is_infinite()) {
            return Err(PyValueError::new_err("probabilities are not non-negative"));
        }
        let sum: f64 = values.iter().sum();
        if (sum - 1.0).abs() > f64::EPSILON.sqrt() {
            return Err(PyValueError::new_err("probabilities do not sum to 1"));
        }
        let parts: Vec<(u64, i32)> = values.iter().map(|&v| parts(v)).collect();
        let low = (parts.iter())
            .filter(|(m, _)| *m != 0)
            .map(|&(_, e)| e)
            .min()
            .unwrap_or(0);
        let mut weights = Weights {
            tree: vec![BigUint::default(); values.len() + 1],
            total: BigUint::default(),
            nonzero: 0,
        };
        for (i, &(m, e)) in parts.iter().enumerate() {
            if m != 0 {
                let w = BigUint::from(m) << (e - low) as usize;
                weights.add(i, &w);
                weights.total += w;
                weights.nonzero += 1;
            }
        }
        Ok(weights)
    }

    /// Items that can still be picked.
    pub fn nonzero(&self) -> usize {
        self.nonzero
    }

    fn add(&mut self, item: usize, w: &BigUint) {
        let mut i = item + 1;
        while i < self.tree.len() {
            self.tree[i] += w;
            i += i & i.wrapping_neg();
        }
    }

    fn sub(&mut self, item: usize, w: &BigUint) {
        let mut i = item + 1;
        while i < self.tree.len() {
            self.tree[i] -= w;
            i += i & i.wrapping_neg();
        }
    }

    /// The weight of one item.
    fn weight(&self, item: usize) -> BigUint {
        let prefix = |mut i: usize| {
            let mut s = BigUint::default();
            while i > 0 {
                s += &self.tree[i];
                i -= i & i.wrapping_neg();
            }
            s
        };
        prefix(item + 1) - prefix(item)
    }

    /// The item whose cumulative weight first exceeds `r` (`r < total`).
    fn find(&self, mut r: BigUint) -> usize {
        let mut pos = 0;
        let mut step = (self.tree.len() - 1).next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next < self.tree.len() && self.tree[next] <= r {
                r -= &self.tree[next];
                pos = next;
            }
            step >>= 1;
        }
        pos
    }

    /// One pick; `remove` takes the item out of later picks.
    pub fn pick(&mut self, dice: &mut RngDice<AnyRng>, remove: bool) -> usize {
        let r = below(&self.total, dice);
        let item = self.find(r);
        if remove {
            let w = self.weight(item);
            self.sub(item, &w);
            self.total -= w;
            self.nonzero -= 1;
        }
        item
    }
}

/// A uniform integer below `bound` (> 0): an exact roll when it fits in 64
/// bits, otherwise the bits of `bound`'s length by rejection (fewer than two
/// tries on average).
fn below(bound: &BigUint, dice: &mut RngDice<AnyRng>) -> BigUint {
    if let Some(n) = bound.to_u64_digits().first().filter(|_| bound.bits() <= 64) {
        return BigUint::from(dice.roll(*n));
    }
    let bits = bound.bits();
    let words = bits.div_ceil(64) as usize;
    loop {
        let mut digits: Vec<u64> = (0..words).map(|_| dice.rng_mut().next_u64()).collect();
        let spare = words as u64 * 64 - bits;
        if let Some(top) = digits.last_mut() {
            *top >>= spare;
        }
        let bytes: Vec<u8> = digits.iter().flat_map(|d| d.to_le_bytes()).collect();
        let x = BigUint::from_bytes_le(&bytes);
        if &x < bound {
            return x;
        }
    }
}
