//! The insertion shuffles of Juhász, “Keverjük a kártyát”: the top card put back after a random
//! card ("random insertion", also known as top-to-random), with a fixed
//! number of rounds or with an exact stopping rule, and the
//! reverse-insertion-sort shuffle.

use super::trace::{Action, Observer, algorithm};
use crate::dice::Dice;

/// The number of rounds Juhász’s “Keverjük a kártyát” derives for random insertion:
/// ⌈n·H(n)⌉ = ⌈n·(1 + 1/2 + … + 1/n)⌉, the expected number of insertions
/// until the original bottom card has risen to the top and been inserted.
///
/// Juhász, “Keverjük a kártyát” quotes 130 for 32 cards and 236 for 52. Computed in `f64`
/// (exact to the rounding of the sum; fine far beyond any deck).
///
/// ```
/// use fairdeck::algorithms::insertion_rounds;
/// assert_eq!(insertion_rounds(32), 130);
/// assert_eq!(insertion_rounds(52), 236);
/// ```
pub fn insertion_rounds(n: usize) -> u64 {
    let nf = n as f64;
    let sum: f64 = (1..=n).map(|k| nf / k as f64).sum();
    sum.ceil() as u64
}

algorithm! {
    /// Random insertion: `rounds` times, take the top card and insert it after
    /// the `j`-th card, `j` uniform in `[1, n]` (`j = 1` puts it back on top).
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Keverés véletlen cserével", with its procedure
    /// `beszúr`), with `k` rounds; [`insertion_rounds`] gives the article's
    /// choice ⌈n·H(n)⌉. Approximately uniform only: a fixed number of rounds has
    /// nᵏ equally likely paths, which n! does not divide (for n ≥ 3), and fewer
    /// rounds than the stopping time leave visible order. See
    /// [`random_insertion_stopping`] for the exact version.
    ///
    /// O(rounds · n) time (each insertion shifts up to n cards: O(n² log n) with
    /// the default rounds), O(1) extra space; `rounds` rolls with bound `n`.
    ///
    /// ```
    /// use fairdeck::algorithms::{insertion_rounds, random_insertion};
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=32).collect();
    /// random_insertion(&mut deck, insertion_rounds(32), &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=32).collect::<Vec<_>>());
    /// ```
    in place: random_insertion, traced: random_insertion_traced (items, rounds: u64; dice, obs) {
        if items.is_empty() {
            return;
        }
        for _ in 0..rounds {
            insert_top(items, dice, obs);
        }
    }
}

/// One insertion: the top card goes to 0-based position `j`, `j` uniform in
/// `[0, n)`; cards 1..=j move up by one (Juhász’s “Keverjük a kártyát” `beszúr(lap, j+1)`).
/// Returns `j`.
fn insert_top<T, D: Dice + ?Sized, O: Observer<T>>(
    items: &mut [T],
    dice: &mut D,
    obs: &mut O,
) -> usize {
    let j = dice.roll(items.len() as u64) as usize;
    items[..=j].rotate_left(1);
    obs.observe(Action::Move { from: 0, to: j }, items, &[]);
    j
}

algorithm! {
    /// Random insertion with the argument of Juhász’s “Keverjük a kártyát” made exact: insert until the
    /// original bottom card has reached the top, then insert once more (that card
    /// itself) and stop. Returns the number of insertions made.
    ///
    /// Source: Juhász’s “Keverjük a kártyát” derivation of ⌈n·H(n)⌉; the rule is a *strong uniform
    /// time* (Aldous and Diaconis, 1986, "Shuffling cards and stopping times",
    /// Amer. Math. Monthly 93(5)): the cards below the original bottom card are
    /// always in uniformly random order, so the deck is exactly uniform when the
    /// rule stops. The number of insertions is random and unbounded (n·H(n) on
    /// average); each pass checks [`Dice::exhausted`] and stops early when it is
    /// true (the deck is then a permutation, but not a uniform one).
    ///
    /// O(n² log n) expected time, O(1) extra space; rolls with bound `n`.
    ///
    /// ```
    /// use fairdeck::algorithms::random_insertion_stopping;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=52).collect();
    /// let rounds = random_insertion_stopping(&mut deck, &mut dice);
    /// assert!(rounds >= 52);
    /// deck.sort();
    /// assert_eq!(deck, (1..=52).collect::<Vec<_>>());
    /// ```
    in place: random_insertion_stopping, traced: random_insertion_stopping_traced (items; dice, obs) -> u64 {
        let Some(mut bottom) = items.len().checked_sub(1) else {
            return 0;
        };
        let mut rounds = 0;
        while !dice.exhausted() {
            let was_on_top = bottom == 0;
            let j = insert_top(items, dice, obs);
            rounds += 1;
            if was_on_top {
                break;
            }
            if j >= bottom {
                bottom -= 1;
            }
        }
        rounds
    }
}

