use super::*;

#[test]
fn riffle_matches_bayer_diaconis_table_at_52() {
    // Bayer & Diaconis (1992), Table 1, k = 5..10.
    let table = [0.924, 0.614, 0.334, 0.167, 0.085, 0.043];
    for (k, expected) in (5..=10).zip(table) {
        let tv = riffle_total_variation(52, k).to_f64().unwrap();
        assert!((tv - expected).abs() < 0.0006, "k = {k}: {tv}");
    }
    assert!(riffle_total_variation(52, 4).to_f64().unwrap() > 0.99);
}

#[test]
fn riffle_formula_matches_propagation_at_5() {
    let walked = exact_small(Model::Riffle, 5, 4).unwrap();
    for (k, w) in (1..=4).zip(walked) {
        let formula = riffle_total_variation(5, k).to_f64().unwrap();
        assert!((formula - w).abs() < 1e-12, "k = {k}");
    }
}

#[test]
fn top_to_random_bounds_bracket_the_exact_distance() {
    let exact = exact_small(Model::TopToRandom, 6, 30).unwrap();
    for (k, tv) in (1..=30).zip(exact) {
        assert!(tv <= top_to_random_separation(6, k) + 1e-12, "k = {k}");
    }
    let e = statistic_lower_bound(Model::TopToRandom, 6, 3, 20_000, &Seed::from_text("t"));
    assert!(e.lower_bound - 3.0 * e.error <= exact_small(Model::TopToRandom, 6, 3).unwrap()[2]);
}

#[test]
fn overhand_mixes_slower_than_riffle() {
    let overhand = exact_small(Model::Overhand { mean_packet: 2 }, 6, 7).unwrap();
    let riffle = exact_small(Model::Riffle, 6, 7).unwrap();
    assert!(overhand[6] > riffle[6]);
    assert!(overhand.windows(2).all(|w| w[1] <= w[0] + 1e-12));
}

#[test]
fn models_produce_permutations() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_text("perm")));
    for model in [
        Model::Riffle,
        Model::TopToRandom,
        Model::Overhand { mean_packet: 5 },
    ] {
        let mut deck: Vec<usize> = (0..52).collect();
        model.shuffle(&mut deck, &mut dice);
        crate::check_permutation(&deck, 52).unwrap();
    }
}

#[test]
fn simulated_bound_sees_an_unshuffled_deck() {
    let e = statistic_lower_bound(Model::TopToRandom, 52, 10, 2_000, &Seed::from_text("s"));
    assert!(e.lower_bound > 0.9);
}

/// The one-pass overhand shuffle makes the same decks from the same rolls
/// as the packet-by-packet description (Pemantle's model) it replaced.
#[test]
fn overhand_in_one_pass_matches_the_packet_description() {
    use fairdeck::dice::{Dice, RngDice};
    use fairdeck::rng::{Generator, Seed};
    fn by_packets(deck: &[usize], m: u64, dice: &mut impl Dice) -> Vec<usize> {
        let mut packets: Vec<Vec<usize>> = vec![vec![deck[0]]];
        for &card in &deck[1..] {
            if dice.roll(m) == 0 {
                packets.push(Vec::new());
            }
            packets.last_mut().unwrap().push(card);
        }
        packets.into_iter().rev().flatten().collect()
    }
    for (n, m) in [(2, 1), (5, 2), (52, 6), (300, 3)] {
        let seed = Seed::from_text(&format!("overhand {n} {m}"));
        let mut a = RngDice::new(Generator::ChaCha20.build(&seed));
        let mut b = RngDice::new(Generator::ChaCha20.build(&seed));
        let mut deck: Vec<usize> = (0..n).collect();
        for _ in 0..20 {
            let expected = by_packets(&deck, m, &mut b);
            Model::Overhand { mean_packet: m }.shuffle(&mut deck, &mut a);
            assert_eq!(deck, expected, "n = {n}, m = {m}");
        }
    }
}

/// The exact distance of the statistic's law after k shuffles from its
/// uniform law (n ≤ 7): what the simulated estimate estimates.
fn exact_statistic_distance(model: Model, n: usize, k: u32) -> f64 {
    let (orders, laws) = exact_laws(model, n, k).unwrap();
    let uniform = statistic_law(model, n);
    let mut law = vec![0.0; uniform.len().max(n + 1)];
    for (order, p) in orders.iter().zip(&laws[k as usize - 1]) {
        law[statistic(model, order)] += p;
    }
    law.iter()
        .zip(uniform.iter().chain(std::iter::repeat(&0.0)))
        .map(|(q, p)| (q - p).abs())
        .sum::<f64>()
        / 2.0
}

/// Issue 22, item 4: the Hand shuffles page drew an overhand lower bound of
/// 0.03 after 33 shuffles of 52 cards from 408 decks (the page's plan), inside
/// its own noise. The point is reported as unresolved — its band reaches 0
/// — and its value is at the noise floor's scale; after one shuffle the
/// deck is far from uniform and the band says so.
#[test]
fn the_testers_overhand_point_is_inside_the_noise() {
    let model = Model::Overhand { mean_packet: 6 };
    let e = statistic_lower_bound(model, 52, 33, 408, &Seed::from_text("tester/33"));
    assert!(!e.resolved(), "{e:?}");
    assert!(e.band_low == 0.0 && e.band_high > e.lower_bound, "{e:?}");
    assert!(e.lower_bound < 3.0 * e.noise_floor, "{e:?}");
    let one = statistic_lower_bound(model, 52, 1, 408, &Seed::from_text("tester/1"));
    assert!(one.resolved() && one.band_low > 0.5, "{one:?}");
}

/// The band holds the exact statistic distance in at least its stated share
/// of runs: 200 seeded runs of 300 decks for each of four (model, k) at n = 6,
/// where the exact value is known. The band is built for 95 %; the check
/// asks ≥ 92 % (two standard errors of 200 runs below 95 %). Negative
/// control: the band of a run that simulated the wrong number of shuffles
/// (one) covers the exact value in under 20 % of runs, so the check can fail.
#[test]
fn the_band_covers_the_exact_value() {
    let cases = [
        (Model::Overhand { mean_packet: 2 }, 2),
        (Model::Overhand { mean_packet: 2 }, 6),
        (Model::TopToRandom, 3),
        (Model::TopToRandom, 8),
    ];
    for (model, k) in cases {
        let exact = exact_statistic_distance(model, 6, k);
        let (mut covered, mut narrow) = (0, 0);
        let runs = 200;
        for r in 0..runs {
            let e = statistic_lower_bound(model, 6, k, 300, &Seed::from_text(&format!("band/{r}")));
            covered += usize::from(e.band_low <= exact && exact <= e.band_high);
            let wrong =
                statistic_lower_bound(model, 6, 1, 300, &Seed::from_text(&format!("band/{r}")));
            narrow += usize::from(wrong.band_low <= exact && exact <= wrong.band_high);
        }
        let share = covered as f64 / runs as f64;
        assert!(
            share >= 0.92,
            "{model:?} k={k}: exact {exact}, covered {share}"
        );
        assert!(
            (narrow as f64) / (runs as f64) < 0.2,
            "{model:?} k={k}: a one-shuffle band covered {narrow}"
        );
        println!(
            "{model:?} k={k}: exact {exact:.4}, covered {share:.3}, one-shuffle band {narrow}/{runs}"
        );
    }
}
