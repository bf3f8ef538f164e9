//! The audit crate's one error type.

use core::fmt;

/// Everything that can go wrong in `fairdeck-audit` when given bad input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The exact walk would visit more paths than allowed.
    TooManyPaths {
        /// The limit that was reached.
        max_paths: u64,
    },
    /// A path's probability is too small to represent (product of bounds ≥ 2¹²⁸).
    PathTooDeep,
    /// An algorithm (or an input line) produced something that is not a
    /// permutation of 0..n−1.
    NotAPermutation(String),
    /// A size or count outside what the computation supports.
    OutOfRange(String),
    /// Permutations read from a file that could not be understood.
    InvalidInput(String),
    /// Reading the input failed (the message names the line and the cause).
    Io(String),
    /// Memory for a table sized by the input could not be allocated.
    MemoryExhausted {
        /// The bytes asked for.
        bytes: u64,
    },
    /// The run's estimated work is over the budget ([`crate::estimates`]).
    OverBudget {
        /// Estimated steps of the run.
        steps: u64,
        /// The budget it was checked against.
        budget: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooManyPaths { max_paths } => {
                write!(f, "the exact walk needs more than {max_paths} paths")
            }
            Error::PathTooDeep => write!(f, "a path's probability is below 2^-128"),
            Error::NotAPermutation(why) => write!(f, "not a permutation: {why}"),
            Error::OutOfRange(why) => write!(f, "out of range: {why}"),
            Error::InvalidInput(why) => write!(f, "invalid input: {why}"),
            Error::Io(why) => write!(f, "read error: {why}"),
            Error::MemoryExhausted { bytes } => write!(
                f,
                "memory exhausted: {:.2} GB of counting tables could not be allocated",
                *bytes as f64 / 1e9
            ),
            Error::OverBudget { steps, budget } => write!(
                f,
                "the run needs about {:.1e} steps, over the budget of {:.1e}",
                *steps as f64, *budget as f64
            ),
        }
    }
}

impl std::error::Error for Error {}

/// `len` zeros, or [`Error::MemoryExhausted`] when they cannot be had
/// (instead of the abort of `vec![0; len]`). O(len) time.
pub(crate) fn zeros<T: Clone + Default>(len: usize) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| Error::MemoryExhausted {
            bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
        })?;
    v.resize(len, T::default());
    Ok(v)
}

/// Checks that `p` is a permutation of `0..n`.
///
/// # Errors
///
/// [`Error::NotAPermutation`] naming the first problem found.
pub fn check_permutation(p: &[usize], n: usize) -> Result<(), Error> {
    if p.len() != n {
        return Err(Error::NotAPermutation(format!(
            "{} items where {n} were expected",
            p.len()
        )));
    }
    let mut seen = vec![false; n];
    for &x in p {
        if x >= n || std::mem::replace(&mut seen[x], true) {
            return Err(Error::NotAPermutation(format!(
                "value {x} is out of range or repeated in {p:?}"
            )));
        }
    }
    Ok(())
}
