//! Card guessing with complete feedback: the cards of a deck are turned one
//! at a time; before each, a player names the card they think comes next.
//!
//! Diaconis, Fulman and Holmes (2013), “Analysis of casino shelf shuffling
//! machines”, convinced a manufacturer with this game: against a uniform
//! deck every player who names cards not yet seen is right with probability
//! 1/k when k cards are left — H₅₂ ≈ 4.54 right of 52 on average, whatever
//! the strategy ([`super::laws::guesses`]) — while a player who knows a
//! one-pass shelf machine does much better. Our player follows the runs a
//! shelf leaves (the machine deals from the bottom of the deck, so each
//! shelf holds a rising run of the cards put on top, then a falling run of
//! those put below): it names the lowest card first; after a rising step
//! it names the smallest card above the last one not yet seen, after a
//! falling step the largest one below; where the run cannot go on, it turns. This is DFH's
//! idea in its simplest form, not their strategy card for card: it needs
//! no knowledge of the number of shelves, and O(1) time per card.

/// The cards of `deck` (top first; a permutation of `0..n`) that the
/// run-following player guesses right. O(n) time, O(n) extra space.
///
/// ```
/// use fairdeck_audit::stats::guess::guessed_right;
///
/// // One shelf: a rising run, then a falling one.
/// assert_eq!(guessed_right(&[0, 2, 4, 3, 1]), 3); // 0, then 3 and 1
/// ```
///
/// # Panics
///
/// When `deck` is not a permutation of `0..n` (callers check first).
pub fn guessed_right(deck: &[usize]) -> usize {
    let n = deck.len();
    // The cards not yet seen, as a doubly linked list in label order:
    // below[c] and above[c] are c's unseen neighbours (n: none).
    let mut below: Vec<usize> = (0..n).map(|c| c.checked_sub(1).unwrap_or(n)).collect();
    let mut above: Vec<usize> = (1..=n).collect();
    let (mut lowest, mut highest) = (0, n.wrapping_sub(1));
    let mut guess = lowest;
    let mut last: Option<usize> = None;
    let mut right = 0;
    for &card in deck {
        right += usize::from(card == guess);
        let falling = last.is_some_and(|l| card < l);
        let (down, up) = (below[card], above[card]);
        if down < n {
            above[down] = up;
        } else {
            lowest = up;
        }
        if up < n {
            below[up] = down;
        } else {
            highest = down;
        }
        guess = match (falling, down < n, up < n) {
            (true, true, _) => down,
            (true, false, true) | (false, _, true) => up,
            (false, true, false) => highest,
            _ => lowest,
        };
        last = Some(card);
    }
    right
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_decks_are_followed_run_by_run() {
        let up: Vec<usize> = (0..52).collect();
        assert_eq!(guessed_right(&up), 52);
        let down: Vec<usize> = (0..52).rev().collect();
        assert_eq!(guessed_right(&down), 51); // 0 named first, then every card
        assert_eq!(guessed_right(&[]), 0);
        assert_eq!(guessed_right(&[0]), 1);
    }
}
