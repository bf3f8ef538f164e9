//! The catalogue's cost model: how many elementary steps one run takes, and
//! how much memory, so that callers (the CLI, the web server) can refuse a
//! run that would take hours, or more memory than there is, before starting
//! it.
//!
//! A *step* stands for [`NANOS_PER_STEP`] nanoseconds of one core: the
//! budget of 10¹⁰ steps is then a minute. Each algorithm's steps are its
//! growth class ([`Growth::steps`]) times a weight measured on the
//! reference machine ([`Algorithm::weight`]).

use super::Algorithm;

/// Nanoseconds of CPU time one step stands for (6 ns: 10¹⁰ steps = 60 s).
pub const NANOS_PER_STEP: u64 = 6;

/// Largest deck whose cards (8 bytes each, 512 KiB) stay in the L2 cache
/// while an algorithm runs: [`Algorithm::weight`] has two regimes.
pub const IN_CACHE_N: u64 = 1 << 16;

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

impl Algorithm {
    /// Steps per unit of [`Growth::steps`] for one run on `n` cards: the
    /// measured nanoseconds per unit divided by [`NANOS_PER_STEP`], rounded
    /// up, in two regimes — a deck that fits in the L2 cache (n ≤
    /// [`IN_CACHE_N`]) and one that does not, where every random access
    /// misses and costs several times more. O(1).
    ///
    /// How they were measured (release build, the 2-core reference machine,
    /// shared with other builds, so the figures are on the slow side):
    /// in cache, `fairdeck bench`'s ns per element at n = 10⁴ (the table in
    /// docs/book/src/speed.md) divided by the growth per element; out of cache, the
    /// slowest of `fairdeck bench` at n = 10⁶ doubled (cache and TLB misses
    /// still grow from 8 MB to 800 MB decks), `/usr/bin/time -f %U` of
    /// `fairdeck --format json shuffle ALG -n 10000000 --allow-long` less
    /// its output (about 55 ns per card), and for rejection the 142 s of
    /// `shuffle rejection -n 100000000` reported in issue 26:
    ///
    /// | algorithm | ns/unit in cache | weight | ns/unit out of cache | weight |
    /// |---|---|---|---|---|
    /// | fisher-yates, knuth-forward, inside-out | 10.6–11.5 | 2 | 21.4–25.2 at 10⁶, ×2 | 8–9 |
    /// | naive-swap, sattolo | 10.7–10.8 | 2 | 42.5, 65.3 at 10⁶, ×2 | 15, 22 |
    /// | asf-poker, knuth-deal | 20.9, 24.2 | 4, 5 | 109, 108 at 10⁶, ×2 | 37, 36 |
    /// | random-transpositions | 31.6 | 6 | 103 at 10⁶, ×2 | 35 |
    /// | rejection (n log n) | 5.7 | 1 | 53 at 10⁸ (142 s) | 9 |
    /// | sort-keys-fast (n log n) | 3.4 | 1 | 27 at 10⁷ (6.85 s) | 6 |
    /// | hash-deal | 290 | 49 | 1490 at 10⁷ (15.5 s), 1730 at 3.8·10⁷ (66.5 s) | 290 |
    /// | the O(n²) and O(n² log n) ones | 0.05–1.15 | 1 | 0.06–1.05 at 10⁵ | 1 |
    pub fn weight(self, n: u64) -> u64 {
        use Algorithm as A;
        let (in_cache, out_of_cache) = match self {
            A::FisherYates => (2, 9),
            A::KnuthForward | A::InsideOut => (2, 8),
            A::NaiveSwap => (2, 15),
            A::Sattolo => (2, 22),
            A::AsfPoker => (4, 37),
            A::KnuthDeal => (5, 36),
            A::RandomTranspositions => (6, 35),
            A::Rejection => (1, 9),
            A::SortKeysFast => (1, 6),
            A::HashDeal => (49, 290),
            A::FisherYatesOriginal
            | A::FisherYatesList
            | A::RandomInsertion
            | A::RandomInsertionStopping
            | A::SortKeys
            | A::ReverseInsertion => (1, 1),
        };
        if n <= IN_CACHE_N {
            in_cache
        } else {
            out_of_cache
        }
    }

