//! The stop hook: stopped in every pass, the slice is a permutation; never
//! stopped, the orders are exactly those of the shuffles without a hook.

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::scatter::POLL_LEN;
use crate::shuffle::{Shuffle, shuffle};
use std::collections::BTreeSet;

fn dice() -> RngDice<crate::rng::AnyRng> {
    RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::parse("stop")))
}

/// The planned shuffle with a fresh scratch per call, as `Shuffle::until(..).run` runs it.
fn shuffle_planned_until<T, D, S>(
    slice: &mut [T],
    plan: ScatterPlan,
    dice: &mut D,
    enter: &mut dyn FnMut(Pass),
    stop: &mut S,
) -> Result<(), Pass>
where
    D: Dice + ?Sized,
    S: FnMut() -> bool + ?Sized,
{
    super::shuffle_planned_until(slice, plan, dice, enter, stop, &mut Scratch::new())
}

/// The parallel planned shuffle with a fresh scratch, as `Shuffle::until(..).run_parallel` runs it.
#[cfg(feature = "rayon")]
fn par_planned<T: Send>(
    slice: &mut [T],
    seed: &Seed,
    generator: Generator,
    plan: ScatterPlan,
    stop: &(impl Fn() -> bool + Sync),
) -> Result<(), Pass> {
    let scratch = &mut Scratch::new();
    crate::shuffle::par_scatter::par_shuffle_planned(slice, seed, generator, plan, stop, scratch)
}

