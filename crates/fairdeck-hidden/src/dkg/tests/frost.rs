//! The Zcash Foundation's `frost-ristretto255` as a test oracle (§22.7):
//! for the same coefficients, its per-dealer share checks, verifying
//! shares, group key and reconstruction (Lagrange weights) equal ours.

use std::collections::BTreeMap;

use frost_ristretto255::keys::{
    KeyPackage, PublicKeyPackage, SecretShare, SigningShare, VerifiableSecretSharingCommitment,
    VerifyingShare, reconstruct,
};
use frost_ristretto255::{Identifier, VerifyingKey};

use crate::dkg::{KeyShare, shares::decrypt_share};
use crate::group::encode_point;
use crate::testing::{Keygen, keygen};
use crate::threshold::lagrange_weights;

/// `x_j = j + 1` as FROST's identifier.
fn id(j: usize) -> Identifier {
    Identifier::try_from(j as u16 + 1).unwrap()
}

fn commitment(kg: &Keygen, i: usize) -> VerifiableSecretSharingCommitment {
    VerifiableSecretSharingCommitment::deserialize(kg.msgs[i].commitments.iter().map(|a| a.0))
        .unwrap()
}

fn key_package(kg: &Keygen, j: usize, share: &KeyShare) -> KeyPackage {
    let y = VerifyingShare::deserialize(&encode_point(&share.verifying_share().0).0).unwrap();
    let pk = VerifyingKey::deserialize(&encode_point(&kg.result.key.0).0).unwrap();
    let s = SigningShare::deserialize(&share.0.to_bytes()).unwrap();
    KeyPackage::new(id(j), s, y, pk, kg.table.threshold() as u16)
}

#[test]
fn frost_agrees_on_shares_verifying_shares_the_key_and_reconstruction() {
    for (seats, tolerate) in [(4, 1), (5, 2), (6, 1)] {
        let kg = keygen(seats, tolerate, 50 + seats as u8);
        let commitments: Vec<_> = (0..seats).map(|i| commitment(&kg, i)).collect();
        // Each dealer's share to each seat passes FROST's VSS check.
        for (d, c) in kg.dealings.iter().zip(&commitments) {
            for j in 0..seats {
                let dh = kg.sks[j].0 * d.ephemeral;
                let s = decrypt_share(&kg.table, d, (j as u64, &kg.keys[j]), &dh).unwrap();
                let share = SigningShare::deserialize(&s.to_bytes()).unwrap();
                assert!(SecretShare::new(id(j), share, c.clone()).verify().is_ok());
            }
        }
        let by_id: BTreeMap<_, _> = commitments
            .iter()
            .enumerate()
            .map(|(i, c)| (id(i), c))
            .collect();
        let package = PublicKeyPackage::from_dkg_commitments(&by_id).unwrap();
        let pk = package.verifying_key().serialize().unwrap();
        assert_eq!(pk, encode_point(&kg.result.key.0).0);
        for (j, y) in kg.result.verifying_shares.iter().enumerate() {
            let theirs = package.verifying_shares()[&id(j)].serialize().unwrap();
            assert_eq!(theirs, encode_point(&y.0).0, "Y_{j} of {seats} seats");
        }
        // FROST's reconstruction from the first and the last t seats
        // equals Σ λ_{S,j}·s_j.
        let t = kg.table.threshold();
        for set in [(0..t).collect::<Vec<_>>(), (seats - t..seats).collect()] {
            let packages: Vec<_> = set
                .iter()
                .map(|&j| key_package(&kg, j, &kg.shares[j]))
                .collect();
            let sk = reconstruct(&packages).unwrap().serialize();
            let seats_u64: Vec<u64> = set.iter().map(|&j| j as u64).collect();
            let weights = lagrange_weights(&seats_u64).unwrap();
            let ours: curve25519_dalek::scalar::Scalar = weights
                .iter()
                .zip(&set)
                .map(|(w, &j)| w * kg.shares[j].0)
                .sum();
            assert_eq!(sk, ours.to_bytes(), "S = {set:?}");
            assert_eq!(ours, kg.secret());
        }
    }
}
