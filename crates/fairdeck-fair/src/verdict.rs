//! Checking a transcript: everything a player saw is recomputed and every
//! difference is named by its kind (section 11 of `docs/fair-dealing.md`).
//!
//! Over 400 lines on purpose: each difference kind and the check that finds it
//! are read together against the specification's section on verification.

use core::fmt;
use std::collections::BTreeMap;

use super::record::VoidRecord;
use super::table::Table;
use super::transcript::{DealRecord, Transcript};
use super::version::TranscriptVersion;
use super::{Commitment, ServerSecret};
use fairdeck::cards::Card;

/// The kind of one difference a verification found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kind {
    /// The document breaks the rules of reading (section 10.1): not JSON,
    /// a duplicate or unknown key, a missing field, a wrong type, hex not
    /// in lowercase, a card not in the specification's spelling. Nothing
    /// else is checked.
    Document,
    /// The manifest breaks a rule of the specification (or is not version 2).
    Manifest,
    /// The transcript's seats are not the manifest's, in order.
    Seats,
    /// A seat never revealed its seed: the table is void.
    MissingReveal,
    /// A seat's revealed seed does not match its commitment.
    SeatCommitment,
    /// The room's secret is missing or not 64 hex digits.
    Secret,
    /// The secret and the manifest do not give the transcript's commitment.
    Commitment,
    /// The secret and the manifest do not give the commitment published
    /// before play (given separately).
    PublishedCommitment,
    /// A deal of the manifest's range is not in the transcript.
    MissingDeal,
    /// A deal outside the manifest's range.
    ExtraDeal,
    /// The same deal twice.
    DuplicateDeal,
    /// The deals are not in increasing order.
    DealOrder,
    /// The piles are not the game's layout (names, roles or count).
    Piles,
    /// A player's hand differs.
    Hand,
    /// Community cards (hold'em board, scopa table) differ.
    Community,
    /// Burned cards differ.
    Burn,
    /// The kitty (the skat) differs.
    Kitty,
    /// The undealt stock differs.
    Stock,
    /// The `deck` line differs.
    Deck,
    /// A bridge board's dealer differs.
    Dealer,
    /// A bridge board's vulnerability differs.
    Vulnerable,
    /// Version 2.1: the transcript's own seat lock is missing or is not
    /// the lock of its seats' commitments.
    Lock,
    /// The seats' commitments do not give the lock the player recorded
    /// before the reveals (given separately): a commitment was replaced
    /// after the lock — a seat's seed chosen after the other seats' reveals.
    PublishedLock,
    /// The transcript's seed (or commitment) for the player's own seat is
    /// not the player's (given separately).
    OwnSeed,
    /// The deals played: the transcript's count is impossible, or the deal
    /// numbers the player was shown (given separately) are not `first`,
    /// `first + 1`, … up to the count.
    Played,
    /// A void record names the wrong phase or seats, or lists deals.
    Void,
}

impl Kind {
    /// The kebab-case name used in JSON and in the specification.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Document => "document",
            Kind::Manifest => "manifest",
            Kind::Seats => "seats",
            Kind::MissingReveal => "missing-reveal",
            Kind::SeatCommitment => "seat-commitment",
            Kind::Secret => "secret",
            Kind::Commitment => "commitment",
            Kind::PublishedCommitment => "published-commitment",
            Kind::MissingDeal => "missing-deal",
            Kind::ExtraDeal => "extra-deal",
            Kind::DuplicateDeal => "duplicate-deal",
            Kind::DealOrder => "deal-order",
            Kind::Piles => "piles",
            Kind::Hand => "hand",
            Kind::Community => "community",
            Kind::Burn => "burn",
            Kind::Kitty => "kitty",
            Kind::Stock => "stock",
            Kind::Deck => "deck",
            Kind::Dealer => "dealer",
            Kind::Vulnerable => "vulnerable",
            Kind::Lock => "lock",
            Kind::PublishedLock => "published-lock",
            Kind::OwnSeed => "own-seed",
            Kind::Played => "played",
            Kind::Void => "void",
        }
    }
}

/// One difference: its kind and what exactly differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The kind.
    pub kind: Kind,
    /// What differs, in words (names the seat, deal and cards).
    pub message: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

/// The result of checking a transcript; [`Verification::verdict`] says
/// what it amounts to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    /// The transcript's version (`None` for a version 1 deal).
    pub version: Option<TranscriptVersion>,
    /// Every difference found (empty: everything checked matches).
    pub differences: Vec<Difference>,
    /// The room commitment the secret and manifest give, if they could be read.
    pub computed: Option<Commitment>,
    /// Whether a separately published commitment was compared.
    pub published_checked: bool,
    /// The seat lock the transcript's commitments give, if they could be read.
    pub lock: Option<Commitment>,
    /// Whether the lock the player recorded before the reveals was compared.
    pub lock_checked: bool,
    /// Whether the player's own seed was compared with its seat's.
    pub seed_checked: bool,
    /// Whether the deal numbers the player was shown were compared.
    pub played_checked: bool,
    /// Version 2.1: (deals played, deals in the range).
    pub played: Option<(u64, u64)>,
    /// A void record, as checked.
    pub void: Option<VoidRecord>,
    /// Deals recomputed and compared.
    pub deals_checked: usize,
}

