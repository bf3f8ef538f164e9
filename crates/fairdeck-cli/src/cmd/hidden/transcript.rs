//! The transcript file of the offline steps, written so that no step that
//! exits 0 loses a message and no step leaves anything half done:
//!
//! * A step that writes holds an exclusive lock (`flock`) on the sidecar
//!   `FILE.lock` from its read of the transcript, through its checks, to the
//!   rename of the new transcript into place. Steps run at once on one
//!   transcript (three seats' shares) thus take turns, each adding to what
//!   the one before wrote. The lock file is made once and never removed
//!   (removing it would let two steps lock two different files); the
//!   kernel releases the lock of a step that dies, even by SIGKILL.
//! * The new transcript is a temporary sibling `.NAME.XXXXXX.tmp`, created
//!   exclusively (`O_EXCL`: a file or symlink planted there is never written
//!   through), synced and renamed over the transcript. It is removed on an
//!   error (a full disk) and, through the run's [`Cancel`], on Ctrl-C,
//!   SIGTERM or SIGHUP ([`crate::signals`]).
//! * A symlinked transcript is written through: the link is resolved, its
//!   target replaced (the lock is the target's), the link kept.
//! * `-` (standard input) is refused: a step writes its transcript back.
//! * `hidden new` never replaces a file: its finished sibling takes the
//!   name only if nothing has it (not even a dangling symlink).

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use fairdeck_hidden::record::{MAX_BYTES, Record};
use fairdeck_shuf::Cancel;
use tempfile::NamedTempFile;

use crate::failure::usage;

/// A transcript locked for a step: read it, then write it back.
pub(super) struct Locked<'c> {
    /// The name the user gave (for messages).
    shown: PathBuf,
    /// The file itself (symlinks resolved).
    target: PathBuf,
    cancel: &'c Cancel,
    /// Held until the step ends; closing it releases the lock.
    _lock: File,
}

/// `--transcript -` for a step that writes: a usage error.
fn refuse_stdin(path: &Path) -> anyhow::Result<()> {
    match path.as_os_str() == "-" {
        true => Err(usage(
            "--transcript -: this step writes the transcript back: give a file name",
        )),
        false => Ok(()),
    }
}

/// Resolves `path` and waits for the exclusive lock on its `.lock` file.
///
/// # Errors
///
/// `-` (usage); a transcript that cannot be read; a lock file that cannot be
/// opened (never through a symlink) or locked.
pub(super) fn lock<'c>(path: &Path, cancel: &'c Cancel) -> anyhow::Result<Locked<'c>> {
    refuse_stdin(path)?;
    let target =
        std::fs::canonicalize(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let lock_path = target.with_file_name(name);
    let cannot = || format!("cannot lock {}", lock_path.display());
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o666)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&lock_path)
        .with_context(cannot)?;
    lock.lock().with_context(cannot)?;
    Ok(Locked {
        shown: path.to_path_buf(),
        target,
        cancel,
        _lock: lock,
    })
}

impl Locked<'_> {
    /// Reads the transcript strictly.
    pub(super) fn read(&self) -> anyhow::Result<Record> {
        let mut text = String::new();
        File::open(&self.target)
            .and_then(|f| f.take(MAX_BYTES as u64 + 1).read_to_string(&mut text))
            .with_context(|| format!("cannot read {}", self.shown.display()))?;
        Record::from_json(&text).map_err(|e| usage(format!("{}: {e}", self.shown.display())))
    }

    /// Replaces the transcript with `record` (keeping its permissions).
    pub(super) fn write(&self, record: &Record) -> anyhow::Result<()> {
        let cannot = || format!("cannot write {}", self.shown.display());
        let dir = self.target.parent().unwrap_or(Path::new("/"));
        let temp = sibling(dir, &self.target, self.cancel).with_context(cannot)?;
        if let Ok(meta) = std::fs::metadata(&self.target) {
            let mode = Permissions::from_mode(meta.permissions().mode() & 0o7777);
            let set = temp.as_file().set_permissions(mode);
            set.with_context(cannot)
                .inspect_err(|_| self.cancel.forget(temp.path()))?;
        }
        put_in_place(temp, record, self.cancel, |t| {
            t.persist(&self.target).map(drop).map_err(|e| e.error)
        })
        .with_context(cannot)
    }
}

