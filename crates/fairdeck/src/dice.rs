//! The dice: the one seam through which every algorithm draws randomness.
//!
//! An algorithm in fairdeck never touches a random number generator. It asks a
//! [`Dice`] for "a uniform integer in `[0, n)`" and nothing else. That single
//! question is enough to express every shuffle, deal and sample, and it lets
//! three very different things stand behind it:
//!
//! * [`RngDice`] — production: exact bounded draws over any [`rand_core::Rng`]
//!   by Lemire's multiply-and-reject method (no modulo, no floats);
//! * [`Enumerator`] — walks every possible sequence of answers, so a test (or
//!   the audit crate) can compute an algorithm's exact output distribution;
//! * [`Counting`] — wraps another dice and counts the draws and the
//!   information they carry (compare with log2 n!).
//!
//! # Contract
//!
//! For every call `roll(n)` with `n ≥ 1`, an implementation returns a value in
//! `[0, n)`. A *fair* dice returns each of the `n` values with probability
//! exactly `1/n`, independently of all earlier answers. `roll(0)` is a
//! programming error and panics. [`Dice::roll_many`] must be equivalent to
//! calling `roll` once per bound, in order — an implementation may answer it
//! faster (several draws from one 64-bit word), but the enumerator relies on
//! the answers being the same independent uniform choices.
//!
//! ```
//! use fairdeck::dice::{Dice, RngDice};
//! use fairdeck::rng::{Generator, Seed};
//!
//! let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_text("doc")));
//! let face = dice.roll(6);
//! assert!(face < 6);
//! ```

use rand_core::Rng;

mod batch;
mod counting;
mod descending;

pub use counting::Counting;

/// A source of uniform bounded integers: the only randomness an algorithm may use.
///
/// See the [module documentation](self) for the contract.
pub trait Dice {
    /// Returns a uniform integer in `[0, n)`.
    ///
    /// # Panics
    ///
    /// Panics if `n == 0`.
    fn roll(&mut self, n: u64) -> u64;

    /// Rolls once for each bound in `bounds`, writing the answers to `out`.
    ///
    /// Equivalent to `out[i] = self.roll(bounds[i])` for each `i` in order;
    /// implementations may override it with a batched fast path.
    ///
    /// # Panics
    ///
    /// Panics if the slices differ in length or a bound is zero.
    fn roll_many(&mut self, bounds: &[u64], out: &mut [u64]) {
        assert_eq!(
            bounds.len(),
            out.len(),
            "roll_many: slices differ in length"
        );
        for (o, &b) in out.iter_mut().zip(bounds) {
            *o = self.roll(b);
        }
    }

    /// [`Dice::roll_many`] with a hint: every bound is below `2^bits`.
    ///
    /// The answers must be the same independent uniform rolls as
    /// `roll_many`'s; the hint only saves the production dice from measuring
    /// the bounds (a bit scan per bound, slow on some CPUs). A wrong hint
    /// costs speed, never exactness: such requests go to `roll_many`.
    ///
    /// # Panics
    ///
    /// Panics if the slices differ in length or a bound is zero.
    fn roll_many_below(&mut self, bits: u32, bounds: &[u64], out: &mut [u64]) {
        let _ = bits;
        self.roll_many(bounds, out);
    }

    /// [`Dice::roll_many_below`] for the descending bounds `top, top − 1, …,
    /// top − out.len() + 1` (the bounds of a run of Fisher–Yates steps).
    ///
    /// The same answers as `roll_many_below(bits, &[top, top − 1, …], out)`:
    /// this default builds that slice and asks it; the production dice
    /// answers without storing the bounds.
    ///
    /// # Panics
    ///
    /// Panics if `out.len() > 64`, or if `out.len() > top` (a bound would be zero).
    fn roll_descending_below(&mut self, bits: u32, top: u64, out: &mut [u64]) {
        let mut bounds = [0u64; 64];
        let bounds = &mut bounds[..out.len()];
        for (t, b) in (0..).zip(bounds.iter_mut()) {
            *b = top
                .checked_sub(t)
                .filter(|&b| b > 0)
                .expect("dice rolled with bound 0");
        }
        self.roll_many_below(bits, bounds, out);
    }

    /// Rolls `out.len()` dice with the power-of-two bound `2^bits`, as bytes.
    ///
    /// Equivalent to `*o = self.roll(1 << bits) as u8` for each element in
    /// order; the production dice cuts each 64-bit word into `64 / bits`
    /// fields instead (exact: every field of a uniform word is uniform and
    /// independent of the others).
    ///
    /// # Panics
    ///
    /// Panics unless `1 ≤ bits ≤ 8`.
    fn roll_pow2_many(&mut self, bits: u32, out: &mut [u8]) {
        assert!(
            (1..=8).contains(&bits),
            "roll_pow2_many: bits must be 1..=8"
        );
        for o in out {
            *o = self.roll(1 << bits) as u8;
        }
    }

