//! Lines as bytes: splitting a buffer or a stream at the delimiter, and the
//! three in-memory jobs — shuffle all lines, pick `k` with a reservoir,
//! repeat with replacement.
//!
//! A line is everything up to and including its delimiter; a last line
//! without one gets one, as GNU `shuf` does. Nothing else is touched:
//! invalid UTF-8, CR and (in newline mode) NUL bytes pass through.

use std::io::{self, Read};

use fairdeck::dice::Dice;
use fairdeck::shuffle::{partial_shuffle, shuffle};
use memchr::memchr_iter;

use crate::cancel::Cancel;
use crate::dice::ShufDice;
use crate::error::{Error, IoContext, reserve};
use crate::offset::{Offset, PREFETCH_AHEAD, line_end, prefetch};
use crate::scan::{Ends, threads_for};
use crate::seeded::shuffle_lines;
use crate::sink::Sink;

/// Reads all of `reader` after what `data` already holds, growing `data`
/// fallibly (GNU's "memory exhausted" rather than an abort) and checking
/// `cancel` every 16 MiB.
///
/// # Errors
///
/// GNU's "read error" message; [`Error::MemoryExhausted`]; [`Error::Interrupted`].
pub fn read_all(reader: &mut dyn Read, data: &mut Vec<u8>, cancel: &Cancel) -> Result<(), Error> {
    const STEP: usize = 16 << 20;
    loop {
        cancel.check()?;
        reserve(data, STEP.min(data.len().max(1 << 16)))?;
        let got = read_chunk(reader, data, STEP).on("read error")?;
        if got == 0 {
            return Ok(());
        }
    }
}

/// Deals the first `k` items of a uniformly random order of `items` into
/// `items[..k]`.
///
/// With a `--random-source` file the swaps are GNU's `randperm`: for `i` in
/// `0..k`, swap item `i` with item `i + choose(n − i)`, so the same bytes
/// give GNU's order. Otherwise [`fairdeck::shuffle`]'s production shuffle.
/// Either way O(k) draws and O(1) extra memory; every order is equally likely.
pub fn deal<T>(items: &mut [T], k: usize, dice: &mut ShufDice) {
    let n = items.len();
    if dice.is_gnu() {
        for i in 0..k.min(n) {
            let j = i + dice.roll((n - i) as u64) as usize;
            items.swap(i, j);
        }
    } else if k >= n {
        shuffle(items, dice);
    } else {
        partial_shuffle(items, k, dice);
    }
}

