//! The choice tree of an algorithm on a tiny deck, and the path one seed takes
//! through it: the picture of the Hungarian article's permutation tree.
//!
//! Every leaf is one sequence of dice answers; the tree is walked with the
//! core crate's [`Enumerator`] (the same walk that proves uniformity), and the
//! seeded run is replayed through a dice that records its answers.

use fairdeck::algorithms::{Algorithm, Params};
use fairdeck::dice::{Dice, Enumerator};
use serde::Serialize;

use crate::random::Randomness;
use crate::shuffle::Request;
use crate::{Field, refuse};

/// Largest deck whose tree is drawn.
pub const MAX_N: usize = 4;
/// Most leaves sent (a tree wider than this is not readable anyway).
pub const MAX_LEAVES: usize = 512;
/// Rolls after which a path of an unbounded algorithm is cut.
pub const MAX_DEPTH: usize = 12;

/// One path from the root: the answers rolled, their bounds, the result.
#[derive(Debug, Serialize)]
pub struct Leaf {
    /// The dice's answers, 0-based, in order.
    pub rolls: Vec<u64>,
    /// The bound of each roll (the answer is below it).
    pub bounds: Vec<u64>,
    /// The resulting order of the cards 1..=n.
    pub order: Vec<u64>,
    /// Whether the path was cut at [`MAX_DEPTH`] rolls (a rejection loop).
    pub cut: bool,
}

/// The whole tree and the seeded path.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The algorithm's catalogue name.
    pub algorithm: &'static str,
    /// Cards 1..=n.
    pub n: usize,
    /// The seed of the path taken.
    pub seed: String,
    /// Every leaf, in the walk's (lexicographic) order.
    pub leaves: Vec<Leaf>,
    /// The answers the seeded run rolled.
    pub taken: Vec<u64>,
}

/// A dice that remembers the answers of the dice it wraps.
struct Recording<D> {
    inner: D,
    rolls: Vec<u64>,
}

impl<D: Dice> Dice for Recording<D> {
    fn roll(&mut self, n: u64) -> u64 {
        let answer = self.inner.roll(n);
        self.rolls.push(answer);
        answer
    }
}

/// A dice that walks the tree and stops answering after [`MAX_DEPTH`] rolls.
struct Cut {
    walk: Enumerator,
    cut: bool,
}

impl Dice for Cut {
    fn roll(&mut self, n: u64) -> u64 {
        if self.walk.depth() >= MAX_DEPTH {
            self.cut = true;
            return 0;
        }
        self.walk.roll(n)
    }
    fn exhausted(&self) -> bool {
        self.cut
    }
}

/// Walks the tree of `args.algorithm` on `args.n` cards and replays the
/// path `random` takes.
///
/// O(leaves · n) time.
///
/// # Errors
///
/// An unknown algorithm, `n` over [`MAX_N`], or a tree wider than
/// [`MAX_LEAVES`].
pub fn run(args: &Request, random: Randomness) -> crate::Result<Report> {
    let alg: Algorithm =
        (args.algorithm.parse()).map_err(|e: fairdeck::Error| refuse(Field::Alg, e.to_string()))?;
    let n = args.n as usize;
    if !(1..=MAX_N).contains(&n) {
        return Err(refuse(
            Field::N,
            format!("the tree is drawn for n from 1 to {MAX_N}"),
        ));
    }
    let params = Params {
        rounds: args.rounds,
        deal: args.deal.map(|k| k as usize),
    };
    let leaves = walk(alg, n, &params)?;
    let mut recording = Recording {
        inner: random.dice,
        rolls: Vec::new(),
    };
    alg.permute_with(n, &params, &mut recording);
    Ok(Report {
        algorithm: alg.name(),
        n,
        seed: random.seed.to_hex(),
        leaves,
        taken: recording.rolls,
    })
}

fn walk(alg: Algorithm, n: usize, params: &Params) -> crate::Result<Vec<Leaf>> {
    let mut dice = Cut {
        walk: Enumerator::new(),
        cut: false,
    };
    let mut leaves = Vec::new();
    loop {
        let order = alg.permute_with(n, params, &mut dice);
        if leaves.len() == MAX_LEAVES {
            return Err(refuse(
                Field::N,
                format!(
                    "{} on {n} cards has more than {MAX_LEAVES} paths: too many to draw",
                    alg.name()
                ),
            ));
        }
        let depth = dice.walk.depth();
        leaves.push(Leaf {
            rolls: dice.walk.path_answers().take(depth).collect(),
            bounds: dice.walk.path_bounds().take(depth).collect(),
            order: order.into_iter().map(|c| c as u64 + 1).collect(),
            cut: dice.cut,
        });
        dice.cut = false;
        if !dice.walk.next_path() {
            return Ok(leaves);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_yates_on_three_has_six_leaves_one_per_order() {
        let leaves = walk(Algorithm::FisherYates, 3, &Params::default()).unwrap();
        let mut orders: Vec<_> = leaves.iter().map(|l| l.order.clone()).collect();
        orders.sort();
        orders.dedup();
        assert_eq!(leaves.len(), 6);
        assert_eq!(orders.len(), 6);
    }

    #[test]
    fn naive_swap_on_three_has_27_leaves_for_6_orders() {
        let leaves = walk(Algorithm::NaiveSwap, 3, &Params::default()).unwrap();
        assert_eq!(leaves.len(), 27);
        assert!(leaves.iter().all(|l| l.bounds == [3, 3, 3]));
    }
}
