//! Shuffling buckets of line offsets and writing their lines, on several
//! threads, in bucket order.
//!
//! The threads take buckets in increasing order from a shared queue. Each
//! shuffles its bucket with the bucket's own dice, copies the bucket's lines
//! into a block of about 1 MiB at a time (prefetching the lines about to be
//! copied: they lie anywhere in the data), and hands each block to the output
//! when its turn comes: all of bucket `b`'s blocks are written before any of
//! bucket `b + 1`'s. While one thread writes, the others gather, so the
//! kernel's copy into the output overlaps with the random reads. Which bytes
//! are written never depends on the number of threads.

use std::sync::{Condvar, Mutex, PoisonError};

use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Seed};
use fairdeck::shuffle::shuffle;

use crate::dice::stream;
use crate::error::Error;
use crate::offset::{Offset, PREFETCH_AHEAD, line_end, prefetch};
use crate::scan::run_all;
use crate::sink::Sink;

/// Bytes gathered before a block is handed to the output.
const BLOCK: usize = 1 << 20;

/// What the threads read, and how a bucket is shuffled (production:
/// [`fairdeck::shuffle::shuffle`] through [`bucket_shuffle`]; tests pass a
/// biased one as a negative control).
pub(crate) struct Gather<'a, S> {
    pub data: &'a [u8],
    pub delimiter: u8,
    pub seed: &'a Seed,
    pub shuffle: S,
}

/// The production bucket shuffle.
pub(crate) fn bucket_shuffle<T>(bucket: &mut [T], dice: &mut RngDice<AnyRng>) {
    shuffle(bucket, dice);
}

/// The output's turn and its first failure, shared by the threads.
struct Turn<'s> {
    sink: &'s mut Sink,
    /// The bucket whose blocks are written now.
    bucket: usize,
    failed: Option<Error>,
}

struct Shared<'s, 'b, T> {
    queue: Mutex<std::iter::Enumerate<std::vec::IntoIter<&'b mut [T]>>>,
    turn: Mutex<Turn<'s>>,
    changed: Condvar,
}

/// Shuffles each bucket and writes its lines, bucket after bucket, with
/// `threads` threads.
///
/// # Errors
///
/// The first write error, or [`Error::Interrupted`].
pub(crate) fn write_buckets<
    T: Offset + Send + Sync,
    S: Fn(&mut [T], &mut RngDice<AnyRng>) + Sync,
>(
    gather: &Gather<'_, S>,
    buckets: Vec<&mut [T]>,
    threads: usize,
    sink: &mut Sink,
) -> Result<(), Error> {
    let shared = Shared {
        queue: Mutex::new(buckets.into_iter().enumerate()),
        turn: Mutex::new(Turn {
            sink,
            bucket: 0,
            failed: None,
        }),
        changed: Condvar::new(),
    };
    let state = &shared;
    run_all(
        (0..threads.max(1))
            .map(|_| move || worker(gather, state))
            .collect(),
    );
    let turn = shared
        .turn
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    turn.failed.map_or(Ok(()), Err)
}

/// One thread: takes the next bucket until none is left or the run failed.
fn worker<T: Offset, S: Fn(&mut [T], &mut RngDice<AnyRng>)>(
    gather: &Gather<'_, S>,
    shared: &Shared<'_, '_, T>,
) {
    let mut block = Vec::with_capacity(BLOCK + 4096);
    loop {
        let next = shared
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next();
        let Some((b, bucket)) = next else { return };
        (gather.shuffle)(bucket, &mut stream(gather.seed, b"bucket", b as u64));
        if copy_lines(gather, bucket, b, &mut block, shared).is_err() {
            return;
        }
    }
}

/// Copies the lines of bucket `b` (shuffled) into blocks and writes them in turn.
fn copy_lines<T: Offset, S>(
    gather: &Gather<'_, S>,
    bucket: &[T],
    b: usize,
    block: &mut Vec<u8>,
    shared: &Shared<'_, '_, T>,
) -> Result<(), ()> {
    let (data, delimiter) = (gather.data, gather.delimiter);
    let mut records = 0;
    for (i, &start) in bucket.iter().enumerate() {
        if let Some(&ahead) = bucket.get(i + PREFETCH_AHEAD) {
            prefetch(data, ahead.get());
        }
        let from = start.get();
        let line = &data[from..line_end(data, from, delimiter)];
        block.extend_from_slice(line);
        if line.last() != Some(&delimiter) {
            block.push(delimiter);
        }
        records += 1;
        if block.len() >= BLOCK {
            hand_over(shared, b, block, records, false)?;
            records = 0;
        }
    }
    hand_over(shared, b, block, records, true)
}

/// Waits for bucket `b`'s turn and writes `block`; the last block of a
/// bucket passes the turn on. `Err` when the run has failed (the failure is
/// kept in the shared state).
fn hand_over<T>(
    shared: &Shared<'_, '_, T>,
    b: usize,
    block: &mut Vec<u8>,
    records: u64,
    last: bool,
) -> Result<(), ()> {
    let lock = shared.turn.lock().unwrap_or_else(PoisonError::into_inner);
    let mut turn = shared
        .changed
        .wait_while(lock, |t| t.bucket != b && t.failed.is_none())
        .unwrap_or_else(PoisonError::into_inner);
    if turn.failed.is_some() {
        return Err(());
    }
    let written = turn.sink.block(block, records);
    block.clear();
    if let Err(e) = written {
        turn.failed = Some(e);
        shared.changed.notify_all();
        return Err(());
    }
    if last {
        turn.bucket += 1;
        shared.changed.notify_all();
    }
    Ok(())
}
