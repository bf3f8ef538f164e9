//! The runs of a [`Shuffle`] on every core (cargo feature `rayon`).

use super::{NoStop, Shuffle, Until};
use crate::dice::Dice;
use crate::rng::{Generator, Seed};
use crate::shuffle::Stopped;
use crate::shuffle::buckets::Plan;
use crate::shuffle::par_scatter::{par_shuffle_planned, par_shuffle_with_planned};
use crate::shuffle::parallel;
use crate::shuffle::scatter::{Pass, ScatterPlan};
use crate::shuffle::scratch::Scratch;

impl<S> Shuffle<'_, S> {
    /// The parallel scatter shuffle with this scratch and `stop`.
    fn run_parallel_until<T: Send>(
        self,
        slice: &mut [T],
        seed: &Seed,
        generator: Generator,
        stop: &(impl Fn() -> bool + Sync),
    ) -> Result<(), Pass> {
        let plan = ScatterPlan::parallel::<T>();
        let mut fresh = Scratch::new();
        let scratch = self.scratch.unwrap_or(&mut fresh);
        par_shuffle_planned(slice, seed, generator, plan, stop, scratch)
    }
}

impl Shuffle<'_, NoStop> {
    /// Shuffles `slice` uniformly over all `n!` orders using every thread
    /// of the current rayon pool, with the order fixed by `seed` and
    /// `generator` alone — one thread or many give the same order.
    ///
    /// Slices up to 8 MiB are simply shuffled with `generator` keyed by
    /// `seed`: for them this equals
    /// `shuffle(slice, &mut RngDice::new(generator.build(seed)))`. Larger
    /// slices run the scatter shuffle of [`shuffle`](crate::shuffle::shuffle)
    /// with both of its passes parallel: the slice is cut into blocks of
    /// 65536 elements, each block draws its labels from its own generator
    /// (twice: to count them, then to copy its elements into its own part
    /// of each bucket — the buckets are laid out by a prefix sum over
    /// (bucket, block) counts, so the blocks share nothing); then each
    /// bucket is settled and shuffled by its own task with its own
    /// generator. Every generator is of the kind `generator`, keyed by
    /// SHA-256("fairdeck/par_shuffle/" ‖ phase ‖ seed ‖ index); each task's
    /// draws are exact, so the uniformity argument of the scatter shuffle
    /// holds.
    ///
    /// O(n) work; for large slices `n · size_of::<T>()` bytes of scratch
    /// memory (from [`scratch`](Shuffle::scratch) if given), plus one label
    /// byte per element of the buckets split by a second level
    /// ([`run_parallel_in_place`](Shuffle::run_parallel_in_place) needs n
    /// bytes in all, and gives the orders of fairdeck 0.1.0). Like any
    /// `Vec`, fresh scratch memory aborts the process if it cannot be
    /// allocated. Needs the cargo feature `rayon` (on by default).
    ///
    /// ```
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::Shuffle;
    ///
    /// let mut v: Vec<u32> = (0..3_000_000).collect();
    /// Shuffle::new().run_parallel(&mut v, &Seed::parse("doc"), Generator::Xoshiro256PlusPlus);
    /// assert_ne!(v[..10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    /// v.sort_unstable();
    /// assert!(v.iter().copied().eq(0..3_000_000));
    /// ```
    pub fn run_parallel<T: Send>(self, slice: &mut [T], seed: &Seed, generator: Generator) {
        // A hook that never stops: the shuffle runs to its end.
        let _ = self.run_parallel_until(slice, seed, generator, &|| false);
    }

    /// [`run_parallel`](Shuffle::run_parallel) driven by a running `dice`
    /// instead of a key: what a caller that shuffles many slices in a row
    /// wants. A slice that `run_parallel` would shuffle on one thread is
    /// shuffled with `dice` exactly as [`shuffle`](crate::shuffle::shuffle)
    /// shuffles it — no generator is built per call, so a 52-card deck
    /// costs what the one-thread shuffle costs (building a ChaCha20 per call
    /// made a two-thread deck 2.3× slower than one thread). A larger slice
    /// takes a fresh 256-bit key from `dice` (eight exact draws of 32 bits)
    /// and runs `run_parallel` keyed with it and `generator`.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Shuffle, shuffle};
    ///
    /// let build = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("tables")));
    /// let (mut dice, mut same) = (build(), build());
    /// let mut deck: Vec<u8> = (0..52).collect();
    /// let mut plain = deck.clone();
    /// for _ in 0..3 {
    ///     Shuffle::new().run_parallel_from_dice(&mut deck, &mut dice, Generator::ChaCha20);
    ///     shuffle(&mut plain, &mut same);
    /// }
    /// assert_eq!(deck, plain); // a deck is small: the one-thread shuffle
    /// ```
    pub fn run_parallel_from_dice<T: Send, D: Dice + ?Sized>(
        self,
        slice: &mut [T],
        dice: &mut D,
        generator: Generator,
    ) {
        let plan = ScatterPlan::parallel::<T>();
        let mut fresh = Scratch::new();
        let scratch = self.scratch.unwrap_or(&mut fresh);
        par_shuffle_with_planned(slice, dice, generator, plan, scratch);
    }

    /// Shuffles `slice` uniformly over all `n!` orders using every thread
    /// of the current rayon pool, with the order fixed by `seed` and
    /// `generator` alone, moving the elements in place: the order
    /// [`run_parallel`](Shuffle::run_parallel) gave up to fairdeck 0.1.0. Use
    /// it to replay those orders, or when the `n · size_of::<T>()` bytes of
    /// scratch memory of `run_parallel` are too much. Does not use
    /// [`scratch`](Shuffle::scratch).
    ///
    /// Slices up to 8 MiB get the same order as from `run_parallel`. Larger
    /// ones run the in-place bucket shuffle of
    /// [`run_in_place`](Shuffle::run_in_place): labels in chunks of 65536
    /// elements and each bucket's shuffle as tasks, each with its own
    /// generator of the kind `generator`, keyed by
    /// SHA-256("fairdeck/par_shuffle/" ‖ phase ‖ seed ‖ index) with the
    /// phases `labels` and `bucket`; moving the elements into their buckets
    /// is one sequential pass.
    ///
    /// O(n) work, n bytes of extra memory for large slices. Needs the cargo
    /// feature `rayon` (on by default).
    ///
    /// ```
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::Shuffle;
    ///
    /// let mut v: Vec<u32> = (0..1_000_000).collect();
    /// let seed = Seed::parse("doc");
    /// Shuffle::new().run_parallel_in_place(&mut v, &seed, Generator::Xoshiro256PlusPlus);
    /// assert_ne!(v[..10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    /// v.sort_unstable();
    /// assert!(v.iter().copied().eq(0..1_000_000));
    /// ```
    pub fn run_parallel_in_place<T: Send>(
        self,
        slice: &mut [T],
        seed: &Seed,
        generator: Generator,
    ) {
        parallel::par_shuffle_planned(slice, seed, generator, Plan::for_type::<T>());
    }
}

