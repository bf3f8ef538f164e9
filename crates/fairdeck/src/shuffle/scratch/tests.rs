//! The scratch: its buffers for any element type, its release rule, and
//! shuffles that reuse it giving exactly the orders of fresh memory.

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::buckets::tests::{assert_every_order_equally_likely, exact_distribution};
use crate::shuffle::scatter::{POLL_LEN, ScatterPlan, scatter_shuffle_until};
use crate::shuffle::{Shuffle, shuffle};

#[repr(align(128))]
#[derive(Debug, Clone, Copy, PartialEq)]
struct Wide(u64);

/// Writes `n` values of `T` into the room and reads them back.
fn round_trip<T: Clone + PartialEq + std::fmt::Debug>(
    scratch: &mut Scratch,
    make: impl Fn(usize) -> T,
    n: usize,
) {
    let mut fallback = Vec::new();
    let (labels, room) = scratch.buffers::<T>(n, &mut fallback);
    assert_eq!((labels.len(), room.len()), (n, n));
    assert_eq!(room.as_ptr() as usize % align_of::<T>(), 0);
    for (i, slot) in room.iter_mut().enumerate() {
        slot.write(make(i));
    }
    for (i, slot) in room.iter_mut().enumerate() {
        // SAFETY (test): written just above.
        #[allow(unsafe_code)]
        let value = unsafe { slot.assume_init_read() };
        assert_eq!(value, make(i));
    }
}

#[test]
fn one_scratch_serves_every_element_type_aligned() {
    let mut scratch = Scratch::new();
    round_trip(&mut scratch, |i| i as u8, 1001);
    round_trip(&mut scratch, |i| i as u32, 1001);
    round_trip(&mut scratch, |i| [i as u8; 3], 999);
    round_trip(&mut scratch, |i| i as u128, 777);
    round_trip(&mut scratch, |i| i.to_string(), 500);
    round_trip(&mut scratch, |_| (), 10);
    round_trip(&mut scratch, Wide::from_index, 300);
    // The largest needs so far are kept: 777 · 16 element bytes, 1001 labels.
    assert!(scratch.held_bytes() >= 777 * 16 + 1001);
    assert!(scratch.elements.is_empty());
}

impl Wide {
    fn from_index(i: usize) -> Self {
        Wide(i as u64)
    }
}

#[test]
fn buffers_grow_without_moving_when_they_fit() {
    let mut scratch = Scratch::new();
    let mut fallback: Vec<u32> = Vec::new();
    let first = scratch.buffers::<u32>(5000, &mut fallback).1.as_ptr() as usize;
    let again = scratch.buffers::<u32>(4000, &mut fallback).1.as_ptr() as usize;
    assert_eq!(first, again);
    let held = scratch.held_bytes();
    assert!(held >= 5000 * 5);
    scratch.buffers::<u64>(2000, &mut Vec::new());
    assert_eq!(scratch.held_bytes(), held); // 16 000 bytes fit in 20 000
    scratch.shrink_to(held);
    assert_eq!(scratch.held_bytes(), held);
    scratch.shrink_to(held - 1);
    assert_eq!(scratch.held_bytes(), 0);
}

#[test]
fn over_aligned_types_use_the_callers_fallback() {
    let mut scratch = Scratch::new();
    let mut fallback: Vec<Wide> = Vec::new();
    let (_, room) = scratch.buffers::<Wide>(10, &mut fallback);
    assert_eq!(room.len(), 10);
    assert_eq!(room.as_ptr() as usize % 128, 0);
    assert!(fallback.capacity() >= 10);
    assert_eq!(scratch.elements.capacity(), 0);
}

#[test]
fn a_limit_lets_go_at_the_end_of_a_call_over_it() {
    let mut scratch = Scratch::with_limit(10_000);
    scratch.buffers::<u32>(1000, &mut Vec::new());
    scratch.end_call();
    assert!(scratch.held_bytes() > 0);
    scratch.buffers::<u32>(3000, &mut Vec::new());
    scratch.end_call();
    assert_eq!(scratch.held_bytes(), 0);
    assert_eq!(scratch.limit, 10_000); // kept across a release
}

