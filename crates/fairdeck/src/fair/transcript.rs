//! The version-2 transcript: one document with the manifest, the
//! commitments, the reveals and every card as dealt (section 10 of
//! `docs/fair-dealing.md`), and its canonical JSON layout.

use core::fmt::Write as _;

use super::table::{Manifest, Table};
use super::version::TranscriptVersion;
use super::void::VoidRecord;
use super::{Commitment, ServerSecret};
use crate::Error;
use crate::cards::{Card, Deal};

/// One seat: its name, its commitment and (once revealed) its seed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatRecord {
    /// The seat's name, as in the manifest.
    pub name: String,
    /// The seat's commitment to its seed, 64 hex digits; empty when the
    /// seat never committed (JSON `null`, in a void record).
    #[cfg_attr(feature = "serde", serde(with = "empty_is_null"))]
    pub commitment: String,
    /// The revealed seed; `None` while (or if never) revealed.
    pub seed: Option<String>,
}

/// One pile as dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PileRecord {
    /// The seat's name, or `Board`, `Burn`, `Skat`, `Table`.
    pub name: String,
    /// `player`, `board`, `burn` or `kitty`.
    pub role: String,
    /// The cards in the order they were dealt.
    pub cards: Vec<Card>,
}

/// One deal as dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DealRecord {
    /// The deal number (for bridge, the board number).
    pub nonce: u64,
    /// Bridge only: the dealer's letter (N, E, S, W).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub dealer: Option<String>,
    /// Bridge only: None, NS, EW or All.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub vulnerable: Option<String>,
    /// The piles in the layout's order.
    pub piles: Vec<PileRecord>,
    /// The undealt cards, top first.
    pub stock: Vec<Card>,
    /// The whole shuffled deck, top first (optional: the piles and the
    /// stock already fix it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub deck: Option<Vec<Card>>,
}

/// A version-2 or 2.1 transcript, or a void table's record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transcript {
    /// `2` or `"2.1"`.
    pub version: TranscriptVersion,
    /// The table manifest.
    pub manifest: Manifest,
    /// The room's commitment as the transcript states it. A verifier
    /// compares it with the one published before play, never trusts it.
    pub commitment: String,
    /// Every seat in seat order.
    pub seats: Vec<SeatRecord>,
    /// Version 2.1: the seat lock `L` as the room published it after the
    /// last commitment and before any reveal (64 hex digits; `None` in
    /// version 2 and in a void record of the commit phase). A verifier
    /// compares the lock recomputed from the seats' commitments with the
    /// one the player recorded, never trusts this one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub lock: Option<String>,
    /// The room's secret, once revealed.
    pub server_secret: Option<String>,
    /// Version 2.1: how many deals were played, `first`, `first + 1`, … in
    /// that order; fewer than the range when the table stopped early.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub played: Option<u64>,
    /// A void table: the phase it voided at and the seats that failed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub void: Option<VoidRecord>,
    /// Every deal of the manifest's range, in order (none at a void table).
    pub deals: Vec<DealRecord>,
}

/// One deal laid out for a transcript: the piles, stock, dealer and
/// vulnerability of a [`Deal`] and its deck.
pub fn deal_record(table: &Table, nonce: u64, deck: &[Card], deal: &Deal) -> DealRecord {
    let board = table.board(nonce);
    DealRecord {
        nonce,
        dealer: board.map(|b| b.dealer().letter().to_string()),
        vulnerable: board.map(|b| b.vulnerable().pbn().to_string()),
        piles: deal
            .piles
            .iter()
            .map(|p| PileRecord {
                name: p.name.clone(),
                role: p.role.name().to_string(),
                cards: p.cards.clone(),
            })
            .collect(),
        stock: deal.stock.clone(),
        deck: Some(deck.to_vec()),
    }
}

