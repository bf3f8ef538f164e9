//! `audit --input`: how a log of decks is read — integers or card names,
//! and the order the cards went into the machine — for every front end.
//! The reading itself is the audit crate's ([`fairdeck_audit::stats::input`]).

use std::io::BufRead;

use fairdeck::cards::{Card, DeckKind};
use fairdeck_audit::stats::Tally;
use fairdeck_audit::stats::input::{CardOrder, read_log};
use serde::Deserialize;

use crate::{Field, message, refuse};

/// How to read a log. The defaults are the CLI's.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct LogRequest {
    /// Numbering of a log of integers: 0 or 1 (default: detected from the
    /// first deck).
    #[serde(default)]
    pub base: Option<usize>,
    /// The order the cards went into the machine, for a log of card names:
    /// a deck kind (`standard`, `piquet`, `italian`, `jokers`) or the cards
    /// themselves, separated by spaces or commas. Default: the standard
    /// deck's documented order (♥ ♦ ♣ ♠, each ace to king).
    #[serde(default)]
    pub order: Option<String>,
}

impl LogRequest {
    /// The card order asked for.
    ///
    /// # Errors
    ///
    /// A [`crate::RequestError`] for `base` other than 0 or 1, or an
    /// `order` that names no deck kind and is not a list of distinct cards
    /// (a shoe repeats names: refused).
    pub fn validate(&self) -> crate::Result<CardOrder> {
        if self.base.is_some_and(|b| b > 1) {
            return Err(refuse(
                Field::Base,
                message![Field::Base, " must be 0 or 1"],
            ));
        }
        let Some(text) = self.order.as_deref() else {
            return order(DeckKind::Standard.cards());
        };
        if let Ok(kind) = text.parse::<DeckKind>() {
            return order(kind.cards());
        }
        let cards: Result<Vec<Card>, _> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect();
        match cards {
            Ok(cards) => order(cards),
            Err(e) => Err(refuse(
                Field::Order,
                message![
                    Field::Order,
                    format!(": {e}; give a deck kind (standard, piquet, italian, jokers)"),
                    " or the cards in order",
                ],
            )),
        }
    }

    /// Reads and counts the decks of `reader` (see [`read_log`]).
    ///
    /// # Errors
    ///
    /// What [`LogRequest::validate`] refuses; a log that is not decks, as a
    /// [`crate::RequestError`] on `input` naming the line and the card
    /// (nothing is counted); a failed read as the audit crate's error.
    pub fn read(&self, reader: impl BufRead) -> crate::Result<Tally> {
        let order = self.validate()?;
        read_log(reader, self.base, Some(&order)).map_err(|e| match e {
            fairdeck_audit::Error::InvalidInput(why) => refuse(Field::Input, why),
            other => other.into(),
        })
    }
}

fn order(cards: Vec<Card>) -> crate::Result<CardOrder> {
    CardOrder::new(cards).map_err(|e| {
        let why = e.to_string();
        refuse(
            Field::Order,
            why.trim_start_matches("invalid input: ").to_string(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(order: Option<&str>) -> LogRequest {
        LogRequest {
            base: None,
            order: order.map(str::to_string),
        }
    }

    #[test]
    fn orders_by_kind_or_by_cards() {
        assert_eq!(request(None).validate().unwrap().len(), 52);
        assert_eq!(request(Some("piquet")).validate().unwrap().len(), 32);
        let three = request(Some("AS, KH 10D")).read("10D AS KH\nKH 10D AS\n".as_bytes());
        assert_eq!(three.unwrap().trials, 2);
        let err = request(Some("shoe:2")).validate().unwrap_err().to_string();
        assert!(err.contains("twice"), "{err}");
        let err = request(Some("AS ZZ")).validate().unwrap_err().to_string();
        assert!(err.starts_with("order:"), "{err}");
        let err = request(Some("AS KH"))
            .read("AS QH\n".as_bytes())
            .unwrap_err();
        let refused = err.refused().unwrap();
        assert_eq!(refused.field, Field::Input);
        assert!(
            refused
                .to_string()
                .contains("line 1: QH is not in the order"),
            "{refused}"
        );
    }
}