    /// Whether the dice has stopped answering meaningfully.
    ///
    /// Production dice never stop (`false`). An enumerating dice that walks a
    /// choice tree to a depth limit returns `true` once the limit is passed;
    /// an algorithm whose number of rolls is unbounded (a rejection or redraw
    /// loop) must check this in each pass of such a loop and return early
    /// (with any output) when it is `true`. The walker discards that output
    /// and counts the path's probability as unresolved.
    fn exhausted(&self) -> bool {
        false
    }

    /// Returns a uniform integer in the inclusive range `[lo, hi]`.
    ///
    /// # Panics
    ///
    /// Panics if `lo > hi` or the range covers all of `u64` (use a generator directly).
    fn roll_range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi, "roll_range: empty range");
        let width = (hi - lo)
            .checked_add(1)
            .expect("roll_range: range too wide");
        lo + self.roll(width)
    }
}

impl<D: Dice + ?Sized> Dice for &mut D {
    fn roll(&mut self, n: u64) -> u64 {
        (**self).roll(n)
    }
    #[inline(always)]
    fn roll_many(&mut self, bounds: &[u64], out: &mut [u64]) {
        (**self).roll_many(bounds, out)
    }
    #[inline(always)]
    fn roll_many_below(&mut self, bits: u32, bounds: &[u64], out: &mut [u64]) {
        (**self).roll_many_below(bits, bounds, out)
    }
    #[inline(always)]
    fn roll_descending_below(&mut self, bits: u32, top: u64, out: &mut [u64]) {
        (**self).roll_descending_below(bits, top, out)
    }
    fn roll_pow2_many(&mut self, bits: u32, out: &mut [u8]) {
        (**self).roll_pow2_many(bits, out)
    }
    fn exhausted(&self) -> bool {
        (**self).exhausted()
    }
}

/// Production dice: exact bounded draws over any [`rand_core::Rng`].
///
/// Each roll takes a 64-bit word `x` and forms the 128-bit product `x · n`;
/// the high half is the answer. The low half tells whether `x` fell into the
/// few values that would make some answers one count more likely than others;
/// those are rejected and redrawn (Lemire 2019, "Fast Random Integer
/// Generation in an Interval", ACM TOMACS 29(1)). The expensive `%` is only
/// computed when the low half is below `n`, which happens with probability
/// `n / 2^64`.
///
/// [`Dice::roll_many`] is answered in batches: consecutive bounds whose
/// product fits in 64 bits share one word (Brackett-Rozinsky & Lemire 2024,
/// "Batched Ranged Random Integer Generation", Software: Practice and
/// Experience): the word is multiplied by each bound in turn, the high halves
/// are the rolls, and the word is rejected and redrawn only when the final
/// low half is below `2^64 mod P`, `P` the product of the batch. That is
/// Lemire's exact draw below `P` read as mixed-radix digits, so the answers
/// are exactly independent and uniform; the rejection test costs a division
/// only with probability `P / 2^64`.
///
/// Reproducibility: for a given generator state the answers are fixed by this
/// algorithm and are pinned by value-stability tests.
#[derive(Debug, Clone)]
pub struct RngDice<R> {
    rng: R,
}

impl<R: Rng> RngDice<R> {
    /// Wraps a generator.
    pub fn new(rng: R) -> Self {
        Self { rng }
    }

    /// Returns the generator.
    pub fn into_inner(self) -> R {
        self.rng
    }

    /// Borrows the generator, e.g. to draw raw words.
    pub fn rng_mut(&mut self) -> &mut R {
        &mut self.rng
    }
}

/// Lemire's nearly divisionless exact draw of a uniform integer in `[0, n)`.
///
/// O(1) expected time: the rejection probability is below `n / 2^64`.
///
/// The fair-dealing `KeyStream` (crate `fairdeck-fair`) draws with it, and
/// `docs/fair-dealing.md` (section 2.4) freezes its rule: one word per
/// attempt, the same answers for the same words. Do not change them.
///
/// # Panics
///
/// Panics if `n == 0`.
#[inline]
pub fn bounded_u64<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "dice rolled with bound 0");
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    let mut low = m as u64;
    if low < n {
        // 2^64 mod n: the number of words that must be rejected.
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
            low = m as u64;
        }
    }
    (m >> 64) as u64
}

