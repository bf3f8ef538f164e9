//! What runs killed by SIGKILL (or a power cut) leave behind, and when a
//! later run may remove it.
//!
//! Every leftover carries the id of the process that made it, and only
//! leftovers of processes that no longer run are touched (checked in
//! `/proc`; without `/proc` nothing is touched):
//!
//! * `fairdeck-shuf.PID.XXXXXX` under the temporary directory (buckets):
//!   removed — they are never the only copy of anything, the input is never
//!   written before they are gone;
//! * `.fairdeck-shuf.PID.XXXXXX` next to an output file (a partial or
//!   finished output that was never put in place): removed — the output file
//!   itself was not touched yet;
//! * `.fairdeck-shuf-kept.PID.INODE.XXXXXX` next to an output file: the
//!   complete output of a run killed while copying it into a file with other
//!   hard links (or another owner), whose contents may therefore be partly
//!   written. It is removed only when a file of that inode in the same
//!   directory holds exactly its bytes (the copy had finished); otherwise it
//!   is kept. A run on that file (its input or its output) is refused
//!   ([`refuse_torn`]) until the copy is put back (`cat KEPT > FILE && rm
//!   KEPT`, which keeps the file's other hard links) or discarded (`rm
//!   KEPT`); a run that only shares the directory gets a [`Warnings`] line
//!   naming it with the same way to recover.
//!
//! The sweep runs at the start of every run: of the temporary directory when
//! the run reads lines (a file or standard input), and of the directory of
//! `FILE` when the run has `-o FILE` (see [`crate::run`]).

use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::Error;
use crate::quote::Quotes;

/// The name every temporary bucket directory starts with (then `PID.`).
pub const DIR_PREFIX: &str = "fairdeck-shuf.";

/// The name unfinished outputs start with (then `PID.`).
pub const OUTPUT_PREFIX: &str = ".fairdeck-shuf.";

/// The name complete outputs being copied into their file start with
/// (then `PID.INODE.`).
pub const KEPT_PREFIX: &str = ".fairdeck-shuf-kept.";

/// Messages for the user that do not stop the run (kept copies of
/// interrupted outputs), collected for the caller to print.
#[derive(Debug, Clone, Default)]
pub struct Warnings(Arc<Mutex<Vec<String>>>);

impl Warnings {
    /// Takes the warnings collected so far, oldest first.
    ///
    /// ```
    /// let warnings = fairdeck_shuf::leftover::Warnings::default();
    /// assert!(warnings.take().is_empty());
    /// ```
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub(crate) fn push(&self, text: String) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(text);
    }
}

/// Sweeps the directory an output file `path` is (or will be) in, as
/// [`sweep_outputs`] does: the directory of the file a symlink points to,
/// the directory named in `path` for a file that does not exist yet.
pub fn sweep_for_output(path: &Path, quotes: Quotes, warnings: &Warnings) {
    let dir = match fs::canonicalize(path) {
        Ok(real) => real.parent().map(Path::to_path_buf),
        Err(_) => {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            fs::canonicalize(parent.unwrap_or(Path::new("."))).ok()
        }
    };
    if let Some(dir) = dir.filter(|d| d.is_dir()) {
        sweep_outputs(&dir, quotes, warnings);
    }
}

/// Refuses a run on `file` (its input or output) while a run killed
/// copying its output into `file` left the complete output kept beside it
/// and `file` does not hold exactly those bytes: `file` may be torn, and a
/// run on it would shuffle (or overwrite) a part as if it were the whole.
/// A kept copy whose bytes `file` holds is not in the way (the sweep
/// removes it). Nothing is written.
///
/// O(entries of the directory of `file`), plus reading a kept copy of it.
///
/// # Errors
///
/// [`Error::Invalid`] naming the kept copy, how to restore `file` from it,
/// and how to discard it.
pub fn refuse_torn(file: &Path, quotes: Quotes) -> Result<(), Error> {
    let Ok(meta) = fs::metadata(file) else {
        return Ok(()); // not made yet: nothing of it can be torn
    };
    let real = fs::canonicalize(file).ok();
    let dir = real.as_deref().and_then(Path::parent);
    let (Some(real), Some(dir)) = (real.as_deref(), dir.filter(|_| meta.is_file())) else {
        return Ok(());
    };
    // `shuf < F` reads `/dev/stdin`: the message names F.
    let shown = if file.starts_with("/dev") { real } else { file };
    for (kept, pid, tail) in dead(dir, KEPT_PREFIX) {
        let inode = tail.split('.').next().and_then(|i| i.parse::<u64>().ok());
        let same_file =
            fs::metadata(&kept).is_ok_and(|k| inode == Some(meta.ino()) && k.dev() == meta.dev());
        if same_file && !same_bytes(&kept, file).unwrap_or(false) {
            return Err(Error::Invalid(torn_message(shown, &kept, pid, quotes)));
        }
    }
    Ok(())
}

