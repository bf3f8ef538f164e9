//! The bucket shuffle: scatter rows into buckets, then shuffle each bucket.

use fairdeck::dice::Dice;
use fairdeck_fair::durstenfeld;

use crate::{Error, RowId, ShuffleKey};

/// The two kinds of random choice a bucket shuffle makes.
///
/// [`ShuffleKey`] is the production source: each answer is a pure function
/// of the seed and the row or bucket, so any engine can ask in any order,
/// any number of times. The tests put an enumerating dice behind this trait
/// to compute the exact distribution of [`shuffle_rows`].
pub trait Draws {
    /// The bucket of `row`, uniform in `[0, buckets)`.
    fn bucket(&mut self, row: RowId, buckets: u64) -> u64;
    /// Shuffles the rows of bucket `bucket`, already in canonical order.
    fn shuffle<T>(&mut self, bucket: u64, rows: &mut [T]);
}

impl Draws for ShuffleKey {
    fn bucket(&mut self, row: RowId, buckets: u64) -> u64 {
        self.row_dice(row).roll(buckets)
    }

    fn shuffle<T>(&mut self, bucket: u64, rows: &mut [T]) {
        durstenfeld(rows, &mut self.bucket_dice(bucket));
    }
}

/// Any dice can make both kinds of choice in the order they are asked
/// for: that is how the tests enumerate every outcome.
impl<D: Dice> Draws for &mut D {
    fn bucket(&mut self, _row: RowId, buckets: u64) -> u64 {
        self.roll(buckets)
    }

    fn shuffle<T>(&mut self, _bucket: u64, rows: &mut [T]) {
        durstenfeld(rows, &mut **self);
    }
}

/// The output order of one bucket: `order[i]` is the index in `ids` of the
/// row that goes to place `i` of the bucket's part.
///
/// The rows are put in canonical id order (so the order in which an engine
/// delivered them does not matter), then shuffled by Durstenfeld's
/// Fisher–Yates over the ChaCha20 keystream of the bucket key
/// ([`ShuffleKey::bucket_dice`]).
///
/// O(m log m) time for m rows (the sort), O(m) extra space.
/// Reproducible: the same seed, bucket and set of ids give the same order,
/// whatever order `ids` lists them in.
///
/// ```
/// use fairdeck::rng::Seed;
/// use fairdeck_distributed::{RowId, ShuffleKey, order_bucket};
///
/// let key = ShuffleKey::new(&Seed::parse("doc"));
/// let ids = [RowId::new(0, 0), RowId::new(0, 6), RowId::new(1, 0)];
/// let order = order_bucket(&key, 3, &ids)?;
/// let reversed = [ids[2], ids[1], ids[0]];
/// let again = order_bucket(&key, 3, &reversed)?;
/// // Same rows in the same places, whatever order they came in.
/// let a: Vec<_> = order.iter().map(|&i| ids[i]).collect();
/// let b: Vec<_> = again.iter().map(|&i| reversed[i]).collect();
/// assert_eq!(a, b);
/// # Ok::<(), fairdeck_distributed::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::DuplicateRow`] if two ids are equal.
pub fn order_bucket(key: &ShuffleKey, bucket: u64, ids: &[RowId]) -> Result<Vec<usize>, Error> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_unstable_by_key(|&i| ids[i]);
    if let Some(w) = order.windows(2).find(|w| ids[w[0]] == ids[w[1]]) {
        return Err(Error::DuplicateRow(ids[w[0]]));
    }
    durstenfeld(&mut order, &mut key.bucket_dice(bucket));
    Ok(order)
}

/// The whole bucket shuffle in memory: the reference every engine must
/// reproduce. Returns the parts, bucket 0 first; their concatenation is
/// the shuffled data.
///
/// Rows are taken in canonical id order; each gets its bucket from
/// `draws`; each bucket, in canonical order, is shuffled by `draws`.
///
/// O(n log n) time, O(n) extra space.
///
/// ```
/// use fairdeck::rng::Seed;
/// use fairdeck_distributed::{RowId, ShuffleKey, shuffle_rows};
///
/// let rows: Vec<_> = (0..10u64).map(|i| (RowId::new(0, 2 * i), i)).collect();
/// let parts = shuffle_rows(&mut ShuffleKey::new(&Seed::parse("doc")), 3, rows)?;
/// let mut out: Vec<u64> = parts.into_iter().flatten().map(|(_, v)| v).collect();
/// out.sort();
/// assert_eq!(out, (0..10).collect::<Vec<_>>());
/// # Ok::<(), fairdeck_distributed::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::NoBuckets`] if `buckets == 0`; [`Error::DuplicateRow`] if two
/// rows share an id.
pub fn shuffle_rows<T, D: Draws>(
    draws: &mut D,
    buckets: u64,
    mut rows: Vec<(RowId, T)>,
) -> Result<Vec<Vec<(RowId, T)>>, Error> {
    if buckets == 0 {
        return Err(Error::NoBuckets);
    }
    rows.sort_unstable_by_key(|r| r.0);
    if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::DuplicateRow(w[0].0));
    }
    let mut parts: Vec<Vec<(RowId, T)>> = (0..buckets).map(|_| Vec::new()).collect();
    for row in rows {
        let b = draws.bucket(row.0, buckets);
        parts[b as usize].push(row);
    }
    for (b, part) in parts.iter_mut().enumerate() {
        draws.shuffle(b as u64, part);
    }
    Ok(parts)
}

/// In-memory size of a bucket relative to its input bytes: the line bytes,
/// Arrow offsets and row ids, and the reordered copy of the bucket.
pub const MEMORY_FACTOR: u64 = 3;

/// How many buckets for `input_bytes` of data when one task may hold
/// `task_memory` bytes: `⌈MEMORY_FACTOR · input_bytes / task_memory⌉`,
/// at least 1. A bucket's size varies by about its square root around
/// the mean, so the budget should keep some room.
///
/// O(1).
///
/// ```
/// use fairdeck_distributed::buckets_for;
///
/// assert_eq!(buckets_for(0, 1 << 30), 1);
/// assert_eq!(buckets_for(1 << 40, 1 << 30), 3 << 10); // 1 TiB, 1 GiB per task
/// ```
///
/// # Panics
///
/// Never: a zero `task_memory` is treated as one byte.
pub fn buckets_for(input_bytes: u64, task_memory: u64) -> u64 {
    let need = u128::from(input_bytes) * u128::from(MEMORY_FACTOR);
    let per = u128::from(task_memory.max(1));
    need.div_ceil(per).clamp(1, u128::from(u32::MAX)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeck::rng::Seed;

    #[test]
    fn duplicates_are_refused() {
        let key = ShuffleKey::new(&Seed::parse("x"));
        let ids = [RowId::new(0, 1), RowId::new(0, 1)];
        assert_eq!(
            order_bucket(&key, 0, &ids),
            Err(Error::DuplicateRow(ids[0]))
        );
        let rows = vec![(ids[0], ()), (ids[1], ())];
        assert!(shuffle_rows(&mut key.clone(), 2, rows).is_err());
        assert_eq!(
            shuffle_rows(&mut key.clone(), 0, Vec::<(RowId, ())>::new()),
            Err(Error::NoBuckets)
        );
    }

    #[test]
    fn bucket_count_grows_with_input() {
        assert_eq!(buckets_for(100, 300), 1);
        assert_eq!(buckets_for(101, 300), 2);
        assert_eq!(buckets_for(5, 0), 15);
        assert_eq!(buckets_for(u64::MAX, 1), u64::from(u32::MAX));
    }
}