impl Transcript {
    /// Deals every nonce of the table from the room's secret and every
    /// seat's revealed seed, after checking each seed against its seat's
    /// commitment. O(deals · deck).
    ///
    /// # Errors
    ///
    /// [`Error::VoidTable`] naming every seat whose reveal is missing or
    /// does not match its commitment: the table is void and no deal is
    /// made from partial reveals. [`Error::InvalidTable`] for a bad manifest
    /// or a seat list that is not the manifest's.
    pub fn deal(
        manifest: &Manifest,
        secret: &ServerSecret,
        seats: &[SeatRecord],
    ) -> Result<Transcript, Error> {
        let table = manifest.check()?;
        let names: Vec<&String> = seats.iter().map(|s| &s.name).collect();
        if names != manifest.seats.iter().collect::<Vec<_>>() {
            return Err(Error::InvalidTable(format!(
                "the seats {names:?} are not the manifest's {:?} in order",
                manifest.seats
            )));
        }
        let void: Vec<String> = seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| refused(&table, i, s))
            .collect();
        if !void.is_empty() {
            return Err(Error::VoidTable(void.join("; ")));
        }
        let seeds: Vec<&str> = seats.iter().filter_map(|s| s.seed.as_deref()).collect();
        let deals = (manifest.first..=manifest.last)
            .map(|nonce| {
                let deck = table.shuffled_deck(secret, &seeds, nonce);
                Ok(deal_record(&table, nonce, &deck, &table.lay_out(&deck)?))
            })
            .collect::<Result<_, Error>>()?;
        Ok(Transcript {
            version: TranscriptVersion::V2,
            manifest: manifest.clone(),
            commitment: table.room_commitment(secret).to_hex(),
            seats: seats.to_vec(),
            lock: None,
            server_secret: Some(secret.to_hex()),
            played: None,
            void: None,
            deals,
        })
    }

    /// A version 2.1 transcript: [`Transcript::deal`], after checking that
    /// `lock` (the seat lock the room published before the reveals) is the
    /// lock of the seats' commitments, recording it and the number of deals
    /// `played` (from `first`, in increasing order). O(deals · deck).
    ///
    /// # Errors
    ///
    /// Those of [`Transcript::deal`]; [`Error::InvalidTable`] when `lock`
    /// is not the lock of these commitments (one was replaced after the
    /// lock, or the lock is another table's) or `played` exceeds the range.
    pub fn deal_locked(
        manifest: &Manifest,
        secret: &ServerSecret,
        seats: &[SeatRecord],
        lock: &Commitment,
        played: u64,
    ) -> Result<Transcript, Error> {
        let table = manifest.check()?;
        let range = manifest.last - manifest.first + 1;
        if played > range {
            return Err(Error::InvalidTable(format!(
                "{played} deals played, the manifest has {range}"
            )));
        }
        let mut t = Self::deal(manifest, secret, seats)?;
        let computed = table.seat_lock(&table.room_commitment(secret), &commitments(seats)?)?;
        if computed != *lock {
            return Err(Error::InvalidTable(format!(
                "the lock {lock} is not the lock of these commitments ({computed}): a \
                 commitment was replaced after the lock, or the lock is another table's"
            )));
        }
        t.version = TranscriptVersion::V2_1;
        t.lock = Some(lock.to_hex());
        t.played = Some(played);
        Ok(t)
    }

    /// The canonical JSON layout: one line per manifest, seat, pile and
    /// stock, so that a transcript reads as a page and diffs line by line.
    /// Any JSON reader reads it. O(size).
    pub fn to_json(&self) -> String {
        let mut o = String::new();
        let m = &self.manifest;
        let version = match self.version {
            TranscriptVersion::V2 => "2".to_string(),
            TranscriptVersion::V2_1 => quote("2.1"),
        };
        let _ = writeln!(o, "{{\"version\": {version},");
        let _ = writeln!(
            o,
            " \"manifest\": {{\"version\": {}, \"table\": {}, \"game\": {}, \"deck\": {}, \"seats\": [{}], \"first\": {}, \"last\": {}}},",
            m.version,
            quote(&m.table),
            quote(&m.game),
            quote(&m.deck),
            m.seats
                .iter()
                .map(|s| quote(s))
                .collect::<Vec<_>>()
                .join(", "),
            m.first,
            m.last
        );
        let _ = writeln!(o, " \"commitment\": {},", quote(&self.commitment));
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|s| {
                let seed = s.seed.as_deref().map_or("null".into(), quote);
                let c = if s.commitment.is_empty() {
                    "null".into()
                } else {
                    quote(&s.commitment)
                };
                format!(
                    "  {{\"name\": {}, \"commitment\": {c}, \"seed\": {seed}}}",
                    quote(&s.name)
                )
            })
            .collect();
        let _ = writeln!(o, " \"seats\": [\n{}],", seats.join(",\n"));
        let v21 = self.version == TranscriptVersion::V2_1;
        if v21 || self.lock.is_some() {
            let lock = self.lock.as_deref().map_or("null".into(), quote);
            let _ = writeln!(o, " \"lock\": {lock},");
        }
        let secret = self.server_secret.as_deref().map_or("null".into(), quote);
        let _ = writeln!(o, " \"server_secret\": {secret},");
        if let Some(p) = self.played {
            let _ = writeln!(o, " \"played\": {p},");
        }
        if let Some(v) = &self.void {
            let names: Vec<String> = v.seats.iter().map(|s| quote(s)).collect();
            let _ = writeln!(
                o,
                " \"void\": {{\"phase\": {}, \"seats\": [{}]}},",
                quote(v.phase.name()),
                names.join(", ")
            );
        }
        let deals: Vec<String> = self.deals.iter().map(deal_json).collect();
        let _ = writeln!(o, " \"deals\": [\n{}]}}", deals.join(",\n"));
        o
    }
}

