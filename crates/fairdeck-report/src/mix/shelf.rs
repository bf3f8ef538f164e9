//! `mix shelf`: the exact distance from uniform of the
//! Diaconis–Fulman–Holmes shelf machine, one and two passes.

use fairdeck_audit::mix;
use num_traits::ToPrimitive;
use serde::Serialize;

use super::Request;
use crate::{Field, message, refuse};

/// One row of `mix shelf`: the distance after `passes` passes through
/// `shelves` shelves.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct ShelfRow {
    /// Shelves of the machine.
    pub shelves: u64,
    /// Passes through it (two through m are one through 2m²).
    pub passes: u32,
    /// Exact distance from uniform.
    pub total_variation: f64,
}

/// What `fairdeck mix shelf --format json` prints.
#[derive(Debug, Serialize)]
pub struct ShelfReport {
    /// `shelf`.
    pub model: &'static str,
    /// Cards in the deck.
    pub n: usize,
    /// How the rows were found.
    pub method: &'static str,
    /// One row per number of shelves, one pass then two.
    pub rows: Vec<ShelfRow>,
}

/// Most cards `mix shelf` takes (its exact law costs O(n⁴) big-integer
/// additions: a few seconds at this size).
pub const MAX_SHELF_N: usize = 104;

/// Most shelves `mix shelf` shows.
pub const MAX_SHELVES: u64 = 1000;

/// `mix shelf`: the exact distance from uniform of one and two passes
/// through 1 to `max_shelves` shelves (Diaconis–Fulman–Holmes shelf
/// machine, [`mix::shelf`]).
///
/// # Errors
///
/// A [`crate::RequestError`] for `n` outside 2..=[`MAX_SHELF_N`] or
/// `max_shelves` outside 1..=[`MAX_SHELVES`].
pub fn shelf(request: &Request) -> crate::Result<ShelfReport> {
    let n = request.n;
    if !(2..=MAX_SHELF_N).contains(&n) {
        return Err(refuse(
            Field::N,
            message![
                Field::N,
                format!(" must be between 2 and {MAX_SHELF_N} for shelf")
            ],
        ));
    }
    let most = request.max_shelves.unwrap_or(20);
    if !(1..=MAX_SHELVES).contains(&most) {
        return Err(refuse(
            Field::MaxShelves,
            message![
                Field::MaxShelves,
                format!(" must be between 1 and {MAX_SHELVES}")
            ],
        ));
    }
    let one: Vec<u64> = (1..=most).collect();
    let two: Vec<u64> = one.iter().map(|m| 2 * m * m).collect();
    let all: Vec<u64> = one.iter().chain(&two).copied().collect();
    let distances = mix::shelf::shelf_total_variations(n, &all);
    let rows = all
        .iter()
        .zip(distances)
        .enumerate()
        .map(|(i, (_, d))| ShelfRow {
            shelves: one[i % one.len()],
            passes: 1 + u32::from(i >= one.len()),
            total_variation: d.to_f64().unwrap_or(f64::NAN),
        })
        .collect();
    Ok(ShelfReport {
        model: "shelf",
        n,
        method: "exact (Diaconis-Fulman-Holmes valleys)",
        rows,
    })
}
