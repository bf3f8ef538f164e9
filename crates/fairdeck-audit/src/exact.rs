//! Exact output distributions, by walking an algorithm's whole choice tree.
//!
//! Run the algorithm once per path of its choice tree with a [`Walker`] as
//! its dice; the probability of a path is the product of `1/bound` over its
//! rolls, and the probability of an output is the sum over the paths that
//! produce it — an exact rational number. This is the "permutation tree" of
//! Juhász, “Keverjük a kártyát”, walked by machine.
//!
//! Unbounded algorithms (rejection and redraw loops) have infinite trees. The
//! walk deepens one roll at a time while the number of paths stays within
//! the budget; mass on paths cut at the depth limit is reported as
//! `unresolved`. Reported probabilities are the resolved masses divided by
//! `1 − unresolved`: each is within `unresolved` of the true value, and equal
//! to it when the loop restarts from the same state (the number of retries is
//! then independent of the accepted answers, so conditioning on "finished
//! within the depth" leaves the output distribution unchanged).

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::error::{Error, check_permutation};
use crate::walk::Walker;

/// Limits of an exact walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Refuse (or stop deepening) beyond this many paths in one walk.
    pub max_paths: u64,
    /// Never walk deeper than this many rolls per path.
    pub max_depth: usize,
}

/// Deepest walk ever made, whatever [`Limits::max_depth`] says: the walker
/// keeps 16 bytes per roll of the current path, and a path of more than 128
/// rolls with bounds ≥ 2 has a probability below 2⁻¹²⁸, which the walk
/// cannot represent anyway ([`Error::PathTooDeep`]).
pub const MAX_DEPTH: usize = 10_000;

impl Default for Limits {
    /// 10⁷ paths (a few seconds), 200 rolls.
    fn default() -> Self {
        Self {
            max_paths: 10_000_000,
            max_depth: 200,
        }
    }
}

/// An exact output distribution over the permutations of `0..n`.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// Number of items permuted.
    pub n: usize,
    /// Each reachable arrangement with its probability, in lexicographic order.
    pub outcomes: Vec<(Vec<usize>, BigRational)>,
    /// Probability mass on paths cut at the depth limit (0 when complete).
    pub unresolved: BigRational,
    /// Paths walked in the final walk.
    pub paths: u64,
    /// Depth (rolls per path) of the final walk.
    pub depth: usize,
}

/// `n!` as a big integer.
pub fn factorial(n: usize) -> BigInt {
    (1..=n).fold(BigInt::one(), |acc, k| acc * BigInt::from(k))
}

impl Distribution {
    /// How many of the n! arrangements have positive probability.
    pub fn support(&self) -> usize {
        self.outcomes.len()
    }

    /// Total variation distance from the uniform distribution on all n! orders:
    /// ½ Σ |p(σ) − 1/n!|. O(support) big-rational operations.
    pub fn total_variation(&self) -> BigRational {
        // Integers only (a rational sum would reduce at every step): with q the
        // lcm of the denominators and p(σ) = a/q, |p − 1/n!| = |a·n! − q| / (q·n!).
        let total = factorial(self.n);
        let q = self.outcomes.iter().fold(BigInt::one(), |acc, (_, p)| {
            num_integer::Integer::lcm(&acc, p.denom())
        });
        let mut sum = BigInt::zero();
        for (_, p) in &self.outcomes {
            let a = p.numer() * (&q / p.denom());
            sum += (a * &total - &q).abs();
        }
        sum += (&total - BigInt::from(self.support())) * &q;
        BigRational::new(sum, q * total * BigInt::from(2))
    }

    /// Whether every one of the n! orders has probability exactly 1/n! *on
    /// the resolved paths* ([`Distribution::outcomes`] are conditional on
    /// resolution). Says nothing of the unresolved mass: see
    /// [`Distribution::is_exactly_uniform`] and
    /// [`Distribution::total_variation_bounds`].
    pub fn is_uniform(&self) -> bool {
        self.total_variation().is_zero()
    }

    /// Uniform with nothing unresolved: the only case in which the law of
    /// the algorithm is *proven* uniform.
    pub fn is_exactly_uniform(&self) -> bool {
        self.unresolved.is_zero() && self.is_uniform()
    }

