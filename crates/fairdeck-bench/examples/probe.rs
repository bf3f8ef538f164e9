use fairdeck::dice::RngDice;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let mut dice = RngDice::new(Xoshiro256PlusPlus::from_seed([7; 32]));
    let mut v: Vec<u32> = (0..n as u32).collect();
    for _ in 0..2 {
        let t = std::time::Instant::now();
        fairdeck::shuffle::shuffle(&mut v, &mut dice);
        println!("{:.3}", t.elapsed().as_nanos() as f64 / n as f64);
    }
}
