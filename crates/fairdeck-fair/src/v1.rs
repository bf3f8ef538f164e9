//! Verifying a version 1 deal document (`fair deal --format json` without a
//! table): its hands, stock and deck line recomputed from the server
//! secret, the client seed and the nonce, against the commitment it states
//! and the one published before play (section 4 of `docs/fair-dealing.md`).

use core::fmt;

use fairdeck::cards::{Card, DeckKind, Game};

use crate::{
    Commitment, DealRecord, Difference, Kind, PileRecord, ServerSecret, V1Deal, Verdict,
    Verification, compare_deal, shuffled_deck,
};

/// Why a version 1 deal document could not be checked at all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum V1Error {
    /// The game or deck it names does not exist, or its deck cannot be
    /// dealt by the game's plan.
    Cards(fairdeck::Error),
    /// No player count of the game deals this many hands.
    HandCount {
        /// The number of hands in the document.
        hands: usize,
        /// The game it names.
        game: String,
    },
}

impl fmt::Display for V1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            V1Error::Cards(e) => e.fmt(f),
            V1Error::HandCount { hands, game } => write!(f, "{hands} hands is no {game} deal"),
        }
    }
}

impl std::error::Error for V1Error {}

impl From<fairdeck::Error> for V1Error {
    fn from(e: fairdeck::Error) -> Self {
        V1Error::Cards(e)
    }
}

/// Checks one version 1 deal: the secret against the commitment the deal
/// states and against `published` (when given), then every hand, the
/// community cards and burns, the stock and the deck line against the deal
/// `(secret, client seed, nonce)` derives. Returns the verification and
/// what was checked, one line each. O(deck).
///
/// # Errors
///
/// [`V1Error`] when the document's game, deck or number of hands make no
/// deal to compare with.
pub fn verify_v1(
    doc: &V1Deal,
    secret: &ServerSecret,
    published: Option<&Commitment>,
) -> Result<(Verification, Vec<String>), V1Error> {
    let (expected, claimed) = records(doc, secret)?;
    let computed = secret.commitment();
    let mut v = Verification {
        computed: Some(computed),
        published_checked: published.is_some(),
        deals_checked: 1,
        ..Verification::default()
    };
    let bad = |kind, message| Difference { kind, message };
    if Commitment::from_hex(&doc.commitment).ok() != Some(computed) {
        let why = format!(
            "SHA-256 of the secret is {computed}, the deal states {:?}",
            doc.commitment
        );
        v.differences.push(bad(Kind::Commitment, why));
    }
    if let Some(p) = published.filter(|p| **p != computed) {
        let why =
            format!("SHA-256 of the secret is {computed}, the one published before play is {p}");
        v.differences.push(bad(Kind::PublishedCommitment, why));
    }
    compare_deal(&expected, &claimed, &mut v.differences);
    let checked = vec![
        "the secret against the commitment (version 1: SHA-256 of the secret)".to_string(),
        format!(
            "deal {} of client seed {:?} ({}, {} deck): every hand, the community cards and burns, the stock and the deck line",
            doc.nonce, doc.client_seed, doc.game, doc.deck
        ),
    ];
    Ok((v, checked))
}

/// The deal the inputs derive and the one the document claims, as records.
fn records(doc: &V1Deal, secret: &ServerSecret) -> Result<(DealRecord, DealRecord), V1Error> {
    let game: Game = doc.game.parse()?;
    let kind: DeckKind = doc.deck.parse()?;
    let plan = game
        .players()
        .0
        .filter_map(|p| game.plan(Some(p)).ok())
        .find(|plan| plan.piles().count() == doc.hands.len())
        .ok_or_else(|| V1Error::HandCount {
            hands: doc.hands.len(),
            game: doc.game.clone(),
        })?;
    let deck = shuffled_deck(secret, &doc.client_seed, doc.nonce, kind);
    let dealt = plan.deal(&deck)?;
    let record = |piles: Vec<PileRecord>, stock: &[Card], deck: &[Card]| DealRecord {
        nonce: doc.nonce,
        dealer: None,
        vulnerable: None,
        piles,
        stock: stock.to_vec(),
        deck: Some(deck.to_vec()),
    };
    let expected_piles: Vec<PileRecord> = dealt
        .piles
        .iter()
        .map(|p| PileRecord {
            name: p.name.clone(),
            role: p.role.name().into(),
            cards: p.cards.clone(),
        })
        .collect();
    let claimed_piles = doc
        .hands
        .iter()
        .zip(&expected_piles)
        .map(|(h, e)| PileRecord {
            name: h.name.clone(),
            role: e.role.clone(),
            cards: h.cards.clone(),
        })
        .collect();
    Ok((
        record(expected_piles, &dealt.stock, &deck),
        record(claimed_piles, &doc.stock, &doc.cards),
    ))
}

/// The verdict of a version 1 check: it has no lock, seats or deal order,
/// so it is valid with the published commitment and self-consistent only
/// without it. O(1).
pub fn v1_verdict(v: &Verification) -> Verdict {
    match (v.differences.is_empty(), v.published_checked) {
        (false, _) => Verdict::Invalid,
        (true, true) => Verdict::Valid,
        (true, false) => Verdict::SelfConsistentOnly,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::V1Hand;

    fn honest(secret: &ServerSecret) -> V1Deal {
        let deck = shuffled_deck(secret, "alice", 3, DeckKind::Standard);
        let game: Game = "bridge".parse().unwrap();
        let dealt = game.plan(None).unwrap().deal(&deck).unwrap();
        V1Deal {
            commitment: secret.commitment().to_hex(),
            client_seed: "alice".into(),
            nonce: 3,
            game: "bridge".into(),
            deck: "standard".into(),
            hands: (dealt.piles.iter())
                .map(|p| V1Hand {
                    name: p.name.clone(),
                    cards: p.cards.clone(),
                })
                .collect(),
            stock: dealt.stock.clone(),
            cards: deck,
        }
    }

    #[test]
    fn an_honest_deal_is_valid_only_with_the_published_commitment() {
        let secret = ServerSecret::from_bytes([7; 32]);
        let doc = honest(&secret);
        let (v, checked) = verify_v1(&doc, &secret, None).unwrap();
        assert_eq!((v.differences.len(), checked.len()), (0, 2));
        assert_eq!(v1_verdict(&v), Verdict::SelfConsistentOnly);
        let (v, _) = verify_v1(&doc, &secret, Some(&secret.commitment())).unwrap();
        assert_eq!(v1_verdict(&v), Verdict::Valid);
    }

    #[test]
    fn a_swapped_card_and_a_wrong_commitment_are_named() {
        let secret = ServerSecret::from_bytes([7; 32]);
        let mut doc = honest(&secret);
        doc.cards.swap(0, 1);
        let other = ServerSecret::from_bytes([8; 32]).commitment();
        let (v, _) = verify_v1(&doc, &secret, Some(&other)).unwrap();
        let kinds: Vec<Kind> = v.differences.iter().map(|d| d.kind).collect();
        assert!(kinds.contains(&Kind::PublishedCommitment), "{kinds:?}");
        assert!(kinds.len() >= 2, "{kinds:?}");
        assert_eq!(v1_verdict(&v), Verdict::Invalid);
    }

    #[test]
    fn a_hand_count_no_player_count_deals_is_refused() {
        let secret = ServerSecret::from_bytes([7; 32]);
        let mut doc = honest(&secret);
        doc.hands.pop();
        doc.hands.pop();
        doc.hands.pop();
        let e = verify_v1(&doc, &secret, None).unwrap_err();
        assert_eq!(e.to_string(), "1 hands is no bridge deal");
    }
}
