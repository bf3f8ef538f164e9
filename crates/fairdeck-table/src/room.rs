//! The operations a front end calls: each checks the caller's token, makes
//! at most one state change in one transaction, and returns what the caller
//! may see. An HTTP layer maps a route to one method and an [`Error`] to its
//! [`Refusal`](crate::Refusal).

use getrandom::SysRng;
use rand_core::TryCryptoRng;

use crate::Error;
use crate::event::{Event, Street};
use crate::invitation::{Invitation, NewTable};
use crate::ledger::Audit;
use crate::pass::{Reissue, SeatPass};
use crate::state::{Access, TableState};
use crate::store::Store;
use crate::token::Token;
use crate::view::{OperatorView, PublicView, SeatView};

/// A card room's tables over one store. `now` arguments are seconds since
/// the Unix epoch, read by the caller (the library never reads the clock).
pub struct Room<S: Store> {
    store: S,
}

fn seat_view(state: &TableState, seat: usize) -> Result<SeatView, Error> {
    state.seat_view(seat).ok_or(Error::Forbidden)
}

impl<S: Store> Room<S> {
    /// A room over `store`.
    pub fn new(store: S) -> Room<S> {
        Room { store }
    }

    /// The store, for audits and tests.
    pub fn store(&mut self) -> &mut S {
        &mut self.store
    }

    /// Opens a table: the room's secret and every token come from the
    /// operating system's random source.
    ///
    /// # Errors
    ///
    /// As [`Room::open_table_with`].
    pub fn open_table(&mut self, request: &NewTable, now: u64) -> Result<Invitation, Error> {
        self.open_table_with(request, &mut SysRng, now)
    }

