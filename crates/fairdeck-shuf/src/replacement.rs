//! `-o FILE` without ever losing what `FILE` held: the output goes to a
//! temporary sibling `.fairdeck-shuf.PID.XXXXXX`, which takes the place of
//! `FILE` only once everything was written and synced. An interrupt at any
//! moment (even SIGKILL) leaves `FILE` either untouched or complete.
//!
//! * A new `FILE` is created as the sibling with mode `0666` less the umask,
//!   as GNU's `open(…, O_CREAT)` would, and renamed into place.
//! * An existing regular `FILE` is opened for writing first (without
//!   truncating it), so that a file GNU could not write is refused with
//!   GNU's message. The sibling gets its mode, owner and group, and is renamed
//!   over it. When `FILE` has other hard links (a rename would cut them
//!   off) or the sibling cannot take its owner and group, the finished
//!   sibling is renamed to `.fairdeck-shuf-kept.PID.INODE.XXXXXX` and then
//!   copied into `FILE` in place; only after that copy was synced is the
//!   kept file removed. A run killed during the copy leaves `FILE` partly
//!   written and the complete output in the kept file, which no later run
//!   removes unless `FILE` holds exactly its bytes (see [`crate::leftover`]).
//! * Anything else — standard output, `/dev/…` and `/proc/…` paths, FIFOs,
//!   devices, a dangling symlink — is written directly, as GNU does.
//! * When the sibling cannot be created (a directory the user may not
//!   write), an existing `FILE` is written in place as GNU does: truncated
//!   at the first write, after all input was read. An interrupt then may
//!   leave `FILE` partly written: the weaker guarantee of GNU itself.
//!
//! Extended attributes and ACLs of a replaced `FILE` are not carried over.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::cancel::Cancel;
use crate::error::{Error, IoContext};
use crate::leftover::{KEPT_PREFIX, OUTPUT_PREFIX};
use crate::quote::Quotes;

/// How an output file was opened.
pub(crate) enum Opened {
    /// Written directly (a device, a FIFO, …).
    Direct(File),
    /// The existing file itself, to be truncated at the first write (the
    /// sibling could not be created).
    InPlace(File),
    /// Through a temporary sibling.
    Replace(Replacement),
}

/// A temporary sibling that will take the place of the output file.
pub(crate) struct Replacement {
    temp: NamedTempFile,
    /// The output file's real path (symlinks resolved).
    target: PathBuf,
    /// The existing file, opened for writing, when the finished output is
    /// to be copied into it rather than renamed over it.
    copy_into: Option<(File, u64)>,
    quotes: Quotes,
}

/// What opening an output needs besides its path.
pub(crate) struct Context<'a> {
    pub cancel: &'a Cancel,
    pub quotes: Quotes,
}

/// Opens `-o path` as the module documentation says.
///
/// # Errors
///
/// The file cannot be opened for writing (GNU's message: its quoted name);
/// [`Error::Interrupted`].
pub(crate) fn open(path: &Path, cx: &Context<'_>) -> Result<Opened, Error> {
    let lexical = path.as_os_str().as_encoded_bytes();
    if lexical.starts_with(b"/dev/") || lexical.starts_with(b"/proc/") {
        return direct(path, cx.quotes);
    }
    match fs::metadata(path) {
        Ok(m) if m.is_file() => existing(path, &m, cx),
        Err(e) if e.kind() == io::ErrorKind::NotFound => fresh(path, cx),
        _ => direct(path, cx.quotes),
    }
}

fn direct(path: &Path, quotes: Quotes) -> Result<Opened, Error> {
    let file = File::create(path).on(quotes.name(path.as_os_str().as_encoded_bytes()))?;
    Ok(Opened::Direct(file))
}

