//! The catalogue: every shuffle of the source articles, fair or flawed, runnable
//! side by side.
//!
//! Each algorithm is a plain function generic over the [`Dice`], doing exactly
//! what its article describes — index ranges, number of rolls and flaws
//! included — so that the audit can measure the article's algorithm and not
//! a corrected one. [`Algorithm`] lists them with their sources, complexity
//! and whether they are meant to be uniform, and runs any of them on the
//! cards `0..n`, optionally recording every intermediate state.
//!
//! | family | algorithms |
//! |---|---|
//! | in-place Fisher–Yates | [`fisher_yates`], [`knuth_forward`], [`inside_out`] |
//! | two sequences | [`fisher_yates_original`], [`fisher_yates_list`], [`rejection`] |
//! | insertion | [`random_insertion`], [`random_insertion_stopping`], [`reverse_insertion`] |
//! | sorting | [`sort_keys`], [`sort_keys_fast`] |
//! | flawed | [`naive_swap`], [`sattolo`], [`asf_poker`], [`random_transpositions`] |
//! | deals | [`knuth_deal`], [`hash_deal`] |
//!
//! For production use [`crate::shuffle`]: it is the same Fisher–Yates, free
//! to draw faster. The “Mischiamo le carte” article’s Python snippet is documented, not run: see
//! [`PYTHON_SNIPPET_BUG`].
//!
//! ```
//! use fairdeck::algorithms::Algorithm;
//! use fairdeck::dice::RngDice;
//! use fairdeck::rng::{Generator, Seed};
//!
//! let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
//! let alg: Algorithm = "sattolo".parse()?;
//! let order = alg.permute(5, &mut dice);
//! assert!(order.iter().enumerate().all(|(i, &c)| i != c)); // a single 5-cycle
//! # Ok::<(), fairdeck::Error>(())
//! ```

mod catalogue;
mod cost;
mod deal;
mod fisher_yates;
mod flawed;
mod insertion;
mod pencil;
#[cfg(test)]
mod scripted;
mod sorting;
mod trace;

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::dice::Dice;
use catalogue::{ENTRIES, Entry};
use trace::{Observer, Recorder, Silent};

pub use catalogue::{OUTSIDE, PYTHON_SNIPPET_BUG};
pub use cost::{Growth, IN_CACHE_N, NANOS_PER_STEP, largest_within};
pub use deal::{hash_deal, knuth_deal};
pub use fisher_yates::{fisher_yates, inside_out, knuth_forward};
pub use flawed::{asf_poker, naive_swap, random_transpositions, sattolo};
pub use insertion::{
    insertion_rounds, random_insertion, random_insertion_stopping, reverse_insertion,
};
pub use pencil::{fisher_yates_list, fisher_yates_original, rejection};
pub use sorting::{sort_keys, sort_keys_fast};
pub use trace::{Action, Step};

/// Every shuffle of the catalogue. See the [module documentation](self).
///
/// ```
/// use fairdeck::algorithms::Algorithm;
///
/// let alg = Algorithm::FisherYatesList;
/// assert_eq!(alg.name(), "fisher-yates-list");
/// assert_eq!(alg.sources(), ["anonymous, “Shuffling a deck of cards” (2014)"]);
/// assert_eq!((alg.time(), alg.space()), ("O(n^2)", "O(n)"));
/// assert!(alg.intended_uniform() && !alg.is_unbounded());
/// assert!(!Algorithm::NaiveSwap.intended_uniform());
/// assert_eq!(Algorithm::ALL.len(), 17);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// [`fisher_yates`]: Durstenfeld backward, `j` in `[0, i]`.
    FisherYates,
    /// [`knuth_forward`]: `j` in `[i, n−1]`, `i` upward.
    KnuthForward,
    /// [`inside_out`]: grow a shuffled prefix.
    InsideOut,
    /// [`fisher_yates_original`]: pencil and paper, vector and erase.
    FisherYatesOriginal,
    /// [`fisher_yates_list`]: pencil and paper, linked list.
    FisherYatesList,
    /// [`rejection`]: draw until unused.
    Rejection,
    /// [`random_insertion`]: top card to a random place, ⌈n·H(n)⌉ times.
    RandomInsertion,
    /// [`random_insertion_stopping`]: the same until a strong uniform time.
    RandomInsertionStopping,
    /// [`sort_keys`]: random priorities, selection sort.
    SortKeys,
    /// [`sort_keys_fast`]: random priorities, stable merge sort.
    SortKeysFast,
    /// [`reverse_insertion`]: insertion sort at random places.
    ReverseInsertion,
    /// [`random_transpositions`]: Florian’s “关于如何评价洗牌质量的猜想” n random swaps.
    RandomTranspositions,
    /// [`naive_swap`]: `j` from the whole deck (biased).
    NaiveSwap,
    /// [`sattolo`]: `j` in `[i+1, n−1]` (cyclic only).
    Sattolo,
    /// [`asf_poker`]: the 1999 online-poker shuffle (biased).
    AsfPoker,
    /// [`knuth_deal`]: deal k of n (k = n here).
    KnuthDeal,
    /// [`hash_deal`]: deal k of n with a hash table (k = n here).
    HashDeal,
}

