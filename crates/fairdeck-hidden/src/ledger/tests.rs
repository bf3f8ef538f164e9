use super::*;
use crate::testing::manifest;
use chacha20::ChaCha20Rng;
use rand_core::SeedableRng;

fn setup() -> (Table, Context, SecretKey, Hex32, ChaCha20Rng) {
    let table = Table::new(manifest("holdem", "standard", 2)).unwrap();
    let mut rng = ChaCha20Rng::from_seed([3; 32]);
    let room = SecretKey::generate(&mut rng);
    let pk = crate::group::encode_point(&room.public_key().0);
    let ctx = Context::new(&table, Some(&pk));
    (table, ctx, room, pk, rng)
}

#[test]
fn a_receipt_checks_against_its_log_and_catches_a_drop_or_rewrite() {
    let (_, ctx, room, pk, mut rng) = setup();
    let log = vec![Hex32([1; 32]), Hex32([2; 32]), Hex32([3; 32])];
    let r = Evidence::Receipt(receipt(&ctx, &room, &log[..2], &mut rng));
    let hs = heads(&ctx, &log);
    assert_eq!(check_evidence(&ctx, &pk, (&log, &hs), &r), Ok(()));
    // The published log lost entry 1: the receipt proves the room dropped it.
    let cut = vec![log[0], log[2]];
    let err = check_evidence(&ctx, &pk, (&cut, &heads(&ctx, &cut)), &r).unwrap_err();
    assert_eq!(err.kind(), "room");
    // Entry 0 rewritten: the head at 2 no longer matches.
    let rewritten = vec![Hex32([9; 32]), log[1], log[2]];
    let err = check_evidence(&ctx, &pk, (&rewritten, &heads(&ctx, &rewritten)), &r).unwrap_err();
    assert_eq!(err.kind(), "room");
    // A holder who edits its receipt's digest frames nobody: the head
    // it carries is covered by the published log.
    let Evidence::Receipt(mut edited) = r else {
        unreachable!()
    };
    edited.digest = Hex32([7; 32]);
    let err = check_evidence(&ctx, &pk, (&log, &hs), &Evidence::Receipt(edited)).unwrap_err();
    assert_eq!(err.kind(), "room-signature");
    edited.index = 0;
    let err = check_evidence(&ctx, &pk, (&log, &hs), &Evidence::Receipt(edited)).unwrap_err();
    assert_eq!(err.kind(), "room-signature");
    // A published log shorter than a signed head.
    let short = vec![log[0]];
    let head = Evidence::Head(sign_log(&ctx, &room, &log, &mut rng));
    let err = check_evidence(&ctx, &pk, (&short, &heads(&ctx, &short)), &head).unwrap_err();
    assert!(err.to_string().contains("dropped"), "{err}");
    // Something not signed by the room proves nothing.
    let seat = SecretKey::generate(&mut rng);
    let forged = Evidence::Head(sign_log(&ctx, &seat, &log, &mut rng));
    let err = check_evidence(&ctx, &pk, (&log, &hs), &forged).unwrap_err();
    assert_eq!(err.kind(), "room-signature");
}

#[test]
fn an_attestation_holds_only_for_its_seat_and_log() {
    let (_, ctx, _, _, mut rng) = setup();
    let seats = [SecretKey::generate(&mut rng), SecretKey::generate(&mut rng)];
    let keys: Vec<PublicKey> = seats.iter().map(SecretKey::public_key).collect();
    let log = vec![Hex32([1; 32]), Hex32([2; 32])];
    let hs = heads(&ctx, &log);
    let a = attest(&ctx, 1, &seats[1], &log, &mut rng);
    assert_eq!(check_attestation(&ctx, &keys, &hs, &a), Ok(()));
    let moved = Attestation { seat: 0, ..a };
    assert!(check_attestation(&ctx, &keys, &hs, &moved).is_err());
    let other = vec![Hex32([1; 32]), Hex32([5; 32])];
    assert!(check_attestation(&ctx, &keys, &heads(&ctx, &other), &a).is_err());
    assert!(check_attestation(&ctx, &keys, &hs[..2], &a).is_err());
}

#[test]
fn evidence_reads_receipts_and_heads_from_one_list() {
    let (_, ctx, room, _, mut rng) = setup();
    let log = vec![Hex32([1; 32])];
    let items = vec![
        Evidence::Receipt(receipt(&ctx, &room, &log, &mut rng)),
        Evidence::Head(sign_log(&ctx, &room, &log, &mut rng)),
    ];
    let json = serde_json::to_string(&items).unwrap();
    let back: Vec<Evidence> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, items);
    assert!(matches!(back[0], Evidence::Receipt(_)));
    assert!(matches!(back[1], Evidence::Head(_)));
}
