//! # fairdeck-pages
//!
//! The files fairdeck's servers send to a browser, compiled into the binary
//! (nothing is read from disk or fetched from the network at run time):
//! every page, script, style sheet and picture under
//! `crates/fairdeck-web/web/` (but not its tests), and the browser seat —
//! `fairdeck-hidden` compiled to WebAssembly — at `/js/hidden/seat.wasm`.
//! `build.rs` lists them; a new file under `web/` is served without editing
//! a list.
//!
//! The crate holds files, not routes: the page of `fairdeck serve`
//! (`fairdeck-web`) and the table service (`fairdeck-table`) each decide
//! which of them they serve.
//!
//! ```
//! let page = fairdeck_pages::find("/index.html").expect("the page is embedded");
//! assert!(!page.is_empty());
//! assert_eq!(fairdeck_pages::content_type("/index.html"), "text/html; charset=utf-8");
//! assert!(fairdeck_pages::find("/no-such-file.js").is_none());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The bytes of the file served at `path` (a URL path such as
/// `/js/cards.js`), or `None` when no file is served there.
///
/// O(n) in the number of files (a few dozen).
pub fn find(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(url, _)| *url == path).map(|(_, b)| *b)
}

/// The `Content-Type` of the file served at `path`, by its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}
