//! A version-3 table: the checked manifest, its bytes `M`, the deck's card
//! points and the shuffle proof's generators (`docs/hidden-dealing.md` §3–§4).

use std::collections::HashMap;

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::traits::Identity;
use fairdeck_fair::Manifest;

use crate::Error;
use crate::elgamal::{Ciphertext, Deck};
use crate::group::{Generators, card_point};
use crate::layout::Layout;

/// The protocol version a version-3 manifest carries.
pub const VERSION: u64 = 3;

/// The revision of version 3 whose messages are signed and logged: 3.1 (§17).
pub const REVISION: u64 = 1;

/// A checked version-3 table. Building it costs O(N) hashes to group; every
/// proof of the table reuses it.
#[derive(Debug, Clone)]
pub struct Table {
    manifest: Manifest,
    bytes: Vec<u8>,
    names: Vec<String>,
    points: Vec<RistrettoPoint>,
    by_point: HashMap<[u8; 32], usize>,
    generators: Generators,
    layout: Layout,
    tolerate: usize,
}

impl Table {
    /// Checks the manifest (every rule of version 2's §8.2, with
    /// `version: 3`) and computes the card points and generators.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] naming the broken rule; [`Error::Deck`] if two
    /// card names share a point (never for fairdeck's decks).
    ///
    /// ```
    /// use fairdeck_fair::Manifest;
    /// use fairdeck_hidden::Table;
    ///
    /// let manifest = Manifest {
    ///     version: 3, table: "t1".into(), game: "holdem".into(), deck: "standard".into(),
    ///     seats: vec!["ann".into(), "bob".into()], first: 1, last: 1,
    /// };
    /// let table = Table::new(manifest)?;
    /// assert_eq!(table.deck_size(), 52);
    /// # Ok::<(), fairdeck_hidden::Error>(())
    /// ```
    pub fn new(manifest: Manifest) -> Result<Table, Error> {
        if manifest.version != VERSION {
            return Err(Error::Manifest(format!(
                "version {} is not 3",
                manifest.version
            )));
        }
        let as_v2 = Manifest {
            version: fairdeck_fair::VERSION,
            ..manifest.clone()
        };
        let checked = as_v2.check().map_err(|e| Error::Manifest(e.to_string()))?;
        let names: Vec<String> = checked.deck.cards().iter().map(|c| c.to_string()).collect();
        let points: Vec<RistrettoPoint> = names.iter().map(|n| card_point(n)).collect();
        let by_point = index_points(&names, &points)?;
        Ok(Table {
            layout: Layout::new(&manifest)?,
            bytes: manifest.to_bytes(),
            generators: Generators::new(names.len()),
            manifest,
            names,
            points,
            by_point,
            tolerate: 0,
        })
    }

    /// A version-3.2 table (`docs/hidden-dealing-v3.2.md` §21.1) that
    /// tolerates `tolerate` lost seats: the manifest's rules, then
    /// `1 ≤ D ≤ P − 2` and a game in which a seat can fold (`holdem`,
    /// `draw`); its bytes are `M = M_3 ‖ u64_be(D)`, so every proof and
    /// signature of the table binds `D`. O(N) hashes to group.
    ///
    /// # Errors
    ///
    /// As [`Table::new`]; [`Error::Manifest`] naming the broken rule.
    pub fn with_tolerance(manifest: Manifest, tolerate: u64) -> Result<Table, Error> {
        let mut table = Table::new(manifest)?;
        let p = table.seats() as u64;
        if tolerate == 0 || tolerate > p.saturating_sub(2) {
            return Err(Error::Manifest(format!(
                "tolerate {tolerate} is not between 1 and the number of seats less 2 ({})",
                p as i64 - 2
            )));
        }
        if !matches!(table.manifest.game.as_str(), "holdem" | "draw") {
            return Err(Error::Manifest(format!(
                "game {} cannot fold a lost seat, so it tolerates none",
                table.manifest.game
            )));
        }
        // §21.1: M = M_3 ‖ u64_be(D).
        table.bytes.extend_from_slice(&tolerate.to_be_bytes());
        table.tolerate = tolerate as usize;
        Ok(table)
    }

    /// `D`, the number of lost seats tolerated (0 before version 3.2).
    pub fn tolerate(&self) -> usize {
        self.tolerate
    }

    /// The threshold `t = P − D`: the number of seats whose shares open a
    /// card (§21).
    pub fn threshold(&self) -> usize {
        self.seats() - self.tolerate
    }

    /// The manifest as given.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The manifest's canonical bytes `M`.
    pub fn manifest_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// `N`, the number of cards.
    pub fn deck_size(&self) -> usize {
        self.names.len()
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.manifest.seats.len()
    }

    /// The card names of the unshuffled deck, in order.
    pub fn card_names(&self) -> &[String] {
        &self.names
    }

