//! Step 4.6 of §15: is every stage complete, is the hand in progress, or
//! does its void record name the stall exactly?

use super::hand::Check;
use super::owed;
use crate::Error;
use crate::layout::{Layout, Stage};
use crate::record::{HandRecord, Missing, Void};

/// Each checked stage with every seat's missing messages.
pub(super) type Gaps = [(Stage, Vec<Vec<Missing>>)];

fn incomplete(m: &[Vec<Missing>]) -> bool {
    m.iter().any(|s| !s.is_empty())
}

/// Whether the record has a message of a stage after `stage`.
fn later_present(rec: &HandRecord, stage: Stage) -> bool {
    match stage {
        Stage::Shuffle => {
            !rec.deal.is_empty() || !rec.streets.is_empty() || !rec.showdown.is_empty()
        }
        Stage::Deal => !rec.streets.is_empty() || !rec.showdown.is_empty(),
        Stage::Street(k) => rec.streets.len() > k + 1 || !rec.showdown.is_empty(),
    }
}

fn list(missing: &[Missing]) -> String {
    missing
        .iter()
        .map(Missing::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Check<'_> {
    /// Returns the first stage still owing a message (or the void's), and
    /// whether the hand is void.
    pub(super) fn stages(&mut self, rec: &HandRecord, gaps: &Gaps) -> (Option<Stage>, bool) {
        let layout = self.ctx.table.layout();
        let gap = gaps.iter().find(|(_, m)| incomplete(m));
        if let Some(v) = &rec.void {
            return (self.void(rec, v, gaps), true);
        }
        let Some((stage, missing)) = gap else {
            let (streets, opened) = (rec.streets.len(), self.report.opened.len());
            let so_far = match self.ctx.in_progress {
                true => "nothing owed so far",
                false => "complete",
            };
            self.report.status = format!(
                "{so_far}: {streets} street(s) shown, {opened} card(s) opened at the showdown"
            );
            return (None, false);
        };
        let name = layout.stage_name(*stage).to_string();
        if self.ctx.in_progress {
            self.report.owed = owed(&name, missing);
            self.report.status = format!("in progress: the {name} stage");
            if later_present(rec, *stage) {
                let why = format!("messages after the {name} stage, which is not complete");
                self.fail(Error::UnexpectedMessage(why));
            }
        } else {
            self.report.status = format!("incomplete: the {name} stage");
            for (st, missing) in gaps.iter().filter(|(_, m)| incomplete(m)) {
                let name = layout.stage_name(*st);
                for (seat, m) in missing.iter().enumerate().filter(|(_, m)| !m.is_empty()) {
                    let what = format!("{} in the {name} stage", list(m));
                    self.fail(Error::MissingMessage(seat as u64, what));
                }
            }
        }
        (Some(*stage), false)
    }

    /// Checks a void record against the gaps (§15 step 4.6).
    fn void(&mut self, rec: &HandRecord, v: &Void, gaps: &Gaps) -> Option<Stage> {
        let layout = self.ctx.table.layout();
        let Some(stage) = layout.stage_named(&v.stage) else {
            self.fail(Error::Void(format!("the game has no stage {:?}", v.stage)));
            return None;
        };
        let first_gap = gaps.iter().find(|(_, m)| incomplete(m)).map(|(s, _)| *s);
        let at_stage = gaps
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, m)| m.clone());
        // The street right after the last one shown, when nothing before it is missing:
        // nobody sent a share of it, so every seat owes all of it.
        let next_street = matches!(stage, Stage::Street(k) if k == rec.streets.len());
        let missing: Vec<Vec<Missing>> = match at_stage {
            Some(m) => m,
            None if next_street && first_gap.is_none() => (0..self.ctx.table.seats() as u64)
                .map(|j| {
                    let owed = layout.owed(stage, j).into_iter();
                    owed.map(|position| Missing::Share { position }).collect()
                })
                .collect(),
            None => Vec::new(),
        };
        let why = void_differs(earlier_gap(layout, first_gap, stage), v, &missing);
        if let Some(why) = why {
            self.fail(Error::Void(why));
        }
        if later_present(rec, stage) {
            self.fail(Error::UnexpectedMessage(format!(
                "messages after the void {} stage",
                v.stage
            )));
        }
        self.report.status = format!(
            "void at the {} stage: seat {} ({}) did not send {}",
            v.stage,
            v.seat,
            self.ctx.table.seat_name(v.seat),
            list(&v.missing)
        );
        Some(stage)
    }
}

/// The name of the first stage with a gap, when it is not the void's
/// `stage`.
fn earlier_gap(layout: &Layout, first_gap: Option<Stage>, stage: Stage) -> Option<String> {
    first_gap
        .filter(|&g| g != stage)
        .map(|g| layout.stage_name(g).to_string())
}

/// What is wrong with void record `v`, given the messages each seat has
/// not sent at its stage (`missing`) and the first earlier stage with a
/// gap (`earlier_gap`); `None` when the record is right.
fn void_differs(earlier_gap: Option<String>, v: &Void, missing: &[Vec<Missing>]) -> Option<String> {
    if let Some(g) = earlier_gap {
        return Some(format!(
            "the first stage with a missing message is {g}, not {}",
            v.stage
        ));
    }
    let Some(s) = missing.iter().position(|m| !m.is_empty()) else {
        return Some(format!("nothing is missing in the {} stage", v.stage));
    };
    if s as u64 != v.seat {
        return Some(format!(
            "the lowest stalled seat at {} is {s}, not {}",
            v.stage, v.seat
        ));
    }
    let (mut want, mut got) = (missing[s].clone(), v.missing.clone());
    want.sort();
    got.sort();
    (want != got).then(|| {
        format!(
            "seat {s} did not send {}; the record says {}",
            list(&want),
            list(&got)
        )
    })
}
