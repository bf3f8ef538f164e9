//! The audit's power against named machines, for the book's power table:
//!
//! ```text
//! cargo run --release -p fairdeck-audit --example power_table [-- --quick]
//! ```
//!
//! (`--quick` prints part 2 alone; `--web` prints part 2 as the fairness
//! page's `web/js/pages/power-table.js`.)
//!
//! Part 1 — detection rates: real decks of 52 cards from each machine's
//! generator, the whole audit at α = 10⁻⁶, 10 seeded runs per cell: how
//! often the audit (any test) and each model or family test rejected.
//!
//! Part 2 — decks for power 0.8, each family test (inside the audit, at its
//! share α/17, against the machines of its family it reads at that many
//! decks, with its p-value as the audit computes it) against the Neyman–Pearson test for the one true
//! machine (alone, at the whole α = 10⁻⁶, and at the same share α/17).
//! All read only the machine's statistic, so decks are drawn
//! from its exact law `P_θ(x) = P_uniform(x) · e^{llr_θ(x)}`; 1,000 seeded
//! runs per size. The Neyman–Pearson threshold is exact (every histogram
//! of the decks enumerated) where the decks are few, and elsewhere set
//! where the Bahadur–Rao approximation of its exact tail under uniform
//! shuffling (Bahadur and Rao 1960, “On deviations of the sample mean”)
//! equals α — an approximation of the exact test, not a bound.
//!
//! Everything is seeded: the output is the same on every run.

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{Generator, Seed};
use fairdeck_audit::mix::Model;
use fairdeck_audit::mix::shelf::shelf_pass;
use fairdeck_audit::stats::families::{self, Family};
use fairdeck_audit::stats::family_tails::{FamilyTail, uniform_law};
use fairdeck_audit::stats::likelihood;
use fairdeck_audit::stats::{DEFAULT_ALPHA, evaluate, gof::MAX_TESTS, run::shuffles, tails};

const N: usize = 52;

type Machine = fn(usize, &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize>;

fn shelves_once(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut deck: Vec<usize> = (0..n).collect();
    shelf_pass(&mut deck, 10, d);
    deck
}

fn shelves_twice(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut deck = shelves_once(n, d);
    shelf_pass(&mut deck, 10, d);
    deck
}

fn riffles_12(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut deck: Vec<usize> = (0..n).collect();
    (0..12).for_each(|_| Model::Riffle.shuffle(&mut deck, d));
    deck
}

/// A 10-shelf machine putting 3 cards in 4 on top of their shelf.
fn shelves_biased(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut piles = vec![std::collections::VecDeque::new(); 10];
    for card in (0..n).rev() {
        let pile: &mut std::collections::VecDeque<usize> = &mut piles[d.roll(10) as usize];
        match d.roll(4) {
            0 => pile.push_back(card),
            _ => pile.push_front(card),
        }
    }
    piles.into_iter().flatten().collect()
}

fn top_to_random_104(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut deck: Vec<usize> = (0..n).collect();
    (0..2 * n).for_each(|_| Model::TopToRandom.shuffle(&mut deck, d));
    deck
}

fn uniform(n: usize, d: &mut RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> {
    let mut deck: Vec<usize> = (0..n).collect();
    fairdeck::shuffle::shuffle(&mut deck, d);
    deck
}

const TESTS: [&str; 8] = [
    "valleys-low",
    "rising-low",
    "guessing",
    "riffles-lr",
    "shelf-lr",
    "shelf-twice-lr",
    "shelf-biased-lr",
    "top-to-random-lr",
];

fn detection_rates() {
    let machines: [(&str, Machine, &[u64]); 6] = [
        ("uniform (Fisher–Yates)", uniform, &[3, 1_000, 120_000]),
        ("1 pass, 10 shelves", shelves_once, &[2, 3]),
        (
            "2 passes, 10 shelves",
            shelves_twice,
            &[20_000, 60_000, 120_000],
        ),
        ("12 GSR riffles", riffles_12, &[20_000, 60_000]),
        ("10 shelves, 3/4 on top", shelves_biased, &[2, 3]),
        ("104 top-to-random moves", top_to_random_104, &[200, 1_000]),
    ];
    println!(
        "| machine (52 cards) | decks | audit | {} |",
        TESTS.join(" | ")
    );
    println!("|---|---|---|{}", "---|".repeat(TESTS.len()));
    const RUNS: u32 = 10;
    for (label, machine, sizes) in machines {
        for &trials in sizes {
            let mut caught = [0u32; TESTS.len() + 1];
            for run in 0..RUNS {
                let seed = Seed::from_text(&format!("power-table/{label}/{trials}/{run}"));
                let t = shuffles(N, trials, &seed, Generator::ChaCha20, machine, &|_| {}).unwrap();
                let a = evaluate(&t, DEFAULT_ALPHA);
                let failed: Vec<&str> = a.failed().iter().map(|r| r.name).collect();
                caught[0] += u32::from(!failed.is_empty());
                for (i, name) in TESTS.iter().enumerate() {
                    caught[i + 1] += u32::from(failed.contains(name));
                }
            }
            let cells: Vec<String> = caught.iter().map(|c| format!("{c}/{RUNS}")).collect();
            println!("| {label} | {trials} | {} |", cells.join(" | "));
        }
    }
}

/// The least decks (on a 1.02× grid) at which `power(T) ≥ 0.8`; `None`
/// past ten million.
fn decks_for(power: impl Fn(u64) -> f64) -> Option<u64> {
    let mut lo = 1u64;
    let mut hi = 1u64;
    while power(hi) < 0.8 {
        if hi > 10_000_000 {
            return None;
        }
        lo = hi;
        hi = (hi as f64 * 2.0).ceil() as u64;
    }
    while hi as f64 > lo as f64 * 1.02 && hi > lo + 1 {
        let mid = ((lo as f64 * hi as f64).sqrt() as u64).clamp(lo + 1, hi - 1);
        if power(mid) >= 0.8 {
            hi = mid
        } else {
            lo = mid
        }
    }
    Some(hi)
}

/// Counts of T values drawn from `law` (cumulative `cdf`).
fn draw(cdf: &[f64], trials: u64, dice: &mut impl Dice) -> Vec<u64> {
    let mut counts = vec![0u64; cdf.len()];
    for _ in 0..trials {
        let u = dice.roll(1 << 53) as f64 / (1u64 << 53) as f64;
        counts[cdf.partition_point(|&c| c <= u).min(cdf.len() - 1)] += 1;
    }
    counts
}

/// The Neyman–Pearson threshold on Σ llr over `trials` uniform decks at
/// level `alpha`, for one deck's llr with law `null`: exact (every
/// histogram of the decks with its multinomial probability) where there
/// are at most two million histograms, else Bahadur–Rao's approximation.
fn np_threshold(null: &[f64], llr: &[f64], trials: u64, alpha: f64) -> f64 {
    exact_threshold(null, llr, trials, alpha)
        .unwrap_or_else(|| bahadur_rao_threshold(null, llr, trials, alpha))
}

/// The least sum s with `P(Σ llr ≥ s) ≤ alpha` (+∞ if none), by
/// enumeration, or `None` past two million histograms.
fn exact_threshold(null: &[f64], llr: &[f64], trials: u64, alpha: f64) -> Option<f64> {
    let (probs, llr): (Vec<f64>, Vec<f64>) = (null.iter().zip(llr))
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, l)| (*p, *l))
        .unzip();
    if tails::compositions(trials, probs.len()) > 2e6 {
        return None;
    }
    let mut sums = Vec::new();
    tails::each_outcome(&probs, trials, |c, p| {
        let s = (c.iter().zip(&llr))
            .filter(|(n, _)| **n > 0)
            .map(|(&n, &l)| n as f64 * l)
            .sum::<f64>();
        sums.push((s, p));
    });
    sums.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut tail = 0.0;
    let mut threshold = f64::INFINITY;
    for group in sums.chunk_by(|a, b| a.0 == b.0) {
        tail += group.iter().map(|x| x.1).sum::<f64>();
        if tail > alpha {
            break;
        }
        threshold = group[0].0;
    }
    Some(threshold)
}