/// Every seat's commitment as bytes.
pub(super) fn commitments(seats: &[SeatRecord]) -> Result<Vec<Commitment>, Error> {
    seats
        .iter()
        .map(|s| {
            Commitment::from_hex(&s.commitment)
                .map_err(|_| Error::InvalidTable(format!("seat {:?} has no commitment", s.name)))
        })
        .collect()
}

/// Why seat `index` voids the table, if it does.
pub(super) fn refused(table: &Table, index: usize, seat: &SeatRecord) -> Option<String> {
    let Some(seed) = &seat.seed else {
        return Some(format!("seat {:?} did not reveal its seed", seat.name));
    };
    let matches = Commitment::from_hex(&seat.commitment)
        .is_ok_and(|c| c == table.seat_commitment(index, seed));
    (!matches).then(|| {
        format!(
            "seat {:?} revealed a seed that does not match its commitment",
            seat.name
        )
    })
}

fn deal_json(d: &DealRecord) -> String {
    let mut head = format!("  {{\"nonce\": {}", d.nonce);
    if let Some(v) = &d.dealer {
        let _ = write!(head, ", \"dealer\": {}", quote(v));
    }
    if let Some(v) = &d.vulnerable {
        let _ = write!(head, ", \"vulnerable\": {}", quote(v));
    }
    let piles: Vec<String> = d
        .piles
        .iter()
        .map(|p| {
            format!(
                "    {{\"name\": {}, \"role\": {}, \"cards\": {}}}",
                quote(&p.name),
                quote(&p.role),
                cards(&p.cards)
            )
        })
        .collect();
    let mut out = format!("{head},\n   \"piles\": [\n{}],\n", piles.join(",\n"));
    let _ = write!(out, "   \"stock\": {}", cards(&d.stock));
    if let Some(deck) = &d.deck {
        let _ = write!(out, ",\n   \"deck\": {}", cards(deck));
    }
    out.push('}');
    out
}

fn cards(cards: &[Card]) -> String {
    let text: Vec<String> = cards.iter().map(|c| format!("\"{c}\"")).collect();
    format!("[{}]", text.join(", "))
}

/// A JSON string literal (RFC 8259 escaping).
pub(super) fn quote(text: &str) -> String {
    let mut o = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A seat's commitment: an empty string is written and read as JSON `null`
/// (a seat that never committed).
#[cfg(feature = "serde")]
mod empty_is_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &str, s: S) -> Result<S::Ok, S::Error> {
        if c.is_empty() {
            s.serialize_none()
        } else {
            s.serialize_str(c)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
    }
}
