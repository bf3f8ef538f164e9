//! What each party may see: a seat its own cards, the operator every
//! card, everyone the commitments and the released community cards; the
//! transcript (with the secret) only once the table is closed or void.

use fairdeck::cards::{Card, Game};
use fairdeck_fair::{DealRecord, Manifest, Record, TableGame};
use serde::Serialize;

use crate::state::{Phase, TableState};

/// One seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PublicSeat {
    /// The seat's name.
    pub name: String,
    /// Its commitment, once published.
    pub commitment: Option<String>,
    /// Whether it has revealed its seed.
    pub revealed: bool,
    /// Its seed, shown once every seat has revealed.
    pub seed: Option<String>,
    /// Whether its holder claimed it on a device (see [`Room::claim`](crate::Room::claim)).
    pub claimed: bool,
}

/// A pile face up for everyone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShownPile {
    /// The pile's name (a seat for bridge's dummy).
    pub name: String,
    /// Its cards.
    pub cards: Vec<Card>,
}

/// One deal's community cards released so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Community {
    /// The deal number.
    pub deal: u64,
    /// Face-up piles: the hold'em board so far, the scopa table, bridge's dummy.
    pub shown: Vec<ShownPile>,
}

/// What anyone may see of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PublicView {
    /// The manifest.
    pub manifest: Manifest,
    /// The room's commitment `C`.
    pub commitment: String,
    /// The seat lock `L` (version 2.1), once every seat committed: set
    /// before any reveal is accepted. A seat records it before revealing.
    pub lock: Option<String>,
    /// The phase's name.
    pub phase: &'static str,
    /// The deadline of the committing or revealing phase (seconds since the epoch).
    pub deadline: Option<u64>,
    /// Every seat.
    pub seats: Vec<PublicSeat>,
    /// Seats still to commit or reveal (names); the late ones once void.
    pub waiting_for: Vec<String>,
    /// Released community cards, per deal.
    pub community: Vec<Community>,
    /// The published record with the secret, once closed (a version 2.1
    /// transcript) or void (a void record naming the seats that failed).
    pub transcript: Option<Record>,
}

/// One of a seat's hands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hand {
    /// The deal number.
    pub deal: u64,
    /// The seat's cards in the order dealt.
    pub cards: Vec<Card>,
}

/// What a seat sees: the public view and its own hands, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The seat's index.
    pub seat: usize,
    /// The seat's name.
    pub name: String,
    /// Its hands, once dealt.
    pub hands: Vec<Hand>,
    /// Everything public.
    #[serde(flatten)]
    pub public: PublicView,
}

/// What the operator sees: the public view and every deal as dealt (the
/// room can compute every deal once the seeds are in: spec section 13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OperatorView {
    /// Every deal, once dealt.
    pub deals: Vec<DealRecord>,
    /// Everything public.
    #[serde(flatten)]
    pub public: PublicView,
}

/// What the operator's page polls: the public view (no hole card before
/// the close) with the table's version, which changes with every change
/// of the table (it is the place of the table's last log entry), so an
/// unchanged table can be answered "not modified".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OperatorStatus {
    /// The table's version: the place of its last log entry.
    pub version: u64,
    /// Everything public.
    #[serde(flatten)]
    pub public: PublicView,
}

impl TableState {
    fn dealt(&self) -> Vec<DealRecord> {
        (self.manifest.first..=self.manifest.last)
            .filter_map(|n| self.deal_record(n))
            .collect()
    }

    /// The deals whose community cards the public may see something of:
    /// hold'em's and bridge's only once released (their rules release
    /// cards one deal at a time), every dealt deal of the other games
    /// (scopa's table cards lie face up from the deal).
    fn shown_deals(&self) -> Vec<DealRecord> {
        if !matches!(self.phase, Phase::Dealt | Phase::Closed) {
            return Vec::new();
        }
        let game = self.table().map(|t| t.game).ok();
        let by_release = [Game::Holdem, Game::Bridge].map(|g| Some(TableGame::Cards(g)));
        if by_release.contains(&game) {
            let released = self.released.keys().copied();
            released.filter_map(|n| self.deal_record(n)).collect()
        } else {
            self.dealt()
        }
    }

