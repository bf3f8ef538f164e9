//! What the machine tests share: a GSR riffle and a seeded audit of a
//! machine's decks.

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{AnyRng, Generator, Seed};
use fairdeck_audit::stats::{Audit, DEFAULT_ALPHA, evaluate, run::shuffles};

/// k Gilbert–Shannon–Reeds riffles: cut after Binomial(n, ½) cards, then
/// drop from the two packets with chances proportional to their sizes.
pub fn riffles<D: Dice + ?Sized>(n: usize, k: u32, d: &mut D) -> Vec<usize> {
    let mut deck: Vec<usize> = (0..n).collect();
    for _ in 0..k {
        let cut = (0..n).filter(|_| d.roll(2) == 1).count();
        let (mut left, mut right) = (deck[..cut].iter(), deck[cut..].iter());
        let (mut a, mut b) = (cut, n - cut);
        let mut next = Vec::with_capacity(n);
        while a + b > 0 {
            if d.roll((a + b) as u64) < a as u64 {
                next.extend(left.next());
                a -= 1;
            } else {
                next.extend(right.next());
                b -= 1;
            }
        }
        deck = next;
    }
    deck
}

/// The audit of `trials` decks of `n` cards that `f` makes, from the key `seed`.
pub fn audit<F>(n: usize, trials: u64, seed: &str, f: F) -> Audit
where
    F: Fn(usize, &mut RngDice<AnyRng>) -> Vec<usize> + Sync,
{
    let seed = Seed::from_text(seed);
    let tally = shuffles(n, trials, &seed, Generator::ChaCha20, f, &|_| {}).unwrap();
    evaluate(&tally, DEFAULT_ALPHA)
}