fn dice(text: &str) -> RngDice<crate::rng::AnyRng> {
    RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse(text)))
}

/// A plan forcing the scatter on small slices: buckets of about `leaf`
/// elements, split once more beyond `split` (usize::MAX: one level).
fn forced(leaf: usize, split: usize, max_bits: u32) -> ScatterPlan {
    ScatterPlan {
        start_len: 0,
        leaf_len: leaf,
        split_len: split,
        max_bits,
        poll_len: POLL_LEN,
    }
}

fn run<T>(v: &mut [T], plan: ScatterPlan, d: &mut RngDice<crate::rng::AnyRng>, s: &mut Scratch) {
    scatter_shuffle_until(v, plan, d, &mut |_| {}, &mut || false, s).unwrap();
}

/// Leaves garbage in both buffers: labels no bucket has, elements of 0xA5.
fn soil(scratch: &mut Scratch, n: usize) {
    let mut fallback = Vec::new();
    let (labels, room) = scratch.buffers::<u64>(n, &mut fallback);
    labels.fill(0xFF);
    room.iter_mut().for_each(|x| {
        x.write(0xA5A5_A5A5_A5A5_A5A5);
    });
}

#[test]
fn a_reused_scratch_gives_the_orders_of_fresh_memory_on_every_path() {
    // One level (2^4 buckets), two levels (2^3 × 2^3), at several sizes and
    // types, one scratch soiled before and reused throughout.
    let mut scratch = Scratch::new();
    soil(&mut scratch, 40_000);
    for plan in [forced(500, usize::MAX, 4), forced(100, 100, 3)] {
        for n in [1001, 30_000, 5_000] {
            let mut fresh: Vec<u32> = (0..n).collect();
            let mut reused = fresh.clone();
            run(&mut fresh, plan, &mut dice("r"), &mut Scratch::new());
            run(&mut reused, plan, &mut dice("r"), &mut scratch);
            assert_eq!(fresh, reused, "{plan:?}, n = {n}");
            let mut strings: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            run(&mut strings, plan, &mut dice("r"), &mut scratch);
            let back: Vec<u32> = strings.iter().map(|s| s.parse().unwrap()).collect();
            assert_eq!(back, fresh, "strings, {plan:?}, n = {n}");
        }
    }
    assert!(scratch.held_bytes() >= 40_000 * 9);
}

#[test]
fn a_scratch_left_by_a_stopped_shuffle_changes_nothing() {
    let plan = forced(100, 100, 3);
    let mut scratch = Scratch::new();
    for at in [1, 3, 8] {
        let mut v: Vec<u32> = (0..20_000).collect();
        let mut asks = 0;
        let stop = &mut || {
            asks += 1;
            asks == at
        };
        let stopped = scatter_shuffle_until(
            &mut v,
            plan,
            &mut dice("s"),
            &mut |_| {},
            stop,
            &mut scratch,
        );
        assert!(stopped.is_err());
        let (mut a, mut b): (Vec<u32>, Vec<u32>) = ((0..20_000).collect(), (0..20_000).collect());
        run(&mut a, plan, &mut dice("t"), &mut scratch);
        run(&mut b, plan, &mut dice("t"), &mut Scratch::new());
        assert_eq!(a, b, "after a stop at ask {at}");
    }
}

#[test]
fn a_reused_scratch_keeps_the_shuffle_exactly_uniform() {
    // Every dice answer enumerated, all runs through one scratch: each run
    // starts from what the previous one left (two levels of 2 × 2).
    let plan = forced(1, 1, 1);
    let mut scratch = Scratch::new();
    soil(&mut scratch, 8);
    for n in 2..=5usize {
        let (mass, total) = exact_distribution(|e| {
            let mut v: Vec<usize> = (0..n).collect();
            scatter_shuffle_until(&mut v, plan, e, &mut |_| {}, &mut || false, &mut scratch)
                .unwrap();
            v
        });
        assert_every_order_equally_likely(&mass, total, n, "reused scratch");
    }
}

