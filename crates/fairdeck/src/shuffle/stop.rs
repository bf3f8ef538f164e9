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