/// A file that does not exist yet.
fn fresh(path: &Path, cx: &Context<'_>) -> Result<Opened, Error> {
    // `Path` drops a trailing `/` or `/.` (`dir/` would name `dir`): such
    // names, and `..`, are left to the system to refuse, as GNU's open does.
    let raw = path.as_os_str().as_encoded_bytes();
    let last = raw.rsplit(|&b| b == b'/').next().unwrap_or_default();
    let Some(name) = path
        .file_name()
        .filter(|_| !matches!(last, b"" | b"." | b".."))
    else {
        return direct(path, cx.quotes);
    };
    // A dangling symlink: GNU creates the file it points to; so do we, directly.
    if fs::symlink_metadata(path).is_ok() {
        return direct(path, cx.quotes);
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let Ok(dir) = fs::canonicalize(parent.unwrap_or(Path::new("."))) else {
        return direct(path, cx.quotes);
    };
    match sibling(&dir, 0o666, cx) {
        Ok(temp) => Ok(Opened::Replace(Replacement {
            temp,
            target: dir.join(name),
            copy_into: None,
            quotes: cx.quotes,
        })),
        Err(Error::Interrupted) => Err(Error::Interrupted),
        // The directory cannot take a new file: GNU's own error follows.
        Err(_) => direct(path, cx.quotes),
    }
}

/// An existing regular file.
fn existing(path: &Path, meta: &fs::Metadata, cx: &Context<'_>) -> Result<Opened, Error> {
    let name = || cx.quotes.name(path.as_os_str().as_encoded_bytes());
    let file = OpenOptions::new().write(true).open(path).on(name())?;
    let target = fs::canonicalize(path).on(name())?;
    let dir = target.parent().unwrap_or(Path::new("/"));
    let temp = match sibling(dir, 0o600, cx) {
        Ok(t) => t,
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(_) => return Ok(Opened::InPlace(file)),
    };
    let owned = take_owner(temp.as_file(), meta);
    let mode = Permissions::from_mode(meta.mode() & 0o7777);
    temp.as_file()
        .set_permissions(mode)
        .on(cx.quotes.name(temp.path().as_os_str().as_encoded_bytes()))?;
    let copy_into = (meta.nlink() > 1 || !owned).then_some((file, meta.ino()));
    Ok(Opened::Replace(Replacement {
        temp,
        target,
        copy_into,
        quotes: cx.quotes,
    }))
}

/// Gives `file` the owner and group of `meta`; whether it has them now.
fn take_owner(file: &File, meta: &fs::Metadata) -> bool {
    match file.metadata() {
        Ok(m) if m.uid() == meta.uid() && m.gid() == meta.gid() => true,
        Ok(_) => std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_ok(),
        Err(_) => false,
    }
}

/// Creates the temporary sibling in `dir` (created with `mode` less the
/// umask). The leftovers of dead runs there were swept at the start of the
/// run ([`crate::leftover::sweep_for_output`]).
fn sibling(dir: &Path, mode: u32, cx: &Context<'_>) -> Result<NamedTempFile, Error> {
    let prefix = format!("{OUTPUT_PREFIX}{}.", std::process::id());
    cx.cancel.create(
        || {
            tempfile::Builder::new()
                .prefix(&prefix)
                .permissions(Permissions::from_mode(mode))
                .tempfile_in(dir)
                .on(cx.quotes.name(dir.as_os_str().as_encoded_bytes()))
        },
        |t| t.path().to_path_buf(),
    )
}

impl Replacement {
    /// The temporary file being written.
    pub(crate) fn file_mut(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// Syncs the finished output and puts it in place (unless the run was
    /// interrupted; see [`Cancel::commit`]).
    ///
    /// # Errors
    ///
    /// GNU's "write error"; the rename or copy failing (then the message
    /// names the kept complete output, if any); [`Error::Interrupted`].
    pub(crate) fn commit(self, cancel: &Cancel) -> Result<(), Error> {
        self.temp.as_file().sync_all().on("write error")?;
        let path = self.temp.path().to_path_buf();
        cancel.commit(&path, || match self.copy_into {
            Some((file, inode)) => copy_in(self.temp, file, inode, &self.target, self.quotes),
            None => rename(self.temp, &self.target, self.quotes),
        })
    }
}

fn rename(temp: NamedTempFile, target: &Path, quotes: Quotes) -> Result<(), Error> {
    temp.persist(target)
        .map_err(|e| Error::io(quotes.name(target.as_os_str().as_encoded_bytes()), e.error))?;
    sync_dir(target);
    Ok(())
}

/// Makes a rename durable: syncs the directory holding `path` (best effort).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all();
    }
}

/// Renames the finished `temp` to its kept name, copies it into `to` (the
/// target, inode `inode`) and removes it once the copy is synced.
fn copy_in(
    temp: NamedTempFile,
    mut to: File,
    inode: u64,
    target: &Path,
    quotes: Quotes,
) -> Result<(), Error> {
    let kept = kept_name(temp.path(), inode);
    let mut from = temp
        .persist(&kept)
        .map_err(|e| Error::io(quotes.name(kept.as_os_str().as_encoded_bytes()), e.error))?;
    sync_dir(&kept);
    let mut copy = || -> io::Result<()> {
        from.seek(SeekFrom::Start(0))?;
        to.seek(SeekFrom::Start(0))?;
        let length = io::copy(&mut from, &mut to)?;
        to.set_len(length)?;
        to.flush()?;
        to.sync_all()
    };
    match copy() {
        Ok(()) => {
            let _ = fs::remove_file(&kept);
            Ok(())
        }
        Err(e) => {
            let what = format!(
                "{} (the complete output is kept in {})",
                quotes.name(target.as_os_str().as_encoded_bytes()),
                quotes.name(kept.as_os_str().as_encoded_bytes())
            );
            Err(Error::io(what, e))
        }
    }
}

/// `.fairdeck-shuf-kept.PID.INODE.XXXXXX` beside `temp` (`.fairdeck-shuf.PID.XXXXXX`).
fn kept_name(temp: &Path, inode: u64) -> PathBuf {
    let name = temp.file_name().unwrap_or_default().to_string_lossy();
    let pid = std::process::id();
    let suffix = name
        .strip_prefix(&format!("{OUTPUT_PREFIX}{pid}."))
        .unwrap_or("x");
    temp.with_file_name(format!("{KEPT_PREFIX}{pid}.{inode}.{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_name_carries_process_and_inode() {
        let pid = std::process::id();
        let temp = PathBuf::from(format!("/d/{OUTPUT_PREFIX}{pid}.AbC123"));
        assert_eq!(
            kept_name(&temp, 42),
            PathBuf::from(format!("/d/{KEPT_PREFIX}{pid}.42.AbC123"))
        );
    }
}
