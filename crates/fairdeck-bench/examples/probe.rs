use fairdeck::dice::RngDice;
use rand::seq::SliceRandom;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
fn best(n: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..std::env::var("ROUNDS").map_or(300, |v| v.parse().unwrap()) {
        let t = std::time::Instant::now();
        for _ in 0..reps { f(); }
        b = b.min(t.elapsed().as_nanos() as f64 / (n * reps) as f64);
    }
    b
}
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let reps = (50_000 / n).max(1);
    let mut dice = RngDice::new(Xoshiro256PlusPlus::from_seed([7; 32]));
    let mut rng = Xoshiro256PlusPlus::from_seed([7; 32]);
    let mut r2 = Xoshiro256PlusPlus::from_seed([8; 32]);
    let mut v: Vec<u32> = (0..n as u32).collect();
    let f = best(n, reps, || fairdeck::shuffle::shuffle(&mut v, &mut dice));
    let r = best(n, reps, || v.shuffle(&mut rng));
    let s = best(n, reps, || for i in (1..v.len()).rev() { let j = fairdeck::dice::bounded_u64(&mut r2, i as u64 + 1) as usize; v.swap(i, j); });
    use fairdeck::dice::Dice;
    let mut d3 = RngDice::new(Xoshiro256PlusPlus::from_seed([9; 32]));
    let m1 = best(n, reps, || for i in (1..v.len()).rev() { let mut o = [0u64]; d3.roll_many(&[i as u64 + 1], &mut o); v.swap(i, o[0] as usize); });
    let m2 = best(n, reps, || for i in (1..v.len()).rev() { let j = d3.roll(i as u64 + 1) as usize; v.swap(i, j); });
    println!("roll_many1 {m1:.3} roll {m2:.3}");
    println!("n={n} fairdeck {f:.3} rand {r:.3} scalar {s:.3} ratio {:.2}", r / f);
    std::hint::black_box(&v);
}