    /// Bounds on the total variation from uniform of the algorithm's whole
    /// law, whatever the unresolved mass U does: with the resolved law p
    /// (conditional, distance D from uniform) and any law w on the cut paths,
    /// the whole law is (1 − U)·p + U·w, whose distance lies in
    /// [(1 − U)·D − U·(1 − 1/n!), (1 − U)·D + U·(1 − 1/n!)] (triangle
    /// inequality; the lower end clamped at 0). Equal ends when the walk was
    /// complete.
    pub fn total_variation_bounds(&self) -> (BigRational, BigRational) {
        let within = BigRational::one() - &self.unresolved;
        let spread = &self.unresolved
            * (BigRational::one() - BigRational::new(BigInt::one(), factorial(self.n)));
        let middle = within * self.total_variation();
        let lower = (&middle - &spread).max(BigRational::zero());
        (lower, middle + spread)
    }
}

/// Computes the exact output distribution of `permute` on `n` items.
///
/// `permute` must return the arrangement of `0..n` produced by shuffling the
/// identity, using only the dice it is given; if it loops on the dice it must
/// return early once [`fairdeck::dice::Dice::exhausted`] is true.
/// Time O(paths · cost of one run); memory O(support + depth), the depth
/// capped at [`MAX_DEPTH`].
///
/// ```
/// use fairdeck_audit::exact::{distribution, Limits};
///
/// let fy = |w: &mut fairdeck_audit::walk::Walker| {
///     let mut v: Vec<usize> = (0..3).collect();
///     fairdeck::shuffle::shuffle(&mut v, w);
///     v
/// };
/// let d = distribution(3, fy, Limits::default())?;
/// assert_eq!(d.support(), 6);
/// assert!(d.is_uniform());
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::TooManyPaths`] when not even a shallow walk fits the budget (or a
/// complete walk of a finite tree does not); [`Error::NotAPermutation`] when
/// an output is not a permutation; [`Error::PathTooDeep`] on probabilities
/// below 2⁻¹²⁸.
pub fn distribution<F>(n: usize, mut permute: F, limits: Limits) -> Result<Distribution, Error>
where
    F: FnMut(&mut Walker) -> Vec<usize>,
{
    // A finite tree is usually walked completely in one go; only when that
    // walk is over budget (an infinite tree, or a huge finite one) deepen
    // one roll at a time to find the deepest walk that fits.
    // Paths too long for u128 probabilities also end the deepening.
    let limits = Limits {
        max_depth: limits.max_depth.min(MAX_DEPTH),
        ..limits
    };
    let mut last_error = match walk(n, &mut permute, limits.max_depth, limits.max_paths) {
        Err(e @ (Error::TooManyPaths { .. } | Error::PathTooDeep)) => e,
        other => return other,
    };
    let mut best: Option<Distribution> = None;
    for depth in 0..limits.max_depth {
        match walk(n, &mut permute, depth, limits.max_paths) {
            Ok(d) if d.unresolved.is_zero() => return Ok(d),
            Ok(d) => best = Some(d),
            Err(e @ (Error::TooManyPaths { .. } | Error::PathTooDeep)) => {
                last_error = e;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    match best {
        Some(d) if d.unresolved < BigRational::one() => Ok(d),
        _ => Err(last_error),
    }
}

/// Path weights of one output: denominator (product of bounds) → path count.
type Weights = HashMap<u128, u64>;

/// One depth-limited walk of the whole tree.
fn walk<F>(n: usize, permute: &mut F, depth: usize, max_paths: u64) -> Result<Distribution, Error>
where
    F: FnMut(&mut Walker) -> Vec<usize>,
{
    let mut walker = Walker::new(depth);
    let mut found: HashMap<Vec<usize>, Weights> = HashMap::new();
    let mut cut: Weights = HashMap::new();
    let mut paths = 0u64;
    loop {
        paths += 1;
        if paths > max_paths {
            return Err(Error::TooManyPaths { max_paths });
        }
        let out = permute(&mut walker);
        let denominator = walker
            .bounds()
            .try_fold(1u128, |acc, b| acc.checked_mul(u128::from(b)))
            .ok_or(Error::PathTooDeep)?;
        let weights = if walker.was_cut() {
            &mut cut
        } else {
            check_permutation(&out, n)?;
            found.entry(out).or_default()
        };
        *weights.entry(denominator).or_default() += 1;
        if !walker.next_path() {
            break;
        }
    }
    Ok(assemble(n, found, &cut, paths, depth))
}

fn mass(weights: &Weights) -> BigRational {
    weights
        .iter()
        .map(|(&d, &c)| BigRational::new(BigInt::from(c), BigInt::from(d)))
        .sum()
}

fn assemble(
    n: usize,
    found: HashMap<Vec<usize>, Weights>,
    cut: &Weights,
    paths: u64,
    depth: usize,
) -> Distribution {
    let unresolved = mass(cut);
    let resolved = BigRational::one() - &unresolved;
    let mut outcomes: Vec<(Vec<usize>, BigRational)> = found
        .into_iter()
        .map(|(p, w)| (p, mass(&w) / &resolved))
        .collect();
    outcomes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Distribution {
        n,
        outcomes,
        unresolved,
        paths,
        depth,
    }
}

/// The exact verdict on one algorithm at one size.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Number of items.
    pub n: usize,
    /// Whether the distribution is proven exactly uniform: the walk was
    /// complete and every order has probability 1/n!.
    pub uniform: bool,
    /// Whether it is uniform on the resolved paths (the same as `uniform`
    /// when `unresolved` is 0).
    pub uniform_on_resolved: bool,
    /// Total variation distance from uniform.
    pub total_variation: BigRational,
    /// How many of the n! orders are reachable.
    pub support: usize,
    /// Unresolved probability mass (0 for a complete walk).
    pub unresolved: BigRational,
}

/// Exact verdicts for n = 2, 3, … up to `max_n`, stopping at the first n whose
/// walk exceeds `max_paths` (so the cost stays bounded: each walk is at most
/// `max_paths` runs of the algorithm).
///
/// ```
/// use fairdeck_audit::exact::verdicts_with;
/// use fairdeck_audit::walk::Walker;
///
/// let fy = |n: usize, w: &mut Walker| {
///     let mut v: Vec<usize> = (0..n).collect();
///     fairdeck::shuffle::shuffle(&mut v, w);
///     v
/// };
/// let v = verdicts_with(fy, 6, 100_000);
/// assert_eq!(v.len(), 5);
/// assert!(v.iter().all(|x| x.uniform));
/// ```
pub fn verdicts_with<F>(mut permute: F, max_n: usize, max_paths: u64) -> Vec<Verdict>
where
    F: FnMut(usize, &mut Walker) -> Vec<usize>,
{
    let limits = Limits {
        max_paths,
        max_depth: 64,
    };
    let mut out = Vec::new();
    for n in 2..=max_n {
        let Ok(d) = distribution(n, |w| permute(n, w), limits) else {
            break;
        };
        let total_variation = d.total_variation();
        out.push(Verdict {
            n,
            uniform: d.is_exactly_uniform(),
            uniform_on_resolved: total_variation.is_zero(),
            total_variation,
            support: d.support(),
            unresolved: d.unresolved,
        });
    }
    out
}

