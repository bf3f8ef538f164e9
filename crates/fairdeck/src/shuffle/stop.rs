//! Stopping a long shuffle early: a hook asked between bounded pieces of work.
//!
//! A shuffle of 10⁹ elements runs for seconds; a front end that must answer
//! Ctrl-C (the Python package) or a deadline needs a point where the
//! shuffle can end early without losing or doubling an element. The stop
//! hook is that point: the shuffle asks it between pieces of at most
//! 65536 elements of work in every pass, and before each bucket is
//! settled, and returns [`Stopped`] once it says so. Asking costs one call
//! per 65536 elements; [`shuffle`](super::shuffle) passes a hook that never
//! stops, monomorphised into a constant `false` (no measurable cost in
//! docs/book/src/speed.md).

use core::fmt;

use super::ScatterPlan;
use super::batched::fisher_yates_until;
use super::scatter::{Pass, scatter_shuffle_until};
use super::scratch::Scratch;
use crate::dice::Dice;

/// A shuffle that returned early because its stop hook said so.
///
/// **What the slice holds then.** Every element it was given, exactly once
/// (nothing lost, doubled or dropped, for any `T`), but in an order that is
/// *not* uniformly random: depending on where it stopped it is the input
/// order (stopped while the labels were drawn or the elements scattered),
/// some buckets shuffled and the rest in input order grouped by bucket
/// (while the buckets were settled and shuffled), or a partly run
/// Fisher–Yates. Shuffle it again, from a fresh dice state, before relying
/// on its order. How far the dice advanced is unspecified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stopped {
    /// The pass that was running when the hook said stop (for the parallel
    /// shuffle, the earliest pass any task was in).
    pub pass: Pass,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pass = match self.pass {
            Pass::Labels => "drawing labels",
            Pass::Scatter => "scattering into buckets",
            Pass::InnerLabels => "drawing inner labels",
            Pass::Settle => "settling a bucket",
            Pass::FisherYates => "Fisher–Yates",
        };
        write!(f, "shuffle stopped while {pass}")
    }
}

impl std::error::Error for Stopped {}

/// [`shuffle`](super::shuffle), asking `stop` between bounded pieces of work
/// and returning [`Stopped`] as soon as it answers `true`.
///
/// `stop` is asked before each piece of at most 65536 elements of work —
/// labels drawn, elements copied into their buckets, Fisher–Yates steps —
/// and before each bucket (1/256 of a large slice) is copied back, so a few
/// times per millisecond at most; when it never answers `true` the order
/// is exactly that of [`shuffle`](super::shuffle) with the same dice
/// answers. A hook that reads an `AtomicBool` set by another thread, or that
/// checks a deadline every so often, fits here.
///
/// When stopped, the slice holds every element once but **not** in a
/// uniformly random order (see [`Stopped`]). If the dice or the hook
/// panics, the slice likewise holds every element once.
///
/// O(n) time, the extra memory of [`shuffle`](super::shuffle).
///
/// # Errors
///
/// [`Stopped`] when `stop` answered `true`.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{shuffle, shuffle_until};
///
/// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut a: Vec<u32> = (0..1000).collect();
/// let mut b = a.clone();
/// shuffle_until(&mut a, &mut dice(), || false)?; // never stopped
/// shuffle(&mut b, &mut dice());
/// assert_eq!(a, b);
///
/// let mut c: Vec<u32> = (0..1000).collect();
/// assert!(shuffle_until(&mut c, &mut dice(), || true).is_err());
/// assert_eq!(c, (0..1000).collect::<Vec<_>>()); // stopped before any swap
/// # Ok::<(), fairdeck::shuffle::Stopped>(())
/// ```
pub fn shuffle_until<T, D: Dice + ?Sized>(
    slice: &mut [T],
    dice: &mut D,
    stop: impl FnMut() -> bool,
) -> Result<(), Stopped> {
    shuffle_until_reusing(slice, dice, stop, &mut Scratch::new())
}

/// Exactly [`shuffle_until`] — the same order for the same dice answers, the
/// same points where `stop` is asked — with the scratch memory of a large
/// slice taken from `scratch` and kept there for the next call, as
/// [`shuffle_reusing`](super::shuffle_reusing) keeps it. A stopped call leaves
/// the scratch fit for the next one.
///
/// # Errors
///
/// [`Stopped`] when `stop` answered `true`.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{Scratch, shuffle, shuffle_until_reusing};
///
/// let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let mut scratch = Scratch::new();
/// let mut a: Vec<u32> = (0..1000).collect();
/// let mut b = a.clone();
/// shuffle_until_reusing(&mut a, &mut dice(), || false, &mut scratch)?;
/// shuffle(&mut b, &mut dice());
/// assert_eq!(a, b);
/// # Ok::<(), fairdeck::shuffle::Stopped>(())
/// ```
pub fn shuffle_until_reusing<T, D: Dice + ?Sized>(
    slice: &mut [T],
    dice: &mut D,
    mut stop: impl FnMut() -> bool,
    scratch: &mut Scratch,
) -> Result<(), Stopped> {
    let plan = ScatterPlan::for_type::<T>();
    shuffle_planned_until(slice, plan, dice, &mut |_| {}, &mut stop, scratch)
        .map_err(|pass| Stopped { pass })
}

/// The production shuffle with an explicit plan: the scatter shuffle when
/// the plan starts it (with buffers from `scratch`, whose limit is applied
/// at the end), else Fisher–Yates (one [`Pass::FisherYates`]);
/// `Err(pass)` when `stop` stopped it in `pass`.
pub(super) fn shuffle_planned_until<T, D, S>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
    enter: &mut dyn FnMut(Pass),
    stop: &mut S,
    scratch: &mut Scratch,
) -> Result<(), Pass>
where
    D: Dice + ?Sized,
    S: FnMut() -> bool + ?Sized,
{
    if plan.starts(slice.len()) {
        let outcome = scatter_shuffle_until(slice, plan, dice, enter, stop, scratch);
        scratch.end_call();
        return outcome;
    }
    enter(Pass::FisherYates);
    if fisher_yates_until(slice, dice, plan.poll_len, stop) {
        Ok(())
    } else {
        Err(Pass::FisherYates)
    }
}

#[cfg(feature = "rayon")]
pub(super) mod hook;

#[cfg(test)]
mod tests;