/// The Neyman–Pearson threshold where the Bahadur–Rao approximation of its
/// tail (Bahadur and Rao 1960, “On deviations of the sample mean”) is α.
fn bahadur_rao_threshold(null: &[f64], llr: &[f64], trials: u64, alpha: f64) -> f64 {
    let t = trials as f64;
    // (ln E e^{λL}, tilted mean, tilted variance) under uniform shuffling.
    let tilt = |lambda: f64| {
        let terms: Vec<(f64, f64)> = null
            .iter()
            .zip(llr)
            .filter(|(p, l)| **p > 0.0 && l.is_finite())
            .map(|(p, l)| (p.ln() + lambda * l, *l))
            .collect();
        let top = terms.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = terms.iter().map(|x| (x.0 - top).exp()).collect();
        let z: f64 = w.iter().sum();
        let m1: f64 = w.iter().zip(&terms).map(|(w, x)| w * x.1).sum::<f64>() / z;
        let m2: f64 = w
            .iter()
            .zip(&terms)
            .map(|(w, x)| w * x.1 * x.1)
            .sum::<f64>()
            / z;
        (top + z.ln(), m1, m2 - m1 * m1)
    };
    let tail = |lambda: f64| {
        let (cgf, mean, var) = tilt(lambda);
        let rate = lambda * mean - cgf;
        (-t * rate).exp() / (lambda * (var * t * 2.0 * std::f64::consts::PI).sqrt())
    };
    // Bisect λ in (0, 8] for the tilt whose tail is alpha; the threshold is
    // T times its tilted mean.
    let (mut lo, mut hi) = (1e-6, 8.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > alpha {
            lo = mid
        } else {
            hi = mid
        }
    }
    t * tilt(hi).1
}

/// The machines of part 2: label, family, the true member, its null law.
fn cases() -> Vec<(&'static str, Family, usize)> {
    vec![
        ("1 pass, 10 shelves", families::shelves(N, 1), 8),
        ("2 passes, 10 shelves", families::shelves(N, 2), 8),
        ("8 GSR riffles", families::riffles(N), 7),
        ("12 GSR riffles", families::riffles(N), 11),
        ("104 top-to-random moves", families::top_to_random(N), 5),
    ]
}