fn torn_message(file: &Path, kept: &Path, pid: u32, quotes: Quotes) -> String {
    let f = quotes.name(file.as_os_str().as_encoded_bytes());
    let k = quotes.name(kept.as_os_str().as_encoded_bytes());
    format!(
        "{f}: may be incomplete: process {pid} was killed while copying its complete output into it, kept in {k}; not run on it until that copy is restored (cat {k} > {f} && rm {k}, which keeps {f}'s other hard links) or discarded (rm {k})"
    )
}

/// Removes the bucket directories of dead runs from the temporary directory `dir`.
///
/// O(entries of `dir`). Errors are ignored: this is housekeeping.
pub fn sweep_scratch(dir: &Path) {
    for (path, _, _) in dead(dir, DIR_PREFIX) {
        let _ = fs::remove_dir_all(&path).or_else(|_| fs::remove_file(&path));
    }
}

/// Sweeps the directory `dir` of an output file: removes the unfinished
/// outputs of dead runs, and the kept complete outputs whose copy had
/// finished; warns about the others, which are kept.
///
/// O(entries of `dir`), plus reading a kept file and its target.
pub fn sweep_outputs(dir: &Path, quotes: Quotes, warnings: &Warnings) {
    for (path, _, _) in dead(dir, OUTPUT_PREFIX) {
        if path.is_file() {
            let _ = fs::remove_file(&path);
        }
    }
    for (path, pid, tail) in dead(dir, KEPT_PREFIX) {
        let Some(inode) = tail.split('.').next().and_then(|i| i.parse::<u64>().ok()) else {
            continue;
        };
        match copy_of(dir, &path, inode) {
            Some((_, true)) => {
                let _ = fs::remove_file(&path);
            }
            target => warnings.push(kept_message(&path, pid, target.map(|t| t.0), quotes)),
        }
    }
}

fn kept_message(kept: &Path, pid: u32, target: Option<PathBuf>, quotes: Quotes) -> String {
    let k = quotes.name(kept.as_os_str().as_encoded_bytes());
    match target {
        Some(t) => {
            let t = quotes.name(t.as_os_str().as_encoded_bytes());
            format!(
                "warning: {k} holds the complete output of process {pid}, killed while copying it into {t}, which may be incomplete; to restore it: cat {k} > {t} && rm {k}"
            )
        }
        None => format!(
            "warning: {k} holds the complete output of process {pid}, killed while copying it into a file no longer in this directory; keep it or remove it"
        ),
    }
}

/// The file of `dir` with inode `inode` (on the device of `kept`), and
/// whether its bytes are exactly those of `kept`.
fn copy_of(dir: &Path, kept: &Path, inode: u64) -> Option<(PathBuf, bool)> {
    let dev = fs::metadata(kept).ok()?.dev();
    let target = fs::read_dir(dir).ok()?.flatten().find_map(|e| {
        let m = e.metadata().ok()?;
        (m.is_file() && m.ino() == inode && m.dev() == dev).then(|| e.path())
    })?;
    let same = same_bytes(kept, &target).unwrap_or(false);
    Some((target, same))
}

/// Whether two files hold the same bytes. O(size).
fn same_bytes(a: &Path, b: &Path) -> io::Result<bool> {
    let (fa, fb) = (File::open(a)?, File::open(b)?);
    if fa.metadata()?.len() != fb.metadata()?.len() {
        return Ok(false);
    }
    let (mut ra, mut rb) = (BufReader::new(fa), BufReader::new(fb));
    let (mut x, mut y) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = read_full(&mut ra, &mut x)?;
        let m = read_full(&mut rb, &mut y)?;
        if n != m || x[..n] != y[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

/// The entries of `dir` named `PREFIX PID . rest` whose process `PID` no
/// longer runs, with the id and `rest`. A process id reused by an unrelated
/// live process keeps its entries until that process ends; directories
/// shared between machines (NFS) may hold another machine's live run: point
/// each machine at its own.
fn dead(dir: &Path, prefix: &str) -> Vec<(PathBuf, u32, String)> {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return Vec::new();
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (pid, tail) = pid_of(&name, prefix)?;
            let gone = pid != std::process::id() && !proc_root.join(pid.to_string()).exists();
            gone.then(|| (entry.path(), pid, tail.to_string()))
        })
        .collect()
}

