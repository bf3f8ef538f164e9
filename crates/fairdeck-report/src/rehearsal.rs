//! `mix MODEL --decks N`: decks from a model of shuffling, one per line, so
//! that a lab can rehearse an audit (`fairdeck mix shelf --decks 20 |
//! fairdeck audit --input -`) before it has a machine's log.

use fairdeck::cards::DeckKind;
use fairdeck::dice::RngDice;
use fairdeck_audit::estimates;
use fairdeck_audit::mix::{Model, shelf::shelf_pass};
use fairdeck_audit::stats::MAX_TRIALS;
use serde::Serialize;

use crate::mix::Request;
use crate::random::Randomness;
use crate::{Field, budget, message, refuse};

/// What `mix MODEL --decks N --format json` prints.
#[derive(Debug, Serialize)]
pub struct Decks {
    /// The model, with its parameters ("shelf, 10 shelves, 1 pass").
    pub model: String,
    /// Cards per deck.
    pub n: usize,
    /// The key the decks were drawn with (replays them).
    pub seed: String,
    /// The decks, top card first: card names for 52 cards (the standard
    /// deck's documented order going in), numbers 0..n−1 otherwise.
    pub decks: Vec<Vec<String>>,
}

/// How a model makes one deck.
enum Maker {
    Hand(Model, u32),
    Shelf(u64, u32),
}

/// Draws `request.decks` decks from the model: `shuffles` shuffles of
/// riffle, top-to-random or overhand, or `passes` passes through `shelves`
/// shelves. O(decks · n · shuffles) time.
///
/// # Errors
///
/// A [`crate::RequestError`] for an unknown model, counts out of range, or
/// a run over the work budget.
pub fn decks(request: &Request, random: &Randomness) -> crate::Result<Decks> {
    let (maker, model) = maker(request)?;
    let n = request.n;
    let count = request.decks.unwrap_or(0);
    if !(2..=10_000).contains(&n) || !(1..=MAX_TRIALS).contains(&count) {
        return Err(refuse(
            Field::Decks,
            message![
                Field::N,
                " must be 2..=10000 and ",
                Field::Decks,
                format!(" 1..={MAX_TRIALS}"),
            ],
        ));
    }
    let rounds = match maker {
        Maker::Hand(_, k) | Maker::Shelf(_, k) => u64::from(k),
    };
    let steps = count.saturating_mul(n as u64).saturating_mul(rounds.max(1));
    budget::check(request.allow_long, Field::Decks, steps, |budget| {
        let most = estimates::largest(count, budget, |d| d * n as u64 * rounds.max(1));
        message![
            Field::Decks,
            format!(" at most {most} at "),
            Field::N,
            format!(" {n}")
        ]
    })?;
    let names = (n == 52).then(|| DeckKind::Standard.cards());
    let mut dice = RngDice::new(random.generator.build(&random.seed));
    let decks = (0..count)
        .map(|_| {
            let mut deck: Vec<usize> = (0..n).collect();
            match maker {
                Maker::Hand(m, k) => (0..k).for_each(|_| m.shuffle(&mut deck, &mut dice)),
                Maker::Shelf(m, p) => (0..p).for_each(|_| shelf_pass(&mut deck, m, &mut dice)),
            }
            deck.iter()
                .map(|&c| names.as_ref().map_or(c.to_string(), |o| o[c].to_string()))
                .collect()
        })
        .collect();
    Ok(Decks {
        model,
        n,
        seed: random.seed.to_hex(),
        decks,
    })
}

/// The maker and its description, from the request's model and counts.
fn maker(r: &Request) -> crate::Result<(Maker, String)> {
    let k = r.shuffles.unwrap_or(1);
    if r.model == "shelf" {
        let (m, p) = (r.shelves.unwrap_or(10), r.passes.unwrap_or(1));
        if !(1..=1000).contains(&m) || !(1..=100).contains(&p) {
            return Err(refuse(
                Field::Shelves,
                message![
                    Field::Shelves,
                    " must be 1..=1000 and ",
                    Field::Passes,
                    " 1..=100"
                ],
            ));
        }
        let plural = if p == 1 { "" } else { "es" };
        return Ok((
            Maker::Shelf(m, p),
            format!("shelf, {m} shelves, {p} pass{plural}"),
        ));
    }
    let model = match r.model.as_str() {
        "riffle" | "gsr" => Model::Riffle,
        "top-to-random" => Model::TopToRandom,
        "overhand" if r.mean_packet >= 1 => Model::Overhand {
            mean_packet: r.mean_packet,
        },
        other => {
            return Err(refuse(
                Field::Model,
                format!("unknown model {other:?} (known: riffle, top-to-random, overhand, shelf)"),
            ));
        }
    };
    if !(1..=1_000_000).contains(&k) {
        return Err(refuse(
            Field::Shuffles,
            message![Field::Shuffles, " must be 1..=1000000"],
        ));
    }
    Ok((
        Maker::Hand(model, k),
        format!("{}, {k} shuffles", model.name()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::RandomRequest;

    fn request(model: &str, decks: u64) -> Request {
        let mut r: Request =
            serde_json::from_str(&format!(r#"{{"model": "{model}", "decks": {decks}}}"#)).unwrap();
        r.random = RandomRequest::seeded("rehearsal");
        r
    }

    /// The decks replay from the seed, are decks, and a one-pass 10-shelf
    /// machine leaves at most 9 valleys in each.
    #[test]
    fn shelf_decks_replay_and_keep_the_machines_mark() {
        let r = request("shelf", 5);
        let random = r.random.randomness().unwrap();
        let a = decks(&r, &random).unwrap();
        assert_eq!(a.decks, decks(&r, &random).unwrap().decks);
        let order: Vec<String> = DeckKind::Standard
            .cards()
            .iter()
            .map(|c| c.to_string())
            .collect();
        for deck in &a.decks {
            let mut sorted = deck.clone();
            sorted.sort();
            let mut all = order.clone();
            all.sort();
            assert_eq!(sorted, all);
            let idx: Vec<usize> = deck
                .iter()
                .map(|c| order.iter().position(|o| o == c).unwrap())
                .collect();
            assert!(
                idx.windows(3)
                    .filter(|w| w[0] > w[1] && w[1] < w[2])
                    .count()
                    <= 9
            );
        }
        assert_eq!(a.model, "shelf, 10 shelves, 1 pass");
        assert!(decks(&request("shelf", 0), &random).is_err());
        assert!(decks(&request("bogus", 3), &random).is_err());
    }
}
