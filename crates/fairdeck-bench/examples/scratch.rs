//! Fresh scratch memory against a kept [`Scratch`], alternating in one process.
//!
//! `cargo run --release -p fairdeck-bench --example scratch -- N THREADS ROUNDS`
//!
//! Each round times one shuffle of N `u32` with fresh memory (`shuffle`, or
//! `Shuffle::run_parallel` for THREADS > 1) and one with a kept scratch
//! (`Shuffle::scratch`), the order of the two
//! alternating by round, after one warm-up of each. Prints ns per element,
//! median [min–max], for both. The data is refilled (not timed) before each
//! shuffle so both see the same input.

use std::process::ExitCode;
use std::time::Instant;

use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use fairdeck::shuffle::{Scratch, Shuffle, shuffle};

/// How one shuffle gets its scratch memory.
#[derive(Clone, Copy)]
enum Memory {
    Fresh,
    Kept,
}

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<f64>().ok().map(|x| x as usize))
        .collect();
    let [n, threads, rounds] = args[..] else {
        eprintln!("scratch: usage: N THREADS ROUNDS");
        return ExitCode::from(2);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("thread pool");
    let mut data: Vec<u32> = Vec::with_capacity(n);
    let mut scratch = Scratch::new();
    let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("scratch")));
    let mut once = |memory: Memory, round: usize| -> f64 {
        data.clear();
        data.extend(0..n as u32);
        let seed = Seed::from_text(&format!("scratch {round}"));
        let start = Instant::now();
        match (memory, threads > 1) {
            (Memory::Fresh, false) => shuffle(&mut data, &mut dice),
            (Memory::Kept, false) => Shuffle::new()
                .scratch(&mut scratch)
                .run(&mut data, &mut dice),
            (Memory::Fresh, true) => pool.install(|| {
                Shuffle::new().run_parallel(&mut data, &seed, Generator::Xoshiro256PlusPlus);
            }),
            (Memory::Kept, true) => pool.install(|| {
                Shuffle::new().scratch(&mut scratch).run_parallel(
                    &mut data,
                    &seed,
                    Generator::Xoshiro256PlusPlus,
                );
            }),
        }
        let ns = start.elapsed().as_nanos() as f64 / n as f64;
        std::hint::black_box(&data);
        ns
    };
    once(Memory::Fresh, 0);
    once(Memory::Kept, 0);
    let (mut fresh, mut kept) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        if round % 2 == 0 {
            fresh.push(once(Memory::Fresh, round));
            kept.push(once(Memory::Kept, round));
        } else {
            kept.push(once(Memory::Kept, round));
            fresh.push(once(Memory::Fresh, round));
        }
    }
    println!("{n} u32, {threads} thread(s), {rounds} rounds: ns per element, median [min-max]");
    println!("fresh {}", summary(&mut fresh));
    println!("kept  {}", summary(&mut kept));
    ExitCode::SUCCESS
}

fn summary(v: &mut [f64]) -> String {
    v.sort_by(f64::total_cmp);
    let median = if v.len() % 2 == 1 {
        v[v.len() / 2]
    } else {
        (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
    };
    format!("{median:.3} [{:.3}-{:.3}]", v[0], v[v.len() - 1])
}