    /// Estimated steps of one run on `n` cards: its growth times its
    /// measured [`Algorithm::weight`]. Callers compare it with a work budget
    /// before running. Saturates at `u64::MAX`. O(1).
    ///
    /// ```
    /// use fairdeck::algorithms::{Algorithm, Growth};
    ///
    /// let fy = Algorithm::FisherYates;
    /// assert_eq!(fy.cost(1000), Growth::Linear.steps(1000) * fy.weight(1000));
    /// assert_eq!(Algorithm::FisherYatesList.cost(1000), 1_000_000); // O(n²), weight 1
    /// ```
    pub fn cost(self, n: u64) -> u64 {
        self.growth().steps(n).saturating_mul(self.weight(n))
    }

    /// The largest n (at most `cap`) whose one run fits in `budget` steps.
    /// O(log cap).
    ///
    /// ```
    /// use fairdeck::algorithms::Algorithm;
    ///
    /// let n = Algorithm::SortKeys.largest_n(10_000_000_000, u64::MAX);
    /// assert!(Algorithm::SortKeys.cost(n) <= 10_000_000_000);
    /// assert!(Algorithm::SortKeys.cost(n + 1) > 10_000_000_000);
    /// ```
    pub fn largest_n(self, budget: u64, cap: u64) -> u64 {
        largest_within(cap, |n| self.cost(n) <= budget)
    }

    /// Bytes one run on `n` cards dealing `k` of them (deals; otherwise k =
    /// n) holds at its peak, from the algorithm's data structures: the deck
    /// of 8-byte cards, the extra arrays of the pencil-and-paper and sorting
    /// methods, and hash-deal's table (16 bytes and a control byte per
    /// entry, at most 7/8 full, with the old and the new table alive while
    /// it grows). An estimate a caller can reserve up front, so that a run
    /// that cannot have its memory fails before it starts. Saturates. O(1).
    ///
    /// ```
    /// use fairdeck::algorithms::Algorithm;
    ///
    /// assert_eq!(Algorithm::FisherYates.peak_bytes(1000, 1000), 8000);
    /// assert!(Algorithm::HashDeal.peak_bytes(100_000_000, 100_000_000) > 3 << 30);
    /// ```
    pub fn peak_bytes(self, n: u64, k: u64) -> u64 {
        use Algorithm as A;
        let words: u64 = match self {
            A::FisherYatesOriginal | A::FisherYatesList | A::KnuthDeal => 3,
            A::Rejection | A::SortKeysFast => 4,
            A::SortKeys => 2,
            A::HashDeal => 2,
            _ => 1,
        };
        let deck = n.saturating_mul(8).saturating_mul(words);
        if self != A::HashDeal {
            return deck;
        }
        let entries = k.saturating_mul(2).min(n);
        let buckets = (entries.saturating_mul(8) / 7)
            .checked_next_power_of_two()
            .unwrap_or(u64::MAX);
        deck.saturating_add(buckets.saturating_mul(17) / 2 * 3)
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
        assert!(linear > 100_000_000, "{linear}");
        assert!((10_000..=100_000).contains(&list), "{list}");
        assert!(Algorithm::RandomInsertion.largest_n(budget, u64::MAX) < list);
    }

    /// Issue 26 item 16: the runs found taking two minutes are over the
    /// budget once the measured weights are applied; the default sizes fit.
    #[test]
    fn the_measured_weights_refuse_the_slow_runs_of_issue_26() {
        let budget = 10_000_000_000;
        assert!(Algorithm::Rejection.cost(100_000_000) > budget);
        assert!(Algorithm::HashDeal.cost(100_000_000) > budget);
        for alg in Algorithm::ALL {
            assert!(alg.weight(52) >= 1 && alg.weight(1 << 20) >= alg.weight(52));
            assert!(alg.cost(52) < 1_000_000, "{alg}");
        }
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
