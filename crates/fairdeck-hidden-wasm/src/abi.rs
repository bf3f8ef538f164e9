//! The raw functions the `.wasm` module exports (wasm32 only). The page
//! (`js/hidden/seat.js`) writes a request into memory it got from
//! `fd_alloc`, calls `fd_call`, reads the answer and frees both.
//!
//! ```text
//! fd_alloc(len) -> ptr            len bytes, owned by the caller until fd_free
//! fd_free(ptr, len)               wipes the bytes, then frees them
//! fd_seed(ptr)                    keys the seat's generator with the 32 bytes at ptr
//! fd_call(ptr, len) -> answer     answer: u32 little-endian length L, then L bytes of JSON;
//!                                 free it with fd_free(answer, 4 + L)
//! ```
//!
//! Every block is allocated with alignment 1 and the exact length the
//! caller passes back, which is what makes `fd_free` sound: the caller
//! must pass the pointer and length `fd_alloc` or `fd_call` gave it.
//! A length 0 is never allocated (a dangling pointer is returned and
//! `fd_free` ignores it). If the memory cannot grow, the module traps
//! (`alloc` aborts); the page then loads a fresh module.

#![allow(unsafe_code)]

use std::alloc::{Layout, alloc, dealloc};
use std::sync::Mutex;

use zeroize::Zeroize;

use crate::Seat;

/// The page's one seat. Wasm has no threads here, so the lock is never
/// contended; it only makes the global safe.
static SEAT: Mutex<Option<Seat>> = Mutex::new(None);

fn with_seat<T>(f: impl FnOnce(&mut Seat) -> T) -> T {
    let mut guard = SEAT.lock().unwrap_or_else(|p| p.into_inner());
    f(guard.get_or_insert_with(Seat::new))
}

fn layout(len: usize) -> Option<Layout> {
    Layout::from_size_align(len, 1).ok().filter(|_| len > 0)
}

/// Allocates `len` bytes for the caller (a request, a seed).
#[unsafe(no_mangle)]
pub extern "C" fn fd_alloc(len: usize) -> *mut u8 {
    match layout(len) {
        Some(l) => {
            // SAFETY: the layout has a non-zero size.
            let ptr = unsafe { alloc(l) };
            if ptr.is_null() {
                std::alloc::handle_alloc_error(l);
            }
            ptr
        }
        None => core::ptr::NonNull::dangling().as_ptr(),
    }
}

/// Wipes and frees `len` bytes at `ptr`, a block of `fd_alloc` or `fd_call`.
///
/// # Safety
///
/// `ptr` and `len` must be exactly those of one live block.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fd_free(ptr: *mut u8, len: usize) {
    if let Some(l) = layout(len) {
        // SAFETY: by the contract, ptr is a live block of len bytes with
        // alignment 1, allocated by `alloc` with this layout.
        unsafe {
            core::slice::from_raw_parts_mut(ptr, len).zeroize();
            dealloc(ptr, l);
        }
    }
}

/// Keys the seat's generator with the 32 bytes at `ptr`.
///
/// # Safety
///
/// `ptr` must point to 32 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fd_seed(ptr: *const u8) {
    let mut seed = [0u8; 32];
    // SAFETY: by the contract, 32 bytes at ptr are readable.
    seed.copy_from_slice(unsafe { core::slice::from_raw_parts(ptr, 32) });
    with_seat(|s| s.seed(seed));
    seed.zeroize();
}

/// Runs the request of `len` bytes at `ptr`; returns the answer block.
///
/// # Safety
///
/// `ptr` must point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fd_call(ptr: *const u8, len: usize) -> *mut u8 {
    let request: &[u8] = match len {
        0 => &[],
        // SAFETY: by the contract, len bytes at ptr are readable.
        _ => unsafe { core::slice::from_raw_parts(ptr, len) },
    };
    let mut answer = with_seat(|s| s.call(request));
    let total = answer.len() + 4;
    let out = fd_alloc(total);
    // SAFETY: out is a fresh block of `total` bytes (total > 0).
    unsafe {
        let block = core::slice::from_raw_parts_mut(out, total);
        block[..4].copy_from_slice(&(answer.len() as u32).to_le_bytes());
        block[4..].copy_from_slice(&answer);
    }
    // The answer may be an exported key file.
    answer.zeroize();
    out
}
