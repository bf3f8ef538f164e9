//! `exact`: an algorithm's exact output distribution, from a walk of every
//! path of its choice tree.

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::estimates;
use fairdeck_audit::exact::{self, Limits};
use fairdeck_audit::walk;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};

use crate::{Field, budget, message, refuse};

/// Largest n accepted (8! = 40320 outcomes to print).
pub const MAX_N: usize = 9;

/// What to walk. The defaults are the CLI's.
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    /// The algorithm, by its catalogue name.
    #[serde(rename = "alg")]
    pub algorithm: String,
    /// Number of items, 1..=9.
    pub n: usize,
    /// Refuse (or stop deepening) beyond this many paths.
    #[serde(default = "max_paths")]
    pub max_paths: u64,
    /// Never walk deeper than this many rolls per path.
    #[serde(default = "max_depth")]
    pub max_depth: usize,
    /// Run even when the walk is over the work budget.
    #[serde(skip)]
    pub allow_long: bool,
}

/// The CLI's default `--max-paths`.
pub const DEFAULT_MAX_PATHS: u64 = 10_000_000;
/// The CLI's default `--max-depth`.
pub const DEFAULT_MAX_DEPTH: usize = 200;

fn max_paths() -> u64 {
    DEFAULT_MAX_PATHS
}

fn max_depth() -> usize {
    DEFAULT_MAX_DEPTH
}

/// One order and its probability.
#[derive(Debug, Serialize)]
pub struct Outcome {
    /// The order.
    pub permutation: Vec<usize>,
    /// Its exact probability, `"p/q"`.
    pub probability: String,
}

/// What `fairdeck exact --format json` prints.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The algorithm's catalogue name.
    pub algorithm: &'static str,
    /// Items shuffled.
    pub n: usize,
    /// Paths walked.
    pub paths: u64,
    /// The deepest path walked, in rolls.
    pub depth: usize,
    /// Orders that come out.
    pub support: usize,
    /// n!, the number of orders.
    pub orders: String,
    /// Proven exactly uniform: a complete walk, every order 1/n!.
    pub uniform: bool,
    /// Uniform on the resolved paths (the outcomes are conditional on them).
    pub uniform_on_resolved: bool,
    /// Distance from uniform of the law on the resolved paths.
    pub total_variation: String,
    /// Bounds on the distance of the whole law, whatever the unresolved
    /// paths do (equal to `total_variation` for a complete walk).
    pub total_variation_at_least: String,
    /// Upper bound on the whole law's distance from uniform.
    pub total_variation_at_most: String,
    /// Probability on the paths walked to their end.
    pub resolved: String,
    /// Probability on the paths cut.
    pub unresolved: String,
    /// Every order that comes out, with its probability.
    pub outcomes: Vec<Outcome>,
}

/// Walks the algorithm's choice tree and builds what `--format json` prints
/// (the web page's `/api/exact`), with the total variation as a fraction.
///
/// # Errors
///
/// Unknown algorithm, bad `n`, a walk over `max_paths` or the work budget.
pub fn run(args: &Request) -> crate::Result<(Report, BigRational)> {
    let alg: Algorithm =
        (args.algorithm.parse()).map_err(|e: fairdeck::Error| refuse(Field::Alg, e.to_string()))?;
    limits(args)?;
    check_work(args, alg)?;
    let limits = Limits {
        max_paths: args.max_paths,
        max_depth: args.max_depth,
    };
    let d =
        exact::distribution(args.n, |w| alg.permute(args.n, w), limits).map_err(|e| match e {
            fairdeck_audit::Error::TooManyPaths { .. } => refuse(
                Field::MaxPaths,
                message![&e, " (raise ", Field::MaxPaths, " or lower ", Field::N, ")"],
            ),
            other => other.into(),
        })?;
    let tv = d.total_variation();
    let (at_least, at_most) = d.total_variation_bounds();
    let report = Report {
        algorithm: alg.name(),
        n: d.n,
        paths: d.paths,
        depth: d.depth,
        support: d.support(),
        orders: exact::factorial(d.n).to_string(),
        uniform: d.is_exactly_uniform(),
        uniform_on_resolved: tv.is_zero(),
        total_variation: tv.to_string(),
        total_variation_at_least: at_least.to_string(),
        total_variation_at_most: at_most.to_string(),
        resolved: (BigRational::one() - &d.unresolved).to_string(),
        unresolved: d.unresolved.to_string(),
        outcomes: d
            .outcomes
            .iter()
            .map(|(p, q)| Outcome {
                permutation: p.clone(),
                probability: q.to_string(),
            })
            .collect(),
    };
    Ok((report, tv))
}

