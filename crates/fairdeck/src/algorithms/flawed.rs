//! Shuffles with a flaw the source articles (or history) warn about: wrong
//! index ranges, too few random swaps, and the 1999 online-poker shuffle.

use super::trace::{Action, algorithm, swap_pass};
use crate::dice::Dice;

algorithm! {
    /// The "natural" mistake: for `i` from `0` to `n−1`, swap card `i` with card
    /// `j`, `j` drawn from the whole deck `[0, n−1]`.
    ///
    /// Source: Juhász, “Keverjük a kártyát” (Knuth's shuffle with `[1, n]` instead of `[i, n]`): it
    /// has nⁿ equally likely paths, and n! does not divide nⁿ for n ≥ 3 (27
    /// paths over 6 orders for n = 3), so it cannot be uniform. The loop runs
    /// forward, as Juhász, “Keverjük a kártyát” writes Knuth's shuffle.
    ///
    /// O(n) time, O(1) extra space; `n` rolls with bound `n`.
    ///
    /// ```
    /// use fairdeck::algorithms::naive_swap;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=10).collect();
    /// naive_swap(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=10).collect::<Vec<_>>());
    /// ```
    in place: naive_swap, traced: naive_swap_traced (items; dice, obs) {
        let n = items.len();
        swap_pass(items, 0..n, |_| dice.roll(n as u64) as usize, obs);
    }
}

algorithm! {
    /// Sattolo's algorithm: for `i` from `0` to `n−2`, swap card `i` with card
    /// `j`, `j` uniform in `[i+1, n−1]` — the card always moves.
    ///
    /// Source: Juhász, “Keverjük a kártyát” (Knuth's shuffle with `[i+1, n]`: "the first card would
    /// never stay in place"); S. Sattolo, 1986, "An algorithm to generate a
    /// random cyclic permutation", Information Processing Letters 22(6). As a
    /// shuffle it is flawed: it only ever makes the (n−1)! orders that are one
    /// single cycle, each with probability 1/(n−1)!, and never a fixed point.
    ///
    /// O(n) time, O(1) extra space; `n − 1` rolls with bounds `n−1, …, 1`.
    ///
    /// ```
    /// use fairdeck::algorithms::sattolo;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<usize> = (0..10).collect();
    /// sattolo(&mut deck, &mut dice);
    /// assert!(deck.iter().enumerate().all(|(i, &c)| i != c)); // nothing stays put
    /// ```
    in place: sattolo, traced: sattolo_traced (items; dice, obs) {
        let n = items.len();
        let last = n.saturating_sub(1);
        swap_pass(
            items,
            0..last,
            |i| i + 1 + dice.roll((n - i - 1) as u64) as usize,
            obs,
        );
    }
}

algorithm! {
    /// The shuffle of ASF Software's online poker (1999), generalised from 52 to
    /// n cards: for `ctr` from 1 to n (1-based), swap card `ctr` with card
    /// `random(n−1) + 1`, a position uniform in `[1, n−1]`.
    ///
    /// Source: outside the five articles — the Pascal code published by ASF and
    /// analysed by Arkin, Hill, Marks, Schmid and Walls (Reliable Software
    /// Technologies, 1999, "How we learned to cheat at online poker"). Its index
    /// bugs are kept: `random(51)` gives 0..50, so position 52 (n) is never a
    /// target — the last card can only leave its place when its own turn comes —
    /// and, like [`naive_swap`], every card swaps with the whole range, giving
    /// (n−1)ⁿ paths that n! does not divide. (The original also seeded its
    /// generator from the clock, leaving few possible decks; fairdeck's dice do
    /// not reproduce that.) For n < 2 it does nothing (there is no target).
    ///
    /// O(n) time, O(1) extra space; `n` rolls with bound `n − 1`.
    ///
    /// ```
    /// use fairdeck::algorithms::asf_poker;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=52).collect();
    /// asf_poker(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=52).collect::<Vec<_>>());
    /// ```
    in place: asf_poker, traced: asf_poker_traced (items; dice, obs) {
        let n = items.len();
        if n < 2 {
            return;
        }
        swap_pass(items, 0..n, |_| dice.roll(n as u64 - 1) as usize, obs);
    }
}

