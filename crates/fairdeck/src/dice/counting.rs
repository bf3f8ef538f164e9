//! [`Counting`]: a dice wrapper that counts rolls and the information they carry.

use super::Dice;

/// Wraps a dice and counts how many rolls were made and how much information
/// they carried (the sum of log2 of each bound), without changing the answers.
#[derive(Debug, Clone)]
pub struct Counting<D> {
    inner: D,
    rolls: u64,
    bits: f64,
}

impl<D: Dice> Counting<D> {
    /// Starts counting from zero.
    pub fn new(inner: D) -> Self {
        Self {
            inner,
            rolls: 0,
            bits: 0.0,
        }
    }

    /// Number of rolls so far.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// Information consumed so far, in bits: Σ log2(bound).
    pub fn bits(&self) -> f64 {
        self.bits
    }

    /// Returns the wrapped dice.
    pub fn into_inner(self) -> D {
        self.inner
    }
}

impl<D: Dice> Dice for Counting<D> {
    fn roll(&mut self, n: u64) -> u64 {
        self.rolls += 1;
        self.bits += (n as f64).log2();
        self.inner.roll(n)
    }
    fn exhausted(&self) -> bool {
        self.inner.exhausted()
    }
}