/// `n`, `max_paths` and `max_depth` within their bounds.
fn limits(args: &Request) -> crate::Result<()> {
    if !(1..=MAX_N).contains(&args.n) {
        return Err(refuse(
            Field::N,
            message![Field::N, format!(" must be between 1 and {MAX_N}")],
        ));
    }
    if args.max_paths == 0 {
        return Err(refuse(
            Field::MaxPaths,
            message![Field::MaxPaths, " must be positive"],
        ));
    }
    if args.max_depth > exact::MAX_DEPTH {
        return Err(refuse(
            Field::MaxDepth,
            message![
                Field::MaxDepth,
                format!(" is at most {}", exact::MAX_DEPTH),
                " (deeper paths have probabilities below 2^-128)",
            ],
        ));
    }
    Ok(())
}

/// Refuses a walk that cannot finish or is over the work budget. A tree
/// whose paths all roll the same bounds (every algorithm without a
/// rejection loop) has a known number of paths P: a --max-paths below P
/// can never succeed (the deepening walk cuts every path), so it is refused
/// at once; the work is that of one walk of P paths. Other trees are
/// walked as deep as --max-paths allows, at most twice that many paths.
fn check_work(args: &Request, alg: Algorithm) -> crate::Result<()> {
    let n = args.n;
    let tree = |n: usize| walk::fixed_tree_paths(|d| alg.permute(n, d), args.max_depth);
    let Some(paths) = tree(n) else {
        let steps = estimates::exact_steps(alg, n, args.max_paths);
        return budget::check(args.allow_long, Field::MaxPaths, steps, |steps| {
            let most =
                estimates::largest(args.max_paths, steps, |p| estimates::exact_steps(alg, n, p));
            message![
                Field::MaxPaths,
                format!(" at most {most} at "),
                Field::N,
                format!(" {n}")
            ]
        });
    };
    let walk_steps = |n: usize, paths: u128| {
        estimates::exact_walk_steps(alg, n, u64::try_from(paths).unwrap_or(u64::MAX))
    };
    let fits_budget = |n: usize, budget: u64| tree(n).is_some_and(|p| walk_steps(n, p) <= budget);
    if paths > u128::from(args.max_paths) {
        let mut m = message![
            format!(
                "{} on {n} items has {paths} paths of the same length: ",
                alg.name()
            ),
            "a walk of at most ",
            Field::MaxPaths,
            format!(" {} cannot finish; give ", args.max_paths),
            Field::MaxPaths,
            format!(" {paths}"),
        ];
        if !(args.allow_long || fits_budget(n, estimates::DEFAULT_STEPS)) {
            m.append(message![message![
                " (with ",
                Field::AllowLong,
                ": that walk is over the budget)"
            ]]);
        }
        m.append(message![", or a smaller ", Field::N]);
        return Err(refuse(Field::MaxPaths, m));
    }
    budget::check(args.allow_long, Field::N, walk_steps(n, paths), |steps| {
        let most = (1..n).rev().find(|&m| fits_budget(m, steps)).unwrap_or(1);
        let need = tree(most).unwrap_or(1).max(1);
        message![
            Field::N,
            format!(" at most {most} with "),
            Field::MaxPaths,
            format!(
                " {need} for {} (a walk of all {paths} paths at ",
                alg.name()
            ),
            Field::N,
            format!(" {n})"),
        ]
    })
}
