//! Sampling without replacement: k distinct values from a range, or k items
//! from a stream of unknown length.

use rustc_hash::FxHashMap;

use crate::Error;
use crate::dice::Dice;
use crate::shuffle::shuffle;

/// Picks `k` distinct values from `[0, n)`, uniformly over all
/// n!/(n−k)! sequences, in selection order.
///
/// When `k ≤ n / 1024` the values are drawn by rejection instead: roll
/// uniform in `[0, n)` and redraw a value already chosen. Each new value is
/// then uniform over the ones not yet chosen — the same distribution as the
/// shuffle below, with a redraw probability below 1/1024 and a plain
/// open-addressing set (a power-of-two table at most half full: 16 to 32
/// bytes per value). Otherwise:
///
/// This is the hash-table deal of Juhász, “Keverjük a kártyát” ("Osztás hasítótáblával"): the
/// forward Fisher–Yates loop run on a *virtual* array `0, 1, …, n−1`, where
/// only the positions that a swap has touched are stored. Step `i` rolls `j`
/// uniform in `[i, n)`, outputs the value at `j` and moves the value at `i`
/// into `j`. Unlike the article we never store position `i` after step `i`
/// (it is never read again), and we keep the first `k` positions in a plain
/// array — only positions `≥ k` go into the hash map (FxHash: its keys are
/// our own uniform draws, so no adversary can pick colliding ones) — so each
/// step costs one hash operation at most.
///
/// O(k) expected time and O(k) memory, whatever `n` is (up to 2⁶⁴ − 1).
/// `k` rolls with bounds `n, n−1, …, n−k+1` (by rejection: about `k` rolls
/// with bound `n`).
///
/// # Errors
///
/// [`Error::SampleTooLarge`] if `k > n`, or if `k` does not fit in memory
/// indices (`usize`); [`Error::MemoryExhausted`] if the O(k) buffers cannot
/// be allocated (reported instead of aborting).
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::sample::sample;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("lotto")));
/// let picks = sample(5, 90, &mut dice)?;          // Hungarian lotto: 5 of 90
/// assert_eq!(picks.len(), 5);
/// assert!(picks.iter().all(|&x| x < 90));
/// let huge = sample(3, u64::MAX, &mut dice)?;     // instant, three numbers
/// assert_eq!(huge.len(), 3);
/// # Ok::<(), fairdeck::Error>(())
/// ```
pub fn sample<D: Dice + ?Sized>(k: u64, n: u64, dice: &mut D) -> Result<Vec<u64>, Error> {
    if k > n {
        return Err(Error::SampleTooLarge { k, n });
    }
    let capacity = usize::try_from(k).map_err(|_| Error::SampleTooLarge { k, n })?;
    if k <= n >> REJECTION_SHIFT {
        return sample_by_rejection(capacity, n, dice);
    }
    let mut out = buffer(capacity)?;
    // Virtual array: `front[p]` for positions p < k, `moved` for the rest
    // (a position absent from `moved` still holds its own index).
    let mut front = buffer(capacity)?;
    front.extend(0..k);
    let mut moved: FxHashMap<u64, u64> = FxHashMap::default();
    for i in 0..capacity {
        let at_i = front[i];
        let j = i as u64 + dice.roll(n - i as u64);
        let at_j = match usize::try_from(j) {
            Ok(p) if p < capacity => std::mem::replace(&mut front[p], at_i),
            _ => {
                if moved.len() == moved.capacity() {
                    let more = moved.len().max(capacity.min(1 << 20));
                    moved.try_reserve(more).map_err(|_| exhausted(more, 16))?;
                }
                moved.insert(j, at_i).unwrap_or(j)
            }
        };
        out.push(at_j);
    }
    Ok(out)
}

/// An empty vector with room for `capacity` values, or
/// [`Error::MemoryExhausted`] instead of an abort.
fn buffer(capacity: usize) -> Result<Vec<u64>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(capacity)
        .map_err(|_| exhausted(capacity, 8))?;
    Ok(v)
}

/// The error for `count` items of `size` bytes each.
fn exhausted(count: usize, size: u64) -> Error {
    Error::MemoryExhausted {
        bytes: (count as u64).saturating_mul(size),
    }
}

/// `sample` draws by rejection when `k ≤ n >> REJECTION_SHIFT`.
const REJECTION_SHIFT: u32 = 10;

/// `k` distinct values of `[0, n)` in selection order, each new one by
/// redrawing until it is new. Stops early if the dice is exhausted.
fn sample_by_rejection<D: Dice + ?Sized>(
    k: usize,
    n: u64,
    dice: &mut D,
) -> Result<Vec<u64>, Error> {
    let mut chosen = DrawnSet::with_capacity(k)?;
    let mut out = buffer(k)?;
    while out.len() < k && !dice.exhausted() {
        let x = dice.roll(n);
        if chosen.insert(x) {
            out.push(x);
        }
    }
    Ok(out)
}

/// A set of values below `u64::MAX`: open addressing with linear probing,
/// at most half full, `u64::MAX` marking empty slots (no value can be
/// `u64::MAX`: every value is below `n ≤ u64::MAX`). Its keys are our own
/// uniform draws, so the high bits of a multiplicative hash spread them well
/// and no adversary can choose colliding keys. Bare 8-byte slots, no
/// control bytes: fewer cache misses than a general hash set.
struct DrawnSet {
    slots: Vec<u64>,
    shift: u32,
}

impl DrawnSet {
    const EMPTY: u64 = u64::MAX;

    fn with_capacity(k: usize) -> Result<Self, Error> {
        let size = k
            .checked_mul(2)
            .and_then(usize::checked_next_power_of_two)
            .ok_or_else(|| exhausted(k, 16))?
            .max(16);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(size)
            .map_err(|_| exhausted(size, 8))?;
        slots.resize(size, Self::EMPTY);
        Ok(DrawnSet {
            slots,
            shift: u64::BITS - size.trailing_zeros(),
        })
    }

    /// Adds `x`; returns whether it was new.
    fn insert(&mut self, x: u64) -> bool {
        debug_assert_ne!(x, Self::EMPTY);
        let mask = self.slots.len() - 1;
        let mut at = (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            match self.slots[at] {
                Self::EMPTY => {
                    self.slots[at] = x;
                    return true;
                }
                y if y == x => return false,
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// Picks `k` items from an iterator of unknown length, each `k`-subset
/// equally likely, returned in uniformly random order.
///
/// Waterman's reservoir (Knuth, TAOCP vol. 2, Algorithm R): item number `t`
/// (0-based) replaces a random slot with probability k/(t+1), decided by one
/// exact roll in `[0, t]`. The reservoir is shuffled at the end so the order
/// is uniform too. If the iterator yields fewer than `k` items, all of them
/// are returned, shuffled.
///
/// O(N) time for N items and one roll per item past the first `k`; O(k) memory.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::sample::reservoir;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
/// let three = reservoir(1..=1_000, 3, &mut dice);
/// assert_eq!(three.len(), 3);
/// ```
pub fn reservoir<T, I, D>(items: I, k: usize, dice: &mut D) -> Vec<T>
where
    I: IntoIterator<Item = T>,
    D: Dice + ?Sized,
{
    let mut iter = items.into_iter();
    let mut kept: Vec<T> = iter.by_ref().take(k).collect();
    if kept.len() == k && k > 0 {
        for (t, item) in (k as u64..).zip(iter) {
            let j = dice.roll(t + 1);
            if j < k as u64 {
                kept[j as usize] = item;
            }
        }
    }
    shuffle(&mut kept, dice);
    kept
}

#[cfg(test)]
mod tests;