algorithm! {
    /// Florian’s “关于如何评价洗牌质量的猜想” `mess`: n times, draw two positions uniformly from the whole
    /// deck, drawing both again while they coincide, and swap them.
    ///
    /// Source: Florian, “关于如何评价洗牌质量的猜想” ("一个简单的洗牌算法", `rand() % len` there; exact rolls
    /// here). Flawed: n random transpositions are far too few to mix (about
    /// ½·n·ln n are needed; Diaconis and Shahshahani, 1981), and since each swap
    /// flips the parity, the output is an odd permutation exactly when n is odd
    /// — half of all orders never come out. The redraw loop is unbounded: each
    /// pass checks [`Dice::exhausted`] and returns early when it is true. For
    /// n < 2 it does nothing (the C++ original loops forever at n = 1).
    ///
    /// O(n) expected time, O(1) extra space; 2 rolls with bound `n` per attempt,
    /// n/(n−1) attempts per swap on average.
    ///
    /// ```
    /// use fairdeck::algorithms::random_transpositions;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=20).collect();
    /// random_transpositions(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=20).collect::<Vec<_>>());
    /// ```
    in place: random_transpositions, traced: random_transpositions_traced (items; dice, obs) {
        let n = items.len();
        if n < 2 {
            return;
        }
        for _ in 0..n {
            loop {
                if dice.exhausted() {
                    return;
                }
                let i = dice.roll(n as u64) as usize;
                let j = dice.roll(n as u64) as usize;
                if i != j {
                    items.swap(i, j);
                    obs.observe(Action::Swap { i, j }, items, &[]);
                    break;
                }
                obs.observe(Action::Redraw { i }, items, &[]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::scripted::Tired;
    use crate::dice::Enumerator;
    use crate::testing::{enumerate, factorial, orders};

    #[test]
    fn naive_swap_at_three_cards_has_27_paths_split_four_and_five() {
        let counts = enumerate(|e| {
            let mut v = [0usize, 1, 2];
            naive_swap(&mut v, e);
            v
        });
        assert_eq!(counts.values().sum::<u64>(), 27);
        let mut tally: Vec<u64> = counts.values().copied().collect();
        tally.sort_unstable();
        assert_eq!(tally, [4, 4, 4, 5, 5, 5]);
    }

    #[test]
    fn sattolo_makes_each_single_cycle_once() {
        for n in 2..=6usize {
            let counts = orders(n, sattolo);
            assert_eq!(counts.len() as u64, factorial(n as u64 - 1), "n = {n}");
            assert!(counts.values().all(|&c| c == 1));
            assert!(counts.keys().all(|p| cycle_length(p, 0) == n), "n = {n}");
        }
    }

    fn cycle_length(p: &[usize], start: usize) -> usize {
        let (mut x, mut len) = (p[start], 1);
        while x != start {
            x = p[x];
            len += 1;
        }
        len
    }

    #[test]
    fn asf_poker_never_targets_the_last_place() {
        // With n = 3 the targets are positions 0 and 1 only: 2³ = 8 paths.
        let counts = enumerate(|e| {
            let mut v = [0usize, 1, 2];
            asf_poker(&mut v, e);
            v
        });
        // Only four orders come out, two paths each; 0 1 2 and 1 0 2 never do.
        let orders: Vec<[usize; 3]> = counts.keys().copied().collect();
        assert_eq!(orders, [[0, 2, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0]]);
        assert!(counts.values().all(|&c| c == 2));
    }

    #[test]
    fn random_transpositions_keep_the_parity_of_n() {
        // Each of the n swaps is a transposition: sign = (−1)ⁿ. Walk every
        // path of 2n rolls (the ones without a redraw finish).
        for n in 2..=4usize {
            let mut walk = Enumerator::new();
            let mut orders = std::collections::BTreeSet::new();
            loop {
                let limit = 2 * n;
                let mut dice = Tired::new(walk, limit);
                let mut v: Vec<usize> = (0..n).collect();
                random_transpositions(&mut v, &mut dice);
                walk = dice.walk;
                if finished(&walk, n) {
                    orders.insert(v);
                }
                if !walk.next_path() {
                    break;
                }
            }
            assert!(orders.iter().all(|p| parity(p) == n % 2), "n = {n}");
        }
    }

    /// Whether the answers on the path made n successful swaps.
    fn finished(walk: &Enumerator, n: usize) -> bool {
        let a: Vec<u64> = walk.path_answers().collect();
        a.chunks(2).filter(|c| c.len() == 2 && c[0] != c[1]).count() == n
    }

    fn parity(p: &[usize]) -> usize {
        let mut inversions = 0;
        for i in 0..p.len() {
            inversions += (i + 1..p.len()).filter(|&j| p[i] > p[j]).count();
        }
        inversions % 2
    }
}
