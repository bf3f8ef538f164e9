//! The digests (§17) of version 3.2's key-generation messages, for the
//! seat to sign and the room to log (§28.3). Each is
//! `first32(SHA-512(lp(D_msg) ‖ C ‖ lp(kind) ‖ body))`.

use super::{ComplaintMessage, DealingMessage, ReadyMessage};
use crate::signature::{Context, list, message};
use crate::wire::Hex32;

/// `kind "dealing"`: `body = u64_be(i) ‖ [commitments] ‖ E_i ‖ [shares] ‖ c ‖ s`. O(t + P).
pub fn dealing_digest(ctx: &Context, m: &DealingMessage) -> Hex32 {
    let mut t = message(ctx, "dealing");
    t.u64(m.seat);
    list(&mut t, m.commitments.iter());
    t.element(&m.ephemeral);
    list(&mut t, m.shares.iter());
    t.element(&m.proof.c).element(&m.proof.s);
    t.digest()
}

/// `kind "ready"`: `body = u64_be(j) ‖ Y_j ‖ c ‖ s`. O(1).
pub fn ready_digest(ctx: &Context, m: &ReadyMessage) -> Hex32 {
    let mut t = message(ctx, "ready");
    t.u64(m.seat)
        .element(&m.verifying_share)
        .element(&m.proof.c)
        .element(&m.proof.s);
    t.digest()
}

/// `kind "complaint"`: `body = u64_be(j) ‖ u64_be(i) ‖ K_{i,j} ‖ c ‖ s`. O(1).
pub fn complaint_digest(ctx: &Context, m: &ComplaintMessage) -> Hex32 {
    let mut t = message(ctx, "complaint");
    t.u64(m.seat)
        .u64(m.against)
        .element(&m.key)
        .element(&m.proof.c)
        .element(&m.proof.s);
    t.digest()
}
