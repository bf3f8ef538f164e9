//! Batched Fisher–Yates: the same swaps as the plain loops, in pieces or not.

use super::lagged::LAG;
use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};

#[test]
fn lagged_swaps_give_the_same_order_as_direct_swaps() {
    let n = LAG_BYTES / size_of::<u64>() + 1001;
    let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("lag")));
    let mut lagged: Vec<u64> = (0..n as u64).collect();
    let mut direct = lagged.clone();
    fisher_yates(&mut lagged, &mut dice());
    backward_steps(n, &mut dice(), usize::MAX, &mut || false, |a, b| {
        direct.swap(a, b)
    });
    assert_eq!(lagged, direct);
    assert!(lagged.iter().zip(0..).filter(|&(&x, i)| x == i).count() < 20);
}

#[test]
fn lagged_swaps_of_few_large_elements_match_direct_swaps() {
    // Fewer elements than LAG, each 64 KiB: the whole shuffle is queued
    // and run by `finish`.
    for n in [2usize, 3, 17, LAG - 1, LAG, LAG + 1] {
        let dice = || RngDice::new(Generator::ChaCha8.build(&Seed::parse("big")));
        let mut lagged: Vec<[u64; 8192]> = (0..n as u64).map(|i| [i; 8192]).collect();
        assert!(size_of_val(lagged.as_slice()) > LAG_BYTES || n < 17);
        let mut direct = lagged.clone();
        fisher_yates(&mut lagged, &mut dice());
        backward_steps(n, &mut dice(), usize::MAX, &mut || false, |a, b| {
            direct.swap(a, b)
        });
        assert!(lagged == direct, "n = {n}");
    }
}

#[test]
fn pieces_that_are_not_stopped_change_nothing() {
    // The production dice answers each batch from one word: had a piece
    // split a batch or shifted the ones after it, the orders would differ.
    let dice = || RngDice::new(Generator::ChaCha20.build(&Seed::parse("pieces")));
    let lagged = LAG_BYTES / size_of::<u32>() + 777;
    for n in [0usize, 1, 2, 52, 1000, 70_000, lagged] {
        let mut whole: Vec<u32> = (0..n as u32).collect();
        fisher_yates(&mut whole, &mut dice());
        for piece in [1, 5, 64, 1000] {
            let mut asks = 0;
            let mut cut: Vec<u32> = (0..n as u32).collect();
            let done = fisher_yates_until(&mut cut, &mut dice(), piece, &mut || {
                asks += 1;
                false
            });
            assert!(done && whole == cut, "n = {n}, piece = {piece}");
            // A piece ends with the batch (up to 8 steps) that crosses it.
            assert!(asks >= n.saturating_sub(1) / (piece + 7), "n = {n}");
        }
    }
}

#[test]
fn a_stopped_shuffle_leaves_a_permutation() {
    let lagged = LAG_BYTES / size_of::<u32>() + 777;
    for n in [1000usize, lagged] {
        for at in [1, 2, 10] {
            let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("stop")));
            let mut v: Vec<u32> = (0..n as u32).collect();
            let mut asks = 0;
            let done = fisher_yates_until(&mut v, &mut dice, 64, &mut || {
                asks += 1;
                asks == at
            });
            assert!(!done && asks == at, "n = {n}, at = {at}");
            // Stopped at the first ask: untouched; later: partly shuffled.
            assert_eq!(at == 1, v.iter().copied().eq(0..n as u32), "n = {n}");
            v.sort_unstable();
            assert!(v.iter().copied().eq(0..n as u32));
        }
    }
}

/// A dice that answers one roll at a time (the trait's default
/// `roll_many`), so the batched loops must reproduce the plain ones.
struct OneByOne(RngDice<rand_xoshiro::Xoshiro256PlusPlus>);

impl Dice for OneByOne {
    fn roll(&mut self, n: u64) -> u64 {
        self.0.roll(n)
    }
}

fn one_by_one(seed: u64) -> OneByOne {
    use rand_core::SeedableRng;
    OneByOne(RngDice::new(
        rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed),
    ))
}

#[test]
fn pipelined_batches_swap_like_the_plain_loops() {
    // The batched loops ask for rolls ahead of their swaps; with a dice
    // that answers roll by roll they must swap exactly like Durstenfeld's
    // loop and the stopped forward loop, one roll per step. Every n up to
    // 600 covers runs of one to many batches at every batch length.
    for n in 0..600usize {
        let mut batched: Vec<usize> = (0..n).collect();
        fisher_yates(&mut batched, &mut one_by_one(n as u64));
        let mut plain: Vec<usize> = (0..n).collect();
        let mut dice = one_by_one(n as u64);
        for i in (2..=n).rev() {
            plain.swap(i - 1, dice.roll(i as u64) as usize);
        }
        assert_eq!(batched, plain, "backward, n = {n}");

        let steps = (n * 7 / 10).min(n.saturating_sub(1));
        let mut batched: Vec<usize> = (0..n).collect();
        forward_steps(&mut batched, steps, &mut one_by_one(n as u64));
        let mut plain: Vec<usize> = (0..n).collect();
        let mut dice = one_by_one(n as u64);
        for i in 0..steps {
            plain.swap(i, i + dice.roll((n - i) as u64) as usize);
        }
        assert_eq!(batched, plain, "forward, n = {n}, steps = {steps}");
    }
}

#[test]
fn batches_keep_their_bit_lengths_within_56() {
    // Checked at every threshold and one past it: 2^k and 2^k ± 1.
    for k in 1..=40u32 {
        for bound in [(1usize << k) - 1, 1 << k, (1 << k) + 1] {
            let len = batch_len(bound);
            let bits = (usize::BITS - bound.leading_zeros()) as usize;
            assert!(len == 1 || len * bits <= 56, "bound {bound}: {len}");
            assert!(len == 8 || (len + 1) * bits > 56, "bound {bound}: {len}");
        }
    }
    assert_eq!(batch_len(52), 8);
    assert_eq!(batch_len(1 << 20), 2);
    assert_eq!(batch_len(usize::MAX), 1);
}

/// A dice that records each `roll_descending_below` request (answering 0).
#[derive(Default)]
struct Requests(Vec<Batch>);

impl Dice for Requests {
    fn roll(&mut self, _: u64) -> u64 {
        panic!("the backward loop asks for descending batches only")
    }
    fn roll_descending_below(&mut self, bits: u32, top: u64, out: &mut [u64]) {
        let (top, len) = (top as usize, out.len());
        self.0.push(Batch { top, len, bits });
        out.fill(0);
    }
}

#[test]
fn backward_batches_are_the_requests_of_the_loop() {
    for n in (0..=1100).chain([4095, 4096, 4097, 65536, 100_000]) {
        let mut requests = Requests::default();
        fisher_yates(&mut vec![0u8; n], &mut requests);
        assert_eq!(backward_batches(n), requests.0, "n = {n}");
    }
}
