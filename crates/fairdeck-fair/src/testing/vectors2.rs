//! The version-2 test vectors of `docs/fair-dealing.md` (section 12),
//! generated here and pinned: each block of the document must be exactly
//! what this code renders. Print them with
//! `cargo test -p fairdeck-fair --lib testing::vectors2 -- --ignored --nocapture`.

use crate::transcript::quote;
use crate::*;

/// Inputs of one vector: name, secret, table id, game, deck, seat names,
/// seeds, first and last deal.
pub(super) struct Inputs {
    pub name: &'static str,
    pub secret: &'static str,
    pub table: &'static str,
    pub game: &'static str,
    pub deck: &'static str,
    pub seats: &'static [&'static str],
    pub seeds: &'static [&'static str],
    pub first: u64,
    pub last: u64,
    /// Version 2.1: the deals played (`None`: a version 2 vector).
    pub played: Option<u64>,
}

const COUNTING: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const ONES: &str = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";

pub(super) const VECTORS: [Inputs; 8] = [
    Inputs {
        name: "bridge, one board",
        secret: COUNTING,
        table: "club night 2026-11-24, table 1",
        game: "bridge",
        deck: "standard",
        seats: &["North", "East", "South", "West"],
        seeds: &["north's seed", "east's seed", "south's seed", "west's seed"],
        first: 1,
        last: 1,
        played: None,
    },
    Inputs {
        name: "hold'em, 2 seats",
        secret: COUNTING,
        table: "heads-up 7",
        game: "holdem",
        deck: "standard",
        seats: &["ann", "bo"],
        seeds: &["a", "b"],
        first: 0,
        last: 0,
        played: None,
    },
    Inputs {
        name: "hold'em, 9 seats",
        secret: ONES,
        table: "ring game 3",
        game: "holdem",
        deck: "standard",
        seats: &["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"],
        seeds: &["1", "2", "3", "4", "5", "6", "7", "8", "9 ♠"],
        first: 41,
        last: 41,
        played: None,
    },
    Inputs {
        name: "skat",
        secret: COUNTING,
        table: "Skatabend 12",
        game: "skat",
        deck: "piquet",
        seats: &["Forehand", "Middlehand", "Rearhand"],
        seeds: &["vorhand", "mittelhand", "hinterhand"],
        first: 0,
        last: 0,
        played: None,
    },
    Inputs {
        name: "scopa, 4 seats",
        secret: COUNTING,
        table: "scopa 1",
        game: "scopa",
        deck: "italian",
        seats: &["Anna", "Bruno", "Carla", "Dario"],
        seeds: &["coppe", "denari", "bastoni", "spade"],
        first: 0,
        last: 0,
        played: None,
    },
    Inputs {
        name: "five-card draw, 4 seats",
        secret: ONES,
        table: "draw 5",
        game: "draw",
        deck: "standard",
        seats: &["Seat 1", "Seat 2", "Seat 3", "Seat 4"],
        seeds: &["w", "x", "y", "z"],
        first: 0,
        last: 0,
        played: None,
    },
    Inputs {
        name: "a 6-deck shoe",
        secret: COUNTING,
        table: "blackjack shoe 88",
        game: "shoe",
        deck: "shoe:6",
        seats: &["box 1", "box 2"],
        seeds: &["first box", "second box"],
        first: 0,
        last: 0,
        played: None,
    },
    Inputs {
        name: "a 32-board bridge session",
        secret: ONES,
        table: "pairs event 2026-11-24",
        game: "bridge",
        deck: "standard",
        seats: &["North", "East", "South", "West"],
        seeds: &["n", "e", "s", "w"],
        first: 1,
        last: 32,
        played: None,
    },
];

/// The version 2.1 vectors: the seat lock and the count of deals played.
pub(super) const VECTORS21: [Inputs; 2] = [
    Inputs {
        name: "hold'em, 2 seats, version 2.1",
        secret: COUNTING,
        table: "heads-up 8",
        game: "holdem",
        deck: "standard",
        seats: &["ann", "bo"],
        seeds: &["a", "b"],
        first: 0,
        last: 1,
        played: Some(2),
    },
    Inputs {
        name: "skat, version 2.1, stopped after 1 of 2 deals",
        secret: ONES,
        table: "Skatabend 13",
        game: "skat",
        deck: "piquet",
        seats: &["Forehand", "Middlehand", "Rearhand"],
        seeds: &["vorhand", "mittelhand", "hinterhand"],
        first: 0,
        last: 1,
        played: Some(1),
    },
];

/// A void vector: the inputs and which seats failed (`None` seed: did not
/// reveal; in `uncommitted`: did not commit).
pub(super) struct VoidInputs {
    pub base: Inputs,
    pub uncommitted: &'static [usize],
    pub unrevealed: &'static [usize],
}

