//! Builds the browser seat (`crates/fairdeck-hidden-wasm`) for
//! `wasm32-unknown-unknown` with a nested cargo, so the page serves
//! `/js/hidden/seat.wasm` compiled from this very source tree.
//!
//! The nested build has its own target directory (`<target>/wasm-seat`,
//! shared by debug and release builds, so it compiles once) and an
//! environment cleaned of the outer build's cargo and rustc settings (its
//! flags, wrappers such as clippy-driver, and its profile). The workspace's
//! `rust-toolchain.toml` lists the wasm target, so rustup installs it; if
//! the target's standard library is still absent (a toolchain without
//! rustup), the binary is built without the seat and the page says what is
//! missing — unless `FAIRDECK_WASM=required` (set by `scripts/test`), which
//! makes that a build error. `FAIRDECK_WASM=skip` leaves the seat out.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

/// The target the seat is compiled for.
const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The URL the page loads the seat from.
pub const SEAT_URL: &str = "/js/hidden/seat.wasm";

/// The built seat module, or `None` (with a cargo warning) when it cannot
/// be built here and is not required.
pub fn build(workspace: &Path) -> Option<PathBuf> {
    watch(workspace);
    let mode = env::var("FAIRDECK_WASM").unwrap_or_default();
    if mode == "skip" {
        println!("cargo::warning=FAIRDECK_WASM=skip: the page is built without the browser seat");
        return None;
    }
    if !target_installed() {
        let missing = format!("the Rust standard library for {WASM_TARGET} is not installed");
        let fix = format!("install it with `rustup target add {WASM_TARGET}`");
        if mode == "required" {
            fail(&format!("{missing} (FAIRDECK_WASM=required); {fix}"), "");
        }
        println!("cargo::warning={missing}, so the page is built without the browser seat; {fix}");
        return None;
    }
    Some(compile(workspace))
}

/// Rebuild when the seat's sources, the protocol's, or the lock file change.
fn watch(workspace: &Path) {
    for path in [
        "crates/fairdeck-hidden-wasm",
        "crates/fairdeck-hidden/src",
        "crates/fairdeck-hidden/Cargo.toml",
        "crates/fairdeck/src",
        "crates/fairdeck/Cargo.toml",
        "Cargo.toml",
        "Cargo.lock",
        "rust-toolchain.toml",
    ] {
        println!("cargo::rerun-if-changed={}", workspace.join(path).display());
    }
    println!("cargo::rerun-if-env-changed=FAIRDECK_WASM");
}

/// Whether the compiler has the wasm target's standard library.
fn target_installed() -> bool {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", WASM_TARGET])
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        return false;
    };
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("libstd-"))
    })
}

/// The outer build's target directory: `OUT_DIR` is
/// `<target>[/<triple>]/<profile>/build/<package>-<hash>/out`.
fn target_dir() -> PathBuf {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let profile_parent = out.ancestors().nth(4).unwrap_or(&out).to_path_buf();
    let triple = env::var("TARGET").unwrap_or_default();
    match profile_parent.file_name() {
        Some(name) if name.to_string_lossy() == triple => {
            profile_parent.parent().unwrap_or(&out).to_path_buf()
        }
        _ => profile_parent,
    }
}

/// Runs the nested `cargo build --release` of the seat; returns the module.
fn compile(workspace: &Path) -> PathBuf {
    let target_dir = target_dir().join("wasm-seat");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace)
        .args([
            "build",
            "--release",
            "--locked",
            "-p",
            "fairdeck-hidden-wasm",
        ])
        .args(["--target", WASM_TARGET, "--target-dir"])
        .arg(&target_dir);
    for (key, _) in env::vars_os() {
        let key = key.to_string_lossy();
        let cargo_setting = key.starts_with("CARGO_")
            && !matches!(key.as_ref(), "CARGO_HOME" | "CARGO_MAKEFLAGS")
            && !key.starts_with("CARGO_NET_")
            && !key.starts_with("CARGO_HTTP_")
            && !key.starts_with("CARGO_REGISTRIES_");
        let rustc_setting = matches!(
            key.as_ref(),
            "RUSTFLAGS" | "RUSTDOCFLAGS" | "RUSTC_WRAPPER" | "RUSTC_WORKSPACE_WRAPPER"
        );
        if cargo_setting || rustc_setting {
            cmd.env_remove(key.as_ref());
        }
    }
    let out = match cmd.output() {
        Ok(out) => out,
        Err(e) => fail(&format!("cannot run cargo: {e}"), ""),
    };
    if !out.status.success() {
        fail(
            "the nested `cargo build -p fairdeck-hidden-wasm --target wasm32-unknown-unknown` failed",
            &String::from_utf8_lossy(&out.stderr),
        );
    }
    let wasm = target_dir
        .join(WASM_TARGET)
        .join("release/fairdeck_hidden_wasm.wasm");
    if !wasm.is_file() {
        fail(&format!("the build wrote no {}", wasm.display()), "");
    }
    wasm
}

/// Stops the build with one line saying what failed (and the nested
/// cargo's own output below it, when there is one).
fn fail(why: &str, detail: &str) -> ! {
    eprintln!("error: fairdeck-pages: browser seat: {why}");
    if !detail.is_empty() {
        eprintln!("{detail}");
    }
    std::process::exit(1);
}
