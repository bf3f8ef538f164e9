//! Shuffling by sorting on random priorities (Juhász, “Keverjük a kártyát”, and “Mischiamo le carte”).

use super::trace::{Action, Observer, algorithm};
use crate::dice::Dice;

/// The top of the priority range, n³, as Juhász, “Keverjük a kártyát” prescribes; capped at
/// 2⁶⁴ − 1 when n³ does not fit (n > 2 642 245).
fn key_range(n: usize) -> u64 {
    (n as u64).checked_pow(3).unwrap_or(u64::MAX)
}

/// Draws one priority per card, uniform in `[1, n³]`.
fn draw_keys<T, D: Dice + ?Sized, O: Observer<T>>(
    items: &[T],
    dice: &mut D,
    obs: &mut O,
) -> Vec<u64> {
    let range = key_range(items.len());
    (0..items.len())
        .map(|i| {
            let key = 1 + dice.roll(range);
            obs.observe(Action::Key { i, key }, items, &[]);
            key
        })
        .collect()
}

algorithm! {
    /// Sort by random priorities, Juhász’s “Keverjük a kártyát” way: give each card a priority
    /// uniform in `[1, n³]`, then sort cards and priorities together by
    /// minimum selection (find the smallest remaining priority, swap it into
    /// place).
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Keverés rendezéssel"), which picks selection sort to
    /// keep the number of moves low. With n³ values the priorities are all
    /// different with probability at least 1 − 1/n, and then every order is
    /// equally likely. **Ties:** selection sort takes the *first* smallest
    /// priority and swaps, so it is not stable: tied cards come out in an order
    /// fixed by where the swaps happened to carry them — sometimes reversed,
    /// sometimes not. The output is therefore not exactly uniform (the audit
    /// measures by how much).
    ///
    /// O(n²) time (the selection), O(n) extra space (the priorities); `n` rolls
    /// with bound n³.
    ///
    /// ```
    /// use fairdeck::algorithms::sort_keys;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=10).collect();
    /// sort_keys(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=10).collect::<Vec<_>>());
    /// ```
    in place: sort_keys, traced: sort_keys_traced (items; dice, obs) {
        let mut keys = draw_keys(items, dice, obs);
        let n = items.len();
        for i in 0..n.saturating_sub(1) {
            let mut min = i;
            for j in i + 1..n {
                if keys[j] < keys[min] {
                    min = j;
                }
            }
            if min != i {
                items.swap(i, min);
                keys.swap(i, min);
                obs.observe(Action::Swap { i, j: min }, items, &[]);
            }
        }
    }
}

algorithm! {
    /// Sort by random priorities with a fast stable sort: the same priorities
    /// in `[1, n³]`, then one O(n log n) merge sort (Rust's stable `sort`).
    ///
    /// Source: the “Mischiamo le carte” article’s "naive" algorithm (random keys, then merge or heap
    /// sort) with Juhász’s “Keverjük a kártyát” key range. **Ties** keep their original order
    /// (the sort is stable), so every tie pulls the output towards the starting
    /// order: not exactly uniform, though the bias is below 1/n.
    ///
    /// O(n log n) time, O(n) extra space; `n` rolls with bound n³.
    ///
    /// ```
    /// use fairdeck::algorithms::sort_keys_fast;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=10).collect();
    /// sort_keys_fast(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=10).collect::<Vec<_>>());
    /// ```
    by order: sort_keys_fast, traced: sort_keys_fast_order (n; dice, obs) {
        let mut order: Vec<usize> = (0..n).collect();
        let keys = draw_keys(&order, dice, obs);
        order.sort_by_key(|&card| keys[card]);
        obs.observe(Action::Sort, &order, &[]);
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::scripted::Replay;
    use crate::testing::enumerate;

    #[test]
    fn distinct_keys_sort_the_cards_by_key() {
        // Keys 5, 1, 4 (answers are key − 1): cards come out 1, 2, 0.
        for f in [sort_keys::<usize, Replay>, sort_keys_fast::<usize, Replay>] {
            let mut v = [0, 1, 2];
            f(&mut v, &mut Replay::new(&[4, 0, 3]));
            assert_eq!(v, [1, 2, 0]);
        }
    }

    #[test]
    fn ties_selection_sort_is_unstable_merge_sort_is_stable() {
        // Keys 2, 2, 1: selection swaps card 2 to the front, carrying card 0
        // behind card 1; the stable sort keeps 0 before 1.
        let mut slow = [0, 1, 2];
        sort_keys(&mut slow, &mut Replay::new(&[1, 1, 0]));
        assert_eq!(slow, [2, 1, 0]);
        let mut fast = [0, 1, 2];
        sort_keys_fast(&mut fast, &mut Replay::new(&[1, 1, 0]));
        assert_eq!(fast, [2, 0, 1]);
    }

    #[test]
    fn both_are_biased_for_three_cards() {
        // 27³ paths; ties make some orders more likely than others.
        for f in [sort_keys::<usize, _>, sort_keys_fast::<usize, _>] {
            let counts = enumerate(|e| {
                let mut v = [0usize, 1, 2];
                f(&mut v, e);
                v
            });
            assert_eq!(counts.len(), 6);
            let first = counts.values().next().copied();
            assert!(counts.values().any(|&c| Some(c) != first));
        }
    }

    #[test]
    fn key_range_is_n_cubed_and_saturates() {
        assert_eq!(key_range(52), 140_608);
        assert_eq!(key_range(2_642_245), 2_642_245u64.pow(3));
        assert_eq!(key_range(2_642_246), u64::MAX);
    }
}