/// The generator's next word, asked for in a way the compiler inlines into
/// the batched rolls: `Rng::next_u64` (`rand_core`'s wrapper of
/// `try_next_u64`) stayed a call per word in the shuffles' loops, over a
/// tenth of a shuffle of 10⁶ items.
#[inline(always)]
fn word<R: Rng + ?Sized>(rng: &mut R) -> u64 {
    match rng.try_next_u64() {
        Ok(word) => word,
    }
}

impl<R: Rng> Dice for RngDice<R> {
    #[inline]
    fn roll(&mut self, n: u64) -> u64 {
        bounded_u64(&mut self.rng, n)
    }

    // Always inlined: callers pass fixed-size batches, and only inlining
    // lets the compiler unroll the chain for that size.
    #[inline(always)]
    fn roll_many(&mut self, bounds: &[u64], out: &mut [u64]) {
        batch::roll_batched(|| word(&mut self.rng), bounds, out);
    }

    #[inline(always)]
    fn roll_many_below(&mut self, bits: u32, bounds: &[u64], out: &mut [u64]) {
        batch::roll_batched_below(|| word(&mut self.rng), bits, bounds, out);
    }

    #[inline(always)]
    fn roll_descending_below(&mut self, bits: u32, top: u64, out: &mut [u64]) {
        descending::roll_descending_below(|| word(&mut self.rng), bits, top, out);
    }

    #[inline]
    fn roll_pow2_many(&mut self, bits: u32, out: &mut [u8]) {
        assert!(
            (1..=8).contains(&bits),
            "roll_pow2_many: bits must be 1..=8"
        );
        let per_word = (64 / bits) as usize;
        let mask = (1u64 << bits) - 1;
        for chunk in out.chunks_mut(per_word) {
            let mut word = self.rng.next_u64();
            for o in chunk {
                *o = (word & mask) as u8;
                word >>= bits;
            }
        }
    }
}

/// A dice that walks every possible sequence of answers, one path per run.
///
/// Run the algorithm once with the enumerator as its dice, record the
/// outcome, then call [`Enumerator::next_path`]; repeat while it returns
/// `true`. Each run follows a different branch of the algorithm's choice tree
/// (the "permutation tree" of a shuffle), in lexicographic order of answers,
/// and every branch is visited exactly once. The probability of a path is the
/// product of `1/bound` over its rolls ([`Enumerator::path_bounds`]).
///
/// The tree must be finite: an algorithm that can roll forever (a rejection
/// loop) is walked by the audit crate with a depth limit instead.
///
/// ```
/// use fairdeck::dice::Enumerator;
/// use fairdeck::shuffle::shuffle;
///
/// let mut e = Enumerator::new();
/// let mut outcomes = Vec::new();
/// loop {
///     let mut deck = [0, 1, 2];
///     shuffle(&mut deck, &mut e);
///     outcomes.push(deck);
///     if !e.next_path() { break; }
/// }
/// outcomes.sort();
/// outcomes.dedup();
/// assert_eq!(outcomes.len(), 6); // all 3! orders, one path each
/// ```
#[derive(Debug, Clone, Default)]
pub struct Enumerator {
    /// (answer, bound) of every roll on the current path.
    path: Vec<(u64, u64)>,
    /// How many rolls of the current run have been answered.
    pos: usize,
}

impl Enumerator {
    /// A fresh walk, positioned on the first (all-zero) path.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves to the next path; returns `false` when every path has been walked.
    ///
    /// Call it after each complete run of the algorithm.
    pub fn next_path(&mut self) -> bool {
        self.path.truncate(self.pos);
        self.pos = 0;
        while let Some(last) = self.path.last_mut() {
            if last.0 + 1 < last.1 {
                last.0 += 1;
                return true;
            }
            self.path.pop();
        }
        false
    }

    /// The bounds of the rolls made on the path just run, in order.
    pub fn path_bounds(&self) -> impl Iterator<Item = u64> + '_ {
        self.path[..self.pos].iter().map(|&(_, b)| b)
    }

    /// The answers given on the path just run, in order.
    pub fn path_answers(&self) -> impl Iterator<Item = u64> + '_ {
        self.path[..self.pos].iter().map(|&(a, _)| a)
    }

    /// Number of rolls made on the path just run.
    pub fn depth(&self) -> usize {
        self.pos
    }
}

impl Dice for Enumerator {
    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        let answer = match self.path.get(self.pos) {
            Some(&(answer, bound)) => {
                assert_eq!(
                    bound, n,
                    "enumerated algorithm is not deterministic given its answers"
                );
                answer
            }
            None => {
                self.path.push((0, n));
                0
            }
        };
        self.pos += 1;
        answer
    }
}

#[cfg(test)]
mod tests;
