//! Caller-owned scratch memory for the large-slice shuffles, kept between calls.
//!
//! The scatter shuffle of n elements needs `n · size_of::<T>()` bytes to
//! scatter into and n label bytes. Allocated per call, every page of them
//! is faulted in and zeroed by the kernel on first touch — at 10⁸ `u32`
//! that first touch of 500 MB is a large part of the shuffle's time
//! (docs/book/src/speed.md). A [`Scratch`] keeps both buffers between
//! calls, so only the first call pays for them.

use std::mem::MaybeUninit;

use super::pages::advise_huge_pages;

/// The unit of the element buffer: 64 bytes, aligned to 64, so the buffer
/// serves every element type aligned to at most 64 bytes.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Chunk([u8; 64]);

/// Element types aligned to at most this many bytes use the kept buffer.
const ALIGN: usize = align_of::<Chunk>();

/// Reusable scratch memory for [`Shuffle::scratch`](super::Shuffle::scratch),
/// one-thread or parallel: one `Scratch`
/// serves slices of any element type and any length, call after call.
///
/// **What it keeps between calls.** Two buffers, each as large as the
/// largest call so far needed: the element buffer (`n · size_of::<T>()`
/// bytes, rounded up to 64) and the label buffer (n bytes). Slices that are
/// shuffled by Fisher–Yates alone (up to 64 MiB, 8 MiB for the parallel
/// shuffle) need neither and leave the scratch as it is. The buffers hold no
/// live element between calls — only stale bitwise copies of the last
/// large slice shuffled, never read or dropped as elements, and overwritten
/// by the next call (they are not zeroized: do not rely on a `Scratch` to
/// forget secret data).
///
/// **When it lets go** (the memory-pressure rule): never on its own with
/// [`Scratch::new`]; with [`Scratch::with_limit`], at the end of any call
/// that left it holding more than the limit; always on [`Scratch::release`],
/// [`Scratch::shrink_to`] below what it holds, and drop. A caller that shuffles
/// large slices in a loop keeps one `Scratch` for the loop; one that
/// shuffles a large slice now and then uses [`shuffle`](super::shuffle) or a
/// limit.
///
/// Element types aligned to more than 64 bytes do not fit the kept buffer:
/// for them each call allocates and frees its own, as `shuffle` does.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck::shuffle::{Scratch, Shuffle, shuffle};
///
/// let dice = || RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("doc")));
/// let mut scratch = Scratch::new();
/// let mut a: Vec<u32> = (0..20_000_000).collect(); // 80 MB: scattered
/// let mut b = a.clone();
/// Shuffle::new().scratch(&mut scratch).run(&mut a, &mut dice());
/// shuffle(&mut b, &mut dice());
/// assert_eq!(a, b); // the same order as `shuffle`
/// assert!(scratch.held_bytes() >= 20_000_000 * 5); // kept for the next call
/// scratch.release();
/// assert_eq!(scratch.held_bytes(), 0);
/// ```
#[derive(Default)]
pub struct Scratch {
    /// Never holds initialised `Chunk`s: only its spare capacity is used,
    /// viewed as `MaybeUninit<T>` (see [`Scratch::buffers`]).
    elements: Vec<Chunk>,
    /// Labels: every one is written before it is read in each call, so
    /// the bytes left by an earlier call are never zeroed again.
    labels: Vec<u8>,
    /// Bytes kept between calls at most (`usize::MAX`: no limit).
    limit: usize,
}

impl Scratch {
    /// An empty scratch that keeps whatever its calls needed until it is
    /// released or dropped. Allocates nothing until a call needs it.
    pub const fn new() -> Self {
        Scratch {
            elements: Vec::new(),
            labels: Vec::new(),
            limit: usize::MAX,
        }
    }

