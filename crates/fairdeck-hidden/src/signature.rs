//! Version 3.1 signatures (`docs/hidden-dealing.md` §17): a seat signs
//! every message it publishes, the room signs the heads of its log.
//!
//! Both are Schnorr signatures (Schnorr 1991, "Efficient Signature
//! Generation by Smart Cards") over ristretto255, made non-interactive by
//! Fiat–Shamir exactly as the key proof of §7.1, with their own domains: a
//! seat signs under the key `sk_j` it published, the room under the key
//! named in the transcript. The context `C` binds the table's bytes `M` and
//! the room's key, so a signature answers for one table of one room.
//!
//! ```
//! use chacha20::ChaCha20Rng;
//! use fairdeck_hidden::keys::SecretKey;
//! use fairdeck_hidden::signature::{Context, sign_seat, verify_seat};
//! use fairdeck_hidden::wire::Hex32;
//! use rand_core::SeedableRng;
//! # use fairdeck_fair::Manifest;
//! # let manifest = Manifest { version: 3, table: "doc".into(), game: "holdem".into(),
//! #     deck: "standard".into(), seats: vec!["ann".into(), "bob".into()], first: 1, last: 1 };
//! let table = fairdeck_hidden::Table::new(manifest)?;
//! let mut rng = ChaCha20Rng::from_seed([5; 32]);
//! let sk = SecretKey::generate(&mut rng);
//! let ctx = Context::new(&table, None);
//! let digest = Hex32([9; 32]);
//! let sig = sign_seat(&ctx, 1, &sk, &digest, &mut rng);
//! assert!(verify_seat(&ctx, 1, &sk.public_key(), &digest, &sig));
//! assert!(!verify_seat(&ctx, 0, &sk.public_key(), &digest, &sig)); // another seat's place
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use rand_core::CryptoRng;

use crate::Table;
use crate::group::{decode_nonidentity, decode_scalar, encode_point, random_scalar};
use crate::keys::{Proof, PublicKey, SecretKey};
use crate::transcript::Transcript;
use crate::wire::Hex32;

/// Domain of message digests (§17).
pub const MESSAGE_DOMAIN: &str = "fairdeck-hidden-v3.1/message";

/// The digest transcript of a message of `kind`: `lp(D_msg) ‖ C ‖ lp(kind)`,
/// to which the kind's body is appended (§17).
pub(crate) fn message(ctx: &Context, kind: &str) -> Transcript {
    let mut t = Transcript::new(MESSAGE_DOMAIN);
    t.element(&ctx.bytes).bytes(kind.as_bytes());
    t
}

/// Appends a list `[x]`: `u64_be` of the count, then the entries (§17).
pub(crate) fn list<'a>(t: &mut Transcript, items: impl ExactSizeIterator<Item = &'a Hex32>) {
    t.u64(items.len() as u64);
    t.elements(items);
}

/// Domain of the context `C`.
pub const CONTEXT_DOMAIN: &str = "fairdeck-hidden-v3.1/context";
/// Domain of seat signatures.
pub const SEAT_DOMAIN: &str = "fairdeck-hidden-v3.1/seat-signature";
/// Domain of room signatures.
pub const ROOM_DOMAIN: &str = "fairdeck-hidden-v3.1/room-signature";

/// The context `C = first32(SHA-512(lp(D_ctx) ‖ lp(M) ‖ lp(R_room)))`:
/// the table's bytes and the room's key (none for a table without a room).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// `C`.
    pub bytes: Hex32,
    /// `enc(PK_room)`, if the table has a room.
    pub room: Option<Hex32>,
}

impl Context {
    /// The context of `table` under `room`'s key. O(|M|).
    pub fn new(table: &Table, room: Option<&Hex32>) -> Context {
        let mut t = Transcript::new(CONTEXT_DOMAIN);
        t.bytes(table.manifest_bytes());
        t.bytes(room.map_or(&[][..], |r| &r.0[..]));
        Context {
            bytes: t.digest(),
            room: room.copied(),
        }
    }
}

/// A Schnorr proof of knowledge of `x = log_G(X)` over the statement in
/// `prefix`: `R = k·G`, `c = H(prefix ‖ enc(R))`, `s = k + c·x`. O(1).
/// Signatures (§17) and version 3.2's dealing, ready and blind proofs
/// (§22.3, §22.4, §23.2) share it.
pub(crate) fn schnorr_prove<R: CryptoRng + ?Sized>(
    prefix: Transcript,
    x: &Scalar,
    rng: &mut R,
) -> Proof {
    let k = random_scalar(rng);
    let r = RISTRETTO_BASEPOINT_TABLE * &k;
    let mut t = prefix;
    t.element(&encode_point(&r));
    let c = t.challenge();
    Proof::respond(k, &c, x)
}

/// `R' = s·G − c·PK`, accept iff `H(prefix ‖ enc(R')) = c`; false for a
/// non-canonical `c` or `s`. O(1).
pub(crate) fn schnorr_verify(prefix: Transcript, pk: &RistrettoPoint, sig: &Proof) -> bool {
    let (Ok(c), Ok(s)) = (decode_scalar(&sig.c), decode_scalar(&sig.s)) else {
        return false;
    };
    let r = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, pk, &s);
    let mut t = prefix;
    t.element(&encode_point(&r));
    t.challenge() == c
}