/// The cumulative law of the statistic under the member's machine:
/// `P_θ(x) = P_uniform(x) · e^{llr_θ(x)}`.
fn machine_cdf(null: &[f64], llr: &[f64]) -> Vec<f64> {
    let alt: Vec<f64> = null
        .iter()
        .zip(llr)
        .map(|(p, l)| if *p > 0.0 { p * l.exp() } else { 0.0 })
        .collect();
    let total: f64 = alt.iter().sum();
    let mut acc = 0.0;
    alt.iter()
        .map(|p| {
            acc += p / total;
            acc
        })
        .collect()
}

/// Which test a power run measures.
#[derive(Clone, Copy)]
enum Contender {
    /// The Neyman–Pearson test of the one machine at this level.
    NeymanPearson(f64),
    /// The family test as the audit runs it, at its share.
    Audit,
}

/// One machine's row of part 2: decks for power 0.8 by each contender.
struct Row {
    label: &'static str,
    np: Option<u64>,
    np_share: Option<u64>,
    stein: f64,
    audit: Option<u64>,
}

/// The decks each contender needs against one machine (a member of
/// `family`), `runs` seeded runs per size.
fn row(label: &'static str, family: &Family, member: usize, runs: u32) -> Row {
    let share = DEFAULT_ALPHA / MAX_TESTS as f64;
    let null = uniform_law(family.statistic, N);
    let llr = &family.members[member].llr;
    let cdf = machine_cdf(&null, llr);
    let power = |trials: u64, who: Contender| {
        let seed = Seed::from_text(&format!("power-np/{label}/{trials}"));
        let mut dice = RngDice::new(Generator::ChaCha20.build(&seed));
        let threshold = match who {
            Contender::NeymanPearson(level) => np_threshold(&null, llr, trials, level),
            Contender::Audit => 0.0,
        };
        // The members the audit's test reads at this many decks.
        let read = likelihood::members_at(family, N, trials, share);
        let tail = FamilyTail::with_exact(&read, N, trials);
        let hits = (0..runs)
            .filter(|_| {
                let counts = draw(&cdf, trials, &mut dice);
                match who {
                    Contender::NeymanPearson(_) => {
                        likelihood::member_ratios(family, &counts)[member] >= threshold
                    }
                    Contender::Audit => {
                        let ln = likelihood::member_ratios(&read, &counts);
                        tail.p_value(&ln, trials) < share
                    }
                }
            })
            .count();
        hits as f64 / f64::from(runs)
    };
    Row {
        label,
        np: decks_for(|t| power(t, Contender::NeymanPearson(DEFAULT_ALPHA))),
        np_share: decks_for(|t| power(t, Contender::NeymanPearson(share))),
        stein: likelihood::decks_needed(&null, llr, share),
        audit: decks_for(|t| power(t, Contender::Audit)),
    }
}

/// Part 2 as the book's Markdown table.
fn print_markdown(rows: &[Row]) {
    println!();
    println!(
        "| machine (52 cards) | Neyman–Pearson test, α = 10⁻⁶ | Neyman–Pearson test, α/17 | Stein's estimate, α/17 | family test in the audit, α/17 | ratio to NP at α | ratio to NP at α/17 |"
    );
    println!("|---|---|---|---|---|---|---|");
    let cell = |d: Option<u64>| d.map_or("—".to_string(), |d| d.to_string());
    let ratio = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a as f64 / b as f64),
        _ => "—".to_string(),
    };
    for r in rows {
        println!(
            "| {} | {} | {} | {:.0} | {} | {} | {} |",
            r.label,
            cell(r.np),
            cell(r.np_share),
            r.stein,
            cell(r.audit),
            ratio(r.audit, r.np),
            ratio(r.audit, r.np_share),
        );
    }
}

/// Part 2 as the JavaScript module the fairness page shows beside an
/// audit (`crates/fairdeck-web/web/js/pages/power-table.js`).
fn print_web(rows: &[Row]) {
    let number = |d: Option<u64>| d.map_or("null".to_string(), |d| d.to_string());
    println!(
        "// Generated by `cargo run --release -p fairdeck-audit --example power_table -- --web`;"
    );
    println!("// do not edit. The book's power table (catalogue.md) is the same run.");
    println!("export const POWER_TABLE = [");
    for r in rows {
        println!(
            "  {{ machine: '{}', neymanPearson: {}, neymanPearsonShare: {}, audit: {} }},",
            r.label,
            number(r.np),
            number(r.np_share),
            number(r.audit)
        );
    }
    println!("];");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let web = args.iter().any(|a| a == "--web");
    if !web && !args.iter().any(|a| a == "--quick") {
        detection_rates();
    }
    let rows: Vec<Row> = (cases().into_iter())
        .map(|(label, family, member)| row(label, &family, member, 1000))
        .collect();
    match web {
        true => print_web(&rows),
        false => print_markdown(&rows),
    }
}
