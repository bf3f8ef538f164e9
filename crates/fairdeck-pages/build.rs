//! Embeds the web pages: lists every file of `crates/fairdeck-web/web/`
//! (but not its tests or `node_modules`) as `include_bytes!` in
//! `$OUT_DIR/assets.rs`, so the servers need no files at run time and a new
//! page module is served without editing a list. It also builds the browser
//! seat — the protocol crate compiled to WebAssembly — and embeds it at
//! `/js/hidden/seat.wasm` (see `build/seat_wasm.rs`).
//!
//! The files stay beside the page's crate, where their node tests
//! (`web/test`, `web/e2e`) and the scripts that run them expect them.

use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "build/seat_wasm.rs"]
mod seat_wasm;

/// Folders of `web/` that are not served.
const SKIP: [&str; 3] = ["e2e", "test", "node_modules"];
/// Extensions that are served.
const SERVED: [&str; 6] = ["html", "css", "js", "svg", "png", "ico"];

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let workspace = fs::canonicalize(manifest.join("../..")).expect("the workspace exists");
    let root = workspace.join("crates/fairdeck-web/web");
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    if let Some(wasm) = seat_wasm::build(&workspace) {
        files.push((seat_wasm::SEAT_URL.to_string(), wasm));
    }
    files.sort();
    let mut out = String::from("/// Every served file: its URL path and its bytes.\n");
    out.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (url, path) in &files {
        out.push_str(&format!(
            "    ({url:?}, include_bytes!({:?})),\n",
            path.display()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    if dir != root {
        // A folder is watched whole (new files too); the root is not, as it
        // holds the browser tests' node_modules.
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP.contains(&name.as_str()) {
                collect(root, &path, files);
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SERVED.contains(&e))
        {
            println!("cargo::rerun-if-changed={}", path.display());
            let rel = path.strip_prefix(root).expect("under root");
            let url = format!("/{}", rel.to_string_lossy().replace('\\', "/"));
            files.push((url, path));
        }
    }
}
