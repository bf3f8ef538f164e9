//! Line starts inside a byte buffer and the two hot loops' helpers: the
//! offset type (`u32` or `u64`), the end of a line, and the prefetch hint.
//! Shared by the in-memory shuffle ([`crate::lines`]), the seeded streams
//! ([`crate::seeded`]) and the bucket gather, which is why they live here
//! and not in any one of them.

use memchr::memchr;

/// How many lines ahead of the one being written to prefetch: the output
/// visits lines in random order, so each is a cache (and TLB) miss; asking
/// for the next ones early overlaps those misses (measured: see docs/book/src/speed.md).
pub(crate) const PREFETCH_AHEAD: usize = 12;

/// A line start inside a buffer: `u32` while the buffer is below 4 GiB
/// (4 bytes per line of index), `u64` beyond.
pub(crate) trait Offset: Copy {
    fn new(at: usize) -> Self;
    fn get(self) -> usize;
}

/// The two widths share one body: the callers choose the width so that
/// every offset fits, so the casts never truncate.
macro_rules! offset_width {
    ($($t:ty),*) => {$(
        impl Offset for $t {
            #[inline]
            fn new(at: usize) -> Self {
                at as $t
            }
            #[inline]
            fn get(self) -> usize {
                self as usize
            }
        }
    )*};
}

offset_width!(u32, u64);

/// Hints the processor to load the line at `at` into the cache.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch(data: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let pointer = data[at..].as_ptr().cast();
        // SAFETY: `prefetch` needs SSE, which every x86_64 processor has; a
        // prefetch is only a hint that never faults and reads no value, and
        // the pointer is inside `data` anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(pointer) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, at);
}

/// The end (one past the delimiter) of the line starting at `from`.
///
/// Short lines dominate and `memchr`'s set-up costs more than they do, so
/// the first 32 bytes are searched 8 at a time in a `u64` ("SWAR"): after
/// `x = word ^ (delimiter × 0x01…01)` a delimiter byte is a zero byte of `x`,
/// and `(x − 0x01…01) & !x & 0x80…80` has its lowest set bit in the first
/// zero byte (a borrow can only mark bytes above it). Longer lines go to
/// `memchr`. The data always ends with a delimiter.
#[inline]
pub(crate) fn line_end(data: &[u8], from: usize, delimiter: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(delimiter);
    let mut at = from;
    while at + 8 <= data.len() && at < from + 32 {
        let word = u64::from_le_bytes(data[at..at + 8].try_into().expect("8 bytes"));
        let x = word ^ pattern;
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize + 1;
        }
        at += 8;
    }
    memchr(delimiter, &data[at..]).map_or(data.len(), |i| at + i + 1)
}
