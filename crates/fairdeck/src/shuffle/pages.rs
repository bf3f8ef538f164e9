//! Scratch buffers for the scatter shuffle, on huge pages where the system allows.
//!
//! A freshly allocated buffer costs one page fault per page on first touch;
//! with 4 KiB pages, faulting in the scratch buffer of 10⁸ `u32`s took more
//! time than copying the elements into it (≈ 1.6 ns per element, measured
//! on Linux with transparent huge pages in `madvise` mode). Asking for
//! 2 MiB pages (`madvise(MADV_HUGEPAGE)`) makes that 512 times fewer
//! faults. The advice is only a hint: where it is refused or unknown, the
//! buffers work the same, just slower.

/// Huge page size on x86-64 and most aarch64 Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the system to back the 2 MiB-aligned part of `buffer` with huge
/// pages; does nothing for buffers under 4 MiB or off Linux.
pub(super) fn advise_huge_pages<U>(buffer: &mut [U]) {
    let bytes = size_of_val(buffer);
    if bytes < 2 * HUGE_PAGE {
        return;
    }
    let start = buffer.as_mut_ptr().cast::<u8>();
    let skip = (start as usize).next_multiple_of(HUGE_PAGE) - start as usize;
    let len = (bytes - skip) / HUGE_PAGE * HUGE_PAGE;
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `[start + skip, start + skip + len)` lies inside `buffer`,
        // which we borrow mutably; MADV_HUGEPAGE changes how the kernel
        // backs these pages, never their contents, and its failure is ignored.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(start.add(skip).cast(), len, libc::MADV_HUGEPAGE)
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, skip, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_keeps_the_contents() {
        for n in [0, 100, 5 << 20, (9 << 20) + 7] {
            let mut v: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
            advise_huge_pages(&mut v);
            assert!(v.iter().enumerate().all(|(i, &x)| x == (i % 251) as u8));
        }
    }
}