impl Verification {
    /// No difference, not void, and the published commitment was given and
    /// matches. Says nothing about the seat lock, the player's own seed or
    /// the deals played: [`Verification::verdict`] does.
    pub fn is_valid(&self) -> bool {
        self.differences.is_empty() && self.published_checked && self.void.is_none()
    }
}

pub(super) fn diff(kind: Kind, message: String) -> Difference {
    Difference { kind, message }
}

/// The manifest and the seat names; `None` (with the difference recorded)
/// when nothing else can be checked.
pub(super) fn check_table(t: &Transcript, v: &mut Verification) -> Option<Table> {
    let out = &mut v.differences;
    if t.version != 2 {
        out.push(diff(
            Kind::Manifest,
            format!("transcript version {} is not 2", t.version),
        ));
    }
    let table = match t.manifest.check() {
        Ok(table) => table,
        Err(e) => {
            out.push(diff(Kind::Manifest, e.to_string()));
            return None;
        }
    };
    let names: Vec<&String> = t.seats.iter().map(|s| &s.name).collect();
    if names != t.manifest.seats.iter().collect::<Vec<_>>() {
        out.push(diff(
            Kind::Seats,
            format!(
                "the seats {names:?} are not the manifest's {:?}",
                t.manifest.seats
            ),
        ));
        return None;
    }
    Some(table)
}

/// Every seat's reveal against its commitment; the seeds when all revealed.
pub(super) fn check_reveals(
    t: &Transcript,
    table: &Table,
    v: &mut Verification,
) -> Option<Vec<String>> {
    let out = &mut v.differences;
    let mut seeds = Vec::new();
    for (i, seat) in t.seats.iter().enumerate() {
        let Some(seed) = &seat.seed else {
            let why = if seat.commitment.is_empty() {
                format!("seat {:?} never committed: the table is void", seat.name)
            } else {
                format!(
                    "seat {:?} did not reveal its seed: the table is void",
                    seat.name
                )
            };
            out.push(diff(Kind::MissingReveal, why));
            continue;
        };
        let computed = table.seat_commitment(i, seed);
        if Commitment::from_hex(&seat.commitment).ok() != Some(computed) {
            out.push(diff(
                Kind::SeatCommitment,
                format!(
                    "seat {:?}'s seed gives the commitment {computed}, the transcript shows {:?}",
                    seat.name, seat.commitment
                ),
            ));
        }
        seeds.push(seed.clone());
    }
    (seeds.len() == t.seats.len()).then_some(seeds)
}

/// The room's secret; `None` (with the difference recorded) when it is
/// missing or malformed.
pub(super) fn check_secret(t: &Transcript, v: &mut Verification) -> Option<ServerSecret> {
    match t.server_secret.as_deref().map(ServerSecret::from_hex) {
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            v.differences.push(diff(Kind::Secret, e.to_string()));
            None
        }
        None => {
            let why = "the room has not revealed its secret: no deal can be checked yet";
            v.differences.push(diff(Kind::Secret, why.into()));
            None
        }
    }
}

pub(super) fn check_commitment(
    t: &Transcript,
    table: &Table,
    secret: &ServerSecret,
    published: Option<&Commitment>,
    v: &mut Verification,
) {
    let computed = table.room_commitment(secret);
    v.computed = Some(computed);
    if Commitment::from_hex(&t.commitment).ok() != Some(computed) {
        v.differences.push(diff(
            Kind::Commitment,
            format!(
                "the secret and the manifest give the commitment {computed}, the transcript \
                 states {:?}: the secret, the manifest or the commitment was changed",
                t.commitment
            ),
        ));
    }
    if let Some(p) = published {
        v.published_checked = true;
        if *p != computed {
            v.differences.push(diff(
                Kind::PublishedCommitment,
                format!(
                    "the secret and the manifest give the commitment {computed}, the one \
                     published before play is {p}"
                ),
            ));
        }
    }
}

