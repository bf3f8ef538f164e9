//! Finding lines fast and on every core: the data is cut into one stretch
//! of whole lines per thread, each stretch's lines are counted with
//! `memchr`'s vectorised count, and line starts are found 64 bytes at a time
//! through a bit mask of delimiter positions.

use std::sync::{Mutex, PoisonError};
use std::thread;

/// At most this many threads work on one run.
const MAX_THREADS: usize = 8;

/// Below this many bytes one thread does all the work (starting threads
/// would cost more than they save).
const SMALL: usize = 8 << 20;

/// How many threads to use for `bytes` bytes of data: every core the
/// process may use (at most 8), or one for small inputs.
pub(crate) fn threads_for(bytes: usize) -> usize {
    if bytes < SMALL {
        return 1;
    }
    thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Runs every job, each on its own scoped thread except the first, which
/// runs on the calling thread, and returns their results in order. A job
/// whose thread cannot be started (a process at its thread or memory
/// limit) runs on the calling thread instead: slower, never a panic.
pub(crate) fn run_all<R: Send, F: FnOnce() -> R + Send>(jobs: Vec<F>) -> Vec<R> {
    let slots: Vec<Mutex<Option<F>>> = jobs.into_iter().map(|j| Mutex::new(Some(j))).collect();
    let results: Vec<Mutex<Option<R>>> = slots.iter().map(|_| Mutex::new(None)).collect();
    let run = |i: usize| {
        let job = slots[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(job) = job {
            let result = job();
            *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
        }
    };
    thread::scope(|scope| {
        for i in 1..slots.len() {
            if thread::Builder::new()
                .spawn_scoped(scope, move || run(i))
                .is_err()
            {
                run(i);
            }
        }
        if !slots.is_empty() {
            run(0);
        }
    });
    results
        .into_iter()
        .filter_map(|r| r.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect()
}

/// A stretch `data[start..end]` of whole lines: it begins at a line start
/// and (unless it is the last) ends just after a delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    pub start: usize,
    pub end: usize,
    /// The number of the part's first line in the whole data.
    pub first_line: u64,
    /// How many lines start in the part.
    pub lines: u64,
}

/// Cuts `data` into `parts` stretches of whole lines of about equal size
/// (some may be empty) and counts their lines, one thread per stretch.
/// A last line without a delimiter counts as a line.
///
/// O(n) work in one pass, spread over the threads.
pub(crate) fn split(data: &[u8], delimiter: u8, parts: usize) -> Vec<Part> {
    let parts = parts.max(1);
    let mut bounds = vec![0usize];
    for t in 1..parts {
        let target = (data.len() / parts * t).max(bounds[t - 1]);
        let after =
            memchr::memchr(delimiter, &data[target..]).map_or(data.len(), |i| target + i + 1);
        bounds.push(after);
    }
    bounds.push(data.len());
    let counts: Vec<u64> = if parts == 1 {
        vec![count_lines(data, delimiter)]
    } else {
        thread::scope(|scope| {
            let handles: Vec<_> = bounds
                .windows(2)
                .map(|w| scope.spawn(move || count_lines(&data[w[0]..w[1]], delimiter)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("line counter"))
                .collect()
        })
    };
    let mut first_line = 0;
    bounds
        .windows(2)
        .zip(counts)
        .map(|(w, lines)| {
            let part = Part {
                start: w[0],
                end: w[1],
                first_line,
                lines,
            };
            first_line += lines;
            part
        })
        .collect()
}

/// The lines starting in `stretch`, which begins at a line start: one per
/// delimiter before its last byte, plus one if it is not empty.
fn count_lines(stretch: &[u8], delimiter: u8) -> u64 {
    match stretch.split_last() {
        None => 0,
        Some((_, body)) => memchr::memchr_iter(delimiter, body).count() as u64 + 1,
    }
}

/// Calls `each(offset)` with the offset, in `stretch`, of every line start
/// of `stretch` (which begins at a line start), in order.
#[inline]
pub(crate) fn for_each_start(stretch: &[u8], delimiter: u8, mut each: impl FnMut(usize)) {
    let Some((_, body)) = stretch.split_last() else {
        return;
    };
    each(0);
    Ends::new(body, delimiter).for_each(each);
}

/// The position just after each delimiter of a buffer, in order.
///
/// The delimiters of each 64-byte block are gathered into a `u64` bit mask
/// whose set bits are then visited lowest first: for lines of a few dozen
/// bytes this is several times faster than one search call per line.
pub(crate) struct Ends<'a> {
    bytes: &'a [u8],
    delimiter: u8,
    /// Where the next block starts.
    next: usize,
    /// The start of the block `bits` describes.
    base: usize,
    bits: u64,
}

impl<'a> Ends<'a> {
    /// The delimiters of `bytes`.
    pub(crate) fn new(bytes: &'a [u8], delimiter: u8) -> Self {
        Self {
            bytes,
            delimiter,
            next: 0,
            base: 0,
            bits: 0,
        }
    }
}

impl Iterator for Ends<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            let rest = self.bytes.get(self.next..).filter(|r| !r.is_empty())?;
            self.bits = match rest.first_chunk::<64>() {
                Some(block) => mask(block, self.delimiter),
                None => {
                    let mut block = [!self.delimiter; 64];
                    block[..rest.len()].copy_from_slice(rest);
                    mask(&block, self.delimiter)
                }
            };
            self.base = self.next;
            self.next += 64;
        }
        let at = self.base + self.bits.trailing_zeros() as usize + 1;
        self.bits &= self.bits - 1;
        Some(at)
    }
}

