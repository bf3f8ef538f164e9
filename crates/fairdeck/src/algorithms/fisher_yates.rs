//! The O(n) in-place Fisher–Yates shuffles of the source articles, written as
//! plain loops with one roll per step, exactly as the articles give them.
//!
//! The production [`crate::shuffle::shuffle`] is the same backward loop but
//! is free to draw its answers differently (faster); these teaching versions
//! pin the article's order of rolls, so `fairdeck shuffle --steps` and the
//! exact enumeration show the article's own permutation tree.

use super::trace::{algorithm, swap_pass};

algorithm! {
    /// Durstenfeld's backward Fisher–Yates: for `i` from `n−1` down to `1`, swap
    /// card `i` with card `j`, `j` uniform in `[0, i]`.
    ///
    /// Source: R. Durstenfeld, 1964, "Algorithm 235: Random permutation", CACM
    /// 7(7); Knuth, TAOCP vol. 2, Algorithm P. It is the first pseudocode of
    /// “洗牌算法_最简单的洗牌方法” (2023), the Durstenfeld–Knuth algorithm of “Mischiamo le carte” (whose Python version has
    /// an index bug, see [`PYTHON_SNIPPET_BUG`](super::PYTHON_SNIPPET_BUG)), and the
    /// first in-place method of “Shuffling a deck of cards” (2014) (which also makes a last, idle roll in
    /// `[0, 0]`; we stop at `i = 1`). Exactly uniform: n! equally likely paths.
    ///
    /// O(n) time, O(1) extra space; `n − 1` rolls with bounds `n, n−1, …, 2`.
    ///
    /// ```
    /// use fairdeck::algorithms::fisher_yates;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=10).collect();
    /// fisher_yates(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=10).collect::<Vec<_>>());
    /// ```
    in place: fisher_yates, traced: fisher_yates_traced (items; dice, obs) {
        let n = items.len();
        swap_pass(
            items,
            (1..n).rev(),
            |i| dice.roll(i as u64 + 1) as usize,
            obs,
        );
    }
}

algorithm! {
    /// Knuth's shuffle run forward: for `i` from `0` to `n−2`, swap card `i` with
    /// card `j`, `j` uniform in `[i, n−1]`.
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Knuth-féle keverés", its shortened loop to `n−1`, 1-based)
    /// and the second pseudocode and the Lua program of “洗牌算法_最简单的洗牌方法” (2023). Exactly uniform:
    /// it walks the permutation tree of Juhász, “Keverjük a kártyát” one branch at a time.
    ///
    /// O(n) time, O(1) extra space; `n − 1` rolls with bounds `n, n−1, …, 2`.
    ///
    /// ```
    /// use fairdeck::algorithms::knuth_forward;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck = ['a', 'b', 'c', 'd'];
    /// knuth_forward(&mut deck, &mut dice);
    /// let mut sorted = deck;
    /// sorted.sort();
    /// assert_eq!(sorted, ['a', 'b', 'c', 'd']);
    /// ```
    in place: knuth_forward, traced: knuth_forward_traced (items; dice, obs) {
        let n = items.len();
        let last = n.saturating_sub(1);
        swap_pass(
            items,
            0..last,
            |i| i + dice.roll((n - i) as u64) as usize,
            obs,
        );
    }
}

algorithm! {
    /// Grows a shuffled prefix: for `i` from `0` to `n−1`, swap card `i` with
    /// card `j`, `j` uniform in `[0, i]`.
    ///
    /// Source: “Shuffling a deck of cards” (2014), second in-place method ("shuffle the first n−1 cards,
    /// then swap card n with a random one of 1..n"), including its first, idle
    /// roll in `[0, 0]`. This is the in-place form of what is usually called the
    /// "inside-out" Fisher–Yates. Exactly uniform.
    ///
    /// O(n) time, O(1) extra space; `n` rolls with bounds `1, 2, …, n`.
    ///
    /// ```
    /// use fairdeck::algorithms::inside_out;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u8> = (0..6).collect();
    /// inside_out(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, [0, 1, 2, 3, 4, 5]);
    /// ```
    in place: inside_out, traced: inside_out_traced (items; dice, obs) {
        let n = items.len();
        swap_pass(items, 0..n, |i| dice.roll(i as u64 + 1) as usize, obs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{factorial, orders};

    type Shuffle = fn(&mut [usize], &mut crate::dice::Enumerator);

    #[test]
    fn all_three_are_exactly_uniform_up_to_five_cards() {
        let shuffles: [(&str, Shuffle); 3] = [
            ("fisher-yates", |v, e| fisher_yates(v, e)),
            ("knuth-forward", |v, e| knuth_forward(v, e)),
            ("inside-out", |v, e| inside_out(v, e)),
        ];
        for (name, f) in shuffles {
            for n in 0..=5usize {
                let counts = orders(n, f);
                assert_eq!(counts.len() as u64, factorial(n as u64), "{name} n = {n}");
                assert!(counts.values().all(|&c| c == 1), "{name} n = {n}");
            }
        }
    }

    #[test]
    fn the_roll_bounds_are_the_articles() {
        let mut e = crate::dice::Enumerator::new();
        fisher_yates(&mut [0; 4], &mut e);
        assert_eq!(e.path_bounds().collect::<Vec<_>>(), [4, 3, 2]);
        let mut e = crate::dice::Enumerator::new();
        knuth_forward(&mut [0; 4], &mut e);
        assert_eq!(e.path_bounds().collect::<Vec<_>>(), [4, 3, 2]);
        let mut e = crate::dice::Enumerator::new();
        inside_out(&mut [0; 4], &mut e);
        assert_eq!(e.path_bounds().collect::<Vec<_>>(), [1, 2, 3, 4]);
    }
}
