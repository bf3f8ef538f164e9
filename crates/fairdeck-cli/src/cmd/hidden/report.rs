//! Rendering the library's verdict: `fair verify` of a version-3
//! transcript, and `hidden cards` (a seat's own view).

use std::io::Write;
use std::process::ExitCode;

use fairdeck_hidden::verdict::{CardAt, HandReport, Verdict};

use super::StepArgs;
use super::files::checked;
use crate::failure::usage;
use crate::output::{Format, Output};

fn card_list(list: &[CardAt]) -> String {
    let one = |c: &CardAt| format!("{} (position {})", c.card, c.position);
    list.iter().map(one).collect::<Vec<_>>().join(", ")
}

fn print_hand(w: &mut impl Write, h: &HandReport) -> std::io::Result<()> {
    writeln!(w, "hand {}: {}", h.hand, h.status)?;
    writeln!(
        w,
        "  {} shuffle proof(s) and {} share proof(s) hold",
        h.shuffles_verified, h.shares_verified
    )?;
    if !h.community.is_empty() {
        writeln!(w, "  community: {}", card_list(&h.community))?;
    }
    for seat in h
        .opened
        .iter()
        .filter_map(|c| c.seat)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let theirs: Vec<CardAt> = h
            .opened
            .iter()
            .filter(|c| c.seat == Some(seat))
            .cloned()
            .collect();
        writeln!(w, "  opened by seat {seat}: {}", card_list(&theirs))?;
    }
    if !h.own.is_empty() {
        writeln!(w, "  your cards: {}", card_list(&h.own))?;
    }
    for hidden in &h.hidden {
        writeln!(
            w,
            "  hidden: {} — {} position(s)",
            hidden.what,
            hidden.positions.len()
        )?;
    }
    for owed in &h.owed {
        writeln!(
            w,
            "  waiting for seat {} ({}): {} message(s)",
            owed.seat,
            owed.stage,
            owed.missing.len()
        )?;
    }
    Ok(())
}

/// The verdict on a version 3, 3.1 or 3.2 transcript, as text.
pub fn print_verdict(w: &mut impl Write, v: &Verdict) -> std::io::Result<()> {
    let version = match (v.tolerate, v.signed) {
        (Some(_), _) => "3.2",
        (None, true) => "3.1",
        (None, false) => "3",
    };
    writeln!(w, "version {version} transcript; checked:")?;
    for c in &v.checked {
        writeln!(w, "  {c}")?;
    }
    if !v.key_fingerprints.is_empty() {
        let list: Vec<String> = (v.key_fingerprints.iter().enumerate())
            .map(|(j, f)| format!("seat {j} {f}"))
            .collect();
        writeln!(
            w,
            "key fingerprints (each player compares their own): {}",
            list.join(", ")
        )?;
    }
    for h in &v.hands {
        print_hand(w, h)?;
    }
    for d in &v.differences {
        writeln!(w, "{}", d.message)?;
    }
    writeln!(w, "{}", v.summary())
}

/// `hidden cards`: the seat's own private cards, read with its secret key,
/// and the community and opened cards, of one hand.
pub(super) fn cards_of(args: &StepArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let record = super::files::read_record(&args.transcript)?;
    let (seat, sk) = super::files::read_key(&args.key, &record)?;
    if fairdeck_hidden::seat::check_published(&record, seat, &sk).is_err() {
        return Err(usage(format!(
            "{}: wrong-key: not the key seat {seat} published in {}",
            args.key.display(),
            args.transcript.display()
        )));
    }
    let name = record.manifest.seats[seat as usize].clone();
    let turn = checked(&args.transcript, record, (seat, &sk))?;
    let report = turn
        .cards(args.hand)
        .map_err(|n| anyhow::anyhow!("hand {n} is not in {}", args.transcript.display()))?;
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "seat {seat} ({name})")?;
            print_hand(w, &report)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
