//! `hidden dealing` and `hidden ready`: a seat's steps of version 3.2's key
//! generation (`docs/hidden-dealing-v3.2.md` §22), offline. The library
//! verifies the transcript, makes, signs and logs the message(s)
//! ([`fairdeck_hidden::seat::publish_dealing`],
//! [`fairdeck_hidden::seat::publish_answer`]); this file maps the files to it.

use std::process::ExitCode;

use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::{Answer, Refused, publish_answer, publish_dealing};
use fairdeck_shuf::Cancel;

use super::KeygenArgs;
use super::files::{generator, read_key};
use super::steps::published;
use super::transcript::{self, Locked};
use crate::failure::usage;
use crate::output::Output;

/// The transcript (locked and read) and the seat's key from its file.
fn open<'c>(
    args: &KeygenArgs,
    cancel: &'c Cancel,
) -> anyhow::Result<(Locked<'c>, Record, u64, fairdeck_hidden::keys::SecretKey)> {
    let file = transcript::lock(&args.transcript, cancel)?;
    let record = file.read()?;
    let (seat, sk) = read_key(&args.key, &record)?;
    Ok((file, record, seat, sk))
}

/// A refusal in the user's words: a wrong key is a usage error (exit 2),
/// as for the other steps.
fn refused(args: &KeygenArgs, e: Refused) -> anyhow::Error {
    let shown = args.transcript.display();
    match e {
        Refused::WrongKey(seat) => usage(format!(
            "{}: wrong-key: not the key seat {seat} published in {shown}",
            args.key.display()
        )),
        Refused::Invalid { summary, first, .. } => {
            anyhow::anyhow!("{shown}: the transcript does not verify ({summary}); first: {first}")
        }
        other => anyhow::anyhow!("{shown}: {other}"),
    }
}

pub(super) fn dealing(
    args: &KeygenArgs,
    cancel: &Cancel,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    let (file, mut record, seat, sk) = open(args, cancel)?;
    let mut rng = generator(args.seed.as_deref())?;
    let msg = publish_dealing(&mut record, seat, &sk, &mut rng).map_err(|e| refused(args, e))?;
    file.write(&record)?;
    let line = format!(
        "seat {seat}: dealing added to {}",
        args.transcript.display()
    );
    published(out, &msg, line)
}

pub(super) fn ready(
    args: &KeygenArgs,
    cancel: &Cancel,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    let (file, mut record, seat, sk) = open(args, cancel)?;
    let mut rng = generator(args.seed.as_deref())?;
    let answer = publish_answer(&mut record, seat, &sk, &mut rng).map_err(|e| refused(args, e))?;
    file.write(&record)?;
    let shown = args.transcript.display();
    match answer {
        Answer::Ready(msg) => {
            let line =
                format!("seat {seat}: every share dealt to it holds; ready added to {shown}");
            published(out, &msg, line)
        }
        Answer::Complaints(msgs) => {
            let against: Vec<String> = msgs.iter().map(|m| m.against.to_string()).collect();
            let line = format!(
                "seat {seat}: bad share(s) from seat(s) {}; complaint(s) added to {shown}: the table ends here",
                against.join(", ")
            );
            published(out, &msgs, line)
        }
    }
}