    /// Opens a table drawing from `rng` (tests pass a seeded generator).
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`], [`Error::Invalid`], [`Error::Exists`],
    /// [`Error::Entropy`], [`Error::Storage`].
    pub fn open_table_with<R: TryCryptoRng + ?Sized>(
        &mut self,
        request: &NewTable,
        rng: &mut R,
        now: u64,
    ) -> Result<Invitation, Error> {
        let (event, invitation) = request.open(rng, now)?;
        self.store.create(&event)?;
        Ok(invitation)
    }

    fn change(
        &mut self,
        table: &str,
        who: Access,
        token: Option<&str>,
        event: Event,
    ) -> Result<TableState, Error> {
        // `decide` may run twice: a store retries a change whose connection
        // was lost before it committed, deciding again from the state as
        // stored. So it hands out a copy each time, never the event itself.
        let snapshot = self.store.change(table, &mut |state| {
            state.authorize(who, token)?;
            Ok(event.clone())
        })?;
        Ok(snapshot.state)
    }

    /// Seat `seat` publishes its commitment `c_i` (64 hex digits), from
    /// the device that claimed it ([`Room::claim`]).
    ///
    /// # Errors
    ///
    /// The token's refusal; the device's ([`TableState::authorize_device`]);
    /// [`Error::Phase`], [`Error::Repeated`], [`Error::Late`], [`Error::Invalid`].
    pub fn commit(
        &mut self,
        table: &str,
        seat: usize,
        pass: SeatPass<'_>,
        commitment: &str,
        now: u64,
    ) -> Result<SeatView, Error> {
        let snapshot = self.store.change(table, &mut |state| {
            pass.check(state, seat, true)?;
            Ok(Event::Committed {
                seat,
                commitment: commitment.to_string(),
                lock: state.lock_after(seat, commitment)?,
                at: now,
            })
        })?;
        seat_view(&snapshot.state, seat)
    }

    /// Seat `seat` reveals its seed, checked against its commitment, from
    /// the device that claimed it.
    ///
    /// # Errors
    ///
    /// The token's refusal; the device's; [`Error::Phase`], [`Error::Repeated`],
    /// [`Error::Late`], [`Error::SeedMismatch`], [`Error::Invalid`].
    pub fn reveal(
        &mut self,
        table: &str,
        seat: usize,
        pass: SeatPass<'_>,
        seed: &str,
        now: u64,
    ) -> Result<SeatView, Error> {
        let snapshot = self.store.change(table, &mut |state| {
            pass.check(state, seat, true)?;
            Ok(Event::Revealed {
                seat,
                seed: seed.to_string(),
                at: now,
            })
        })?;
        seat_view(&snapshot.state, seat)
    }

    /// Claims seat `seat` for the device whose secret is `pass.device`
    /// (module `claim` of the state machine): from then on only that
    /// device acts for the seat. Claiming again from the same device
    /// changes nothing.
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::Invalid`] without a device secret of
    /// 64 lowercase hex digits; [`Error::ClaimedElsewhere`];
    /// [`Error::Phase`] once closed or void.
    pub fn claim(
        &mut self,
        table: &str,
        seat: usize,
        pass: SeatPass<'_>,
        now: u64,
    ) -> Result<SeatView, Error> {
        let device = pass.device.unwrap_or_default();
        let state = self.store.load(table)?.state;
        state.authorize(Access::Seat(seat), pass.token)?;
        if state.claim_event(seat, device, now)?.is_none() {
            return seat_view(&state, seat);
        }
        let changed = self.store.change(table, &mut |state| {
            state.authorize(Access::Seat(seat), pass.token)?;
            // A claim from this very device in between: nothing to change.
            state
                .claim_event(seat, device, now)?
                .ok_or(Error::Repeated {
                    action: "claim",
                    seat: seat.to_string(),
                })
        });
        match changed {
            Ok(snapshot) => seat_view(&snapshot.state, seat),
            Err(Error::Repeated { .. }) => self.seat_view(table, seat, pass),
            Err(e) => Err(e),
        }
    }

    /// The operator re-issues seat `seat`'s link before the commitments
    /// close: a new token drawn from the operating system's source, the
    /// old one refused from now on, the claim reset, any commitment of the
    /// seat withdrawn.
    ///
    /// # Errors
    ///
    /// As [`Room::reissue_with`].
    pub fn reissue(
        &mut self,
        table: &str,
        token: Option<&str>,
        seat: usize,
        now: u64,
    ) -> Result<Reissue, Error> {
        self.reissue_with(table, token, seat, &mut SysRng, now)
    }

    /// [`Room::reissue`] drawing the new token from `rng`.
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::Phase`] once every seat committed (or
    /// the table is past committing); [`Error::Late`] after the commit
    /// deadline; [`Error::Invalid`] for a seat the table lacks; [`Error::Entropy`].
    pub fn reissue_with<R: TryCryptoRng + ?Sized>(
        &mut self,
        table: &str,
        token: Option<&str>,
        seat: usize,
        rng: &mut R,
        now: u64,
    ) -> Result<Reissue, Error> {
        let fresh = Token::draw(rng)?;
        let hash = fresh.hash();
        self.change(
            table,
            Access::Operator,
            token,
            Event::Reissued {
                seat,
                token: hash,
                at: now,
            },
        )?;
        Ok(Reissue {
            table: table.to_string(),
            seat,
            token: fresh,
        })
    }

    /// The operator deals every deal of the manifest (all seeds are in).
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::Phase`] before every reveal or after the deal.
    pub fn deal(
        &mut self,
        table: &str,
        token: Option<&str>,
        now: u64,
    ) -> Result<OperatorView, Error> {
        let state = self.change(table, Access::Operator, token, Event::Dealt { at: now })?;
        Ok(state.operator_view())
    }

    /// The operator releases the next street of deal `deal` (hold'em) or
    /// shows the dummy (bridge).
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::Phase`], [`Error::Street`], [`Error::Invalid`].
    pub fn release(
        &mut self,
        table: &str,
        token: Option<&str>,
        deal: u64,
        street: Street,
        now: u64,
    ) -> Result<OperatorView, Error> {
        let event = Event::Released {
            deal,
            street,
            at: now,
        };
        Ok(self
            .change(table, Access::Operator, token, event)?
            .operator_view())
    }

    /// The operator closes the table: the secret and the transcript become public.
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::Phase`] unless dealt.
    pub fn close(
        &mut self,
        table: &str,
        token: Option<&str>,
        now: u64,
    ) -> Result<OperatorView, Error> {
        let state = self.change(table, Access::Operator, token, Event::Closed { at: now })?;
        Ok(state.operator_view())
    }

    /// After a deadline passed with seats missing, the operator voids the
    /// table; the late seats are named (spec section 8.1: no deal is made
    /// from the other seats' seeds).
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::NotLate`] before the deadline;
    /// [`Error::Phase`] once every seed is in.
    pub fn void_late(
        &mut self,
        table: &str,
        token: Option<&str>,
        now: u64,
    ) -> Result<OperatorView, Error> {
        let snapshot = self.store.change(table, &mut |state| {
            state.authorize(Access::Operator, token)?;
            Ok(Event::Voided {
                late: state.missing(),
                at: now,
            })
        })?;
        Ok(snapshot.state.operator_view())
    }

    /// What seat `seat` may see (from the device that claimed it, or from
    /// any device while it is unclaimed).
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::ClaimedElsewhere`]; [`Error::NotFound`].
    pub fn seat_view(
        &mut self,
        table: &str,
        seat: usize,
        pass: SeatPass<'_>,
    ) -> Result<SeatView, Error> {
        let state = self.store.load(table)?.state;
        pass.check(&state, seat, false)?;
        seat_view(&state, seat)
    }

    /// What the operator may see.
    ///
    /// # Errors
    ///
    /// The token's refusal; [`Error::NotFound`].
    pub fn operator_view(
        &mut self,
        table: &str,
        token: Option<&str>,
    ) -> Result<OperatorView, Error> {
        let state = self.store.load(table)?.state;
        state.authorize(Access::Operator, token)?;
        Ok(state.operator_view())
    }

    /// What anyone may see.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`].
    pub fn public_view(&mut self, table: &str) -> Result<PublicView, Error> {
        Ok(self.store.load(table)?.state.public_view())
    }

    /// Audits one table's stored history ([`Store::audit`]).
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] naming what does not check.
    pub fn audit(&mut self, table: &str) -> Result<Audit, Error> {
        self.store.audit(table)
    }
}