/// Checks that the deals are exactly the manifest's range, in order, and
/// compares each with `derive(nonce)`.
pub(super) fn check_deals(
    t: &Transcript,
    table: &Table,
    v: &mut Verification,
    derive: impl Fn(u64) -> Option<DealRecord>,
) {
    let (first, last) = (table.manifest.first, table.manifest.last);
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    let mut previous: Option<u64> = None;
    for (i, claimed) in t.deals.iter().enumerate() {
        let n = claimed.nonce;
        let place = format!("deal {n} (entry {} of the transcript)", i + 1);
        if !(first..=last).contains(&n) {
            let why = format!("{place} is outside the manifest's deals {first}-{last}");
            v.differences.push(diff(Kind::ExtraDeal, why));
            continue;
        }
        if let Some(&j) = seen.get(&n) {
            let why = format!("{place} repeats entry {}", j + 1);
            v.differences.push(diff(Kind::DuplicateDeal, why));
            continue;
        }
        if let Some(p) = previous.filter(|&p| p > n) {
            let why = format!("{place} comes after deal {p}");
            v.differences.push(diff(Kind::DealOrder, why));
        }
        previous = Some(n);
        seen.insert(n, i);
        if let Some(expected) = derive(n) {
            compare_deal(&expected, claimed, &mut v.differences);
            v.deals_checked += 1;
        }
    }
    let missing: Vec<String> = (first..=last)
        .filter(|n| !seen.contains_key(n))
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        let shown = missing
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 20 { ", …" } else { "" };
        let why = format!(
            "{} deal(s) of the manifest are missing: {shown}{more}",
            missing.len()
        );
        v.differences.push(diff(Kind::MissingDeal, why));
    }
}

/// Compares one claimed deal with the derived one, pile by pile: player
/// hands and the kitty as sets, community cards, burns, the stock and the
/// deck line card by card; a bridge board's dealer and vulnerability. O(n).
pub fn compare_deal(expected: &DealRecord, claimed: &DealRecord, out: &mut Vec<Difference>) {
    let n = expected.nonce;
    let shape = |d: &DealRecord| -> Vec<(String, String)> {
        d.piles
            .iter()
            .map(|p| (p.name.clone(), p.role.clone()))
            .collect()
    };
    if shape(expected) != shape(claimed) {
        out.push(diff(
            Kind::Piles,
            format!(
                "deal {n}: the piles {:?} are not the layout's {:?}",
                shape(claimed),
                shape(expected)
            ),
        ));
    } else {
        for (e, c) in expected.piles.iter().zip(&claimed.piles) {
            let (kind, as_set) = match e.role.as_str() {
                "player" => (Kind::Hand, true),
                "kitty" => (Kind::Kitty, true),
                "burn" => (Kind::Burn, false),
                _ => (Kind::Community, false),
            };
            if let Some(why) = cards_differ(&e.cards, &c.cards, as_set) {
                out.push(diff(kind, format!("deal {n}, {}: {why}", e.name)));
            }
        }
    }
    if let Some(why) = cards_differ(&expected.stock, &claimed.stock, false) {
        out.push(diff(Kind::Stock, format!("deal {n}: {why}")));
    }
    if let (Some(e), Some(c)) = (&expected.deck, &claimed.deck)
        && let Some(why) = cards_differ(e, c, false)
    {
        out.push(diff(Kind::Deck, format!("deal {n}: {why}")));
    }
    for (kind, e, c) in [
        (Kind::Dealer, &expected.dealer, &claimed.dealer),
        (Kind::Vulnerable, &expected.vulnerable, &claimed.vulnerable),
    ] {
        if e != c {
            let show = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
            let why = format!("deal {n}: {} where board {n} has {}", show(c), show(e));
            out.push(diff(kind, why));
        }
    }
}

/// What differs between two card lists, or `None` when they agree (as
/// multisets when `as_set`, else card by card).
fn cards_differ(expected: &[Card], claimed: &[Card], as_set: bool) -> Option<String> {
    let mut count: BTreeMap<Card, i64> = BTreeMap::new();
    expected
        .iter()
        .for_each(|c| *count.entry(*c).or_default() -= 1);
    claimed
        .iter()
        .for_each(|c| *count.entry(*c).or_default() += 1);
    let list = |sign: i64| -> String {
        let cards: Vec<String> = count
            .iter()
            .filter(|&(_, &k)| k * sign > 0)
            .flat_map(|(c, &k)| std::iter::repeat_n(c.to_string(), k.unsigned_abs() as usize))
            .collect();
        if cards.is_empty() {
            "none".into()
        } else {
            cards.join(" ")
        }
    };
    if count.values().any(|&k| k != 0) {
        return Some(format!(
            "has {} that the derivation does not give, lacks {}",
            list(1),
            list(-1)
        ));
    }
    if as_set {
        return None;
    }
    let first = expected.iter().zip(claimed).position(|(e, c)| e != c)?;
    Some(format!(
        "the right cards in another order: place {} holds {} where the derivation gives {}",
        first + 1,
        claimed[first],
        expected[first]
    ))
}
