//! [`Shuffle`]: the options of a shuffle beyond [`shuffle`](super::shuffle)'s
//! two arguments, and the ways to run it.

use super::scatter::{Pass, ScatterPlan};
use super::scratch::Scratch;
use super::stop::{Stopped, shuffle_planned_until};
use super::{Plan, shuffle_planned};
use crate::dice::Dice;

/// A shuffle with options: kept scratch memory ([`Shuffle::scratch`]), a
/// stop hook ([`Shuffle::until`]), and a choice of how to run it — on this
/// thread from a dice ([`run`](Shuffle::run)), on every core from a seed
/// ([`run_parallel`](Shuffle::run_parallel)) or from a dice
/// ([`run_parallel_from_dice`](Shuffle::run_parallel_from_dice)), watching
/// its passes ([`run_observed`](Shuffle::run_observed)), or as the in-place
/// bucket shuffle of fairdeck 0.1.0 ([`run_in_place`](Shuffle::run_in_place),
/// [`run_parallel_in_place`](Shuffle::run_parallel_in_place)).
///
/// No option changes the order: with the same dice answers (or the same
/// seed and generator) a run gives the order it gives without options,
/// and `Shuffle::new().run(slice, dice)` is exactly
/// [`shuffle(slice, dice)`](super::shuffle). The options only say where the
/// memory comes from and whether the shuffle may end early. Without
/// [`until`](Shuffle::until) a run returns `()`; with it, a run returns
/// `Result<(), Stopped>`, so a shuffle that cannot stop never has an error
/// to handle.
///
/// Building a `Shuffle` costs nothing (no allocation); it is consumed by
/// the run.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{Scratch, Shuffle, shuffle};
///
/// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut scratch = Scratch::new();
/// let mut a: Vec<u32> = (0..1000).collect();
/// let mut b = a.clone();
/// Shuffle::new().scratch(&mut scratch).until(|| false).run(&mut a, &mut dice())?;
/// shuffle(&mut b, &mut dice());
/// assert_eq!(a, b); // options never change the order
/// # Ok::<(), fairdeck::shuffle::Stopped>(())
/// ```
#[must_use = "a Shuffle does nothing until it is run"]
pub struct Shuffle<'s, S = NoStop> {
    scratch: Option<&'s mut Scratch>,
    stop: S,
}

/// The stop hook of a [`Shuffle`] without [`Shuffle::until`]: never stops
/// (a constant `false` the compiler removes).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoStop;

/// The stop hook of a [`Shuffle`] given by [`Shuffle::until`].
#[derive(Debug, Clone, Copy)]
pub struct Until<S>(S);

impl Default for Shuffle<'_> {
    fn default() -> Self {
        Shuffle::new()
    }
}

impl<S> std::fmt::Debug for Shuffle<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shuffle")
            .field("scratch", &self.scratch)
            .finish_non_exhaustive()
    }
}

impl<'s> Shuffle<'s> {
    /// A shuffle with fresh memory per call and no stop hook: run as it
    /// is, exactly [`shuffle`](super::shuffle).
    pub fn new() -> Self {
        Shuffle {
            scratch: None,
            stop: NoStop,
        }
    }

    /// Asks `stop` between bounded pieces of work and ends the shuffle
    /// early, with [`Stopped`], as soon as it answers `true`.
    ///
    /// `stop` is asked before each piece of at most 65536 elements of work
    /// — labels drawn, elements copied into their buckets, Fisher–Yates
    /// steps — and before each bucket is copied back, so a few times per
    /// millisecond at most; when it never answers `true` the order is
    /// exactly that of the run without it. A hook that reads an
    /// `AtomicBool` set by another thread, or checks a deadline every so
    /// often, fits here. [`run`](Shuffle::run) takes an `FnMut() -> bool`;
    /// [`run_parallel`](Shuffle::run_parallel) asks it from the pool's
    /// threads, so it needs an `Fn() -> bool + Sync`.
    ///
    /// When stopped, the slice holds every element once but **not** in a
    /// uniformly random order (see [`Stopped`]). If the dice or the hook
    /// panics, the slice likewise holds every element once.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::Shuffle;
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut c: Vec<u32> = (0..1000).collect();
    /// assert!(Shuffle::new().until(|| true).run(&mut c, &mut dice).is_err());
    /// assert_eq!(c, (0..1000).collect::<Vec<_>>()); // stopped before any swap
    /// ```
    pub fn until<S>(self, stop: S) -> Shuffle<'s, Until<S>> {
        Shuffle {
            scratch: self.scratch,
            stop: Until(stop),
        }
    }
}

impl<'s, S> Shuffle<'s, S> {
    /// Takes the scratch memory of a large slice from `scratch` and leaves
    /// it there for the next call (see [`Scratch`] for what it keeps and
    /// when it lets go), instead of allocating and freeing it per call.
    ///
    /// A shuffle of more than 64 MiB of elements (8 MiB on every core)
    /// needs `n · (1 + size_of::<T>())` bytes of scratch; fresh memory
    /// costs a page fault and the kernel's zeroing of each page on first
    /// touch, which a kept buffer pays only on the first call. Nothing in
    /// the scratch is zeroed between calls: every label and element is
    /// written before it is read. Smaller slices do not touch `scratch`, nor
    /// do the in-place runs; a stopped call leaves it fit for the next one.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Scratch, Shuffle};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut scratch = Scratch::new();
    /// for n in [52, 20_000_000, 17_000_000] {
    ///     let mut v: Vec<u32> = (0..n).collect();
    ///     Shuffle::new().scratch(&mut scratch).run(&mut v, &mut dice); // allocates once
    ///     v.sort_unstable();
    ///     assert!(v.into_iter().eq(0..n));
    /// }
    /// ```
    pub fn scratch(self, scratch: &'s mut Scratch) -> Self {
        Shuffle {
            scratch: Some(scratch),
            stop: self.stop,
        }
    }

