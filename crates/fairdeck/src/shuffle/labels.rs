//! Bucket labels of the scatter shuffle: drawn in cache-sized runs and counted.

use crate::dice::Dice;

/// Labels drawn per call to the dice while counting: small enough that
/// they are counted while still in the L1 cache.
const LABEL_RUN: usize = 16 << 10;

/// Fills `labels` with uniform labels of `bits` bits and returns how many
/// there are of each value `0..2^bits` (counted while they are in the cache).
pub(crate) fn draw_labels<D: Dice + ?Sized>(
    dice: &mut D,
    bits: u32,
    labels: &mut [u8],
) -> Vec<usize> {
    draw_labels_until(dice, bits, labels, &mut || false)
        .expect("a stop hook that never stops does not stop")
}

/// [`draw_labels`], asking `stop` before each run of [`LABEL_RUN`] labels
/// and giving up (`None`) when it says so. The dice sees the same requests
/// as in [`draw_labels`] up to that point.
pub(crate) fn draw_labels_until<D: Dice + ?Sized, S: FnMut() -> bool + ?Sized>(
    dice: &mut D,
    bits: u32,
    labels: &mut [u8],
    stop: &mut S,
) -> Option<Vec<usize>> {
    let mut tallies = vec![[0usize; 4]; 1 << bits];
    for run in labels.chunks_mut(LABEL_RUN) {
        if stop() {
            return None;
        }
        dice.roll_pow2_many(bits, run);
        tally(run, &mut tallies);
    }
    Some(tallies.iter().map(|t| t.iter().sum()).collect())
}

/// How many labels of each value `0..buckets` there are.
#[cfg(test)]
pub(crate) fn count(labels: &[u8], buckets: usize) -> Vec<usize> {
    let mut tallies = vec![[0usize; 4]; buckets];
    tally(labels, &mut tallies);
    tallies.iter().map(|t| t.iter().sum()).collect()
}

/// Adds the labels to four tallies per value, so that consecutive equal
/// labels do not wait on each other's increments.
fn tally(labels: &[u8], tallies: &mut [[usize; 4]]) {
    let mut quads = labels.chunks_exact(4);
    for q in &mut quads {
        for (lane, &l) in q.iter().enumerate() {
            tallies[usize::from(l)][lane] += 1;
        }
    }
    for &l in quads.remainder() {
        tallies[usize::from(l)][0] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};

    #[test]
    fn counting_matches_a_plain_tally() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("count")));
        for n in [0, 1, 3, 4, 5, 1000, 1003] {
            let mut labels = vec![0u8; n];
            dice.roll_pow2_many(3, &mut labels);
            let mut want = vec![0usize; 8];
            labels.iter().for_each(|&l| want[usize::from(l)] += 1);
            assert_eq!(count(&labels, 8), want, "n = {n}");
        }
    }

    #[test]
    fn labels_stop_between_runs_and_draw_the_same_ones_otherwise() {
        let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("runs")));
        let n = 2 * LABEL_RUN + 5;
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        let lens = draw_labels(&mut dice(), 8, &mut a);
        assert_eq!(
            draw_labels_until(&mut dice(), 8, &mut b, &mut || false),
            Some(lens)
        );
        assert_eq!(a, b);
        // Three runs: asked three times; stopped at the third ask, two are drawn.
        let mut asked = 0;
        let mut c = vec![0u8; n];
        let stopped = draw_labels_until(&mut dice(), 8, &mut c, &mut || {
            asked += 1;
            asked == 3
        });
        assert_eq!((stopped, asked), (None, 3));
        assert_eq!(c[..2 * LABEL_RUN], a[..2 * LABEL_RUN]);
        assert!(c[2 * LABEL_RUN..].iter().all(|&l| l == 0));
    }
}
