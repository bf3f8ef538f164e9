//! Sampling without replacement: k distinct values from a range, or k items
//! from a stream of unknown length.

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
/// array — only positions `≥ k` go into a hash map (open addressing; its
/// keys are our own uniform draws, so no adversary can pick colliding ones)
/// — so each step costs one hash operation at most, and the lookups of 32
/// steps are issued together so that their cache misses overlap. When
/// `k ≤ n / 64` the same walk is computed from the same rolls by value
/// buckets that fit the cache (module `sparse`): the same output, three times
/// as fast at k = 10⁶, n = 10⁹ (54 → 18 ms).
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
    if k <= n >> SPARSE_SHIFT {
        return sparse::virtual_fisher_yates(capacity, n, dice);
    }
    virtual_fisher_yates(capacity, k, n, dice)
}

/// [`sample`]'s virtual Fisher–Yates walk, one step at a time with a hash
/// map of the moved positions (the dense case, and the reference that
/// [`sparse::virtual_fisher_yates`] is tested against).
fn virtual_fisher_yates<D: Dice + ?Sized>(
    capacity: usize,
    k: u64,
    n: u64,
    dice: &mut D,
) -> Result<Vec<u64>, Error> {
    let mut out = buffer(capacity)?;
    // Virtual array: `front[p]` for positions p < k, `moved` for the rest
    // (a position absent from `moved` still holds its own index).
    let mut front = buffer(capacity)?;
    front.extend(0..k);
    // At most one entry per step, and only positions in `k..n`.
    let mut moved = Moved::with_room(capacity.min(usize::try_from(n - k).unwrap_or(usize::MAX)))?;
    let mut rolled = [0u64; PROBE_AHEAD];
    let mut i = 0;
    while i < capacity {
        // The rolls do not depend on the array, so a batch of them is drawn
        // first and the map slots they will touch are looked up together;
        // the swaps then run in the same order as one step at a time.
        let batch = &mut rolled[..(capacity - i).min(PROBE_AHEAD)];
        for (step, j) in (i as u64..).zip(batch.iter_mut()) {
            *j = step + dice.roll(n - step);
        }
        moved.touch(batch.iter().filter(|&&j| j >= k));
        for &j in batch.iter() {
            let at_i = front[i];
            let at_j = match usize::try_from(j) {
                Ok(p) if p < capacity => std::mem::replace(&mut front[p], at_i),
                _ => moved.replace(j, at_i)?,
            };
            out.push(at_j);
            i += 1;
        }
    }
    Ok(out)
}

/// The positions at or past `k` of [`sample`]'s virtual array that a swap
/// has written, with the value each now holds. Open addressing with linear
/// probing in a power-of-two table at most half full, `u64::MAX` marking
/// empty slots (no position reaches it: positions are below `n ≤ u64::MAX`).
/// The keys are our own uniform draws, so a multiplicative hash spreads
/// them and no adversary can choose colliding ones. Each entry's key and
/// value share a cache line: one miss per lookup.
#[derive(Default)]
struct Moved {
    slots: Vec<[u64; 2]>,
    len: usize,
    shift: u32,
}

impl Moved {
    const EMPTY: u64 = u64::MAX;

    /// An empty map that holds `entries` without growing (up to 2^20 of
    /// them at first: a sample of many values from a range barely larger
    /// moves few positions, and the map grows when it must).
    fn with_room(entries: usize) -> Result<Self, Error> {
        let mut map = Moved::default();
        map.resize(entries.min(1 << 20).saturating_mul(2).next_power_of_two())?;
        Ok(map)
    }

    fn home(&self, key: u64) -> usize {
        home(key, self.shift)
    }

