//! One run: the dice, the input, the method (echo, range, reservoir, in
//! memory, out of core) and the output.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::fd::AsFd;

use fairdeck::dice::Dice;

use crate::buckets::{Plan, shuffle_out_of_core};
use crate::dice::{ByteDice, ShufDice};
use crate::error::reserve;
use crate::error::{Error, IoContext};
use crate::leftover::{refuse_torn, sweep_for_output, sweep_scratch};
use crate::lines::{Job, deal, read_all, repeat, reservoir, run_job};
use crate::options::Input;
use crate::range::{self, Range};
use crate::scan::{split, threads_for};
use crate::scratch::Scratch;
use crate::sink::{Sink, same_file};
use crate::{Method, Options, Randomness, Stats};

/// Below this many bytes of known size GNU reads the whole input even with
/// `-n` (`RESERVOIR_MIN_INPUT`); above it, or when the size is unknown, it
/// keeps a reservoir. Followed with a `--random-source` file, so that the
/// same bytes give the same lines.
const RESERVOIR_MIN_INPUT: u64 = 8192 * 1024;

/// Runs `options` to the end.
pub(crate) fn run(options: &Options) -> Result<Stats, Error> {
    refuse_random_source_as_output(options)?;
    // `-o` naming the input file is detected through `/dev/stdin` too (`-o F < F`).
    let input_path = match &options.input {
        Input::File(path) => Some(path.clone().unwrap_or_else(|| "/dev/stdin".into())),
        _ => None,
    };
    for file in [&options.output, &input_path].into_iter().flatten() {
        refuse_torn(file, options.quotes)?;
    }
    if let Some(output) = &options.output {
        sweep_for_output(output, options.quotes, &options.warnings);
    }
    let mut sink =
        Sink::new(options.output.clone(), input_path, &options.cancel).with_quotes(options.quotes);
    let method = if options.head_count == Some(0) {
        // GNU reads nothing, not even the random source, but still creates -o FILE.
        Method::Nothing
    } else {
        let mut dice = make_dice(options)?;
        match produce(options, &mut dice, &mut sink) {
            Ok(method) => method,
            Err(e) => {
                // With -r, GNU has written every line drawn before the failure.
                if options.repeat && drawn_output_stands(&e) {
                    sink.finish()?;
                }
                return Err(e);
            }
        }
    };
    let stats = Stats {
        records: sink.records,
        bytes: sink.bytes + sink.pending(),
        method,
    };
    sink.finish()?;
    Ok(stats)
}

/// Errors after which the lines already drawn are still written.
fn drawn_output_stands(e: &Error) -> bool {
    match e {
        Error::RandomSourceEnd(_) | Error::NoLinesToRepeat => true,
        Error::Io { what, .. } => what.ends_with(": read error"),
        _ => false,
    }
}

/// `-o FILE` naming the `--random-source` file would truncate the bytes
/// while they are read: refused before anything is opened for writing.
fn refuse_random_source_as_output(options: &Options) -> Result<(), Error> {
    let (Randomness::Source(source), Some(output)) = (&options.randomness, &options.output) else {
        return Ok(());
    };
    if same_file(source, output) {
        let name = options.quotes.name(output.as_os_str().as_encoded_bytes());
        return Err(Error::Invalid(format!(
            "{name}: the output file is the --random-source file"
        )));
    }
    Ok(())
}

fn make_dice(options: &Options) -> Result<ShufDice, Error> {
    Ok(match &options.randomness {
        Randomness::Seed(seed) => ShufDice::seeded(seed),
        Randomness::Source(path) => ShufDice::Bytes(ByteDice::open(path, options.quotes)?),
    })
}

fn produce(options: &Options, dice: &mut ShufDice, sink: &mut Sink) -> Result<Method, Error> {
    match &options.input {
        Input::Range { lo, hi } => {
            let range = Range {
                lo: *lo,
                hi: *hi,
                limit: options.head_count,
                repeat: options.repeat,
                delimiter: options.delimiter,
                memory: options.memory,
            };
            range::run(&range, dice, sink)?;
            Ok(Method::Range)
        }
        Input::Echo(items) => {
            echo(items, options, dice, sink)?;
            Ok(Method::Echo)
        }
        Input::File(_) => shuffle_input(options, dice, sink),
    }
}

/// `-e`: each argument is one item, whatever bytes it holds.
fn echo(
    items: &[Vec<u8>],
    options: &Options,
    dice: &mut ShufDice,
    sink: &mut Sink,
) -> Result<(), Error> {
    let (n, d) = (items.len(), options.delimiter);
    if options.repeat {
        if n == 0 {
            return Err(Error::NoLinesToRepeat);
        }
        let draw = |dice: &mut ShufDice| dice.roll(n as u64);
        return repeat(options.head_count, dice, draw, |j| {
            sink.item(&items[j as usize], d)
        });
    }
    let mut order: Vec<usize> = (0..n).collect();
    let k = options.head_count.map_or(n, |k| k.min(n as u64) as usize);
    deal(&mut order, k, dice);
    if let Some(e) = dice.failure() {
        return Err(e);
    }
    order[..k].iter().try_for_each(|&i| sink.item(&items[i], d))
}

fn job(options: &Options) -> Job {
    if options.repeat {
        Job::Repeat(options.head_count)
    } else {
        Job::Shuffle(options.head_count)
    }
}

