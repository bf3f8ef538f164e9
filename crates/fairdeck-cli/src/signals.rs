//! The signals that stop `shuf` and the `hidden` steps that write a
//! transcript, handled as GNU's `shuf` would: a signal the caller ignored
//! (`nohup`, a background job of a non-interactive shell, `trap '' PIPE`)
//! stays ignored. Either way the run's temporary files, listed in its
//! [`Cancel`], are removed.
//!
//! (What SIGPIPE was at start is recorded in [`crate::failure`], for every
//! subcommand.)

use std::time::Duration;

use fairdeck_shuf::Cancel;

/// Whether `signal` is ignored now.
#[allow(unsafe_code)]
fn is_ignored(signal: libc::c_int) -> bool {
    // SAFETY: `sigaction` with a null new action only reads the current
    // disposition into a zeroed struct we own; async-signal-safe, so it may
    // run before `main`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// The signals that stop a run.
const STOPPING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Ctrl-C, SIGTERM and SIGHUP — those not ignored at start — raise the
/// run's cancellation flag; the run stops at its next check, removes its
/// temporary files and the caller exits 130. A run blocked in a read that
/// never returns (a pipe whose writer stays open) is abandoned after a grace
/// period: its temporary files are removed and the process exits 130 —
/// unless the output was already put in place, in which case the run is
/// left to finish (exit 0).
pub fn watch(cancel: &Cancel) {
    const GRACE: Duration = Duration::from_millis(1500);
    let ignored: Vec<libc::c_int> = STOPPING.into_iter().filter(|&s| is_ignored(s)).collect();
    if ignored.len() == STOPPING.len() {
        return;
    }
    let cancel = cancel.clone();
    // The handler covers all three signals; the ignored ones are blocked
    // meanwhile and ignored again before they are unblocked, so none of
    // them is ever caught.
    let mask = block(&ignored);
    // If no handler can be installed, an interrupt kills the process as
    // usual; a later run removes what it left (see fairdeck_shuf::leftover).
    let _ = ctrlc::set_handler(move || {
        cancel.raise();
        std::thread::sleep(GRACE);
        if cancel.abandon() {
            std::process::exit(130);
        }
    });
    ignore_and_restore(&ignored, mask);
}

/// Blocks `signals` in this thread; returns the previous mask.
#[allow(unsafe_code)]
fn block(signals: &[libc::c_int]) -> libc::sigset_t {
    // SAFETY: the sets are zeroed structs we own, initialised by
    // `sigemptyset` before use; `pthread_sigmask` only changes this
    // thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for &s in signals {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        old
    }
}

/// Sets `signals` back to "ignore" (discarding any that arrived while
/// blocked) and restores the thread's signal mask.
#[allow(unsafe_code)]
fn ignore_and_restore(signals: &[libc::c_int], mask: libc::sigset_t) {
    // SAFETY: `signal` with SIG_IGN and `pthread_sigmask` with a mask we
    // saved take plain values; no Rust state is involved.
    unsafe {
        for &s in signals {
            libc::signal(s, libc::SIG_IGN);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &mask, std::ptr::null_mut());
    }
}