    /// The one-thread production shuffle with this scratch, telling
    /// `enter` each pass as it begins; `Err(pass)` when `stop` stopped it.
    fn run_one_thread<T, D, H>(
        self,
        slice: &mut [T],
        dice: &mut D,
        enter: &mut dyn FnMut(Pass),
        stop: &mut H,
    ) -> Result<(), Pass>
    where
        D: Dice + ?Sized,
        H: FnMut() -> bool + ?Sized,
    {
        let plan = ScatterPlan::for_type::<T>();
        let mut fresh = Scratch::new();
        let scratch = self.scratch.unwrap_or(&mut fresh);
        shuffle_planned_until(slice, plan, dice, enter, stop, scratch)
    }
}

impl Shuffle<'_> {
    /// Shuffles `slice` on this thread with `dice`: exactly
    /// [`shuffle`](super::shuffle) — the same order for the same dice
    /// answers, at every size — with the memory of
    /// [`scratch`](Shuffle::scratch) if given.
    ///
    /// O(n) time; O(1) extra space up to 64 MiB, then what the scratch
    /// holds (grown to `n · (1 + size_of::<T>())` bytes if it holds less).
    pub fn run<T, D: Dice + ?Sized>(self, slice: &mut [T], dice: &mut D) {
        // A hook that never stops compiles to nothing: the shuffle runs to its end.
        let _ = self.run_one_thread(slice, dice, &mut |_| {}, &mut || false);
    }

    /// Exactly [`run`](Shuffle::run) (the same order), calling `enter(pass)`
    /// as each of its passes begins: a profiler's view of where the time of
    /// a large shuffle goes (`fairdeck bench --passes`). A slice too small
    /// to scatter is one [`Pass::FisherYates`].
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Pass, Shuffle};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut v: Vec<u32> = (0..10).collect();
    /// let mut seen = Vec::new();
    /// Shuffle::new().run_observed(&mut v, &mut dice, |pass| seen.push(pass));
    /// assert_eq!(seen, [Pass::FisherYates]);
    /// ```
    pub fn run_observed<T, D: Dice + ?Sized>(
        self,
        slice: &mut [T],
        dice: &mut D,
        mut enter: impl FnMut(Pass),
    ) {
        let _ = self.run_one_thread(slice, dice, &mut enter, &mut || false);
    }

    /// Shuffles `slice` uniformly over all `n!` orders, moving the elements
    /// only within the slice: the order [`shuffle`](super::shuffle) gave up
    /// to fairdeck 0.1.0, kept to replay those orders and for when memory is
    /// short. Does not use [`scratch`](Shuffle::scratch).
    ///
    /// Up to 8 MiB of elements this is exactly [`shuffle`](super::shuffle).
    /// Larger slices get one uniform bucket label per element (one byte of
    /// extra memory per element), are moved into up to 256 buckets in place
    /// (the American-flag distribution of MSD radix sort) and each bucket is
    /// shuffled by Fisher–Yates; the result is again exactly uniform
    /// (Sanders 1998). About twice as slow as [`shuffle`](super::shuffle) on
    /// 10⁸ elements.
    ///
    /// O(n) time; O(1) extra space up to 8 MiB, n bytes beyond.
    /// Reproducible: the same dice answers give the same order on every platform.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Shuffle, shuffle};
    ///
    /// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut a: Vec<u32> = (1..=10).collect();
    /// let mut b = a.clone();
    /// Shuffle::new().run_in_place(&mut a, &mut dice());
    /// shuffle(&mut b, &mut dice());
    /// assert_eq!(a, b); // the same below 8 MiB
    /// ```
    pub fn run_in_place<T, D: Dice + ?Sized>(self, slice: &mut [T], dice: &mut D) {
        shuffle_planned(slice, Plan::for_type::<T>(), dice);
    }
}

impl<S: FnMut() -> bool> Shuffle<'_, Until<S>> {
    /// [`Shuffle::run`] with the stop hook of [`until`](Shuffle::until):
    /// the same order when the hook never answers `true`.
    ///
    /// O(n) time, the extra memory of [`Shuffle::run`].
    ///
    /// # Errors
    ///
    /// [`Stopped`] when the hook answered `true`.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Shuffle, shuffle};
    ///
    /// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut a: Vec<u32> = (0..1000).collect();
    /// let mut b = a.clone();
    /// Shuffle::new().until(|| false).run(&mut a, &mut dice())?; // never stopped
    /// shuffle(&mut b, &mut dice());
    /// assert_eq!(a, b);
    /// # Ok::<(), fairdeck::shuffle::Stopped>(())
    /// ```
    pub fn run<T, D: Dice + ?Sized>(self, slice: &mut [T], dice: &mut D) -> Result<(), Stopped> {
        let Shuffle {
            scratch,
            stop: Until(mut stop),
        } = self;
        let plain = Shuffle {
            scratch,
            stop: NoStop,
        };
        plain
            .run_one_thread(slice, dice, &mut |_| {}, &mut stop)
            .map_err(|pass| Stopped { pass })
    }
}

#[cfg(feature = "rayon")]
mod parallel;
