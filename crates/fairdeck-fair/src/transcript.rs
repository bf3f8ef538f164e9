//! The version-2 transcript: one document with the manifest, the
//! commitments, the reveals and every card as dealt (section 10 of
//! `docs/fair-dealing.md`), and its canonical JSON layout.

use core::fmt::Write as _;

use super::table::{Manifest, Table};
use super::{Commitment, ServerSecret};
use fairdeck::Error;
use fairdeck::cards::{Card, Deal};

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

/// A version-2 transcript: the body every published record shares (a
/// version 2.1 record adds the seat lock and the deals played, a void
/// record names the seats that failed: see [`Record`](super::Record)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transcript {
    /// 2 (also inside a version 2.1 [`Record`](super::Record)).
    pub version: u64,
    /// The table manifest.
    pub manifest: Manifest,
    /// The room's commitment as the transcript states it. A verifier
    /// compares it with the one published before play, never trusts it.
    pub commitment: String,
    /// Every seat in seat order.
    pub seats: Vec<SeatRecord>,
    /// The room's secret, once revealed.
    pub server_secret: Option<String>,
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
        let table = checked(manifest, seats)?;
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
            version: 2,
            manifest: manifest.clone(),
            commitment: table.room_commitment(secret).to_hex(),
            seats: seats.to_vec(),
            server_secret: Some(secret.to_hex()),
            deals,
        })
    }

    /// The canonical JSON layout: one line per manifest, seat, pile and
    /// stock, so that a transcript reads as a page and diffs line by line.
    /// Any JSON reader reads it. O(size).
    pub fn to_json(&self) -> String {
        self.json(&self.version.to_string(), None, &[])
    }

    /// The layout of [`Transcript::to_json`] with another `version` value,
    /// a `lock` line after the seats and `extra` lines after the secret
    /// (version 2.1 and void records).
    pub(super) fn json(&self, version: &str, lock: Option<&str>, extra: &[String]) -> String {
        let mut o = String::new();
        let m = &self.manifest;
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
        if let Some(lock) = lock {
            let _ = writeln!(o, " \"lock\": {lock},");
        }
        let secret = self.server_secret.as_deref().map_or("null".into(), quote);
        let _ = writeln!(o, " \"server_secret\": {secret},");
        for line in extra {
            let _ = writeln!(o, " {line},");
        }
        let deals: Vec<String> = self.deals.iter().map(deal_json).collect();
        if deals.is_empty() {
            let _ = writeln!(o, " \"deals\": []}}");
        } else {
            let _ = writeln!(o, " \"deals\": [\n{}]}}", deals.join(",\n"));
        }
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

/// The manifest's table, once the manifest is valid and `seats` are its
/// seats in order ([`Error::InvalidTable`] otherwise).
pub(crate) fn checked(manifest: &Manifest, seats: &[SeatRecord]) -> Result<Table, Error> {
    let table = manifest.check()?;
    let names: Vec<&String> = seats.iter().map(|s| &s.name).collect();
    if names != manifest.seats.iter().collect::<Vec<_>>() {
        return Err(Error::InvalidTable(format!(
            "the seats {names:?} are not the manifest's {:?} in order",
            manifest.seats
        )));
    }
    Ok(table)
}
