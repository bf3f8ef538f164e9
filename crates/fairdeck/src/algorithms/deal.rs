//! Dealing k cards of n without shuffling the rest (Juhász’s “Keverjük a kártyát” two deals).

use std::collections::HashMap;

use super::trace::{Action, algorithm};
use crate::Error;

fn check(k: u64, n: u64) -> Result<(), Error> {
    if k > n {
        return Err(Error::SampleTooLarge { k, n });
    }
    Ok(())
}

/// What [`knuth_deal`] refuses: `k > n`.
fn check_knuth(k: usize, n: usize) -> Result<(), Error> {
    check(k as u64, n as u64)
}

/// What [`hash_deal`] refuses: `k > n`, or a `k` no `Vec` can hold.
fn check_hash(k: u64, n: u64) -> Result<(), Error> {
    check(k, n)?;
    usize::try_from(k).map_err(|_| Error::SampleTooLarge { k, n })?;
    Ok(())
}

algorithm! {
    /// The Knuth deal: fill an array with `0..n`, run the forward Knuth shuffle
    /// for `k` steps only (swap position `i` with `j` uniform in `[i, n−1]`, for
    /// `i` from `0` to `k−1`) and return the first `k` cards.
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Knuth-osztás"). Every one of the n!/(n−k)! sequences
    /// of k distinct cards is equally likely, so it also deals k-subsets
    /// uniformly. Like the article's loop it rolls at every step, including a
    /// last, idle roll in `[n−1, n−1]` when `k = n`.
    ///
    /// O(n + k) time (filling the array), O(n) extra space; `k` rolls with
    /// bounds `n, n−1, …, n−k+1`.
    ///
    /// # Errors
    ///
    /// [`Error::SampleTooLarge`] if `k > n`.
    ///
    /// ```
    /// use fairdeck::algorithms::knuth_deal;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let hand = knuth_deal(5, 52, &mut dice)?;
    /// assert_eq!(hand.len(), 5);
    /// assert!(hand.iter().all(|&c| c < 52));
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    deal: knuth_deal, traced: knuth_deal_traced (k: usize, n: usize; dice, obs) -> Vec<usize>,
    checked by check_knuth
    {
        let mut cards: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + dice.roll((n - i) as u64) as usize;
            cards.swap(i, j);
            obs.observe(Action::Swap { i, j }, &cards, &[]);
        }
        cards.truncate(k);
        cards
    }
}

algorithm! {
    /// The hash-table deal: the Knuth deal on a *virtual* array `0..n`, storing
    /// only the positions a swap has touched as key–value pairs ("position p
    /// holds card v").
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Osztás hasítótáblával"), step for step: before each
    /// swap of positions `i` and `j` (`j` uniform in `[i, n−1]`), enter `(i, i)`
    /// and `(j, j)` if absent, then exchange their values; at the end read the
    /// values of positions `0..k`. Uniform like the Knuth deal. It needs no
    /// array of n cards, so n can be as large as 2⁶⁴ − 1 (lottery numbers).
    /// The production [`sample`](crate::sample::sample) is the same idea with
    /// fewer table entries.
    ///
    /// O(k) expected time, O(k) extra space (at most 2k entries); `k` rolls.
    ///
    /// # Errors
    ///
    /// [`Error::SampleTooLarge`] if `k > n` or `k` does not fit in memory.
    ///
    /// ```
    /// use fairdeck::algorithms::hash_deal;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let lotto = hash_deal(5, 90, &mut dice)?;
    /// assert_eq!(lotto.len(), 5);
    /// let huge = hash_deal(3, u64::MAX, &mut dice)?;
    /// assert_eq!(huge.len(), 3);
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    deal: hash_deal, traced: hash_deal_traced (k: u64, n: u64; dice, obs) -> Vec<u64>,
    checked by check_hash
    {
        let mut table: HashMap<u64, u64> =
            HashMap::with_capacity(k.saturating_mul(2).min(1 << 20) as usize);
        for i in 0..k {
            let j = i + dice.roll(n - i);
            let at_i = *table.entry(i).or_insert(i);
            let at_j = *table.entry(j).or_insert(j);
            table.insert(i, at_j);
            table.insert(j, at_i);
            if O::ACTIVE {
                let dealt: Vec<usize> = (0..=i).map(|p| table[&p] as usize).collect();
                let action = Action::Swap {
                    i: i as usize,
                    j: j as usize,
                };
                obs.observe(action, &dealt, &[]);
            }
        }
        (0..k).map(|p| table[&p]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{enumerate, factorial};

    #[test]
    fn both_deals_are_uniform_and_agree_path_by_path() {
        for n in 0..=5usize {
            for k in 0..=n {
                let knuth = enumerate(|e| knuth_deal(k, n, e).unwrap());
                let hash = enumerate(|e| {
                    let v = hash_deal(k as u64, n as u64, e).unwrap();
                    v.into_iter().map(|c| c as usize).collect::<Vec<_>>()
                });
                let arrangements = factorial(n as u64) / factorial((n - k) as u64);
                assert_eq!(knuth.len() as u64, arrangements, "n = {n}, k = {k}");
                let first = knuth.values().next().copied();
                assert!(knuth.values().all(|&c| Some(c) == first));
                assert_eq!(knuth, hash, "n = {n}, k = {k}");
            }
        }
    }

    #[test]
    fn too_many_cards_is_an_error() {
        let mut e = crate::dice::Enumerator::new();
        assert_eq!(
            knuth_deal(6, 5, &mut e),
            Err(Error::SampleTooLarge { k: 6, n: 5 })
        );
        assert!(hash_deal(6, 5, &mut e).is_err());
    }
}