    /// Which positions go to which seat or street (§14).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The seat's name in the manifest (empty for a seat outside it).
    pub fn seat_name(&self, seat: u64) -> &str {
        usize::try_from(seat)
            .ok()
            .and_then(|s| self.manifest.seats.get(s))
            .map_or("", String::as_str)
    }

    /// The generators `h_i` and `H` for this deck's size.
    pub fn generators(&self) -> &Generators {
        &self.generators
    }

    /// The starting deck `E^0`: the trivial encryptions `(P_c, 0)` of the
    /// unshuffled deck (§5, step 2). O(N).
    pub fn starting_deck(&self) -> Deck {
        let cards = self.points.iter().map(|&a| Ciphertext {
            a,
            b: RistrettoPoint::identity(),
        });
        Deck(cards.collect())
    }

    /// The card name whose point is `x`, if any.
    pub fn card_of(&self, x: &RistrettoPoint) -> Option<&str> {
        let i = *self.by_point.get(&x.compress().to_bytes())?;
        Some(&self.names[i])
    }

    /// Checks that `seat` is a seat of the manifest.
    ///
    /// # Errors
    ///
    /// [`Error::Seat`].
    pub fn check_seat(&self, seat: u64) -> Result<usize, Error> {
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < self.seats())
            .ok_or(Error::Seat(seat))
    }

    /// Checks that `hand` is in the manifest's `first ..= last`.
    ///
    /// # Errors
    ///
    /// [`Error::Hand`].
    pub fn check_hand(&self, hand: u64) -> Result<(), Error> {
        if (self.manifest.first..=self.manifest.last).contains(&hand) {
            Ok(())
        } else {
            Err(Error::Hand(hand))
        }
    }
}

/// Maps each point's encoding to its first card; equal names share a point
/// (a shoe), different names never may, and no card may be the identity.
fn index_points(
    names: &[String],
    points: &[RistrettoPoint],
) -> Result<HashMap<[u8; 32], usize>, Error> {
    let mut by_point = HashMap::new();
    for (i, p) in points.iter().enumerate() {
        if *p == RistrettoPoint::identity() {
            return Err(Error::Deck);
        }
        let first = *by_point.entry(p.compress().to_bytes()).or_insert(i);
        if names[first] != names[i] {
            return Err(Error::Deck);
        }
    }
    Ok(by_point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::manifest;

    #[test]
    fn version_and_v2_rules_are_checked() {
        let mut m = manifest("holdem", "standard", 2);
        m.version = 2;
        assert_eq!(Table::new(m).unwrap_err().kind(), "manifest");
        let m = manifest("holdem", "piquet", 2);
        assert_eq!(Table::new(m).unwrap_err().kind(), "manifest");
        let t = Table::new(manifest("skat", "piquet", 3)).unwrap();
        assert_eq!(t.deck_size(), 32);
        assert_eq!(t.manifest_bytes()[22..30], 3u64.to_be_bytes());
    }

    #[test]
    fn tolerance_is_checked_and_bound_into_m() {
        let t = Table::with_tolerance(manifest("holdem", "standard", 4), 2).unwrap();
        let plain = Table::new(manifest("holdem", "standard", 4)).unwrap();
        assert_eq!(
            t.manifest_bytes()[..plain.manifest_bytes().len()],
            *plain.manifest_bytes()
        );
        assert_eq!(
            t.manifest_bytes()[plain.manifest_bytes().len()..],
            2u64.to_be_bytes()
        );
        assert_eq!((t.tolerate(), t.threshold()), (2, 2));
        for (game, seats, d) in [
            ("holdem", 4, 0),
            ("holdem", 4, 3),
            ("holdem", 2, 1),
            ("skat", 3, 1),
        ] {
            let deck = if game == "skat" { "piquet" } else { "standard" };
            let err = Table::with_tolerance(manifest(game, deck, seats), d).unwrap_err();
            assert_eq!(err.kind(), "manifest", "{game} {seats} {d}");
        }
    }

    #[test]
    fn a_shoe_shares_points_between_equal_names() {
        let t = Table::new(manifest("shoe", "shoe:2", 1)).unwrap();
        assert_eq!(t.deck_size(), 104);
        let deck = t.starting_deck();
        assert_eq!(t.card_of(&deck.0[0].a), Some(t.card_names()[0].as_str()));
        assert_eq!(t.card_of(&deck.0[52].a), t.card_of(&deck.0[0].a));
    }

    #[test]
    fn colliding_names_are_refused() {
        let names = ["AS".to_string(), "KS".to_string()];
        let p = card_point("AS");
        assert_eq!(index_points(&names, &[p, p]), Err(Error::Deck));
        let id = RistrettoPoint::identity();
        assert_eq!(index_points(&names[..1], &[id]), Err(Error::Deck));
    }
}
