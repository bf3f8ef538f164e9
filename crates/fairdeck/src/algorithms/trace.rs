//! Recording what an algorithm does, one step at a time, for teaching output.
//!
//! Every catalogue algorithm is written once, generic over an observer that
//! is told about each step as it happens, inside one [`algorithm!`]
//! invocation. The macro gives it its two entries: the public function,
//! which runs it with the [`Silent`] observer (compiled away), and a traced
//! one that [`Algorithm`](super::Algorithm)'s one dispatch runs — with
//! [`Silent`] for [`permute`](super::Algorithm::permute), with a
//! [`Recorder`] for
//! [`permute_with_steps`](super::Algorithm::permute_with_steps) — so the
//! printed states are the ones the algorithm really went through, and no
//! algorithm has a hand-written twin.

/// One thing an algorithm did. Positions are 0-based indices into the deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// Exchanged the cards at positions `i` and `j` (`i == j` leaves the deck as it was).
    Swap {
        /// One position.
        i: usize,
        /// The other position.
        j: usize,
    },
    /// Drew the same position twice (`i` and `i`) and must draw again (random transpositions).
    Redraw {
        /// The position drawn twice.
        i: usize,
    },
    /// Took the card at `from` out and put it back at `to`, shifting the cards between by one.
    Move {
        /// Where the card was.
        from: usize,
        /// Where it is now.
        to: usize,
    },
    /// Struck the `k`-th (0-based) card still in the deck and appended it to the pile.
    Strike {
        /// Its rank among the cards not yet struck.
        k: usize,
        /// The card.
        card: usize,
    },
    /// Drew `card`; kept it if `fresh` (not drawn before), else threw the draw away (rejection).
    Draw {
        /// The card drawn.
        card: usize,
        /// Whether it had not come up before.
        fresh: bool,
    },
    /// Gave the card at position `i` the random priority `key` (sorting by random keys).
    Key {
        /// The position.
        i: usize,
        /// The priority drawn.
        key: u64,
    },
    /// Sorted the whole deck by the priorities, in one stable sort.
    Sort,
}

/// The state after one [`Action`]: what
/// [`Algorithm::permute_with_steps`](super::Algorithm::permute_with_steps) records.
///
/// `deck` is the main sequence (the array being shuffled in place, or the
/// cards not yet taken); `pile` is the second sequence of the two-sequence
/// methods (the cards already taken, in order), empty for in-place methods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What was done.
    pub action: Action,
    /// The main sequence after it.
    pub deck: Vec<usize>,
    /// The second sequence after it (empty for in-place algorithms).
    pub pile: Vec<usize>,
}

/// Told about every step of an algorithm as it runs.
pub(crate) trait Observer<T> {
    /// `false` lets an algorithm skip building a snapshot nobody reads.
    const ACTIVE: bool;
    /// Called after each step with the state it left.
    fn observe(&mut self, action: Action, deck: &[T], pile: &[T]);
}

/// The observer of the public functions: ignores everything.
pub(crate) struct Silent;

impl<T> Observer<T> for Silent {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn observe(&mut self, _: Action, _: &[T], _: &[T]) {}
}

/// Keeps a copy of every state, for `--steps`.
#[derive(Default)]
pub(crate) struct Recorder {
    pub steps: Vec<Step>,
}

impl Observer<usize> for Recorder {
    const ACTIVE: bool = true;
    fn observe(&mut self, action: Action, deck: &[usize], pile: &[usize]) {
        self.steps.push(Step {
            action,
            deck: deck.to_vec(),
            pile: pile.to_vec(),
        });
    }
}

