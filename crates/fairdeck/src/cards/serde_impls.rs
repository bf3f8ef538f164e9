//! `serde` support for the card types (the `serde` cargo feature).
//!
//! Cards, deck kinds and games are written as the text users type — `"AS"`,
//! `"TH"`, `"RJ"`, `"shoe:6"`, `"bridge"` — and read back with the same
//! parsers as the command line, so a bad value is a clear error.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use fairdeck::cards::Card;
//!
//! let card: Card = "10h".parse().unwrap();
//! assert_eq!(serde_json::to_string(&card).unwrap(), "\"TH\"");
//! assert_eq!(serde_json::from_str::<Card>("\"th\"").unwrap(), card);
//! # }
//! ```

use core::fmt::Display;
use core::str::FromStr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Card, DeckKind, Game};

fn as_text<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

fn from_text<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(d)?;
    text.parse().map_err(D::Error::custom)
}

macro_rules! text_serde {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                as_text(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                from_text(d)
            }
        }
    )*};
}

text_serde!(Card, DeckKind, Game);

#[cfg(test)]
mod tests {
    use crate::cards::{Deal, DeckKind, Game};
    use crate::dice::RngDice;
    use crate::rng::{Generator, Seed};

    #[test]
    fn deals_round_trip_through_json() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("serde")));
        let deal = Game::Holdem
            .plan(None)
            .unwrap()
            .shuffle_and_deal(DeckKind::Standard, &mut dice)
            .unwrap();
        let json = serde_json::to_string(&deal).unwrap();
        assert!(json.contains("\"role\":\"board\""), "{json}");
        assert_eq!(serde_json::from_str::<Deal>(&json).unwrap(), deal);
        for kind in [DeckKind::Jokers, DeckKind::Shoe(6)] {
            let text = serde_json::to_string(&kind).unwrap();
            assert_eq!(serde_json::from_str::<DeckKind>(&text).unwrap(), kind);
        }
        assert_eq!(serde_json::to_string(&Game::Skat).unwrap(), "\"skat\"");
        let bad = serde_json::from_str::<crate::cards::Card>("\"ZZ\"").unwrap_err();
        assert!(bad.to_string().contains("invalid card"), "{bad}");
    }
}
