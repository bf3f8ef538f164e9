use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use fairdeck::shuffle::*;
use std::time::Instant;

fn time<T: Copy + Send + From<u32>>(n: usize, what: &str, reps: usize) {
    let mut v: Vec<T> = (0..n as u32).map(T::from).collect();
    let seed = Seed::parse("bench");
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        match what {
            "shuffle" => shuffle(
                &mut v,
                &mut RngDice::new(Generator::Xoshiro256PlusPlus.build(&seed)),
            ),
            "in_place" => shuffle_in_place(
                &mut v,
                &mut RngDice::new(Generator::Xoshiro256PlusPlus.build(&seed)),
            ),
            "par" => par_shuffle(&mut v, &seed, Generator::Xoshiro256PlusPlus),
            "par_in_place" => par_shuffle_in_place(&mut v, &seed, Generator::Xoshiro256PlusPlus),
            "memcpy" => {
                let mut w: Vec<T> = vec![T::from(0); n];
                let t = Instant::now();
                w.copy_from_slice(&v);
                std::hint::black_box(&w);
                best = best.min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
                continue;
            }
            _ => panic!(),
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
    }
    println!(
        "{what:>12} n={n:>10} {:>3}B: {best:.2} ns/elem",
        size_of::<T>()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse::<f64>().unwrap() as usize;
    let wide = args[2] == "u64";
    let reps: usize = args[3].parse().unwrap();
    for what in &args[4..] {
        if wide {
            time::<u64>(n, what, reps)
        } else {
            time::<u32>(n, what, reps)
        }
    }
}
