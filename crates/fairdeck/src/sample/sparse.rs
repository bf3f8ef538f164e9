//! [`super::sample`]'s virtual Fisher–Yates walk for sparse samples
//! (`k ≤ n / 64`), computed bucket by bucket instead of step by step: the
//! same output from the same rolls, without a hash map of `k` entries that
//! every step reads at a random place (a cache miss a step).
//!
//! The walk: the virtual array holds `A[p] = p`; step `i` rolls `j_i`
//! uniform in `[i, n)`, outputs `A[j_i]` and sets `A[j_i] = A[i]`. The
//! rolls do not depend on the array, so they are all drawn first, in order.
//! Then, writing `v(i)` for `A[i]` when step `i` reads it:
//!
//! - `out_i = j_i`, unless an earlier step `i' < i` rolled the same
//!   `j_{i'} = j_i`; then `out_i = v(i'')` for the last such `i''`
//!   (position `j_i ≥ i` is written only by steps that rolled it);
//! - `v(i) = i`, unless an earlier step rolled `j_{i'} = i`; then
//!   `v(i) = v(i'')` for the last such `i'' < i`.
//!
//! So only repeated rolls and rolls below `k` matter, and when `k ≤ n / 64`
//! they are rare (about `k²/2n` repeats and `k²/n` rolls below `k`). The
//! repeats are found with one small hash table per bucket of values
//! (counting sort by a hash of the value, about 256 values a bucket, so
//! each table stays in the L1 cache); the few `v` that differ from their
//! index are then resolved in index order.
//!
//! O(k) expected time, about 40 bytes of memory per value.

use super::{buffer, exhausted};
use crate::Error;
use crate::dice::Dice;

/// Values per bucket, on average: a bucket's table (two slots a value, 16
/// bytes a slot) takes about 8 KiB.
const BUCKET: usize = 256;

/// Fibonacci hashing's multiplier (2⁶⁴ / φ, odd): the top bits of `x·C`
/// pick the bucket.
const BUCKET_HASH: u64 = 0x9E37_79B9_7F4A_7C15;

/// Another odd multiplier, for the slot inside a bucket's table (its top
/// bits are independent of the bucket's).
const SLOT_HASH: u64 = 0xD6E8_FEB8_6659_FD93;

/// An empty slot of a bucket's table (no roll is `u64::MAX`: rolls are below `n`).
const EMPTY: (u64, usize) = (u64::MAX, 0);

/// `k` values of the virtual Fisher–Yates walk over `[0, n)` (`k ≤ n`),
/// exactly what [`super::virtual_fisher_yates`] gives from the same dice.
/// Correct for any `k ≤ n`; fast when `k ≤ n / 64`.
pub(super) fn virtual_fisher_yates<D: Dice + ?Sized>(
    k: usize,
    n: u64,
    dice: &mut D,
) -> Result<Vec<u64>, Error> {
    let mut out = buffer(k)?;
    out.extend((0..k as u64).map(|i| i + dice.roll(n - i)));
    let (repeats, below_k) = scan(&out, k)?;
    let v = Resolved::of(below_k);
    for (i, previous) in repeats {
        out[i] = v.at(previous);
    }
    Ok(out)
}

/// The rolls sorted into buckets (stable: each bucket's steps in index
/// order) and scanned bucket by bucket. Returns the repeats — `(i, i'')`
/// for each step `i` whose roll an earlier step rolled, `i''` the last one —
/// and the rolls below `k` as `(j_i, i)`.
#[allow(clippy::type_complexity)]
fn scan(rolls: &[u64], k: usize) -> Result<(Vec<(usize, usize)>, Vec<(usize, usize)>), Error> {
    let buckets = (rolls.len() / BUCKET).next_power_of_two();
    let bucket =
        |x: u64| ((u128::from(x.wrapping_mul(BUCKET_HASH)) * buckets as u128) >> 64) as usize;
    // Counting sort of (roll, step) by bucket.
    let mut starts = vec![0usize; buckets + 1];
    for &x in rolls {
        starts[bucket(x) + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut sorted: Vec<(u64, usize)> = Vec::new();
    sorted
        .try_reserve_exact(rolls.len())
        .map_err(|_| exhausted(rolls.len(), 16))?;
    sorted.resize(rolls.len(), EMPTY);
    let mut next = starts.clone();
    for (i, &x) in rolls.iter().enumerate() {
        let b = bucket(x);
        sorted[next[b]] = (x, i);
        next[b] += 1;
    }
    let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    let mut table = vec![EMPTY; (2 * largest).next_power_of_two().max(16)];
    let (mut repeats, mut below_k) = (Vec::new(), Vec::new());
    for w in starts.windows(2) {
        let steps = &sorted[w[0]..w[1]];
        let size = (2 * steps.len()).next_power_of_two().max(16);
        let slots = &mut table[..size];
        let shift = u64::BITS - size.trailing_zeros();
        for &(x, i) in steps {
            if x < k as u64 {
                below_k.push((x as usize, i));
            }
            let mut at = (x.wrapping_mul(SLOT_HASH) >> shift) as usize;
            loop {
                let slot = &mut slots[at];
                if slot.0 == EMPTY.0 {
                    *slot = (x, i);
                    break;
                }
                if slot.0 == x {
                    repeats.push((i, std::mem::replace(&mut slot.1, i)));
                    break;
                }
                at = (at + 1) & (size - 1);
            }
        }
        slots.fill(EMPTY);
    }
    Ok((repeats, below_k))
}

/// `v(i)` for the steps whose position an earlier step wrote: `(i, v(i))`
/// in increasing `i`; every other step reads its own index.
struct Resolved(Vec<(usize, u64)>);

impl Resolved {
    /// From the rolls below `k` (`(p, i)`: step `i` wrote position `p`):
    /// position `p` read at step `p` holds what the last step `i < p` that
    /// rolled `p` moved there, `v(i)`, found in increasing `p`.
    fn of(mut below_k: Vec<(usize, usize)>) -> Self {
        below_k.sort_unstable();
        let mut resolved = Resolved(Vec::new());
        for writes in below_k.chunk_by(|a, b| a.0 == b.0) {
            let p = writes[0].0;
            // Sorted by step: the last write before step `p` reads it.
            if let Some(&(_, i)) = writes.iter().rev().find(|w| w.1 < p) {
                let value = resolved.at(i);
                resolved.0.push((p, value));
            }
        }
        resolved
    }

    /// `v(i)`.
    fn at(&self, i: usize) -> u64 {
        match self.0.binary_search_by_key(&i, |&(p, _)| p) {
            Ok(found) => self.0[found].1,
            Err(_) => i as u64,
        }
    }
}
