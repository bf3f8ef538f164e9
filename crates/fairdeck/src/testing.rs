//! Shared helpers for the crate's own tests.

use std::collections::BTreeMap;

use crate::dice::Enumerator;

/// Runs `f` on every path of the enumerator and counts the outcomes,
/// asserting that every path has the same probability (the same product of
/// bounds), so that equal counts mean equal probabilities.
pub fn enumerate<T: Ord>(mut f: impl FnMut(&mut Enumerator) -> T) -> BTreeMap<T, u64> {
    let mut e = Enumerator::new();
    let mut counts = BTreeMap::new();
    let mut weight = None;
    loop {
        let out = f(&mut e);
        let w: u64 = e.path_bounds().product();
        assert_eq!(*weight.get_or_insert(w), w, "paths of unequal probability");
        *counts.entry(out).or_insert(0) += 1;
        if !e.next_path() {
            return counts;
        }
    }
}

/// [`enumerate`] for an in-place shuffle: counts the orders `shuffle` makes
/// of the cards `0..n` over every path.
pub fn orders(
    n: usize,
    mut shuffle: impl FnMut(&mut [usize], &mut Enumerator),
) -> BTreeMap<Vec<usize>, u64> {
    enumerate(|e| {
        let mut v: Vec<usize> = (0..n).collect();
        shuffle(&mut v, e);
        v
    })
}

/// n! for small n.
pub fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// Asserts every count in the map is the same and returns how many outcomes there are.
pub fn assert_all_equal<T: std::fmt::Debug>(counts: &BTreeMap<T, u64>, what: &str) -> u64 {
    let first = *counts.values().next().expect("no outcomes");
    assert!(
        counts.values().all(|&c| c == first),
        "{what}: outcomes not equally likely: {counts:?}"
    );
    counts.len() as u64
}
