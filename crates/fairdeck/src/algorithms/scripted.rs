//! Scripted dice for the catalogue's tests: fixed answers, or a walk that tires.

use crate::dice::{Dice, Enumerator};

/// Answers a fixed list of rolls in order (e.g. a worked example of an article).
pub struct Replay<'a> {
    answers: &'a [u64],
    next: usize,
}

impl<'a> Replay<'a> {
    pub fn new(answers: &'a [u64]) -> Self {
        Self { answers, next: 0 }
    }
}

impl Dice for Replay<'_> {
    fn roll(&mut self, n: u64) -> u64 {
        let a = self.answers[self.next];
        assert!(a < n, "scripted answer {a} out of [0, {n})");
        self.next += 1;
        a
    }
}

/// An enumerator that reports itself exhausted after a fixed number of rolls.
pub struct Tired {
    pub walk: Enumerator,
    left: usize,
}

impl Tired {
    pub fn new(walk: Enumerator, rolls: usize) -> Self {
        Self { walk, left: rolls }
    }
}

impl Dice for Tired {
    fn roll(&mut self, n: u64) -> u64 {
        self.left = self.left.saturating_sub(1);
        self.walk.roll(n)
    }
    fn exhausted(&self) -> bool {
        self.left == 0
    }
}
