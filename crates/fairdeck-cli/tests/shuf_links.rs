//! Issue 26 B: `shuf F -o F` with F hard-linked elsewhere must never lose
//! the only complete copy. A run killed while copying its output into F
//! leaves `.fairdeck-shuf-kept.PID.INODE.*`; a later run removes it only
//! when F holds exactly its bytes, and otherwise keeps it. Issue 35, item
//! 13: a run on F (input or output) is then refused, leaving F and the
//! copy untouched, with how to restore F or discard the copy; a run that
//! only shares the directory warns.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;

fn lines(count: usize) -> Vec<u8> {
    (0..count)
        .flat_map(|i| format!("{i:07}\n").into_bytes())
        .collect()
}

fn sorted(data: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    v.sort_unstable();
    v
}

fn shuf_in_place(file: &Path) -> Output {
    Command::new(cargo_bin("fairdeck"))
        .args(["shuf", "-o"])
        .arg(file)
        .arg(file)
        .env("LC_ALL", "C")
        .output()
        .unwrap()
}

fn kept_files(dir: &Path) -> Vec<std::path::PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".fairdeck-shuf-kept.")
        })
        .collect()
}

/// Runs `fairdeck shuf ARGS` (`LC_ALL=C`).
fn shuf(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(cargo_bin("fairdeck"))
        .arg("shuf")
        .args(args)
        .env("LC_ALL", "C")
        .output()
        .unwrap()
}

/// The state a SIGKILL during the copy leaves, built as the run names it:
/// F (hard-linked as G) half written, the complete output kept under a
/// dead process's id and F's inode. Returns F, G, the kept copy, and the
/// complete output.
fn torn(
    dir: &Path,
) -> (
    std::path::PathBuf,
    std::path::PathBuf,
    std::path::PathBuf,
    Vec<u8>,
) {
    let (file, link) = (dir.join("F"), dir.join("G"));
    let full = lines(1000);
    fs::write(&file, &full[..3000]).unwrap();
    fs::hard_link(&file, &link).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let kept = dir.join(format!(".fairdeck-shuf-kept.99999999.{inode}.AbCdEf"));
    fs::write(&kept, &full).unwrap();
    (file, link, kept, full)
}

/// `shuf F -o F` on a torn F only warned and shuffled the torn part into
/// F; now every run that reads or writes F (through any of its names, or
/// standard input) is refused, and F, G and the copy are left as they were.
#[test]
fn a_run_on_a_file_with_a_kept_complete_copy_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (file, link, kept, full) = torn(dir.path());
    let other = dir.path().join("other");
    let (f, g, o) = (file.as_os_str(), link.as_os_str(), other.as_os_str());
    // Each run and the name it is refused under (its output, else its input).
    let runs: [(&[&std::ffi::OsStr], &Path); 4] = [
        (&["-o".as_ref(), f, f], &file),
        (&["-o".as_ref(), g, "-e".as_ref(), "x".as_ref()], &link),
        (&[f], &file),
        (&["-o".as_ref(), o, g], &link),
    ];
    let k = kept.display();
    for (args, name) in runs {
        let out = shuf(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let name = name.display();
        assert!(
            err.starts_with(&format!(
                "fairdeck shuf: {name}: may be incomplete: process 99999999 "
            )) && err.contains(&format!("kept in {k}; "))
                && err.contains(&format!("(cat {k} > {name} && rm {k}, "))
                && err.ends_with(&format!("discarded (rm {k})\n")),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty());
        assert_eq!(
            fs::read(&file).unwrap(),
            &full[..3000],
            "{args:?}: F touched"
        );
        assert_eq!(fs::read(&kept).unwrap(), full, "{args:?}: the copy touched");
        assert_eq!(
            fs::metadata(&link).unwrap().ino(),
            fs::metadata(&file).unwrap().ino()
        );
        assert!(!other.exists(), "{args:?}: the output was made");
    }
    // Standard input that is F.
    let out = Command::new(cargo_bin("fairdeck"))
        .arg("shuf")
        .stdin(fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{}: may be incomplete", file.display())),
        "{err}"
    );
    // Another file of the directory runs, and is told of the copy.
    fs::write(&other, "a\nb\n").unwrap();
    let out = shuf(&["-o".as_ref(), o, o]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.starts_with("fairdeck shuf: warning: "), "{err}");
    assert!(kept.exists());
}