    /// An empty scratch that keeps at most `bytes` between calls: a call
    /// that needs more uses its buffers and frees them at its end.
    ///
    /// ```
    /// use fairdeck::dice::RngDice;
    /// use fairdeck::rng::{Generator, Seed};
    /// use fairdeck::shuffle::{Scratch, Shuffle};
    ///
    /// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("doc")));
    /// let mut scratch = Scratch::with_limit(64 << 20);
    /// let mut v: Vec<u32> = (0..20_000_000).collect(); // needs 100 MB
    /// Shuffle::new().scratch(&mut scratch).run(&mut v, &mut dice);
    /// assert_eq!(scratch.held_bytes(), 0); // over the limit: let go
    /// ```
    pub const fn with_limit(bytes: usize) -> Self {
        Scratch {
            elements: Vec::new(),
            labels: Vec::new(),
            limit: bytes,
        }
    }

    /// The bytes of memory it holds now (both buffers' capacity).
    pub fn held_bytes(&self) -> usize {
        self.elements.capacity() * size_of::<Chunk>() + self.labels.capacity()
    }

    /// Frees both buffers now; the next call that needs them allocates anew.
    pub fn release(&mut self) {
        *self = Scratch::with_limit(self.limit);
    }

    /// Frees both buffers if together they hold more than `bytes`.
    pub fn shrink_to(&mut self, bytes: usize) {
        if self.held_bytes() > bytes {
            self.release();
        }
    }

    /// Applies the limit at the end of a call.
    pub(super) fn end_call(&mut self) {
        self.shrink_to(self.limit);
    }

    /// `n` label bytes and room for `n` elements of `T`, grown as needed
    /// (the fresh parts advised onto huge pages). Element types aligned to
    /// more than 64 bytes get their room in `fallback`, which the caller
    /// owns for the duration of the call.
    pub(super) fn buffers<'a, T>(
        &'a mut self,
        n: usize,
        fallback: &'a mut Vec<T>,
    ) -> (&'a mut [u8], &'a mut [MaybeUninit<T>]) {
        if self.labels.len() < n {
            // Freed first, then allocated zeroed (fresh pages, no memset):
            // never both at once, and no copy of the old labels.
            self.labels = Vec::new();
            self.labels = vec![0u8; n];
            advise_huge_pages(&mut self.labels);
        }
        let labels = &mut self.labels[..n];
        if align_of::<T>() > ALIGN {
            *fallback = Vec::with_capacity(n);
            let room = &mut fallback.spare_capacity_mut()[..n];
            advise_huge_pages(room);
            return (labels, room);
        }
        (labels, element_room(&mut self.elements, n))
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("held_bytes", &self.held_bytes())
            .field("limit", &self.limit)
            .finish()
    }
}

/// Room for `n` elements of `T` (aligned to at most 64) in the spare
/// capacity of `chunks`, grown (never copied) as needed.
fn element_room<T>(chunks: &mut Vec<Chunk>, n: usize) -> &mut [MaybeUninit<T>] {
    assert!(align_of::<T>() <= ALIGN, "element_room: over-aligned type");
    // A slice of n `T`s exists, so `n · size_of::<T>()` does not overflow.
    let bytes = n * size_of::<T>();
    let needed = bytes.div_ceil(size_of::<Chunk>());
    if chunks.capacity() < needed {
        *chunks = Vec::new();
        *chunks = Vec::with_capacity(needed);
        advise_huge_pages(&mut chunks.spare_capacity_mut()[..needed]);
    }
    let room = &mut chunks.spare_capacity_mut()[..needed];
    let start = room.as_mut_ptr().cast::<MaybeUninit<T>>();
    // SAFETY: `room` is `needed · 64 ≥ n · size_of::<T>()` bytes of allocated
    // memory that we borrow mutably for the returned lifetime (the pointer
    // is derived from that borrow, so it may access all of it); it starts
    // 64-aligned, and `align_of::<T>() ≤ 64` (asserted), so every
    // `MaybeUninit<T>` in it is aligned; `MaybeUninit<T>` accepts any bytes,
    // initialised or not, so viewing them as such is valid. For zero-sized
    // `T` the pointer is non-null and aligned, as a slice of them needs.
    // The `Vec` never has initialised `Chunk`s (its length stays 0), so
    // nothing it owns is invalidated by what the shuffle writes here.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts_mut(start, n)
    }
}

#[cfg(test)]
mod tests;