algorithm! {
    /// Reverse-insertion-sort shuffle: for `i` from 2 to n (1-based), take card
    /// `i` out, choose a place uniformly in `[1, i]`, shift the cards from there
    /// up by one and put card `i` there.
    ///
    /// Source: Juhász, “Keverjük a kártyát” ("Keverés fordított rendezéssel"): insertion sort with
    /// the search for the place replaced by a random choice. Exactly uniform
    /// (i choices at step i: n! equally likely paths, all different).
    ///
    /// O(n²) time (the shifts), O(1) extra space; `n − 1` rolls with bounds
    /// `2, 3, …, n`.
    ///
    /// ```
    /// use fairdeck::algorithms::reverse_insertion;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut deck: Vec<u32> = (1..=10).collect();
    /// reverse_insertion(&mut deck, &mut dice);
    /// deck.sort();
    /// assert_eq!(deck, (1..=10).collect::<Vec<_>>());
    /// ```
    in place: reverse_insertion, traced: reverse_insertion_traced (items; dice, obs) {
        for i in 1..items.len() {
            let place = dice.roll(i as u64 + 1) as usize;
            items[place..=i].rotate_right(1);
            obs.observe(Action::Move { from: i, to: place }, items, &[]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::scripted::{Replay, Tired};
    use crate::dice::Enumerator;
    use crate::testing::{enumerate, factorial, orders};

    #[test]
    fn one_insertion_is_the_articles_beszur() {
        // beszúr(lap, 3) on 1 2 3 4 5 gives 2 3 1 4 5.
        let mut deck = [1, 2, 3, 4, 5];
        random_insertion(&mut deck, 1, &mut Replay::new(&[2]));
        assert_eq!(deck, [2, 3, 1, 4, 5]);
    }

    #[test]
    fn rounds_match_the_article_and_small_cases() {
        assert_eq!(insertion_rounds(0), 0);
        assert_eq!(insertion_rounds(1), 1);
        assert_eq!(insertion_rounds(2), 3);
        assert_eq!(insertion_rounds(3), 6); // 5.5 rounded up
    }

    #[test]
    fn fixed_rounds_are_not_uniform_for_three_cards() {
        // 3^6 = 729 paths cannot split evenly over 3! = 6 orders.
        let counts = enumerate(|e| {
            let mut v = [0usize, 1, 2];
            random_insertion(&mut v, insertion_rounds(3), e);
            v
        });
        assert_eq!(counts.len(), 6);
        let first = counts.values().next().copied();
        assert!(counts.values().any(|&c| Some(c) != first));
    }

    #[test]
    fn stopping_rule_is_exactly_uniform_on_every_resolved_path() {
        // Walk all paths of up to `limit` rolls; sum the probability of each
        // order over the paths that stopped by the rule. A strong uniform time
        // gives every order the same total whatever the limit.
        for (n, limit) in [(1usize, 3usize), (2, 16), (3, 10), (4, 8)] {
            let mut mass = std::collections::BTreeMap::<Vec<usize>, f64>::new();
            let mut walk = Enumerator::new();
            loop {
                let mut dice = Tired::new(walk, limit);
                let mut v: Vec<usize> = (0..n).collect();
                random_insertion_stopping(&mut v, &mut dice);
                walk = dice.walk;
                let p: f64 = walk.path_bounds().map(|b| 1.0 / b as f64).product();
                if dice_stopped_by_rule(&walk, n) {
                    *mass.entry(v).or_default() += p;
                }
                if !walk.next_path() {
                    break;
                }
            }
            assert_eq!(mass.len() as u64, factorial(n as u64), "n = {n}");
            let (lo, hi) = mass
                .values()
                .fold((1.0f64, 0.0f64), |(a, b), &m| (a.min(m), b.max(m)));
            assert!((hi - lo) / hi < 1e-9, "n = {n}: {mass:?}");
        }
    }

    /// Whether the path just walked ended because the bottom card was inserted from the top.
    fn dice_stopped_by_rule(walk: &Enumerator, n: usize) -> bool {
        let mut bottom = n - 1;
        for j in walk.path_answers() {
            if bottom == 0 {
                return true;
            }
            if j as usize >= bottom {
                bottom -= 1;
            }
        }
        false
    }

    #[test]
    fn reverse_insertion_is_exactly_uniform_up_to_five_cards() {
        for n in 0..=5usize {
            let counts = orders(n, reverse_insertion);
            assert_eq!(counts.len() as u64, factorial(n as u64));
            assert!(counts.values().all(|&c| c == 1));
        }
    }
}