/// Restored as the message says, the next run finds F complete, removes
/// the copy and shuffles all of F (in place, G still its other name).
#[test]
fn restored_from_its_kept_copy_a_file_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let (file, link, kept, full) = torn(dir.path());
    assert!(!shuf_in_place(&file).status.success());
    let restore = Command::new("sh")
        .args(["-c", r#"cat "$0" > "$1" && rm "$0""#])
        .arg(&kept)
        .arg(&file)
        .status()
        .unwrap();
    assert!(restore.success());
    let out = shuf_in_place(&file);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(kept_files(dir.path()).is_empty());
    assert_eq!(fs::read(&link).unwrap(), fs::read(&file).unwrap());
    assert_eq!(sorted(&fs::read(&file).unwrap()), sorted(&full));
}

/// Discarded as the message says, the copy is no longer in the way.
#[test]
fn with_its_kept_copy_discarded_a_file_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let (file, link, kept, full) = torn(dir.path());
    assert!(!shuf_in_place(&file).status.success());
    fs::remove_file(&kept).unwrap();
    let out = shuf_in_place(&file);
    assert!(out.status.success() && out.stderr.is_empty());
    assert_eq!(fs::read(&link).unwrap(), fs::read(&file).unwrap());
    assert_eq!(sorted(&fs::read(&file).unwrap()), sorted(&full[..3000]));
}

#[test]
fn a_kept_copy_whose_copy_finished_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("F");
    let full = lines(100);
    fs::write(&file, &full).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let kept = dir
        .path()
        .join(format!(".fairdeck-shuf-kept.99999999.{inode}.x"));
    fs::write(&kept, &full).unwrap();
    let out = shuf_in_place(&file);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!kept.exists());
}

#[test]
fn sigkill_at_any_moment_keeps_a_complete_copy_of_a_linked_file() {
    // F has a second link G: the output is copied into F in place. After a
    // SIGKILL at any moment, F is old or complete, or a kept file holds the
    // complete output; the next run never removes that copy while F differs.
    let dir = tempfile::tempdir().unwrap();
    let (file, link) = (dir.path().join("F"), dir.path().join("G"));
    let input = lines(150_000);
    fs::write(&file, &input).unwrap();
    fs::hard_link(&file, &link).unwrap();
    let start = Instant::now();
    assert!(shuf_in_place(&file).status.success());
    let took = start.elapsed();
    let (mut old, mut complete, mut kept_count) = (0, 0, 0);
    for point in 0..16u32 {
        fs::write(&file, &input).unwrap();
        let mut child = Command::new(cargo_bin("fairdeck"))
            .args(["shuf", "-o"])
            .arg(&file)
            .arg(&file)
            .spawn()
            .unwrap();
        std::thread::sleep(took.mul_f64(f64::from(point) / 12.0) + Duration::from_millis(1));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        let after = fs::read(&file).unwrap();
        let kept = kept_files(dir.path());
        if after == input || sorted(&after) == sorted(&input) {
            if after == input {
                old += 1;
            } else {
                complete += 1;
            }
            // A kill after F was complete but before its copy was removed
            // leaves that copy: complete, and removed here, so that the
            // next point starts clean (the next run would keep it, since F
            // is rewritten below, and a torn F would then show two copies).
            for copy in kept {
                assert_eq!(sorted(&fs::read(&copy).unwrap()), sorted(&input));
                fs::remove_file(&copy).unwrap();
            }
        } else {
            assert_eq!(status.signal(), Some(9));
            assert_eq!(kept.len(), 1, "F torn and no complete copy kept");
            assert_eq!(sorted(&fs::read(&kept[0]).unwrap()), sorted(&input));
            kept_count += 1;
            // The next run is refused, and leaves F and the copy as they are.
            let torn = fs::read(&file).unwrap();
            let out = shuf_in_place(&file);
            assert_eq!(out.status.code(), Some(1));
            assert!(String::from_utf8_lossy(&out.stderr).contains("may be incomplete"));
            assert_eq!(fs::read(&file).unwrap(), torn);
            assert_eq!(sorted(&fs::read(&kept[0]).unwrap()), sorted(&input));
            fs::remove_file(&kept[0]).unwrap();
        }
        assert_eq!(
            fs::read(&link).unwrap(),
            fs::read(&file).unwrap(),
            "G cut off from F"
        );
    }
    eprintln!(
        "SIGKILL at 16 points: {old} old, {complete} complete, {kept_count} torn with the complete copy kept"
    );
}

#[test]
fn leftovers_are_swept_by_any_later_run_that_uses_their_directory() {
    // Issue 26 D: not only out-of-core or in-place runs. Process ids above
    // the kernel's maximum (2^22) never run.
    let (scratch, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let buckets = scratch.path().join("fairdeck-shuf.99999999.AbCdEf");
    fs::create_dir(&buckets).unwrap();
    fs::write(buckets.join("bucket-1"), "x\n").unwrap();
    let unfinished = home.path().join(".fairdeck-shuf.99999999.XyZ");
    fs::write(&unfinished, "half").unwrap();
    let input = home.path().join("in");
    fs::write(&input, "a\nb\n").unwrap();
    // An in-memory run reading a file sweeps the temporary directory.
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["shuf"])
        .arg(&input)
        .env("TMPDIR", scratch.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!buckets.exists(), "bucket directory of a dead run kept");
    assert!(
        unfinished.exists(),
        "no -o: the output directory is not touched"
    );
    // An -e run with -o sweeps the output's directory.
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["shuf", "-e", "a", "-o"])
        .arg(home.path().join("out"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!unfinished.exists(), "unfinished output of a dead run kept");
}
