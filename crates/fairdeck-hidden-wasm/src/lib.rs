//! # fairdeck-hidden-wasm
//!
//! A browser seat of fair dealing version 3 (`docs/hidden-dealing.md` §16):
//! [`fairdeck_hidden`] behind a small JSON interface, compiled to
//! WebAssembly (`wasm32-unknown-unknown`) for the page's
//! `js/hidden/seat.js`. There is one implementation of the protocol: the
//! browser runs the same Rust code as `fairdeck hidden` and `fair verify`.
//!
//! A [`Seat`] holds a ChaCha20 generator and the seat's secret keys. Its
//! generator is keyed once by the page with 32 bytes of
//! `crypto.getRandomValues` ([`Seat::seed`]); the library stays free of OS
//! entropy. Secret keys stay inside the seat — the page only ever sees a
//! handle (`key`), a public key message, and, if it asks, the seat's own
//! key file (`key_export`, the format of `fairdeck hidden key`).
//!
//! Every operation is one JSON request with an `op` and answers one JSON
//! document: `{"ok": …}` or `{"error": "<one line>"}`. No input makes it
//! panic (in WebAssembly a panic would trap).
//!
//! ## Quick start
//!
//! ```
//! use fairdeck_hidden_wasm::Seat;
//! use serde_json::{Value, json};
//!
//! let mut seat = Seat::new();
//! seat.seed([9; 32]);
//! let call = |seat: &mut Seat, req: Value| -> Value {
//!     serde_json::from_slice(&seat.call(req.to_string().as_bytes())).unwrap()
//! };
//! let key = call(&mut seat, json!({"op": "key_new"}))["ok"]["key"].clone();
//! let transcript = r#"{"version":3,"manifest":{"version":3,"table":"doc","game":"holdem",
//!   "deck":"standard","seats":["ann","bob"],"first":1,"last":1},"keys":[],"hands":[]}"#;
//! let answer = call(&mut seat, json!({"op": "key_message", "key": key, "seat": 0,
//!                                      "transcript": transcript}));
//! assert_eq!(answer["ok"]["message"]["seat"], 0);
//! let bad = call(&mut seat, json!({"op": "shuffle", "key": 7, "transcript": "{}"}));
//! assert_eq!(bad["error"], "key: no key 7 in this seat");
//! ```
//!
//! ## Modules
//!
//! * [`Seat`] — the generator, the keys and the dispatcher (`seat`);
//! * `steps` — the seat's steps over a transcript, as `fairdeck hidden` runs them;
//! * `abi` — the raw `extern "C"` functions of the `.wasm` module (wasm32 only):
//!   `fd_alloc`, `fd_free`, `fd_seed`, `fd_call`.

#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod abi;
mod seat;
mod steps;

pub use seat::{MAX_REQUEST, Seat};