/// Calls `each` with every line of `reader`, reading `chunk` bytes at a time.
///
/// O(longest line + chunk) memory.
///
/// # Errors
///
/// A read error, or the first error `each` returns.
pub fn for_each_line(
    reader: &mut dyn Read,
    delimiter: u8,
    chunk: usize,
    cancel: &Cancel,
    mut each: impl FnMut(&[u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut buf: Vec<u8> = Vec::with_capacity(chunk);
    loop {
        cancel.check()?;
        let carried = buf.len();
        reserve(&mut buf, chunk)?;
        let got = read_chunk(reader, &mut buf, chunk).on("read error")?;
        if got == 0 {
            if !buf.is_empty() {
                buf.push(delimiter);
                each(&buf)?;
            }
            return Ok(());
        }
        let mut start = 0;
        for at in Ends::new(&buf[carried..], delimiter) {
            let end = carried + at;
            each(&buf[start..end])?;
            start = end;
        }
        buf.drain(..start);
    }
}

/// Appends up to `chunk` bytes (fewer only at the end of input).
fn read_chunk(reader: &mut dyn Read, buf: &mut Vec<u8>, chunk: usize) -> io::Result<usize> {
    reader.take(chunk as u64).read_to_end(buf)
}

/// What to do with the lines of a buffer.
#[derive(Debug, Clone, Copy)]
pub enum Job {
    /// A uniformly random order of all lines, or of the first `k` of one.
    Shuffle(Option<u64>),
    /// `count` lines drawn with replacement (`None`: until the output closes).
    Repeat(Option<u64>),
}

/// Runs `job` on the lines of `data`, writing them to `sink`; a last line
/// without a delimiter gets one on output.
///
/// Shuffling builds an index of line starts (4 bytes per line below 4 GiB),
/// shuffles it with [`fairdeck::shuffle::shuffle`] (or deals `k` with
/// `partial_shuffle`) and writes each line by finding its end again. O(n)
/// time; memory: the data plus the index.
///
/// # Errors
///
/// "no lines to repeat" for `Repeat` on empty input; the random source
/// running out; write errors.
pub fn run_job(
    data: &[u8],
    delimiter: u8,
    job: Job,
    dice: &mut ShufDice,
    sink: &mut Sink,
) -> Result<(), Error> {
    if let (Job::Shuffle(None), Some(seed)) = (job, dice.seed()) {
        let threads = threads_for(data.len());
        return shuffle_lines(data, delimiter, seed, threads, sink);
    }
    if u32::try_from(data.len()).is_ok() {
        run_indexed::<u32>(data, delimiter, job, dice, sink)
    } else {
        run_indexed::<u64>(data, delimiter, job, dice, sink)
    }
}

/// The start of every line of `data`, in order.
fn line_starts<T: Offset>(data: &[u8], delimiter: u8) -> Result<Vec<T>, Error> {
    let unterminated = data.last().is_some_and(|&b| b != delimiter);
    let count = memchr_iter(delimiter, data).count() + usize::from(unterminated);
    let mut starts: Vec<T> = Vec::new();
    reserve(&mut starts, count)?;
    let mut start = 0;
    for end in Ends::new(data, delimiter) {
        starts.push(T::new(start));
        start = end;
    }
    if unterminated {
        starts.push(T::new(start));
    }
    Ok(starts)
}

fn run_indexed<T: Offset>(
    data: &[u8],
    delimiter: u8,
    job: Job,
    dice: &mut ShufDice,
    sink: &mut Sink,
) -> Result<(), Error> {
    let mut starts = line_starts::<T>(data, delimiter)?;
    let count = starts.len();
    let line = |s: T| {
        let from = s.get();
        &data[from..line_end(data, from, delimiter)]
    };
    match job {
        Job::Shuffle(limit) => {
            let k = limit.map_or(count, |k| k.min(count as u64) as usize);
            deal(&mut starts, k, dice);
            if let Some(e) = dice.failure() {
                return Err(e);
            }
            let chosen = &starts[..k];
            for (i, &s) in chosen.iter().enumerate() {
                if let Some(&ahead) = chosen.get(i + PREFETCH_AHEAD) {
                    prefetch(data, ahead.get());
                }
                sink.record(line(s), delimiter)?;
            }
            Ok(())
        }
        Job::Repeat(limit) => {
            if count == 0 {
                return Err(Error::NoLinesToRepeat);
            }
            repeat(
                limit,
                dice,
                |d| d.roll(count as u64),
                |j| sink.record(line(starts[j as usize]), delimiter),
            )
        }
    }
}

/// Draws `limit` times (forever when `None`) and emits each draw, stopping
/// at the first error or when the random source runs out: every value
/// drawn before that is emitted, the failed draw is not.
///
/// # Errors
///
/// The first error of `emit`, or the random source's failure.
pub fn repeat(
    limit: Option<u64>,
    dice: &mut ShufDice,
    mut draw: impl FnMut(&mut ShufDice) -> u64,
    mut emit: impl FnMut(u64) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut left = limit;
    while left != Some(0) {
        let value = draw(dice);
        if let Some(e) = dice.failure() {
            return Err(e);
        }
        emit(value)?;
        left = left.map(|n| n - 1);
    }
    Ok(())
}

/// Keeps `k` lines of a stream, each `k`-subset equally likely, and returns
/// them in uniformly random order.
///
/// Waterman's reservoir (Knuth, TAOCP vol. 2, Algorithm R), as in
/// [`fairdeck::sample::reservoir`] but borrowing each line and copying only
/// the ones kept (a replaced slot reuses its allocation). Line `t` (0-based)
/// replaces slot `j` when one exact roll `j` in `[0, t]` lands below `k`.
/// O(N) time for N lines, O(k) lines of memory.
///
/// # Errors
///
/// Read errors and the random source running out.
pub fn reservoir(
    reader: &mut dyn Read,
    k: u64,
    delimiter: u8,
    dice: &mut ShufDice,
    cancel: &Cancel,
) -> Result<Vec<Vec<u8>>, Error> {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    let mut seen: u64 = 0;
    for_each_line(reader, delimiter, 1 << 20, cancel, |line| {
        if seen < k {
            reserve(&mut kept, 1)?;
            kept.push(line.to_vec());
        } else {
            let j = dice.roll(seen + 1);
            if j < k {
                let slot = &mut kept[j as usize];
                slot.clear();
                slot.extend_from_slice(line);
            }
        }
        seen += 1;
        Ok(())
    })?;
    if dice.is_gnu() && seen >= k {
        // GNU draws the fate of one more line before it finds the input ended.
        dice.roll(seen.saturating_add(1));
    }
    let len = kept.len();
    deal(&mut kept, len, dice);
    match dice.failure() {
        Some(e) => Err(e),
        None => Ok(kept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8], delimiter: u8, chunk: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for_each_line(&mut &input[..], delimiter, chunk, &Cancel::default(), |l| {
            out.push(l.to_vec());
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn streams_split_at_the_delimiter_whatever_the_chunk() {
        let input = b"a\r\nbb\n\xff\0c\nlast";
        for chunk in [1, 2, 3, 7, 100] {
            assert_eq!(
                lines_of(input, b'\n', chunk),
                [&b"a\r\n"[..], b"bb\n", b"\xff\0c\n", b"last\n"],
                "chunk {chunk}"
            );
            assert_eq!(
                lines_of(input, 0, chunk),
                [&b"a\r\nbb\n\xff\0"[..], b"c\nlast\0"]
            );
        }
        assert!(lines_of(b"", b'\n', 4).is_empty());
    }

    #[test]
    fn line_ends_are_found_at_every_length_and_alignment() {
        for delimiter in [b'\n', 0, 0xff] {
            for len in 0..80 {
                for pad in 0..9 {
                    let mut data = vec![b'a'; pad];
                    data.extend(std::iter::repeat_n(0x80u8 ^ delimiter, len));
                    data.push(delimiter);
                    data.extend_from_slice(&[b'x', delimiter]);
                    assert_eq!(
                        line_end(&data, pad, delimiter),
                        pad + len + 1,
                        "{len} {pad}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_unterminated_last_line_is_still_a_line() {
        let starts = |d: &[u8]| line_starts::<u32>(d, b'\n').unwrap();
        assert_eq!(starts(b"ab\nc"), [0, 3]);
        assert_eq!(line_starts::<u64>(b"ab\nc\n", b'\n').unwrap(), [0, 3]);
        assert_eq!(starts(b"\n\n"), [0, 1]);
        assert!(starts(b"").is_empty());
    }
}
