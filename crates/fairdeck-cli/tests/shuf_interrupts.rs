//! Issue 26 A: `shuf … -o OUT` (OUT another file) interrupted at any moment
//! by SIGINT, SIGTERM, SIGHUP or SIGKILL leaves OUT either untouched or
//! complete, for every kind of input: a file in memory, a file out of core,
//! a pipe, `-r`, `-i`, `-e`, `--random-source`, seeded or not.
//!
//! Each case is first run to the end to time it; then it is run again and
//! signalled at evenly spread moments from 0 to 1.2 times that duration,
//! cycling through the four signals, so signals land before, during and
//! after the writing of the output.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

const SIGNALS: [(&str, i32); 4] = [("-INT", 2), ("-TERM", 15), ("-HUP", 1), ("-KILL", 9)];
const POINTS: u32 = 10;
const OLD: &[u8] = b"the old contents of OUT\nwhich must survive\n";

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

/// Whether an output is complete.
type Check = Box<dyn Fn(&[u8]) -> bool + Send + Sync>;

/// One kind of run: its arguments (before `-o OUT`), its standard input,
/// and what a complete output looks like.
struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    complete: Check,
}

fn cases(dir: &Path) -> Vec<Case> {
    let input = lines(100_000);
    let file = dir.join("input");
    fs::write(&file, &input).unwrap();
    let source = dir.join("random-bytes");
    let bytes: Vec<u8> = (0..2_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    fs::write(&source, bytes).unwrap();
    let f = file.to_str().unwrap().to_string();
    let same = move |want: Vec<u8>| -> Check { Box::new(move |out| sorted(out) == sorted(&want)) };
    let range: Vec<u8> = (1..=150_000u32)
        .flat_map(|i| format!("{i}\n").into_bytes())
        .collect();
    let words: Vec<String> = (0..10_000).map(|i| format!("w{i}")).collect();
    let echoed: Vec<u8> = words
        .iter()
        .flat_map(|w| format!("{w}\n").into_bytes())
        .collect();
    vec![
        Case {
            name: "in memory",
            args: vec![f.clone()],
            stdin: None,
            complete: same(input.clone()),
        },
        Case {
            name: "in memory, seeded",
            args: vec!["--seed".into(), "x".into(), f.clone()],
            stdin: None,
            complete: same(input.clone()),
        },
        Case {
            name: "out of core",
            args: vec!["--memory".into(), "256K".into(), f.clone()],
            stdin: None,
            complete: same(input.clone()),
        },
        Case {
            name: "pipe",
            args: vec![],
            stdin: Some(input.clone()),
            complete: same(input.clone()),
        },
        Case {
            name: "-r",
            args: vec!["-r".into(), "-n".into(), "150000".into(), f.clone()],
            stdin: None,
            complete: Box::new(|out| out.len() == 150_000 * 8 && out.ends_with(b"\n")),
        },
        Case {
            name: "-i",
            args: vec!["-i".into(), "1-150000".into()],
            stdin: None,
            complete: same(range),
        },
        Case {
            name: "-e",
            args: [&["-e".to_string()][..], &words].concat(),
            stdin: None,
            complete: same(echoed),
        },
        Case {
            name: "--random-source",
            args: vec![format!("--random-source={}", source.display()), f],
            stdin: None,
            complete: same(input),
        },
    ]
}

/// Runs `case` writing `out`, signalled with `signal` after `delay` (never
/// when `None`); returns the exit status and the process id.
fn run(
    case: &Case,
    out: &Path,
    tmp: &Path,
    signal: Option<(&str, Duration)>,
) -> (std::process::ExitStatus, u32) {
    let mut child = common::shuf_signals_at_default()
        .args(&case.args)
        .arg("-o")
        .arg(out)
        .env("TMPDIR", tmp)
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child_id = child.id();
    let feeder = child
        .stdin
        .take()
        .zip(case.stdin.clone())
        .map(|(mut pipe, data)| {
            std::thread::spawn(move || {
                let _ = pipe.write_all(&data);
            })
        });
    if let Some((name, delay)) = signal {
        std::thread::sleep(delay);
        let _ = Command::new("kill")
            .args([name, &child.id().to_string()])
            .status();
    }
    let output = child.wait_with_output().unwrap();
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.is_empty(), "{}: {err}", case.name);
    (output.status, child_id)
}

