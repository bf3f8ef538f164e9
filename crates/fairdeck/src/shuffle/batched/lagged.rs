//! The lagged swaps of the Fisher–Yates loop on slices beyond the L2 cache.

use super::super::prefetch::prefetch;

/// How many swaps wait for their prefetched target: enough misses in flight
/// to cover a memory round trip at a few ns per step. Measured on 10⁶ `u32`
/// (A/B, four runs each): 16 → 2.34–2.42 ns per element, 32 → 2.21–2.24,
/// 64 → 2.16–2.19, 128 → 2.19.
pub(super) const LAG: usize = 64;

/// A FIFO of pending swaps whose targets have been prefetched.
///
/// Only the random target is stored: the swaps come from the backward loop,
/// whose first position drops by one per step, so the swap queued `LAG`
/// steps ago had first position `a + LAG`.
pub(super) struct Lagged {
    ring: [usize; LAG],
    len: usize,
    at: usize,
    /// The first position of the latest queued swap.
    last: usize,
}

impl Lagged {
    pub(super) fn new() -> Self {
        Lagged {
            ring: [0; LAG],
            len: 0,
            at: 0,
            last: 0,
        }
    }

    /// Queues the swap of `a` and `b` (prefetching `b`) and runs the one
    /// queued `LAG` swaps ago. `a` must be one less than the previous call's.
    #[inline(always)]
    pub(super) fn swap<T>(&mut self, slice: &mut [T], a: usize, b: usize) {
        prefetch(slice, b);
        let old = core::mem::replace(&mut self.ring[self.at], b);
        if self.len == LAG {
            slice.swap(a + LAG, old);
        } else {
            self.len += 1;
        }
        self.at = (self.at + 1) % LAG;
        self.last = a;
    }

    /// Runs the swaps still queued, oldest first.
    pub(super) fn finish<T>(self, slice: &mut [T]) {
        let start = (self.at + LAG - self.len) % LAG;
        for t in 0..self.len {
            let a = self.last + self.len - 1 - t;
            slice.swap(a, self.ring[(start + t) % LAG]);
        }
    }
}