/// The input file (standard input when none); when it is a regular file,
/// the offset reading starts at and the bytes left from there. Standard
/// input may have been partly read by the caller (`(read -r h; shuf) < f`):
/// then only the rest is shuffled, as GNU does.
fn open_input(options: &Options) -> Result<(File, Option<u64>, u64), Error> {
    let file = match &options.input {
        Input::File(Some(path)) => {
            File::open(path).on(options.quotes.name(path.as_os_str().as_encoded_bytes()))?
        }
        _ => File::from(io::stdin().as_fd().try_clone_to_owned().on("read error")?),
    };
    let Some(length) = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
    else {
        return Ok((file, None, 0));
    };
    let start = (&file).stream_position().unwrap_or(0).min(length);
    Ok((file, Some(length - start), start))
}

/// Shuffles lines read from a file or standard input: in memory when the
/// input fits the budget, out of core otherwise; `-n` keeps a reservoir.
fn shuffle_input(options: &Options, dice: &mut ShufDice, sink: &mut Sink) -> Result<Method, Error> {
    sweep_scratch(&options.temp_dir);
    let (mut file, size, start) = open_input(options)?;
    // Written in place (no temporary sibling possible): the input must not
    // be mapped while it is truncated and written.
    let may_map = !sink.open_over_input()?;
    let (d, memory) = (options.delimiter, options.memory);
    if let (Some(k), false) = (options.head_count, options.repeat) {
        let gnu_reads_all = dice.is_gnu() && size.is_some_and(|s| s <= RESERVOIR_MIN_INPUT);
        if !gnu_reads_all {
            let kept = reservoir(&mut file, k, d, dice, &options.cancel)?;
            kept.iter().try_for_each(|line| sink.record(line, d))?;
            return Ok(Method::Reservoir);
        }
    }
    let fits_known = size.filter(|&s| options.repeat || s <= memory);
    let mut index_too_big = false;
    let mappable = fits_known.filter(|&s| may_map && s > 0);
    if let Some(map) = mappable.and_then(|_| map(&file)) {
        let data = usize::try_from(start).map_or(&[][..], |s| &map[s.min(map.len())..]);
        if options.repeat || index_fits(data, d, memory) {
            run_job(data, d, job(options), dice, sink)?;
            // Leave the offset where reading would have: at the end.
            let _ = (&file).seek(SeekFrom::End(0));
            return Ok(Method::InMemory { mapped: true });
        }
        index_too_big = true;
    }
    let mut data = Vec::new();
    let fits = match size {
        _ if options.repeat => true,
        _ if index_too_big => false,
        Some(s) => s <= memory,
        None => {
            read_all(
                &mut (&mut file).take(memory + 1),
                &mut data,
                &options.cancel,
            )?;
            data.len() as u64 <= memory
        }
    };
    if fits {
        reserve(&mut data, size.map_or(1, |s| s as usize + 1))?;
        read_all(&mut file, &mut data, &options.cancel)?;
        if options.repeat || index_fits(&data, d, memory) {
            run_job(&data, d, job(options), dice, sink)?;
            return Ok(Method::InMemory { mapped: false });
        }
    }
    let mut scratch = Scratch::new(
        &options.temp_dir,
        &options.cancel,
        options.fail_scratch_after,
    )?;
    let mut plan = Plan {
        memory,
        delimiter: d,
        scratch: &mut scratch,
        cancel: options.cancel.clone(),
        buckets: 0,
        progress: options.progress,
        buffer: Vec::new(),
    };
    let rest = io::Cursor::new(data).chain(file);
    shuffle_out_of_core(Box::new(rest), size, &mut plan, dice, sink)?;
    Ok(Method::OutOfCore {
        buckets: plan.buckets,
    })
}

/// Whether `data` and its line index (4 bytes a line below 4 GiB, 8 above)
/// fit in `memory` bytes: many short lines can make the index larger than
/// the data. O(n) (one `memchr` pass).
fn index_fits(data: &[u8], delimiter: u8, memory: u64) -> bool {
    let parts = split(data, delimiter, threads_for(data.len()));
    let lines: u64 = parts.iter().map(|p| p.lines).sum();
    let per_line: u64 = if u32::try_from(data.len()).is_ok() {
        4
    } else {
        8
    };
    lines
        .checked_mul(per_line)
        .and_then(|index| index.checked_add(data.len() as u64))
        .is_some_and(|need| need <= memory)
}

/// Maps a regular file into memory, read-only, with its pages loaded up
/// front; `None` when it cannot be mapped (an empty file, say): the caller
/// then reads it instead.
///
/// Mapping saves copying the input and faulting in as much fresh memory
/// (measured: see docs/book/src/speed.md).
#[allow(unsafe_code)]
fn map(file: &File) -> Option<memmap2::Mmap> {
    // SAFETY: a mapping is undefined behaviour if the file is truncated or
    // written while mapped. fairdeck never writes its input while the map
    // lives: `-o` naming the input writes a new file, which is renamed over
    // the old name (or copied into it, for a file with other hard links)
    // only after the map was dropped. Another process changing the file
    // during the run is the same hazard every tool reading a changing file
    // has (GNU shuf would read a mix of old and new lines); here it may
    // also end the run with SIGBUS. The mapping is private and read-only.
    unsafe { memmap2::MmapOptions::new().populate().map(file) }.ok()
}