fn seat_prefix(ctx: &Context, seat: u64, pk: &PublicKey, digest: &Hex32) -> Transcript {
    let mut t = Transcript::new(SEAT_DOMAIN);
    t.element(&ctx.bytes)
        .u64(seat)
        .element(&encode_point(&pk.0))
        .element(digest);
    t
}

/// Seat `seat`'s signature on the digest `digest`:
/// `c = wide(SHA-512(lp(D_seat) ‖ C ‖ u64_be(j) ‖ enc(PK_j) ‖ d ‖ enc(R)))`. O(1).
pub fn sign_seat<R: CryptoRng + ?Sized>(
    ctx: &Context,
    seat: u64,
    sk: &SecretKey,
    digest: &Hex32,
    rng: &mut R,
) -> Proof {
    schnorr_prove(seat_prefix(ctx, seat, &sk.public_key(), digest), &sk.0, rng)
}

/// Whether `sig` is seat `seat`'s signature (under `pk`) on `digest`. O(1).
pub fn verify_seat(ctx: &Context, seat: u64, pk: &PublicKey, digest: &Hex32, sig: &Proof) -> bool {
    schnorr_verify(seat_prefix(ctx, seat, pk, digest), &pk.0, sig)
}

fn room_prefix(ctx: &Context, room: &Hex32, length: u64, head: &Hex32) -> Transcript {
    let mut t = Transcript::new(ROOM_DOMAIN);
    t.element(&ctx.bytes)
        .element(room)
        .u64(length)
        .element(head);
    t
}

/// The room's signature on the head `h_L` of its log at length `L`
/// (§18): `c = wide(SHA-512(lp(D_room) ‖ C ‖ enc(PK_room) ‖ u64_be(L) ‖ h_L
/// ‖ enc(R)))`. O(1).
pub fn sign_head<R: CryptoRng + ?Sized>(
    ctx: &Context,
    room: &SecretKey,
    length: u64,
    head: &Hex32,
    rng: &mut R,
) -> Proof {
    let pk = encode_point(&room.public_key().0);
    schnorr_prove(room_prefix(ctx, &pk, length, head), &room.0, rng)
}

/// Whether `sig` is the room's (key `room`) on the head `head` at `length`. O(1).
pub fn verify_head(ctx: &Context, room: &Hex32, length: u64, head: &Hex32, sig: &Proof) -> bool {
    let Ok(pk) = decode_nonidentity(room) else {
        return false;
    };
    schnorr_verify(room_prefix(ctx, room, length, head), &pk, sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::manifest;
    use chacha20::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn a_signature_answers_for_one_seat_digest_table_and_room() {
        let table = Table::new(manifest("holdem", "standard", 2)).unwrap();
        let mut rng = ChaCha20Rng::from_seed([1; 32]);
        let sk = SecretKey::generate(&mut rng);
        let room = SecretKey::generate(&mut rng);
        let room_pk = encode_point(&room.public_key().0);
        let ctx = Context::new(&table, Some(&room_pk));
        let d = Hex32([4; 32]);
        let sig = sign_seat(&ctx, 1, &sk, &d, &mut rng);
        assert!(verify_seat(&ctx, 1, &sk.public_key(), &d, &sig));
        assert!(!verify_seat(&ctx, 0, &sk.public_key(), &d, &sig));
        assert!(!verify_seat(
            &ctx,
            1,
            &sk.public_key(),
            &Hex32([5; 32]),
            &sig
        ));
        let other = SecretKey::generate(&mut rng).public_key();
        assert!(!verify_seat(&ctx, 1, &other, &d, &sig));
        let no_room = Context::new(&table, None);
        assert!(!verify_seat(&no_room, 1, &sk.public_key(), &d, &sig));
        let mut bad = sig;
        bad.s = Hex32([0xff; 32]); // not a canonical scalar
        assert!(!verify_seat(&ctx, 1, &sk.public_key(), &d, &bad));
    }

    #[test]
    fn room_signatures_bind_the_head_the_table_and_the_room() {
        let table = Table::new(manifest("holdem", "standard", 2)).unwrap();
        let mut rng = ChaCha20Rng::from_seed([2; 32]);
        let room = SecretKey::generate(&mut rng);
        let pk = encode_point(&room.public_key().0);
        let ctx = Context::new(&table, Some(&pk));
        let h = Hex32([7; 32]);
        let sig = sign_head(&ctx, &room, 3, &h, &mut rng);
        assert!(verify_head(&ctx, &pk, 3, &h, &sig));
        assert!(!verify_head(&ctx, &pk, 4, &h, &sig));
        assert!(!verify_head(&ctx, &pk, 3, &Hex32([8; 32]), &sig));
        let seat = SecretKey::generate(&mut rng);
        let forged = sign_head(&ctx, &seat, 3, &h, &mut rng);
        assert!(!verify_head(&ctx, &pk, 3, &h, &forged));
        let other_table = Table::new(manifest("holdem", "standard", 3)).unwrap();
        let other = Context::new(&other_table, Some(&pk));
        assert!(!verify_head(&other, &pk, 3, &h, &sig));
    }
}
