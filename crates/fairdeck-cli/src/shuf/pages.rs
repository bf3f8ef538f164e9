//! Huge pages for the big buffers of the in-memory shuffle.
//!
//! Shuffling the line index and writing lines in shuffled order touch memory
//! at random: with 4 KiB pages nearly every access also misses the TLB (and
//! in a virtual machine a TLB miss is a two-level page walk). Asking Linux
//! for transparent huge pages (2 MiB) on those buffers, before they are first
//! written, removes most of those misses (measured: see the README's
//! `fairdeck shuf` section). It is advice only: where it is refused or not
//! supported nothing changes.

/// Advises the kernel to back the spare capacity of `buffer` with huge
/// pages. Call it right after allocating, before the memory is touched.
pub fn advise_huge<T>(buffer: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = buffer.capacity() * size_of::<T>();
        if bytes < 4 * HUGE {
            return;
        }
        let start = buffer.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let last = (start + bytes) / HUGE * HUGE;
        if last > first {
            // SAFETY: the range [first, last) lies inside the allocation
            // owned by `buffer`, is page-aligned, and MADV_HUGEPAGE changes
            // no contents and no mapping: it is a hint about page size only.
            // The return value is ignored because refusal is harmless.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_leaves_contents_alone() {
        let mut v: Vec<u32> = Vec::with_capacity(5 << 20);
        advise_huge(&mut v);
        v.extend(0..5 << 20);
        assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i));
        let mut small: Vec<u8> = Vec::new();
        advise_huge(&mut small);
    }
}
