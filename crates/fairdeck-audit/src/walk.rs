//! The walking dice: answers every roll so that repeated runs of an
//! algorithm visit every branch of its choice tree, down to a depth limit.

use fairdeck::dice::{Dice, Enumerator};

/// A dice that enumerates an algorithm's choice tree depth-first, one path
/// per run, cutting every path after `depth` rolls.
///
/// It is an [`Enumerator`] with a depth limit: past it,
/// [`Dice::exhausted`] turns `true` and rolls answer 0 without branching, so an
/// unbounded algorithm (a rejection loop) returns early and the walker counts
/// the path's probability as unresolved. O(depth) memory.
///
/// ```
/// use fairdeck::dice::Dice;
/// use fairdeck_audit::walk::Walker;
///
/// let mut w = Walker::new(2);
/// let mut leaves = 0;
/// loop {
///     while !w.exhausted() && w.roll(2) == 1 {}
///     leaves += 1;
///     if !w.next_path() { break; }
/// }
/// assert_eq!(leaves, 3); // 0, 10, and the cut path 11…
/// ```
#[derive(Debug, Clone)]
pub struct Walker {
    /// The path advancing and replay, shared with the core crate.
    walk: Enumerator,
    depth: usize,
    cut: bool,
}

impl Walker {
    /// A fresh walk on the first (all-zero) path, cutting paths after `depth` rolls.
    pub fn new(depth: usize) -> Self {
        Self {
            walk: Enumerator::new(),
            depth,
            cut: false,
        }
    }

    /// Whether the path just run was cut at the depth limit.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// The bounds of the rolls made on the path just run (before any cut).
    pub fn bounds(&self) -> impl Iterator<Item = u64> + '_ {
        self.walk.path_bounds()
    }

    /// Moves to the next path; `false` when the whole tree has been walked.
    pub fn next_path(&mut self) -> bool {
        self.cut = false;
        self.walk.next_path()
    }
}

impl Dice for Walker {
    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        if self.cut || self.walk.depth() >= self.depth {
            self.cut = true;
            return 0;
        }
        self.walk.roll(n)
    }

    fn exhausted(&self) -> bool {
        self.cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_a_finite_tree_completely() {
        let mut w = Walker::new(10);
        let mut seen = Vec::new();
        loop {
            let a = w.roll(2);
            let b = if a == 0 { w.roll(3) } else { 9 };
            seen.push((a, b, w.bounds().product::<u64>(), w.was_cut()));
            if !w.next_path() {
                break;
            }
        }
        let expected = vec![
            (0, 0, 6, false),
            (0, 1, 6, false),
            (0, 2, 6, false),
            (1, 9, 2, false),
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn cuts_an_unbounded_loop_at_the_depth() {
        // Roll a coin until heads (0): paths 0, 10, 110, and the cut 111….
        let mut w = Walker::new(3);
        let mut cut_mass = 0.0;
        let mut paths = 0;
        loop {
            while !w.exhausted() && w.roll(2) == 1 {}
            if w.was_cut() {
                cut_mass += 1.0 / w.bounds().product::<u64>() as f64;
            }
            paths += 1;
            if !w.next_path() {
                break;
            }
        }
        assert_eq!(paths, 4);
        assert!((cut_mass - 0.125).abs() < 1e-15);
    }
}
