//! The catalogue's cost model: how many elementary steps one run takes, so
//! that callers (the CLI, the web server) can refuse a run that would take
//! hours before starting it.

/// How an algorithm's running time grows with the number of cards n.
///
/// The classes follow the catalogue's `time` column ([`Algorithm::time`]);
/// expected costs are used for the unbounded algorithms.
///
/// [`Algorithm::time`]: super::Algorithm::time
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Growth {
    /// O(n): one pass over the cards.
    Linear,
    /// O(n log n): a sort, or the coupon collector's n·H(n) draws.
    LinearLog,
    /// O(n²): a scan or a shift per card.
    Quadratic,
    /// O(n² log n): n·H(n) rounds of an O(n) insertion.
    QuadraticLog,
}

impl Growth {
    /// Estimated elementary steps (a roll, a comparison, a swap, a link
    /// followed, a word moved) to run once on `n` cards, constant factors
    /// dropped. Saturates at `u64::MAX`. O(1).
    ///
    /// ```
    /// use fairdeck::algorithms::Growth;
    ///
    /// assert_eq!(Growth::Linear.steps(1000), 1000);
    /// assert_eq!(Growth::Quadratic.steps(1000), 1_000_000);
    /// assert_eq!(Growth::Quadratic.steps(u64::MAX), u64::MAX); // saturates
    /// ```
    pub fn steps(self, n: u64) -> u64 {
        let x = n as f64;
        let log = (x + 1.0).log2().max(1.0);
        let steps = match self {
            Growth::Linear => x,
            Growth::LinearLog => x * log,
            Growth::Quadratic => x * x,
            Growth::QuadraticLog => x * x * log,
        };
        // `as` saturates: +inf and values past 2^64 become u64::MAX.
        steps.ceil() as u64
    }

    /// The largest n (at most `cap`) whose [`Growth::steps`] fit in `budget`.
    /// O(log cap).
    ///
    /// ```
    /// use fairdeck::algorithms::Growth;
    ///
    /// assert_eq!(Growth::Quadratic.largest_n(1_000_000, u64::MAX), 1000);
    /// assert_eq!(Growth::Linear.largest_n(1_000_000, 500), 500);
    /// ```
    pub fn largest_n(self, budget: u64, cap: u64) -> u64 {
        largest_within(cap, |n| self.steps(n) <= budget)
    }
}

/// The largest x in `0..=cap` with `fits(x)`, for a `fits` that holds up to
/// some point and fails after it (0 when none fits). O(log cap) calls.
///
/// ```
/// use fairdeck::algorithms::largest_within;
///
/// assert_eq!(largest_within(1000, |x| x * x <= 500), 22);
/// assert_eq!(largest_within(10, |_| true), 10);
/// ```
pub fn largest_within(cap: u64, fits: impl Fn(u64) -> bool) -> u64 {
    if fits(cap) {
        return cap;
    }
    // Invariant: fits(lo) or lo == 0; !fits(hi).
    let (mut lo, mut hi) = (0u64, cap);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::Algorithm;

    #[test]
    fn the_growth_classes_match_the_catalogue_text() {
        for alg in Algorithm::ALL {
            let time = alg.time();
            let expected = match alg.growth() {
                Growth::Linear => "O(n)",
                Growth::LinearLog => "O(n log n)",
                Growth::Quadratic => "O(n^2)",
                Growth::QuadraticLog => "O(n^2 log n)",
            };
            // hash-deal's O(k) and knuth-deal's O(n + k) are linear for k = n.
            let linear_deal = matches!(alg, Algorithm::HashDeal | Algorithm::KnuthDeal);
            assert!(
                time.starts_with(expected) || linear_deal,
                "{}: {time} vs {expected}",
                alg.name()
            );
        }
    }

    #[test]
    fn quadratic_algorithms_get_a_smaller_limit_than_linear_ones() {
        let budget = 10_000_000_000;
        let linear = Algorithm::FisherYates.largest_n(budget, u64::MAX);
        let list = Algorithm::FisherYatesList.largest_n(budget, u64::MAX);
        assert_eq!(linear, budget);
        assert_eq!(list, 100_000);
        assert!(Algorithm::RandomInsertion.largest_n(budget, u64::MAX) < list);
    }

    #[test]
    fn steps_saturate_and_never_decrease() {
        for g in [
            Growth::Linear,
            Growth::LinearLog,
            Growth::Quadratic,
            Growth::QuadraticLog,
        ] {
            assert_eq!(g.steps(u64::MAX), u64::MAX);
            let mut last = 0;
            for n in [0, 1, 2, 10, 1000, 1 << 40] {
                assert!(g.steps(n) >= last);
                last = g.steps(n);
            }
        }
    }
}
