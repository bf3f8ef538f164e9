//! The crate's own test vectors and tamper builders: the pinned vectors of
//! `docs/fair-dealing.md` (versions 1, 2 and 2.1), every class of tampering
//! with a record, and a room colluding with a seat. Test-only: nothing here
//! is compiled into the library.

mod collusion;
mod tamper;
mod vectors;
mod vectors2;

use std::collections::BTreeMap;

use fairdeck::dice::Enumerator;

/// Counts the orders `shuffle` makes of the cards `0..n` over every path of
/// an [`Enumerator`], asserting that every path has the same probability
/// (the same product of bounds), so that equal counts mean equal
/// probabilities.
pub(crate) fn orders(
    n: usize,
    mut shuffle: impl FnMut(&mut [usize], &mut Enumerator),
) -> BTreeMap<Vec<usize>, u64> {
    let mut e = Enumerator::new();
    let (mut counts, mut weight) = (BTreeMap::new(), None);
    loop {
        let mut cards: Vec<usize> = (0..n).collect();
        shuffle(&mut cards, &mut e);
        let w: u64 = e.path_bounds().product();
        assert_eq!(*weight.get_or_insert(w), w, "paths of unequal probability");
        *counts.entry(cards).or_insert(0) += 1;
        if !e.next_path() {
            return counts;
        }
    }
}