pub(super) const VOIDS: [VoidInputs; 2] = [
    VoidInputs {
        base: Inputs {
            name: "void at the commit phase",
            secret: COUNTING,
            table: "ring game 4",
            game: "holdem",
            deck: "standard",
            seats: &["ann", "bo", "cy"],
            seeds: &["a", "b", "c"],
            first: 0,
            last: 9,
            played: Some(0),
        },
        uncommitted: &[2],
        unrevealed: &[0, 1, 2],
    },
    VoidInputs {
        base: Inputs {
            name: "void at the reveal phase",
            secret: COUNTING,
            table: "ring game 5",
            game: "holdem",
            deck: "standard",
            seats: &["ann", "bo", "cy"],
            seeds: &["a", "b", "c"],
            first: 0,
            last: 9,
            played: Some(0),
        },
        uncommitted: &[],
        unrevealed: &[1],
    },
];

impl VoidInputs {
    /// The seats as the room collected them.
    pub fn seats(&self) -> Vec<SeatRecord> {
        let mut seats = self.base.seats();
        for &i in self.uncommitted {
            seats[i].commitment.clear();
        }
        for &i in self.unrevealed {
            seats[i].seed = None;
        }
        seats
    }

    /// The lock, at the reveal phase.
    pub fn lock(&self) -> Option<Commitment> {
        self.uncommitted.is_empty().then(|| self.base.lock())
    }

    pub fn record(&self) -> Record {
        let b = &self.base;
        Record::void(
            &b.manifest(),
            &b.secret(),
            &self.seats(),
            self.lock().as_ref(),
        )
        .unwrap()
    }

    pub fn render(&self) -> String {
        let b = &self.base;
        let table = b.manifest().check().unwrap();
        let lock = match self.lock() {
            Some(l) => format!(
                " \"lock_message\": \"{}\",\n \"lock\": \"{l}\",\n",
                to_hex(&table.lock_message(&table.room_commitment(&b.secret()), &b.commitments()))
            ),
            None => String::new(),
        };
        format!(
            "{{\"vector\": {},\n \"manifest_bytes\": \"{}\",\n{lock} \"transcript\":\n{}}}\n",
            quote(b.name),
            to_hex(&b.manifest().to_bytes()),
            self.record().to_json().trim_end()
        )
    }
}

impl Inputs {
    /// Every seat's commitment.
    pub fn commitments(&self) -> Vec<Commitment> {
        let table = self.manifest().check().unwrap();
        (0..self.seeds.len())
            .map(|i| table.seat_commitment(i, self.seeds[i]))
            .collect()
    }

    /// The seat lock of the honest commitments.
    pub fn lock(&self) -> Commitment {
        let table = self.manifest().check().unwrap();
        table
            .seat_lock(&table.room_commitment(&self.secret()), &self.commitments())
            .unwrap()
    }

    pub fn manifest(&self) -> Manifest {
        Manifest {
            version: 2,
            table: self.table.into(),
            game: self.game.into(),
            deck: self.deck.into(),
            seats: self.seats.iter().map(|s| s.to_string()).collect(),
            first: self.first,
            last: self.last,
        }
    }

    pub fn secret(&self) -> ServerSecret {
        ServerSecret::from_hex(self.secret).unwrap()
    }

    /// The committed and revealed seats.
    pub fn seats(&self) -> Vec<SeatRecord> {
        let table = self.manifest().check().unwrap();
        self.seats
            .iter()
            .zip(self.seeds)
            .enumerate()
            .map(|(i, (name, seed))| SeatRecord {
                name: name.to_string(),
                commitment: table.seat_commitment(i, seed).to_hex(),
                seed: Some(seed.to_string()),
            })
            .collect()
    }

    pub fn transcript(&self) -> Transcript {
        Transcript::deal(&self.manifest(), &self.secret(), &self.seats()).unwrap()
    }

    /// The published record: version 2, or 2.1 with the lock when `played` is set.
    pub fn record(&self) -> Record {
        let (m, secret, seats) = (self.manifest(), self.secret(), self.seats());
        match self.played {
            None => Record::from(self.transcript()),
            Some(p) => Record::deal_locked(&m, &secret, &seats, &self.lock(), p).unwrap(),
        }
    }

    /// The document's block: the intermediate values of the first deal, then
    /// the whole transcript.
    pub fn render(&self) -> String {
        let m = self.manifest();
        let table = m.check().unwrap();
        let message = table.deal_message(self.seeds, self.first);
        let key = table.deal_key(&self.secret(), self.seeds, self.first);
        let lock = match self.played {
            None => String::new(),
            Some(_) => format!(
                " \"lock_message\": \"{}\",\n \"lock\": \"{}\",\n",
                to_hex(
                    &table
                        .lock_message(&table.room_commitment(&self.secret()), &self.commitments())
                ),
                self.lock()
            ),
        };
        format!(
            "{{\"vector\": {},\n \"manifest_bytes\": \"{}\",\n \"first_message\": \"{}\",\n \
             \"first_key\": \"{}\",\n \"first_word0\": \"{:016x}\",\n{lock} \"transcript\":\n{}}}\n",
            quote(self.name),
            to_hex(&m.to_bytes()),
            to_hex(&message),
            to_hex(&key),
            KeyStream::new(key).next_word(),
            self.record().to_json().trim_end()
        )
    }
}