/// FNV-1a over the values: a short fingerprint of a long order.
fn fingerprint(v: &[u32]) -> u64 {
    v.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Strings own heap memory: an element lost or doubled by a stop would
/// leak or be freed twice; the sorted numbers show every one is there once.
fn assert_permutation(v: &[String], what: &str) {
    let mut back: Vec<usize> = v.iter().map(|s| s.parse().unwrap()).collect();
    back.sort_unstable();
    assert!(back.into_iter().eq(0..v.len()), "{what}: not a permutation");
}

/// A plan that scatters a few thousand elements through both levels and
/// asks its hook every 50 elements of work.
fn two_levels() -> ScatterPlan {
    ScatterPlan {
        start_len: 0,
        leaf_len: 100,
        split_len: 100,
        max_bits: 2,
        poll_len: 50,
    }
}

fn one_level() -> ScatterPlan {
    ScatterPlan {
        split_len: usize::MAX,
        ..two_levels()
    }
}

#[test]
fn stopped_at_every_ask_the_slice_is_a_permutation_and_every_pass_is_reached() {
    let n = 3000;
    for plan in [one_level(), two_levels()] {
        let mut asks_in_full = 0;
        let mut v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let done = shuffle_planned_until(&mut v, plan, &mut dice(), &mut |_| {}, &mut || {
            asks_in_full += 1;
            false
        });
        assert_eq!(done, Ok(()));
        let mut passes = BTreeSet::new();
        for at in 1..=asks_in_full {
            let mut v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let mut asks = 0;
            let outcome =
                shuffle_planned_until(&mut v, plan, &mut dice(), &mut |_| {}, &mut || {
                    asks += 1;
                    asks == at
                });
            let pass = outcome.expect_err("the hook said stop");
            passes.insert(pass);
            assert_permutation(&v, &format!("{plan:?}, stopped at ask {at} in {pass:?}"));
            if matches!(pass, Pass::Labels | Pass::Scatter) {
                // Only labels drawn or copies made: the slice is untouched.
                assert!(v.iter().zip(0..).all(|(s, i)| s == &i.to_string()));
            }
        }
        let want: BTreeSet<Pass> = if plan.split_len == usize::MAX {
            [Pass::Labels, Pass::Scatter, Pass::Settle, Pass::FisherYates].into()
        } else {
            [
                Pass::Labels,
                Pass::Scatter,
                Pass::InnerLabels,
                Pass::FisherYates,
            ]
            .into()
        };
        assert_eq!(passes, want, "{plan:?}");
    }
}

/// The scatter shuffle of `v` with the production buckets, started at 8 MiB
/// (the parallel shuffle's start; one thread's is 64 MiB), as
/// `Shuffle::until(..).run` reports it.
fn scatter_until(v: &mut [u32], stop: impl FnMut() -> bool) -> Result<(), Stopped> {
    let plan = ScatterPlan::parallel::<u32>();
    let mut stop = stop;
    shuffle_planned_until(v, plan, &mut dice(), &mut |_| {}, &mut stop)
        .map_err(|pass| Stopped { pass })
}

#[test]
fn a_stopped_shuffle_is_not_the_finished_one_and_says_where_it_stopped() {
    let n = 3 << 20; // 12 MiB of u32: 16 production buckets
    let mut finished: Vec<u32> = (0..n).collect();
    scatter_until(&mut finished, || false).unwrap();
    let mut asks = 0;
    let mut v: Vec<u32> = (0..n).collect();
    let stopped = scatter_until(&mut v, || {
        asks += 1;
        // 3·2^20 elements: 192 runs of 16384 labels, then 48 scatter pieces.
        asks > 192 + 12
    })
    .unwrap_err();
    assert_eq!(stopped.pass, Pass::Scatter);
    assert_eq!(
        stopped.to_string(),
        "shuffle stopped while scattering into buckets"
    );
    assert!(
        v.iter().copied().eq(0..n),
        "the scatter only reads the slice"
    );
    let mut asks = 0;
    let stopped = scatter_until(&mut v, || {
        asks += 1;
        // Then 16 buckets of about 196608: a settle and 3 or more pieces each.
        asks > 192 + 48 + 3
    })
    .unwrap_err();
    assert_eq!(stopped.pass, Pass::FisherYates);
    assert_ne!(v, finished);
    v.sort_unstable();
    assert!(v.iter().copied().eq(0..n));
    // Through the public function: slices up to 64 MiB are Fisher–Yates.
    let mut w: Vec<u32> = (0..n).collect();
    let stopped = Shuffle::new()
        .until(|| true)
        .run(&mut w, &mut dice())
        .unwrap_err();
    assert_eq!(stopped.pass, Pass::FisherYates);
    assert!(w.iter().copied().eq(0..n), "stopped before the first swap");
}

#[test]
fn never_stopped_the_orders_are_those_without_a_hook() {
    // Pinned before the hook existed (fairdeck at commit 111770b):
    // FNV-1a of the shuffles of 0..n as u32, Xoshiro256++ dice and ChaCha8
    // tasks keyed by "stop". 2^21 is Fisher–Yates (with the lagged swaps),
    // 3·2^20 the scatter shuffle with the 8 MiB start (`shuffle`'s until its
    // start moved to 64 MiB; `Shuffle::run_parallel`'s still). A change to these
    // values is a reproducibility-breaking change (CHANGELOG.md).
    let pins = [
        (1 << 21, 0xa858_315b_5770_cfcb, 0xebed_5381_6500_37bb),
        (3 << 20, 0xb5a6_2b39_ad4d_07f5, 0x52d4_ec10_9efe_5fa5),
    ];
    for (n, plain, parallel) in pins {
        let mut a: Vec<u32> = (0..n).collect();
        let mut b = a.clone();
        if n <= 1 << 21 {
            shuffle(&mut a, &mut dice());
            Shuffle::new()
                .until(|| false)
                .run(&mut b, &mut dice())
                .unwrap();
        } else {
            let plan = ScatterPlan::parallel::<u32>();
            shuffle_planned_until(&mut a, plan, &mut dice(), &mut |_| {}, &mut || false).unwrap();
            scatter_until(&mut b, || false).unwrap();
        }
        assert_eq!(
            (fingerprint(&a), fingerprint(&b)),
            (plain, plain),
            "n = {n}"
        );
        let (mut c, mut d): (Vec<u32>, Vec<u32>) = ((0..n).collect(), (0..n).collect());
        Shuffle::new().run_parallel(&mut c, &Seed::parse("stop"), Generator::ChaCha8);
        Shuffle::new()
            .until(|| false)
            .run_parallel(&mut d, &Seed::parse("stop"), Generator::ChaCha8)
            .unwrap();
        assert_eq!(
            (fingerprint(&c), fingerprint(&d)),
            (parallel, parallel),
            "n = {n}"
        );
    }
    // Two levels and small pieces: asking often changes nothing either.
    let plan = ScatterPlan {
        start_len: 0,
        leaf_len: 1000,
        split_len: 1000,
        max_bits: 3,
        poll_len: POLL_LEN,
    };
    for poll_len in [POLL_LEN, 7] {
        let plan = ScatterPlan { poll_len, ..plan };
        let mut v: Vec<u32> = (0..300_000).collect();
        shuffle_planned_until(&mut v, plan, &mut dice(), &mut |_| {}, &mut || false).unwrap();
        assert_eq!(
            fingerprint(&v),
            0x87c2_c082_02f6_bffd,
            "poll_len = {poll_len}"
        );
        let mut w: Vec<u32> = (0..300_000).collect();
        let seed = Seed::parse("stop");
        par_planned(&mut w, &seed, Generator::ChaCha8, plan, &|| false).unwrap();
        assert_eq!(
            fingerprint(&w),
            0x7c78_14e5_5744_a8d9,
            "poll_len = {poll_len}"
        );
    }
}

#[test]
fn the_parallel_shuffle_stopped_at_every_ask_leaves_a_permutation() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let seed = Seed::parse("stop");
    let n = 3000;
    for plan in [one_level(), two_levels()] {
        let asks = AtomicUsize::new(0);
        let mut v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let ask = || {
            asks.fetch_add(1, Ordering::Relaxed);
            false
        };
        pool.install(|| par_planned(&mut v, &seed, Generator::ChaCha8, plan, &ask))
            .unwrap();
        let total = asks.into_inner();
        let mut passes = BTreeSet::new();
        for at in 1..=total {
            let asks = AtomicUsize::new(0);
            // Once it has said stop it keeps saying so, as a flag would.
            let ask = || asks.fetch_add(1, Ordering::Relaxed) + 1 >= at;
            let mut v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let outcome =
                pool.install(|| par_planned(&mut v, &seed, Generator::ChaCha8, plan, &ask));
            let pass = outcome.expect_err("the hook said stop");
            passes.insert(pass);
            assert_permutation(&v, &format!("parallel, {plan:?}, stopped in {pass:?}"));
        }
        assert!(
            passes.contains(&Pass::Labels) && passes.contains(&Pass::Scatter),
            "{passes:?}"
        );
        assert!(passes.iter().any(|&p| p > Pass::Scatter), "{passes:?}");
    }
}