#[test]
fn the_public_shuffles_agree_with_their_fresh_memory_forms() {
    let mut scratch = Scratch::new();
    // Fisher–Yates (52, 10^6 u32), the one-level scatter (17 M u32 = 68 MB).
    for n in [52u32, 1_000_000, 17_000_000, 17_000_000] {
        let mut a: Vec<u32> = (0..n).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut dice("p"));
        Shuffle::new()
            .scratch(&mut scratch)
            .run(&mut b, &mut dice("p"));
        assert!(a == b, "n = {n}");
    }
    let held = scratch.held_bytes();
    assert!(held >= 17_000_000 * 5, "{held}");
    // The parallel shuffle: Fisher–Yates (10^5), scattered (3 M u32 = 12 MB),
    // two threads, the same scratch (now big enough: not grown).
    let seed = Seed::parse("p");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for n in [100_000u32, 3_000_000] {
        let mut a: Vec<u32> = (0..n).collect();
        let mut b = a.clone();
        pool.install(|| {
            Shuffle::new().run_parallel(&mut a, &seed, Generator::ChaCha8);
            Shuffle::new()
                .scratch(&mut scratch)
                .run_parallel(&mut b, &seed, Generator::ChaCha8);
        });
        assert!(a == b, "parallel, n = {n}");
    }
    assert_eq!(scratch.held_bytes(), held);
}

#[test]
fn the_parallel_shuffle_with_two_levels_reuses_the_labels_for_its_groups() {
    use crate::shuffle::par_scatter::par_shuffle_planned;
    let seed = Seed::parse("two");
    let plan = forced(500, 500, 2);
    let mut scratch = Scratch::new();
    soil(&mut scratch, 50_000);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for n in [5_000u32, 40_000] {
        let mut a: Vec<u32> = (0..n).collect();
        let mut b = a.clone();
        pool.install(|| {
            par_shuffle_planned(
                &mut a,
                &seed,
                Generator::ChaCha8,
                plan,
                &|| false,
                &mut Scratch::new(),
            )
            .unwrap();
            par_shuffle_planned(
                &mut b,
                &seed,
                Generator::ChaCha8,
                plan,
                &|| false,
                &mut scratch,
            )
            .unwrap();
        });
        assert!(a == b, "n = {n}");
        b.sort_unstable();
        assert!(b.into_iter().eq(0..n));
    }
}

#[test]
fn the_stoppable_shuffles_reuse_the_scratch_and_keep_their_orders() {
    let mut scratch = Scratch::new();
    // Stopped half-way through a scattered shuffle (17 M u32): the scratch
    // it leaves serves the next calls, which give the fresh-memory orders.
    let mut v: Vec<u32> = (0..17_000_000).collect();
    let mut asks = 0;
    let stopped = Shuffle::new()
        .scratch(&mut scratch)
        .until(|| {
            asks += 1;
            asks == 300
        })
        .run(&mut v, &mut dice("q"));
    assert!(stopped.is_err());
    let held = scratch.held_bytes();
    assert!(held >= 17_000_000 * 5, "{held}");
    for n in [52u32, 17_000_000] {
        let mut a: Vec<u32> = (0..n).collect();
        let mut b = a.clone();
        let never = || false;
        Shuffle::new()
            .until(never)
            .run(&mut a, &mut dice("r"))
            .unwrap();
        let kept = Shuffle::new().scratch(&mut scratch).until(never);
        kept.run(&mut b, &mut dice("r")).unwrap();
        assert!(a == b, "n = {n}");
    }
    let seed = Seed::parse("r");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut a: Vec<u32> = (0..3_000_000).collect();
    let mut b = a.clone();
    pool.install(|| {
        let never = || false;
        let fresh = Shuffle::new().until(never);
        fresh
            .run_parallel(&mut a, &seed, Generator::ChaCha8)
            .unwrap();
        let kept = Shuffle::new().scratch(&mut scratch).until(never);
        kept.run_parallel(&mut b, &seed, Generator::ChaCha8)
            .unwrap();
    });
    assert!(a == b, "parallel");
    assert_eq!(scratch.held_bytes(), held, "big enough already: not grown");
}
