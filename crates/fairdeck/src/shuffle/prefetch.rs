//! The cache prefetch hint shared by the bucket distribution
//! (`buckets.rs`) and the lagged Fisher–Yates (`batched/lagged.rs`), in a
//! module of its own so that neither of those depends on the other for it.

/// Asks the CPU to start loading the cache line of `slice[index]`, if it exists.
///
/// One of fairdeck's audited `unsafe` blocks (listed in lib.rs). Invariant:
/// the pointer handed to the intrinsic is derived from an in-bounds element of `slice` (checked
/// here), and a prefetch has no architectural effect — it cannot fault,
/// read into a register or write; it only warms the cache. Measured: the
/// distribution of 10⁸ `u32` spends most of its time waiting for these
/// lines (docs/book/src/speed.md). Covered by every bucket-shuffle test.
#[inline(always)]
pub(super) fn prefetch<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(element) = slice.get(index) {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address = std::ptr::from_ref(element).cast::<i8>();
        // SAFETY: `address` points at a live element of `slice`, and
        // `_mm_prefetch` (SSE, part of the x86-64 baseline) is only a hint.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(address)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}