/// Writes a catalogue algorithm once and makes its two entries: the public
/// function (the doc comments given, run with [`Silent`]) and the traced
/// function of the name after `traced:`, generic over an [`Observer`], which
/// holds the body. Three shapes:
///
/// * `in place: NAME, traced: NAME_traced (items, extra: Ty; dice, obs) -> Ret { .. }`
///   — an in-place shuffle of any `T`: `NAME(items, extra.., dice) -> Ret`;
/// * `by order: NAME, traced: NAME_order (n; dice, obs) { .. }` — a method
///   that builds the order of the cards `0..n` (two-sequence methods): the
///   public `NAME(items, dice)` applies that order to `items`;
/// * `deal: NAME, traced: NAME_traced (k: K, n: N; dice, obs) -> Vec<C>, checked by CHECK { .. }`
///   — a deal of `k` cards of `n`: `NAME(k, n, dice) -> Result<Vec<C>, Error>`,
///   `CHECK(k, n)?` first.
macro_rules! algorithm {
    (
        $(#[$doc:meta])*
        in place: $name:ident, traced: $traced:ident
        ($items:ident $(, $arg:ident: $arg_ty:ty)*; $dice:ident, $obs:ident) $(-> $ret:ty)?
        $body:block
    ) => {
        $(#[$doc])*
        pub fn $name<T, D: $crate::dice::Dice + ?Sized>(
            $items: &mut [T],
            $($arg: $arg_ty,)*
            $dice: &mut D,
        ) $(-> $ret)? {
            $traced($items, $($arg,)* $dice, &mut $crate::algorithms::trace::Silent)
        }

        pub(crate) fn $traced<T, D, O>(
            $items: &mut [T],
            $($arg: $arg_ty,)*
            $dice: &mut D,
            $obs: &mut O,
        ) $(-> $ret)?
        where
            D: $crate::dice::Dice + ?Sized,
            O: $crate::algorithms::trace::Observer<T>,
        $body
    };
    (
        $(#[$doc:meta])*
        by order: $name:ident, traced: $traced:ident ($n:ident; $dice:ident, $obs:ident)
        $body:block
    ) => {
        $(#[$doc])*
        pub fn $name<T, D: $crate::dice::Dice + ?Sized>(items: &mut [T], dice: &mut D) {
            let order = $traced(items.len(), dice, &mut $crate::algorithms::trace::Silent);
            $crate::algorithms::trace::apply_order(items, &order);
        }

        pub(crate) fn $traced<D, O>($n: usize, $dice: &mut D, $obs: &mut O) -> Vec<usize>
        where
            D: $crate::dice::Dice + ?Sized,
            O: $crate::algorithms::trace::Observer<usize>,
        $body
    };
    (
        $(#[$doc:meta])*
        deal: $name:ident, traced: $traced:ident
        ($k:ident: $k_ty:ty, $n:ident: $n_ty:ty; $dice:ident, $obs:ident) -> Vec<$card:ty>,
        checked by $check:path
        $body:block
    ) => {
        $(#[$doc])*
        pub fn $name<D: $crate::dice::Dice + ?Sized>(
            $k: $k_ty,
            $n: $n_ty,
            $dice: &mut D,
        ) -> Result<Vec<$card>, $crate::Error> {
            $check($k, $n)?;
            Ok($traced($k, $n, $dice, &mut $crate::algorithms::trace::Silent))
        }

        pub(crate) fn $traced<D, O>($k: $k_ty, $n: $n_ty, $dice: &mut D, $obs: &mut O) -> Vec<$card>
        where
            D: $crate::dice::Dice + ?Sized,
            O: $crate::algorithms::trace::Observer<usize>,
        $body
    };
}
pub(crate) use algorithm;

/// Swaps card `i` with card `target(i)` for each `i` of `positions`, in
/// order, and reports each swap: the loop every swap shuffle of the
/// catalogue shares, which differ only in the positions they visit and the
/// range they draw from (`target` makes the roll).
///
/// O(number of positions) steps, each one `target` call and one swap.
#[inline(always)]
pub(crate) fn swap_pass<T, O: Observer<T>>(
    items: &mut [T],
    positions: impl Iterator<Item = usize>,
    mut target: impl FnMut(usize) -> usize,
    obs: &mut O,
) {
    for i in positions {
        let j = target(i);
        items.swap(i, j);
        obs.observe(Action::Swap { i, j }, items, &[]);
    }
}

/// Rearranges `items` so that afterwards `items[p]` is the element that was
/// at `order[p]`, in place, by following the permutation's cycles.
///
/// O(n) time, O(n) bits of extra space. `order` must be a permutation of
/// `0..items.len()`.
pub(crate) fn apply_order<T>(items: &mut [T], order: &[usize]) {
    debug_assert_eq!(items.len(), order.len());
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut pos = start;
        while !placed[pos] {
            placed[pos] = true;
            let src = order[pos];
            if src == start {
                break;
            }
            items.swap(pos, src);
            pos = src;
        }
    }
}

/// Appends the cards of `0..n` missing from `order`, in increasing order, so
/// that a run cut short by an exhausted dice still returns a permutation.
pub(crate) fn complete(order: &mut Vec<usize>, n: usize) {
    if order.len() == n {
        return;
    }
    let mut seen = vec![false; n];
    for &c in order.iter() {
        seen[c] = true;
    }
    order.extend((0..n).filter(|&c| !seen[c]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_order_moves_each_element_where_order_says() {
        let orders: [&[usize]; 4] = [&[], &[0], &[2, 0, 1], &[3, 2, 0, 4, 1]];
        for order in orders {
            let mut items: Vec<char> = "abcde"[..order.len()].chars().collect();
            let before = items.clone();
            apply_order(&mut items, order);
            let expected: Vec<char> = order.iter().map(|&i| before[i]).collect();
            assert_eq!(items, expected);
        }
    }

    #[test]
    fn complete_fills_in_the_missing_cards() {
        let mut v = vec![3, 1];
        complete(&mut v, 5);
        assert_eq!(v, [3, 1, 0, 2, 4]);
    }
}