/// The process id and the rest in `PREFIX PID . rest`, if `name` has that shape.
fn pid_of<'a>(name: &'a str, prefix: &str) -> Option<(u32, &'a str)> {
    let rest = name.strip_prefix(prefix)?;
    let (pid, tail) = rest.split_once('.')?;
    let all_digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    if !all_digits || tail.is_empty() {
        return None;
    }
    Some((pid.parse().ok()?, tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_process_id() {
        assert_eq!(
            pid_of("fairdeck-shuf.123.AbC", DIR_PREFIX),
            Some((123, "AbC"))
        );
        assert_eq!(pid_of("fairdeck-shuf.AbC", DIR_PREFIX), None);
        assert_eq!(pid_of("fairdeck-shuf.12.", DIR_PREFIX), None);
        assert_eq!(pid_of("other.12.x", DIR_PREFIX), None);
        // The kept copies are not unfinished outputs.
        assert_eq!(pid_of(".fairdeck-shuf-kept.5.77.x", OUTPUT_PREFIX), None);
        assert_eq!(
            pid_of(".fairdeck-shuf-kept.5.77.x", KEPT_PREFIX),
            Some((5, "77.x"))
        );
    }

    #[test]
    fn leftovers_of_dead_processes_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // Process ids above the kernel's maximum (2^22) never run.
        let dead = dir.path().join("fairdeck-shuf.99999999.x1");
        let live = dir
            .path()
            .join(format!("fairdeck-shuf.{}.x2", std::process::id()));
        let other = dir.path().join("unrelated.99999999.x");
        for d in [&dead, &live, &other] {
            fs::create_dir(d).unwrap();
        }
        fs::write(dead.join("bucket-1"), b"x").unwrap();
        sweep_scratch(dir.path());
        assert!(!dead.exists() && live.exists() && other.exists());
    }

    #[test]
    fn a_file_with_a_differing_kept_copy_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (target, other) = (dir.path().join("data"), dir.path().join("other"));
        fs::write(&target, b"a\n").unwrap();
        fs::write(&other, b"a\n").unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        let kept = dir.path().join(format!("{KEPT_PREFIX}99999999.{inode}.Xy"));
        fs::write(&kept, b"b\na\n").unwrap();
        let said = refuse_torn(&target, Quotes::Ascii).unwrap_err().to_string();
        let k = kept.display();
        let t = target.display();
        assert!(
            said.starts_with(&format!("{t}: may be incomplete: process 99999999 "))
                && said.contains(&format!("(cat {k} > {t} && rm {k}, "))
                && said.ends_with(&format!("discarded (rm {k})")),
            "{said}"
        );
        assert_eq!(fs::read(&kept).unwrap(), b"b\na\n");
        // Another file of the directory, a missing file: not in the way.
        refuse_torn(&other, Quotes::Ascii).unwrap();
        refuse_torn(&dir.path().join("new"), Quotes::Ascii).unwrap();
        // Its copy finished (the file holds the kept bytes): not in the way.
        fs::write(&target, b"b\na\n").unwrap();
        refuse_torn(&target, Quotes::Ascii).unwrap();
        // A live process's copy (this one's) is still being written: not
        // a leftover.
        fs::write(&target, b"a\n").unwrap();
        let live = dir
            .path()
            .join(format!("{KEPT_PREFIX}{}.{inode}.Zz", std::process::id()));
        fs::rename(&kept, &live).unwrap();
        refuse_torn(&target, Quotes::Ascii).unwrap();
    }

    #[test]
    fn a_kept_copy_goes_only_once_its_file_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("data");
        fs::write(&target, b"a\nb\n").unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        let kept = dir.path().join(format!("{KEPT_PREFIX}99999999.{inode}.Xy"));
        fs::write(&kept, b"b\na\n").unwrap();
        let warnings = Warnings::default();
        sweep_outputs(dir.path(), Quotes::Ascii, &warnings);
        assert!(kept.exists(), "the only complete copy was removed");
        let said = warnings.take();
        assert_eq!(said.len(), 1);
        assert!(
            said[0].contains("cat ") && said[0].contains("/data"),
            "{said:?}"
        );
        fs::write(&target, b"b\na\n").unwrap();
        sweep_outputs(dir.path(), Quotes::Ascii, &warnings);
        assert!(!kept.exists());
        assert!(warnings.take().is_empty());
    }
}