#[test]
fn a_panicking_hook_in_the_parallel_shuffle_is_raised_with_the_slice_whole() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let seed = Seed::parse("stop");
    for at in [1, 40, 90] {
        let asks = AtomicUsize::new(0);
        let mut v: Vec<String> = (0..3000).map(|i| i.to_string()).collect();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            par_planned(&mut v, &seed, Generator::ChaCha8, two_levels(), &|| {
                assert!(
                    asks.fetch_add(1, Ordering::Relaxed) + 1 < at,
                    "hook gave up"
                );
                false
            })
        }));
        assert!(caught.is_err(), "at = {at}");
        assert_permutation(&v, &format!("hook panicked at ask {at}"));
    }
}

#[test]
fn slices_too_small_to_scatter_stop_in_fisher_yates() {
    let mut v: Vec<u32> = (0..200_000).collect();
    let mut asks = 0;
    let stopped = Shuffle::new()
        .until(|| {
            asks += 1;
            asks == 2
        })
        .run(&mut v, &mut dice())
        .unwrap_err();
    assert_eq!((stopped.pass, asks), (Pass::FisherYates, 2));
    assert_ne!(
        v[v.len() - 10..],
        [
            199_990, 199_991, 199_992, 199_993, 199_994, 199_995, 199_996, 199_997, 199_998,
            199_999
        ]
    );
    v.sort_unstable();
    assert!(v.iter().copied().eq(0..200_000));
    assert_eq!(POLL_LEN, 1 << 16, "the docs say 65536");
}

#[test]
fn a_panicking_hook_leaves_a_permutation() {
    for plan in [one_level(), two_levels()] {
        for at in [1, 30, 61, 70, 100, 140] {
            let mut v: Vec<String> = (0..3000).map(|i| i.to_string()).collect();
            let mut asks = 0;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                shuffle_planned_until(&mut v, plan, &mut dice(), &mut |_| {}, &mut || {
                    asks += 1;
                    assert!(asks < at, "hook gave up");
                    false
                })
            }));
            assert!(caught.is_err(), "{plan:?}, at = {at}");
            assert_permutation(&v, &format!("{plan:?}, hook panicked at ask {at}"));
        }
    }
}
