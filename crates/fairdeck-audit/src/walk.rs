//! The walking dice: answers every roll so that repeated runs of an
//! algorithm visit every branch of its choice tree, down to a depth limit.

use fairdeck::dice::{Dice, Enumerator, RngDice};
use fairdeck::rng::{AnyRng, Generator, Seed};

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

/// A dice for sizing a choice tree before walking it: it answers 0 (the
/// walk's first path) or at random (a fixed-seed generator, so sizing is
/// reproducible), records the bound of every roll, and stops a path after a
/// depth limit as [`Walker`] does.
#[derive(Debug)]
pub struct Probe {
    random: Option<RngDice<AnyRng>>,
    bounds: Vec<u64>,
    depth: usize,
    cut: bool,
}

impl Dice for Probe {
    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        if self.cut || self.bounds.len() >= self.depth {
            self.cut = true;
            return 0;
        }
        self.bounds.push(n);
        self.random.as_mut().map_or(0, |d| d.roll(n))
    }

    fn exhausted(&self) -> bool {
        self.cut
    }
}

/// Random paths [`fixed_tree_paths`] compares with the first.
const PROBES: u64 = 16;

/// The number of paths of a choice tree whose paths all roll the same
/// bounds, or `None` when it cannot tell: a path longer than `max_depth`
/// rolls (an unbounded loop), paths whose bounds differ, or a count past
/// u128. The first path (all answers 0, where [`Walker`] starts) and 16
/// random ones are run; when they all roll the same bounds b₁…b_L, the
/// tree has b₁·…·b_L paths — exactly, for an algorithm whose bounds do not
/// depend on the answers (every catalogue algorithm without a rejection
/// loop), which covers every path of the tree. O(17 runs of `permute`).
///
/// ```
/// use fairdeck::algorithms::Algorithm;
/// use fairdeck_audit::walk::fixed_tree_paths;
///
/// let naive = fixed_tree_paths(|d| Algorithm::NaiveSwap.permute(9, d), 200);
/// assert_eq!(naive, Some(387_420_489)); // 9^9
/// assert_eq!(fixed_tree_paths(|d| Algorithm::FisherYates.permute(5, d), 200), Some(120));
/// assert_eq!(fixed_tree_paths(|d| Algorithm::Rejection.permute(5, d), 200), None);
/// ```
pub fn fixed_tree_paths<F>(mut permute: F, max_depth: usize) -> Option<u128>
where
    F: FnMut(&mut Probe) -> Vec<usize>,
{
    let seed = Seed::from_text("fairdeck-audit/tree-size");
    let mut run = |random: Option<RngDice<AnyRng>>| {
        let mut probe = Probe {
            random,
            bounds: Vec::new(),
            depth: max_depth,
            cut: false,
        };
        permute(&mut probe);
        (!probe.cut).then_some(probe.bounds)
    };
    let first = run(None)?;
    let mut dice = RngDice::new(Generator::ChaCha8.build(&seed));
    for _ in 0..PROBES {
        let key = Seed::from_bytes(std::array::from_fn(|_| dice.roll(256) as u8));
        let random = RngDice::new(Generator::ChaCha8.build(&key));
        if run(Some(random))? != first {
            return None;
        }
    }
    first
        .iter()
        .try_fold(1u128, |acc, &b| acc.checked_mul(u128::from(b)))
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

    /// The sizes match complete walks, and trees whose paths differ (or
    /// never end) are not sized.
    #[test]
    fn fixed_tree_paths_counts_the_walk() {
        use fairdeck::algorithms::Algorithm;
        for alg in [
            Algorithm::NaiveSwap,
            Algorithm::Sattolo,
            Algorithm::KnuthDeal,
        ] {
            for n in 1..=5 {
                let sized = fixed_tree_paths(|d| alg.permute(n, d), 200);
                let walked =
                    crate::exact::distribution(n, |w| alg.permute(n, w), Default::default())
                        .unwrap()
                        .paths;
                assert_eq!(sized, Some(u128::from(walked)), "{alg} n = {n}");
            }
        }
        // One coin, then a second only after heads: paths 0 0, 0 1, 1.
        let uneven = |d: &mut Probe| {
            if d.roll(2) == 0 {
                d.roll(2);
            }
            vec![0]
        };
        assert_eq!(fixed_tree_paths(uneven, 10), None);
        assert_eq!(
            fixed_tree_paths(|d| Algorithm::FisherYates.permute(9, d), 3),
            None
        );
    }
}