/// Bit `i` set when `block[i]` is the delimiter: four 16-byte SSE2
/// comparisons on x86_64 (SSE2 is part of the x86_64 baseline), a portable
/// loop elsewhere.
#[inline(always)]
#[allow(unsafe_code)]
fn mask(block: &[u8; 64], delimiter: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        let mut bits = 0u64;
        // SAFETY: SSE2 is enabled on every x86_64 target; each load reads
        // 16 bytes at offsets 0, 16, 32, 48 of the 64-byte array (unaligned
        // loads are allowed), so every read is inside `block`.
        unsafe {
            let wanted = _mm_set1_epi8(delimiter as i8);
            for lane in 0..4 {
                let bytes = _mm_loadu_si128(block.as_ptr().add(16 * lane).cast::<__m128i>());
                let hits = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted)) as u16;
                bits |= u64::from(hits) << (16 * lane);
            }
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    block
        .iter()
        .enumerate()
        .fold(0u64, |m, (i, &b)| m | (u64::from(b == delimiter) << i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(stretch: &[u8], d: u8) -> Vec<usize> {
        let mut v = Vec::new();
        for_each_start(stretch, d, |s| v.push(s));
        v
    }

    fn naive(data: &[u8], d: u8) -> Vec<usize> {
        let mut v = Vec::new();
        for i in 0..data.len() {
            if i == 0 || data[i - 1] == d {
                v.push(i);
            }
        }
        v
    }

    #[test]
    fn starts_are_found_at_every_length_and_delimiter() {
        for d in [b'\n', 0, 0xff] {
            for len in 0..200usize {
                // Delimiters at positions 3, 7, 11, … plus one at 64 and at the end.
                let mut data: Vec<u8> = (0..len).map(|i| if i % 4 == 3 { d } else { !d }).collect();
                if len > 64 {
                    data[64] = d;
                }
                assert_eq!(starts(&data, d), naive(&data, d), "len {len}");
                assert_eq!(count_lines(&data, d) as usize, naive(&data, d).len());
            }
        }
    }

    #[test]
    fn jobs_run_once_each_and_results_keep_their_order() {
        for n in 0..5u64 {
            let jobs: Vec<_> = (0..n).map(|i| move || i * 10).collect();
            assert_eq!(run_all(jobs), (0..n).map(|i| i * 10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn parts_are_whole_lines_and_count_every_line() {
        let data = b"a\nbb\n\nccc\ndddd\ne".repeat(50);
        for parts in 1..=9 {
            let split = split(&data, b'\n', parts);
            assert_eq!(split.len(), parts);
            assert_eq!((split[0].start, split[parts - 1].end), (0, data.len()));
            let mut line = 0;
            for (i, p) in split.iter().enumerate() {
                assert!(p.start == 0 || data[p.start - 1] == b'\n');
                assert_eq!(p.first_line, line);
                assert_eq!(p.lines as usize, starts(&data[p.start..p.end], b'\n').len());
                line += p.lines;
                if i + 1 < parts {
                    assert_eq!(p.end, split[i + 1].start);
                }
            }
            assert_eq!(line as usize, naive(&data, b'\n').len());
        }
        assert_eq!(split(b"", b'\n', 3).iter().map(|p| p.lines).sum::<u64>(), 0);
    }
}
