//! The two-sequence methods: take cards out of the deck one at a time and
//! append them to a pile — Fisher and Yates's pencil-and-paper original (with
//! a vector and with a linked list) and the “Shuffling a deck of cards” article’s "draw until unused".
//!
//! They work on card numbers `0..n`; the public functions then move the
//! caller's items into the order found, in place and in O(n).

use super::trace::{Action, algorithm, complete};
use crate::dice::Dice;

algorithm! {
    /// Fisher and Yates's original method, kept in a vector: pick `k` uniform
    /// among the cards not yet struck, strike the `k`-th of them, append it to
    /// the result; repeat until none is left.
    ///
    /// Source: R. A. Fisher and F. Yates, 1938, "Statistical tables for
    /// biological, agricultural and medical research" (as described in “洗牌算法_最简单的洗牌方法” (2023)
    /// and “Mischiamo le carte”); the “Shuffling a deck of cards” article’s C++ `vector` version, which we follow step for step:
    /// it reads the picked card, looks it up again with a linear `find`, then
    /// `erase`s it, shifting the rest. Exactly uniform (n! equally likely paths).
    ///
    /// O(n²) time (each strike scans and shifts up to n cards; “Shuffling a deck of cards” (2014) timed
    /// n = 10⁶ at 354 s), O(n) extra space; `n` rolls with bounds `n, n−1, …, 1`.
    ///
    /// ```
    /// use fairdeck::algorithms::fisher_yates_original;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=8).collect();
    /// fisher_yates_original(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=8).collect::<Vec<_>>());
    /// ```
    by order: fisher_yates_original, traced: original_order (n; dice, obs) {
        let mut unstruck: Vec<usize> = (0..n).collect();
        let mut pile = Vec::with_capacity(n);
        while !unstruck.is_empty() {
            let k = dice.roll(unstruck.len() as u64) as usize;
            let card = unstruck[k];
            // “Shuffling a deck of cards” (2014) finds the card again by value before erasing it; the scan
            // is part of what it timed, so it stays.
            let at = unstruck.iter().position(|&c| c == card).unwrap_or(k);
            unstruck.remove(at);
            pile.push(card);
            obs.observe(Action::Strike { k, card }, &unstruck, &pile);
        }
        pile
    }
}

/// End of the list.
const NIL: usize = usize::MAX;

algorithm! {
    /// The same pencil-and-paper method with the unstruck cards in a linked
    /// list: walk `k` links from the head, unlink that node, append its card.
    ///
    /// Source: the “Shuffling a deck of cards” article’s C++ `std::list` version (`advance` from `begin()`, then
    /// `erase`). Our list is singly linked, its nodes kept in one vector (an
    /// arena: node `c` holds card `c`, `next[c]` is the following node); the walk
    /// always starts at the head, as `advance` does. Exactly uniform.
    ///
    /// O(n²) time (the walk; unlinking is O(1); “Shuffling a deck of cards” (2014) timed n = 10⁶ at
    /// 238 s), O(n) extra space; `n` rolls with bounds `n, n−1, …, 1`.
    ///
    /// ```
    /// use fairdeck::algorithms::fisher_yates_list;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=8).collect();
    /// fisher_yates_list(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=8).collect::<Vec<_>>());
    /// ```
    by order: fisher_yates_list, traced: list_order (n; dice, obs) {
        // Node n is the head sentinel; node c < n holds card c.
        let mut next: Vec<usize> = (1..=n).collect();
        next.push(if n == 0 { NIL } else { 0 });
        if let Some(last) = next.get_mut(n.wrapping_sub(1)) {
            *last = NIL;
        }
        let mut pile = Vec::with_capacity(n);
        for left in (1..=n).rev() {
            let k = dice.roll(left as u64) as usize;
            let mut before = n;
            for _ in 0..k {
                before = next[before];
            }
            let card = next[before];
            next[before] = next[card];
            pile.push(card);
            if O::ACTIVE {
                let remaining = walk(&next, n);
                obs.observe(Action::Strike { k, card }, &remaining, &pile);
            }
        }
        pile
    }
}

/// The cards still linked, head to tail.
fn walk(next: &[usize], head: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut node = next[head];
    while node != NIL {
        out.push(node);
        node = next[node];
    }
    out
}

algorithm! {
    /// The “Shuffling a deck of cards” article’s first method: draw a card uniformly from all `n`; if it has
    /// not come up before, deal it, otherwise draw again; until all are dealt.
    ///
    /// Source: “Shuffling a deck of cards” (2014), method 1 (`rand() % n` there; an exact roll here).
    /// Exactly uniform — each order's probability is a sum over unboundedly
    /// many paths — but the number of rolls is unbounded: n·H(n) ≈ n ln n on
    /// average (the coupon collector), n rolls at the very least. Each pass checks
    /// [`Dice::exhausted`] and stops early (dealing the undrawn cards in order).
    ///
    /// O(n log n) expected time, O(n) extra space.
    ///
    /// ```
    /// use fairdeck::algorithms::rejection;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=52).collect();
    /// rejection(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=52).collect::<Vec<_>>());
    /// ```
    by order: rejection, traced: rejection_order (n; dice, obs) {
        let mut used = vec![false; n];
        let mut pile = Vec::with_capacity(n);
        while pile.len() != n && !dice.exhausted() {
            let card = dice.roll(n as u64) as usize;
            let fresh = !used[card];
            if fresh {
                used[card] = true;
                pile.push(card);
            }
            if O::ACTIVE {
                let left: Vec<usize> = (0..n).filter(|&c| !used[c]).collect();
                obs.observe(Action::Draw { card, fresh }, &left, &pile);
            }
        }
        complete(&mut pile, n);
        pile
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::scripted::{Replay, Tired};
    use crate::algorithms::trace::Silent;
    use crate::dice::Enumerator;
    use crate::testing::{enumerate, factorial};

    #[test]
    fn vector_and_list_are_exactly_uniform_up_to_five_cards() {
        for n in 0..=5usize {
            let vector = enumerate(|e| original_order(n, e, &mut Silent));
            let list = enumerate(|e| list_order(n, e, &mut Silent));
            assert_eq!(vector.len() as u64, factorial(n as u64));
            assert!(vector.values().all(|&c| c == 1));
            assert_eq!(vector, list, "same answers, same pile, n = {n}");
        }
    }

    #[test]
    fn seed_002_worked_example() {
        // “洗牌算法_最简单的洗牌方法” (2023) shuffles 1..8 with k = 3, 6, 2, 3, 4, 1, 2, 1 (1-based)
        // and gets 3 7 2 5 8 1 6 4 (the last two picks read off its table).
        let answers = [2u64, 5, 1, 2, 3, 0, 1, 0];
        let mut replay = Replay::new(&answers);
        let pile: Vec<usize> = original_order(8, &mut replay, &mut Silent);
        let one_based: Vec<usize> = pile.iter().map(|c| c + 1).collect();
        assert_eq!(one_based, [3, 7, 2, 5, 8, 1, 6, 4]);
    }

    #[test]
    fn rejection_stops_on_an_exhausted_dice_and_still_returns_a_permutation() {
        // The all-zero path draws card 0 forever: only the exhaustion check ends it.
        let mut dice = Tired::new(Enumerator::new(), 10);
        let order = rejection_order(4, &mut dice, &mut Silent);
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(dice.walk.depth(), 10);
    }
}