    /// Reads the home slot of each key (see [`DrawnSet::touch`]).
    fn touch<'a>(&self, keys: impl Iterator<Item = &'a u64>) {
        if self.slots.is_empty() {
            return;
        }
        let seen = keys.fold(0, |acc, &key| acc ^ self.slots[self.home(key)][0]);
        std::hint::black_box(seen);
    }

    /// Writes `value` at position `key`; returns what the position held
    /// before (`key` itself when no swap had touched it).
    fn replace(&mut self, key: u64, value: u64) -> Result<u64, Error> {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow()?;
        }
        Ok(self.put(key, value))
    }

    fn put(&mut self, key: u64, value: u64) -> u64 {
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        loop {
            let slot = &mut self.slots[at];
            if slot[0] == Self::EMPTY {
                *slot = [key, value];
                self.len += 1;
                return key;
            }
            if slot[0] == key {
                return std::mem::replace(&mut slot[1], value);
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the table (at least 1024 slots), or [`Error::MemoryExhausted`].
    fn grow(&mut self) -> Result<(), Error> {
        self.resize(self.slots.len() * 2)
    }

    /// Moves the entries into a table of `size` slots (a power of two, at
    /// least 1024).
    fn resize(&mut self, size: usize) -> Result<(), Error> {
        let (slots, shift) = empty_table(size.max(1024), [Self::EMPTY, 0])?;
        let old = std::mem::replace(&mut self.slots, slots);
        self.shift = shift;
        self.len = 0;
        for [key, value] in old {
            if key != Self::EMPTY {
                self.put(key, value);
            }
        }
        Ok(())
    }
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

/// A hash table of `size` slots (a power of two), every one `empty`, and
/// the shift [`home`] takes for it; [`Error::MemoryExhausted`] instead of an
/// abort.
fn empty_table<S: Clone>(size: usize, empty: S) -> Result<(Vec<S>, u32), Error> {
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(size)
        .map_err(|_| exhausted(size, size_of::<S>() as u64))?;
    slots.resize(size, empty);
    Ok((slots, u64::BITS - size.trailing_zeros()))
}

/// The slot where the search for `key` starts in a table of `2^(64 − shift)`
/// slots (Fibonacci hashing: the keys are uniform draws already).
fn home(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// How many rolls [`sample_by_rejection`] looks up together.
const PROBE_AHEAD: usize = 64;

/// `sample` draws by rejection when `k ≤ n >> REJECTION_SHIFT`.
const REJECTION_SHIFT: u32 = 10;

/// `sample` walks the virtual array bucket by bucket ([`sparse`]) when
/// `k ≤ n >> SPARSE_SHIFT`: then at most one step in 64 meets a position
/// another step touched, and those few are resolved afterwards.
const SPARSE_SHIFT: u32 = 6;

/// `k` distinct values of `[0, n)` in selection order, each new one by
/// redrawing until it is new. Stops early if the dice is exhausted.
fn sample_by_rejection<D: Dice + ?Sized>(
    k: usize,
    n: u64,
    dice: &mut D,
) -> Result<Vec<u64>, Error> {
    let mut chosen = DrawnSet::with_capacity(k)?;
    let mut out = buffer(k)?;
    let mut drawn = [0u64; PROBE_AHEAD];
    while out.len() < k && !dice.exhausted() {
        // Never more rolls than values still wanted: the same rolls, in the
        // same order, as one roll per pass. Looking the batch's slots up
        // first lets their cache misses overlap instead of queueing.
        let batch = &mut drawn[..(k - out.len()).min(PROBE_AHEAD)];
        for x in batch.iter_mut() {
            *x = dice.roll(n);
        }
        chosen.touch(batch);
        for &x in batch.iter() {
            if chosen.insert(x) {
                out.push(x);
            }
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
        let (slots, shift) = empty_table(size, Self::EMPTY)?;
        Ok(DrawnSet { slots, shift })
    }

    /// The slot where the search for `x` starts.
    fn home(&self, x: u64) -> usize {
        home(x, self.shift)
    }

    /// Reads the home slot of each of `xs`: independent loads, so a set
    /// larger than the cache fetches them all at once, and the inserts that
    /// follow find them in cache. Changes nothing.
    fn touch(&self, xs: &[u64]) {
        let seen = xs.iter().fold(0, |acc, &x| acc ^ self.slots[self.home(x)]);
        std::hint::black_box(seen);
    }

    /// Adds `x`; returns whether it was new.
    fn insert(&mut self, x: u64) -> bool {
        debug_assert_ne!(x, Self::EMPTY);
        let mask = self.slots.len() - 1;
        let mut at = self.home(x);
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

mod sparse;
#[cfg(test)]
mod tests;