impl<S: Fn() -> bool + Sync> Shuffle<'_, Until<S>> {
    /// [`Shuffle::run_parallel`] with the stop hook of
    /// [`until`](Shuffle::until), asked from any of the pool's threads.
    ///
    /// The hook is asked before each block of 65536 elements is labelled
    /// or copied into its buckets, before each bucket is settled, and
    /// between pieces of at most 65536 labels or Fisher–Yates steps inside
    /// a bucket; once it has answered `true` the remaining tasks only copy
    /// their buckets back. When it never answers `true`, the order is
    /// exactly that of `run_parallel` (the same for every thread count). A
    /// panic in the hook is treated as "stop" and raised again once every
    /// element is back in the slice.
    ///
    /// # Errors
    ///
    /// [`Stopped`] when the hook answered `true` before the shuffle was
    /// done ([`Stopped::pass`]: the earliest pass any task was in).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::Shuffle;
    ///
    /// let cancel = AtomicBool::new(false); // another thread may set it
    /// let seed = Seed::parse("doc");
    /// let mut a: Vec<u32> = (0..3_000_000).collect();
    /// let mut b = a.clone();
    /// Shuffle::new()
    ///     .until(|| cancel.load(Ordering::Relaxed))
    ///     .run_parallel(&mut a, &seed, Generator::ChaCha8)?;
    /// Shuffle::new().run_parallel(&mut b, &seed, Generator::ChaCha8);
    /// assert_eq!(a, b);
    /// # Ok::<(), fairdeck::shuffle::Stopped>(())
    /// ```
    pub fn run_parallel<T: Send>(
        self,
        slice: &mut [T],
        seed: &Seed,
        generator: Generator,
    ) -> Result<(), Stopped> {
        let Shuffle {
            scratch,
            stop: Until(stop),
        } = self;
        let plain = Shuffle {
            scratch,
            stop: NoStop,
        };
        plain
            .run_parallel_until(slice, seed, generator, &stop)
            .map_err(|pass| Stopped { pass })
    }
}