/// Per signal: runs that left OUT complete, untouched, and (SIGKILL) a
/// partial output beside it.
type Counts = [[u32; 3]; 4];

#[test]
fn an_interrupted_run_leaves_out_untouched_or_complete() {
    let inputs = tempfile::tempdir().unwrap();
    let all = cases(inputs.path());
    // Four cases at a time: each is timed under the same load it is interrupted under.
    let mut counts: Counts = [[0; 3]; 4];
    for pair in all.chunks(4) {
        let results: Vec<Counts> = std::thread::scope(|s| {
            let handles: Vec<_> = pair
                .iter()
                .map(|c| s.spawn(move || interrupt_points(c)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for r in results {
            for (total, part) in counts.iter_mut().zip(r) {
                for (t, p) in total.iter_mut().zip(part) {
                    *t += p;
                }
            }
        }
    }
    for ((signal, _), [complete, untouched, left]) in SIGNALS.iter().zip(counts) {
        eprintln!(
            "{signal}: {complete} complete, {untouched} untouched, {left} with a leftover swept later"
        );
    }
    let untouched: u32 = counts.iter().map(|c| c[1]).sum();
    assert!(
        untouched > 0,
        "no run was interrupted before its end: {counts:?}"
    );
}

/// Runs `case` to the end, then once per interrupt point; checks OUT after
/// each, and that the next run sweeps what SIGKILL left.
fn interrupt_points(case: &Case) -> Counts {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = home.path().join("out");
    let mut counts: Counts = [[0; 3]; 4];
    let mut killed = Vec::new();
    {
        fs::write(&out, OLD).unwrap();
        let start = Instant::now();
        assert!(
            run(case, &out, tmp.path(), None).0.success(),
            "{}",
            case.name
        );
        let took = start.elapsed();
        assert!(
            (case.complete)(&fs::read(&out).unwrap()),
            "{}: incomplete",
            case.name
        );
        for point in 0..POINTS {
            let (signal, number) = SIGNALS[(point % 4) as usize];
            let delay = took.mul_f64(1.2 * f64::from(point) / f64::from(POINTS - 1));
            fs::write(&out, OLD).unwrap();
            let (status, pid) = run(case, &out, tmp.path(), Some((signal, delay)));
            let after = fs::read(&out).unwrap();
            let what = format!("{} {signal} at {delay:?}: {status:?}", case.name);
            let complete = (case.complete)(&after);
            assert!(
                complete || after == OLD,
                "{what}: OUT is neither old nor complete ({} bytes)",
                after.len()
            );
            match (status.code(), status.signal()) {
                (Some(0), _) => assert!(complete, "{what}"),
                (Some(130), _) => assert_eq!(after, OLD, "{what}: interrupted, yet OUT changed"),
                (None, Some(s)) if s == number => {}
                other => panic!("{what}: unexpected exit {other:?}"),
            }
            let slot = &mut counts[(point % 4) as usize];
            slot[usize::from(!complete)] += 1;
            // Only SIGKILL may leave a partial output beside OUT (a later
            // run sweeps it, unless it is interrupted first).
            if number == 9 && status.signal() == Some(9) {
                killed.push(format!(".fairdeck-shuf.{pid}."));
            }
            for name in leftovers(home.path()) {
                assert!(killed.iter().any(|k| name.starts_with(k)), "{what}: {name}");
                slot[2] += u32::from(name.contains(&format!(".{pid}.")));
            }
        }
    }
    // The next run removes what SIGKILL left.
    fs::write(&out, OLD).unwrap();
    assert!(run(case, &out, tmp.path(), None).0.success());
    let names = leftovers(home.path());
    assert!(names.is_empty(), "{names:?}");
    counts
}

/// The names in `dir` that fairdeck's temporary outputs use.
fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".fairdeck-shuf"))
        .collect()
}