/// `hidden new`: writes `record` to `path`, which must not exist.
///
/// # Errors
///
/// `-` (usage); `path` exists ("exists"), even as a dangling symlink;
/// the file cannot be written.
pub(super) fn create(path: &Path, record: &Record, cancel: &Cancel) -> anyhow::Result<()> {
    refuse_stdin(path)?;
    let cannot = || format!("cannot write {}", path.display());
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = parent.unwrap_or(Path::new("."));
    let temp = sibling(dir, path, cancel).with_context(cannot)?;
    let placed = put_in_place(temp, record, cancel, |t| {
        t.persist_noclobber(path).map(drop).map_err(|e| e.error)
    });
    match placed {
        Err(e) if is_exists(&e) => Err(anyhow::anyhow!(
            "{} exists: a new table needs a new transcript",
            path.display()
        )),
        other => other.with_context(cannot),
    }
}

fn is_exists(e: &anyhow::Error) -> bool {
    e.downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::AlreadyExists)
}

/// A new temporary file beside `target` in `dir` (mode 0666 less the
/// umask), created exclusively and listed in `cancel`.
fn sibling(dir: &Path, target: &Path, cancel: &Cancel) -> anyhow::Result<NamedTempFile> {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    cancel.create(
        || {
            tempfile::Builder::new()
                .prefix(&prefix)
                .suffix(".tmp")
                .permissions(Permissions::from_mode(0o666))
                .tempfile_in(dir)
                .map_err(anyhow::Error::from)
        },
        |t| t.path().to_path_buf(),
    )
}

/// Writes `record` to `temp`, syncs it and puts it in place with `place`
/// unless the run was interrupted; `temp` is removed whenever it is not
/// placed.
fn put_in_place(
    mut temp: NamedTempFile,
    record: &Record,
    cancel: &Cancel,
    place: impl FnOnce(NamedTempFile) -> io::Result<()>,
) -> anyhow::Result<()> {
    let path = temp.path().to_path_buf();
    let fill = |file: &mut File| -> io::Result<()> {
        file.write_all(record.to_json().as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()
    };
    let result = fill(temp.as_file_mut())
        .map_err(anyhow::Error::from)
        .and_then(|()| cancel.commit(&path, || place(temp).map_err(anyhow::Error::from)));
    if result.is_err() {
        cancel.forget(&path);
    }
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all(); // makes the rename durable (best effort)
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeck_fair::Manifest;

    fn record() -> Record {
        Record::signed(
            Manifest {
                version: fairdeck_hidden::VERSION,
                table: "files".into(),
                game: "holdem".into(),
                deck: "standard".into(),
                seats: vec!["ann".into(), "bob".into()],
                first: 1,
                last: 1,
            },
            None,
        )
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut all: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        all.sort();
        all
    }

    /// Issue 51, item 3: the step used to write `t.tmp-PID` with
    /// `File::create`, which follows a symlink planted there, and then
    /// renamed the link over the transcript.
    #[test]
    fn a_symlink_planted_beside_the_transcript_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t.json");
        std::fs::write(&t, "old\n").unwrap();
        let victim = dir.path().join("victim");
        let planted = dir.path().join(format!("t.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let cancel = Cancel::default();
        lock(&t, &cancel).unwrap().write(&record()).unwrap();
        assert!(!victim.exists(), "written through the planted link");
        assert!(std::fs::symlink_metadata(&t).unwrap().is_file());
        let written = Record::from_json(&std::fs::read_to_string(&t).unwrap()).unwrap();
        assert_eq!(written.manifest.table, "files");
        let planted_name = planted.file_name().unwrap().to_string_lossy().into_owned();
        let mut want = vec![planted_name, "t.json".into(), "t.json.lock".into()];
        want.sort();
        assert_eq!(names(dir.path()), want);
    }

    /// A signal before the rename: the transcript is untouched and the
    /// temporary file is gone.
    #[test]
    fn an_interrupted_write_leaves_the_transcript_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t.json");
        std::fs::write(&t, "old\n").unwrap();
        let cancel = Cancel::default();
        let locked = lock(&t, &cancel).unwrap();
        cancel.raise();
        assert!(locked.write(&record()).is_err());
        assert_eq!(std::fs::read_to_string(&t).unwrap(), "old\n");
        assert_eq!(names(dir.path()), ["t.json", "t.json.lock"]);
        assert!(create(&dir.path().join("n.json"), &record(), &cancel).is_err());
        assert_eq!(names(dir.path()), ["t.json", "t.json.lock"]);
    }

    #[test]
    fn a_new_transcript_never_replaces_a_file_or_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = Cancel::default();
        let t = dir.path().join("t.json");
        create(&t, &record(), &cancel).unwrap();
        let dangling = dir.path().join("d.json");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        for path in [&t, &dangling] {
            let e = create(path, &record(), &cancel).unwrap_err();
            assert!(format!("{e:#}").contains("exists"), "{e:#}");
        }
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(names(dir.path()), ["d.json", "t.json"]);
    }
}