#[test]
#[ignore = "prints the vectors for the docs"]
fn print_vectors() {
    for v in VECTORS.iter().chain(&VECTORS21) {
        println!("#### {}\n\n```json\n{}```\n", v.name, v.render());
    }
    for v in &VOIDS {
        println!("#### {}\n\n```json\n{}```\n", v.base.name, v.render());
    }
}

#[test]
fn the_docs_show_exactly_these_vectors() {
    // A failure here means the derivation or the layout changed (a
    // reproducibility-breaking change) or the document was edited.
    let doc = include_str!("../../../../docs/fair-dealing.md");
    let blocks = VECTORS
        .iter()
        .chain(&VECTORS21)
        .map(|v| (v.name, v.render()));
    for (name, block) in blocks.chain(VOIDS.iter().map(|v| (v.base.name, v.render()))) {
        assert!(
            doc.contains(&format!("```json\n{block}```\n")),
            "docs/fair-dealing.md lacks the vector {name:?}"
        );
    }
}

#[test]
fn every_vector_verifies_against_its_commitment() {
    for v in &VECTORS {
        let t = v.transcript();
        let published = Commitment::from_hex(&t.commitment).unwrap();
        let result = verify_transcript(&t, Some(&published));
        assert!(result.is_valid(), "{}: {:?}", v.name, result.differences);
        assert_eq!(result.deals_checked as u64, v.last - v.first + 1);
    }
}

#[test]
fn every_version_2_1_vector_is_valid_with_what_a_seat_recorded() {
    for v in &VECTORS21 {
        let t = v.record();
        assert_eq!(t.version, TranscriptVersion::V2_1);
        let played = v.played.unwrap();
        let recorded = Evidence {
            commitment: Some(Commitment::from_hex(&t.transcript.commitment).unwrap()),
            lock: Some(v.lock()),
            seat: Some(OwnSeed {
                seat: v.seats[1].into(),
                seed: v.seeds[1].into(),
            }),
            played: Some((v.first..v.first + played).collect()),
        };
        let result = verify_record(&t, &recorded);
        assert_eq!(
            result.verdict(),
            Verdict::Valid,
            "{}: {:?}",
            v.name,
            result.differences
        );
        assert_eq!(result.played, Some((played, v.last - v.first + 1)));
    }
    for v in &VOIDS {
        let t = v.record();
        let evidence = Evidence {
            commitment: Some(Commitment::from_hex(&t.transcript.commitment).unwrap()),
            ..Evidence::default()
        };
        let result = verify_record(&t, &evidence);
        assert_eq!(
            result.verdict(),
            Verdict::Void,
            "{}: {:?}",
            v.base.name,
            result.differences
        );
    }
}

#[test]
fn the_layouts_hand_out_the_documented_positions() {
    // Section 9: hold'em with P seats: hole cards p < 2P to seat p mod P,
    // then burn, flop ×3, burn, turn, burn, river.
    let t = VECTORS[2].transcript();
    let d = &t.deals[0];
    let deck = d.deck.as_ref().unwrap();
    let p = 9;
    for seat in 0..p {
        assert_eq!(d.piles[seat].cards, [deck[seat], deck[seat + p]]);
    }
    let board = &d.piles[p].cards;
    let burn = &d.piles[p + 1].cards;
    assert_eq!(burn, &[deck[2 * p], deck[2 * p + 4], deck[2 * p + 6]]);
    assert_eq!(board[..3], deck[2 * p + 1..2 * p + 4]);
    assert_eq!((board[3], board[4]), (deck[2 * p + 5], deck[2 * p + 7]));
    assert_eq!(d.stock, deck[2 * p + 8..]);
    // Skat: 3 3 3, skat 2, 4 4 4, 3 3 3.
    let s = &VECTORS[3].transcript().deals[0];
    let sdeck = s.deck.as_ref().unwrap();
    assert_eq!(s.piles[3].cards, sdeck[9..11]);
    assert_eq!(s.piles[0].cards[3..7], sdeck[11..15]);
    // A shoe deals nothing up front.
    let shoe = &VECTORS[6].transcript().deals[0];
    assert!(shoe.piles.is_empty());
    assert_eq!(shoe.stock.len(), 312);
    // Bridge board b: dealer and vulnerability of the 16-board cycle.
    let session = VECTORS[7].transcript();
    assert_eq!(session.deals.len(), 32);
    assert_eq!(session.deals[16].dealer.as_deref(), Some("N"));
    assert_eq!(session.deals[1].vulnerable.as_deref(), Some("NS"));
}