/// Largest n tried by [`verdicts`].
pub const VERDICT_MAX_N: usize = 7;

/// Path budget per n in [`verdicts`]: bounds the cost to a fraction of a
/// second per algorithm with optimised code.
pub const VERDICT_MAX_PATHS: u64 = 50_000;

/// Exact verdicts on a catalogue algorithm for n = 2, 3, … up to 7, as far as
/// a walk of at most [`VERDICT_MAX_PATHS`] paths reaches (n = 7 for the
/// O(n) shuffles, n = 5 or 6 for the rejection loops, n = 3 for the priority
/// sorts and random insertion). Computed, not tabulated (see
/// [`verdicts_with`]); about 0.1 s per algorithm with optimised code.
///
/// ```
/// use fairdeck::algorithms::Algorithm;
///
/// let v = fairdeck_audit::exact::verdicts(Algorithm::Sattolo);
/// assert!(v.iter().all(|x| !x.uniform));
/// assert_eq!(v[2].support, 6); // n = 4: only the 3! cyclic orders
/// ```
pub fn verdicts(alg: fairdeck::algorithms::Algorithm) -> Vec<Verdict> {
    verdicts_with(|n, w| alg.permute(n, w), VERDICT_MAX_N, VERDICT_MAX_PATHS)
}

#[cfg(test)]
mod tests;
