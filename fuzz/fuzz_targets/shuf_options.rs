//! The GNU shuf option parser (`fairdeck shuf ARGS`, numbers of `-n`, `-i
//! LO-HI`, `--memory`, `--random-source` …): arguments are the input split
//! at NUL bytes; never a panic, whatever the bytes (not even UTF-8).
#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use fairdeck_shuf::options::{Syntax, parse};
use fairdeck_shuf::quote::Quotes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let args: Vec<OsString> = rest
        .split(|&b| b == 0)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect();
    let syntax = Syntax {
        posixly_correct: flags & 1 == 1,
        quotes: Quotes::default(),
    };
    if let Err(e) = parse(&args, &syntax) {
        // Every error has a message to print.
        assert!(!e.to_string().is_empty());
    }
    let _ = syntax.quotes.quote(rest);
});
