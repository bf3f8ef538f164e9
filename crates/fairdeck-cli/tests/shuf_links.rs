//! Issue 26 B: `shuf F -o F` with F hard-linked elsewhere must never lose
//! the only complete copy. A run killed while copying its output into F
//! leaves `.fairdeck-shuf-kept.PID.INODE.*`; a later run removes it only
//! when F holds exactly its bytes, and otherwise keeps it and says how to
//! restore F.

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

#[test]
fn a_kept_complete_copy_survives_the_next_run() {
    // The state a SIGKILL during the copy leaves: F half written, the
    // complete output kept under the dead process's id and F's inode.
    let dir = tempfile::tempdir().unwrap();
    let (file, link) = (dir.path().join("F"), dir.path().join("G"));
    let full = lines(1000);
    fs::write(&file, &full[..3000]).unwrap();
    fs::hard_link(&file, &link).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let kept = dir
        .path()
        .join(format!(".fairdeck-shuf-kept.99999999.{inode}.AbCdEf"));
    fs::write(&kept, &full).unwrap();
    let out = shuf_in_place(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        fs::read(&kept).unwrap(),
        full,
        "the only complete copy was lost"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let k = kept.display();
    assert!(
        // F or G: either name of the inode.
        err.contains(&format!("cat {k} > {}", dir.path().display()))
            && err.starts_with("fairdeck shuf: warning: "),
        "{err}"
    );
    // Restored as the message says, the next run finds F complete and removes the copy.
    fs::write(&file, &full).unwrap();
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
            // The next run keeps the copy, and says so.
            let out = shuf_in_place(&file);
            assert!(String::from_utf8_lossy(&out.stderr).contains("warning"));
            assert!(kept[0].exists());
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