/// Options of [`Algorithm::permute_with`]; the defaults are the articles'.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Params {
    /// Rounds of `random-insertion` (default ⌈n·H(n)⌉, [`insertion_rounds`]).
    pub rounds: Option<u64>,
    /// Cards dealt by `knuth-deal` and `hash-deal` (default all n; at most n).
    pub deal: Option<usize>,
}

impl Algorithm {
    /// All of them, in catalogue order.
    pub const ALL: [Algorithm; 17] = [
        Algorithm::FisherYates,
        Algorithm::KnuthForward,
        Algorithm::InsideOut,
        Algorithm::FisherYatesOriginal,
        Algorithm::FisherYatesList,
        Algorithm::Rejection,
        Algorithm::RandomInsertion,
        Algorithm::RandomInsertionStopping,
        Algorithm::SortKeys,
        Algorithm::SortKeysFast,
        Algorithm::ReverseInsertion,
        Algorithm::RandomTranspositions,
        Algorithm::NaiveSwap,
        Algorithm::Sattolo,
        Algorithm::AsfPoker,
        Algorithm::KnuthDeal,
        Algorithm::HashDeal,
    ];

    fn entry(self) -> &'static Entry {
        &ENTRIES[self as usize]
    }

    /// The kebab-case name used on the command line, e.g. `"fisher-yates"`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The source articles it comes from, by author, title and year (such
    /// as `"Juhász, “Keverjük a kártyát” (n.d.)"`), or [`OUTSIDE`].
    pub fn sources(self) -> &'static [&'static str] {
        self.entry().sources
    }

    /// One paragraph: what it does, where from, and its flaw if it has one.
    pub fn description(self) -> &'static str {
        self.entry().description
    }

    /// Time complexity for n cards, e.g. `"O(n)"`, `"O(n log n) expected"`.
    pub fn time(self) -> &'static str {
        self.entry().time
    }

    /// Extra space beyond the n cards, e.g. `"O(1)"`.
    pub fn space(self) -> &'static str {
        self.entry().space
    }

    /// Whether, as described, it gives every order probability exactly 1/n!
    /// on a fair dice (for the deals: every sequence of k cards equally
    /// likely). `false` for the flawed and the only-approximate ones.
    pub fn intended_uniform(self) -> bool {
        self.entry().intended_uniform
    }

    /// Whether it may roll unboundedly often (a rejection or redraw loop, or
    /// a stopping rule); such loops check [`Dice::exhausted`] on each pass.
    pub fn is_unbounded(self) -> bool {
        self.entry().unbounded
    }

    /// How its running time grows with n (the class of [`Algorithm::time`]).
    pub fn growth(self) -> Growth {
        self.entry().growth
    }

    /// The arrangement of `0..n` after running the algorithm on the identity
    /// `[0, 1, …, n−1]` (the deals deal all n cards), with the articles'
    /// defaults.
    ///
    /// Complexity: that of the algorithm ([`Algorithm::time`]). On an
    /// exhausted dice an unbounded algorithm stops early and returns some
    /// permutation.
    ///
    /// ```
    /// use fairdeck::algorithms::Algorithm;
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// for alg in Algorithm::ALL {
    ///     let mut order = alg.permute(10, &mut dice);
    ///     order.sort();
    ///     assert_eq!(order, (0..10).collect::<Vec<_>>(), "{alg}");
    /// }
    /// ```
    pub fn permute<D: Dice + ?Sized>(self, n: usize, dice: &mut D) -> Vec<usize> {
        self.run(n, &Params::default(), dice, &mut Silent)
    }

    /// Like [`Algorithm::permute`] with non-default [`Params`]. A deal of
    /// `k < n` cards returns just the `k` cards dealt; `deal` above `n` is
    /// treated as `n`.
    pub fn permute_with<D: Dice + ?Sized>(
        self,
        n: usize,
        params: &Params,
        dice: &mut D,
    ) -> Vec<usize> {
        self.run(n, params, dice, &mut Silent)
    }

    /// Runs the algorithm as [`Algorithm::permute_with`] does and also
    /// returns every intermediate state, as the algorithm went through it:
    /// one [`Step`] per swap, move, strike, draw or priority.
    ///
    /// Costs a copy of the deck per step: O(steps · n) extra time and space.
    ///
    /// ```
    /// use fairdeck::algorithms::{Action, Algorithm, Params};
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let (order, steps) = Algorithm::FisherYates.permute_with_steps(6, &Params::default(), &mut dice);
    /// assert_eq!(steps.len(), 5);
    /// assert!(matches!(steps[0].action, Action::Swap { i: 5, .. }));
    /// assert_eq!(steps.last().unwrap().deck, order);
    /// ```
    pub fn permute_with_steps<D: Dice + ?Sized>(
        self,
        n: usize,
        params: &Params,
        dice: &mut D,
    ) -> (Vec<usize>, Vec<Step>) {
        let mut recorder = Recorder::default();
        let order = self.run(n, params, dice, &mut recorder);
        (order, recorder.steps)
    }

    /// The one dispatch: runs the algorithm on `0..n` with an observer (one
    /// match arm per algorithm, hence longer than most functions).
    fn run<D: Dice + ?Sized, O: Observer<usize>>(
        self,
        n: usize,
        params: &Params,
        dice: &mut D,
        obs: &mut O,
    ) -> Vec<usize> {
        use Algorithm as A;
        let mut deck: Vec<usize> = (0..n).collect();
        let k = params.deal.unwrap_or(n).min(n);
        match self {
            A::FisherYates => fisher_yates::fisher_yates_traced(&mut deck, dice, obs),
            A::KnuthForward => fisher_yates::knuth_forward_traced(&mut deck, dice, obs),
            A::InsideOut => fisher_yates::inside_out_traced(&mut deck, dice, obs),
            A::FisherYatesOriginal => return pencil::original_order(n, dice, obs),
            A::FisherYatesList => return pencil::list_order(n, dice, obs),
            A::Rejection => return pencil::rejection_order(n, dice, obs),
            A::RandomInsertion => {
                let rounds = params.rounds.unwrap_or_else(|| insertion_rounds(n));
                insertion::random_insertion_traced(&mut deck, rounds, dice, obs);
            }
            A::RandomInsertionStopping => {
                insertion::random_insertion_stopping_traced(&mut deck, dice, obs);
            }
            A::SortKeys => sorting::sort_keys_traced(&mut deck, dice, obs),
            A::SortKeysFast => return sorting::sort_keys_fast_order(n, dice, obs),
            A::ReverseInsertion => insertion::reverse_insertion_traced(&mut deck, dice, obs),
            A::RandomTranspositions => flawed::random_transpositions_traced(&mut deck, dice, obs),
            A::NaiveSwap => flawed::naive_swap_traced(&mut deck, dice, obs),
            A::Sattolo => flawed::sattolo_traced(&mut deck, dice, obs),
            A::AsfPoker => flawed::asf_poker_traced(&mut deck, dice, obs),
            A::KnuthDeal => return deal::knuth_deal_traced(k, n, dice, obs),
            A::HashDeal => {
                let dealt = deal::hash_deal_traced(k as u64, n as u64, dice, obs);
                return dealt.into_iter().map(|c| c as usize).collect();
            }
        }
        deck
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    /// Parses a kebab-case name (case-insensitive; `_` accepted for `-`).
    ///
    /// # Errors
    ///
    /// [`Error::UnknownAlgorithm`] for any other text.
    fn from_str(s: &str) -> Result<Self, Error> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == wanted)
            .ok_or_else(|| Error::UnknownAlgorithm(s.to_string()))
    }
}

#[cfg(test)]
mod tests;