    /// The public view. Before the close O(released deals · deck) for
    /// hold'em and bridge, O(deals · deck) for the other games once dealt;
    /// after the close O(deals · deck) for the transcript. The service
    /// keeps each table's rendered view until the table changes.
    pub fn public_view(&self) -> PublicView {
        let all_revealed = matches!(self.phase, Phase::Ready | Phase::Dealt | Phase::Closed);
        let names = &self.manifest.seats;
        let waiting = if self.phase == Phase::Void {
            self.late.clone()
        } else {
            self.missing()
        };
        PublicView {
            manifest: self.manifest.clone(),
            commitment: self.commitment.clone(),
            lock: self.lock.clone(),
            phase: self.phase.name(),
            deadline: matches!(self.phase, Phase::Committing | Phase::Revealing)
                .then_some(self.deadline),
            seats: (names.iter().zip(&self.seats))
                .map(|(name, s)| PublicSeat {
                    claimed: s.device.is_some(),
                    name: name.clone(),
                    commitment: s.commitment.clone(),
                    revealed: s.seed.is_some(),
                    seed: s.seed.clone().filter(|_| all_revealed),
                })
                .collect(),
            waiting_for: waiting.iter().map(|&i| names[i].clone()).collect(),
            community: self
                .shown_deals()
                .iter()
                .filter_map(|d| self.community(d))
                .collect(),
            transcript: self.transcript(),
        }
    }

    /// The face-up cards of one deal so far.
    fn community(&self, deal: &DealRecord) -> Option<Community> {
        let released = self.released.get(&deal.nonce).copied().unwrap_or_default();
        let holdem = self.table().ok()?.game == TableGame::Cards(Game::Holdem);
        let mut shown = Vec::new();
        for pile in deal.piles.iter().filter(|p| p.role == "board") {
            let count = match (holdem, released.streets) {
                (false, _) => pile.cards.len(),
                (true, 0) => 0,
                (true, s) => (2 + s as usize).min(pile.cards.len()),
            };
            if count > 0 {
                let cards = pile.cards[..count].to_vec();
                shown.push(ShownPile {
                    name: pile.name.clone(),
                    cards,
                });
            }
        }
        if let Some(pile) = released.dummy.and_then(|i| deal.piles.get(i)) {
            let (name, cards) = (pile.name.clone(), pile.cards.clone());
            shown.push(ShownPile { name, cards });
        }
        (!shown.is_empty()).then_some(Community {
            deal: deal.nonce,
            shown,
        })
    }

    /// Seat `seat`'s view: its own hands and the public view. The caller
    /// has authorized the seat. O(deals · deck) once dealt.
    pub fn seat_view(&self, seat: usize) -> Option<SeatView> {
        let name = self.manifest.seats.get(seat)?.clone();
        let hands = self
            .dealt()
            .into_iter()
            .filter_map(|d| {
                let pile = d
                    .piles
                    .iter()
                    .find(|p| p.role == "player" && p.name == name)?;
                Some(Hand {
                    deal: d.nonce,
                    cards: pile.cards.clone(),
                })
            })
            .collect();
        Some(SeatView {
            seat,
            name,
            hands,
            public: self.public_view(),
        })
    }

    /// The operator's status at `version` (see [`OperatorStatus`]). The
    /// caller has authorized the operator. Costs what [`TableState::public_view`] costs.
    pub fn operator_status(&self, version: u64) -> OperatorStatus {
        OperatorStatus {
            version,
            public: self.public_view(),
        }
    }

    /// The operator's view. The caller has authorized the operator.
    pub fn operator_view(&self) -> OperatorView {
        OperatorView {
            deals: self.dealt(),
            public: self.public_view(),
        }
    }
}
