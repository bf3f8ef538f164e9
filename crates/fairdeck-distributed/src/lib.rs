//! # fairdeck-distributed
//!
//! Exactly uniform, reproducible shuffles of datasets larger than a
//! machine — the engine-independent part. An engine (Apache Spark, through
//! the Python package) stores, schedules and retries; this crate decides,
//! for every row, where it goes, as a pure function of the seed and the
//! data.
//!
//! ## Quick start
//!
//! ```
//! use fairdeck::rng::Seed;
//! use fairdeck_distributed::{RowId, ShuffleKey, order_bucket};
//!
//! let key = ShuffleKey::new(&Seed::parse("my dataset, run 1"));
//! let k = 4;
//! // Map side: any task, any order, any number of times.
//! let rows = [RowId::new(0, 0), RowId::new(0, 12), RowId::new(1, 0), RowId::new(1, 7)];
//! let mut bucket_zero = Vec::new();
//! for row in rows {
//!     if key.bucket_of(row, k)? == 0 {
//!         bucket_zero.push(row);
//!     }
//! }
//! // Reduce side: the order of bucket 0's part.
//! let order = order_bucket(&key, 0, &bucket_zero)?;
//! assert_eq!(order.len(), bucket_zero.len());
//! # Ok::<(), fairdeck_distributed::Error>(())
//! ```
//!
//! ## The algorithm
//!
//! The bucket shuffle of Rao (1961, "Generation of random permutations of
//! given number of elements using random sampling numbers", Sankhyā A 23)
//! and Sandelius (1962, "A simple randomization procedure", JRSS B 24),
//! which Sanders (1998, "Random permutations on distributed, external and
//! hierarchical memory", IPL 67) made the standard distributed method,
//! here made reproducible:
//!
//! 1. every row has a stable [`RowId`] that depends on the data only:
//!    (index of its file in the sorted, normalised listing, byte offset of
//!    the line) for text — see [`split`] — or (file index, row index) for
//!    Parquet; never a task, partition or executor number;
//! 2. its bucket is an exact uniform draw in `[0, k)` from a counter-based
//!    generator keyed by (seed, row id) ([`ShuffleKey::bucket_of`]);
//! 3. the engine groups rows by bucket; each bucket is put in canonical
//!    row-id order and shuffled by Fisher–Yates with a generator keyed by
//!    (seed, bucket) ([`order_bucket`]);
//! 4. part `b` holds bucket `b`; the parts in order are the shuffled data.
//!
//! **Why the output is exactly uniform.** Model the generators as truly
//! random (ChaCha20 keyed by a uniform seed is indistinguishable from
//! that): the bucket of each row is then an independent uniform draw in
//! `[0, k)`, and each bucket's shuffle an independent uniform permutation of
//! its rows, whatever order they arrived in (canonical order is a fixed
//! input to an exactly uniform Fisher–Yates). Fix any order `σ` of the `n`
//! rows. The output is `σ` exactly when, for some sizes `c₀ + … + c_{k−1} =
//! n`, bucket `j` receives precisely the `j`-th block of `c_j` rows of `σ`
//! (one assignment, probability `k^−n`) and each bucket's shuffle puts its
//! block in `σ`'s order (probability `Π 1/c_j!`). So
//! `P(σ) = k^−n Σ_c Π_j 1/c_j! = k^−n · kⁿ/n! = 1/n!` by the multinomial
//! theorem — the same for every `σ`. The sizes are multinomial, the order
//! within buckets uniform; together, every order is equally likely. The
//! tests check this by exact enumeration of every draw on small inputs
//! with k = 2 and 3 (unequal bucket sizes included), and check that a
//! biased variant fails.
//!
//! **Why it is reproducible.** Every random choice is a pure function of
//! the seed and either a row id or a bucket number. Split sizes, task
//! counts, the order rows arrive in, and retried or speculative tasks
//! change none of them.
//!
//! ## Specification (byte-exact)
//!
//! Seed: 32 bytes (`fairdeck::rng::Seed`: 64 hex digits, or SHA-256 of a text).
//!
//! * Row key `R = HMAC-SHA256(key = seed, message = "fairdeck-distributed/v1/row-bucket")`.
//! * Row words: the ChaCha20 keystream (RFC 8439, 20 rounds, 32-bit block
//!   counter from 0) of key `R` and 96-bit nonce `le32(file) ‖ le64(position)`,
//!   cut into 8-byte little-endian words `w₀, w₁, …`.
//! * Bucket of a row among `k`: for `i = 0, 1, …` let `m = wᵢ · k` (128-bit);
//!   the first `i` with `(m mod 2⁶⁴) ≥ (2⁶⁴ − k) mod k` gives the bucket
//!   `⌊m / 2⁶⁴⌋` (Lemire 2019, "Fast Random Integer Generation in an
//!   Interval"; rejected words are replaced by the next words of the same
//!   keystream, so the counter extends the draw).
//! * Bucket key `B(b) = HMAC-SHA256(seed, "fairdeck-distributed/v1/bucket-shuffle" ‖ le64(b))`.
//! * Bucket order: sort the bucket's rows by (file, position); then for
//!   `i = m−1` down to `1` swap places `i` and `j`, `j` drawn in `[0, i+1)`
//!   by the rule above from the keystream of key `B(b)` and nonce 0
//!   (Durstenfeld 1964; the same draw as `fairdeck_fair::KeyStream`).
//!
//! Value-stability tests pin buckets and orders; a change to them is a
//! reproducibility-breaking change.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bucket;
mod error;
mod key;
pub mod split;

pub use bucket::{Draws, MEMORY_FACTOR, buckets_for, order_bucket, shuffle_rows};
pub use error::Error;
pub use key::{BUCKET_DOMAIN, ROW_DOMAIN, RowId, RowStream, ShuffleKey};
