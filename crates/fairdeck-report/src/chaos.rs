//! `chaos`: the degree of chaos of a sequence (Florian, “关于如何评价洗牌质量的猜想”):
//! the least swaps that sort it ascending or descending, whichever is fewer.

use fairdeck_audit::chaos;
use serde::{Deserialize, Serialize};

use crate::{Field, message, refuse};

/// The sequence to measure.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Request {
    /// Distinct integers.
    pub values: Vec<i64>,
}

/// What `fairdeck chaos VALUES --format json` prints.
#[derive(Debug, Serialize)]
pub struct One {
    /// The degree of chaos: the smaller of the two counts below.
    pub chaos: usize,
    /// Least swaps that sort the values ascending.
    pub ascending: usize,
    /// Least swaps that sort them descending.
    pub descending: usize,
}

/// The degree of chaos of the request's values.
///
/// # Errors
///
/// No values, or repeated values (naming `values`).
pub fn run(request: &Request) -> crate::Result<One> {
    if request.values.is_empty() {
        return Err(refuse(
            Field::Values,
            message![
                "give the values (e.g. 1 4 2 3 5)",
                message![", ", Field::Max, " N or ", Field::Distribution, " N"],
            ],
        ));
    }
    let c = chaos::chaos(&request.values)
        .map_err(|_| refuse(Field::Values, "the values must be distinct"))?;
    Ok(One {
        chaos: c.chaos,
        ascending: c.ascending,
        descending: c.descending,
    })
}
