//! CheckShuffleProof (Haenni et al. 2017, Algorithm 5) in additive form:
//! every equation `t = …` is written as a list of terms `(scalar, point)`
//! whose sum must be the identity (`docs/hidden-dealing.md` §8, E1–E5).

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT as G;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};

use super::{BATCH_DOMAIN, ShuffleProof, Statement};
use crate::Error;
use crate::error::ShuffleCheck;
use crate::group::{decode_point, decode_scalar};
use crate::transcript::Transcript;
use crate::wire::Hex32;

type Terms = Vec<(Scalar, RistrettoPoint)>;

/// The proof's points and scalars, decoded.
struct Decoded {
    c: Vec<RistrettoPoint>,
    chain: Vec<RistrettoPoint>,
    t: [RistrettoPoint; 5],
    t_hat: Vec<RistrettoPoint>,
    s: [Scalar; 4],
    s_hat: Vec<Scalar>,
    s_prime: Vec<Scalar>,
}

fn points(list: &[Hex32], n: usize) -> Result<Vec<RistrettoPoint>, Error> {
    sized(list, n)?.iter().map(decode_point).collect()
}

fn scalars(list: &[Hex32], n: usize) -> Result<Vec<Scalar>, Error> {
    sized(list, n)?.iter().map(decode_scalar).collect()
}

fn sized(list: &[Hex32], n: usize) -> Result<&[Hex32], Error> {
    if list.len() != n {
        return Err(Error::DeckSize {
            expected: n,
            found: list.len(),
        });
    }
    Ok(list)
}

impl Decoded {
    fn new(p: &ShuffleProof, n: usize) -> Result<Decoded, Error> {
        let [t1, t2, t3, t4a, t4b] = [&p.t1, &p.t2, &p.t3, &p.t4a, &p.t4b].map(decode_point);
        let [s1, s2, s3, s4] = [&p.s1, &p.s2, &p.s3, &p.s4].map(decode_scalar);
        Ok(Decoded {
            c: points(&p.commitments, n)?,
            chain: points(&p.chain, n)?,
            t: [t1?, t2?, t3?, t4a?, t4b?],
            t_hat: points(&p.t_hat, n)?,
            s: [s1?, s2?, s3?, s4?],
            s_hat: scalars(&p.s_hat, n)?,
            s_prime: scalars(&p.s_prime, n)?,
        })
    }
}

/// The equations E1 … E5 of one proof, each a list of terms summing to 0.
struct Equations {
    permutation: Vec<Terms>,
    challenges: Vec<Terms>,
    reencryption: Vec<Terms>,
}

fn equations(st: &Statement<'_>, d: &Decoded, u: &[Scalar], c: Scalar) -> Equations {
    let gens = st.table.generators();
    let (h, n) = (&gens.h[..u.len()], u.len());
    let (input, output) = (&st.input.deck.0, &st.output.deck.0);
    let [s1, s2, s3, s4] = d.s;
    let [t1, t2, t3, t4a, t4b] = d.t;
    let sum = |ps: &mut dyn Iterator<Item = RistrettoPoint>| ps.sum::<RistrettoPoint>();
    // E1: c·(Σ c_k − Σ h_i) + s_1·G − t_1 = 0
    let c_bar = sum(&mut d.c.iter().copied()) - sum(&mut h.iter().copied());
    let e1 = vec![(c, c_bar), (s1, G), (-Scalar::ONE, t1)];
    // E2: c·(ĉ_{N−1} − u·H) + s_2·G − t_2 = 0, u = ∏ u_k
    let u_prod: Scalar = u.iter().product();
    let e2 = vec![
        (c, d.chain[n - 1]),
        (-(c * u_prod), gens.chain),
        (s2, G),
        (-Scalar::ONE, t2),
    ];
    // E5_i: c·ĉ_i + ŝ_i·G + s'_i·ĉ_{i−1} − t̂_i = 0, ĉ_{−1} = H
    let prev = core::iter::once(gens.chain).chain(d.chain.iter().copied());
    let e5 = prev.zip(0..n).map(|(p, i)| {
        vec![
            (c, d.chain[i]),
            (d.s_hat[i], G),
            (d.s_prime[i], p),
            (-Scalar::ONE, d.t_hat[i]),
        ]
    });
    let mut permutation = vec![e1, e2];
    permutation.extend(e5);
    // E3: c·Σ u_k·c_k + s_3·G + Σ s'_i·h_i − t_3 = 0
    let mut e3: Terms = u
        .iter()
        .map(|&uk| c * uk)
        .zip(d.c.iter().copied())
        .collect();
    e3.extend(d.s_prime.iter().copied().zip(h.iter().copied()));
    e3.extend([(s3, G), (-Scalar::ONE, t3)]);
    // E4: c·Σ u_k·a_k − s_4·PK + Σ s'_i·a'_i − t_4a = 0, and the same for b with G
    let e4 = |pick: fn(&crate::elgamal::Ciphertext) -> RistrettoPoint, key, t| {
        let mut e: Terms = u
            .iter()
            .zip(input)
            .map(|(&uk, e)| (c * uk, pick(e)))
            .collect();
        e.extend(d.s_prime.iter().zip(output).map(|(&s, e)| (s, pick(e))));
        e.extend([(-s4, key), (-Scalar::ONE, t)]);
        e
    };
    Equations {
        permutation,
        challenges: vec![e3],
        reencryption: vec![e4(|e| e.a, st.key.0, t4a), e4(|e| e.b, G, t4b)],
    }
}

fn holds(terms: &Terms) -> bool {
    RistrettoPoint::vartime_multiscalar_mul(terms.iter().map(|t| t.0), terms.iter().map(|t| t.1))
        .is_identity()
}

/// The batching weights `z_k = wide(SHA-512(lp(D_batch) ‖ enc(c) ‖ enc(s_1) … ‖ u64_be(k)))`.
fn weights(p: &ShuffleProof, c: &Scalar, count: usize) -> Vec<Scalar> {
    let mut t = Transcript::new(BATCH_DOMAIN);
    t.element(&Hex32(c.to_bytes()))
        .elements([&p.s1, &p.s2, &p.s3, &p.s4])
        .elements(&p.s_hat)
        .elements(&p.s_prime);
    (0..count as u64).map(|k| t.challenge_at(k)).collect()
}

/// Verifies a shuffle proof (CheckShuffleProof). O(N) decodings and one
/// multiscalar multiplication of about `10·N` points.
///
/// # Errors
///
/// [`Error::DeckSize`] if the input deck is empty or longer than the
/// table's deck, or the output deck or a list of the proof does not have
/// the input's `N` entries; [`Error::PointEncoding`] or
/// [`Error::ScalarEncoding`] for a bad field; [`Error::ShuffleProof`] with
/// the first failing group (permutation, challenges, re-encryption).
pub fn verify(st: &Statement<'_>, proof: &ShuffleProof) -> Result<(), Error> {
    let n = st.input.len();
    let most = st.table.generators().h.len();
    if n == 0 || n > most || st.input.deck.len() != n {
        return Err(Error::DeckSize {
            expected: most,
            found: n,
        });
    }
    if st.output.len() != n || st.output.deck.len() != n {
        return Err(Error::DeckSize {
            expected: n,
            found: st.output.len(),
        });
    }
    let d = Decoded::new(proof, n)?;
    let u = st.challenges(&proof.commitments);
    let c = st.challenge(proof);
    let eq = equations(st, &d, &u, c);
    let all = eq
        .permutation
        .iter()
        .chain(&eq.challenges)
        .chain(&eq.reencryption);
    let z = weights(proof, &c, eq.permutation.len() + 3);
    let batch: Terms = all
        .zip(&z)
        .flat_map(|(terms, &zk)| terms.iter().map(move |&(s, p)| (zk * s, p)))
        .collect();
    if holds(&batch) {
        return Ok(());
    }
    let groups = [
        (&eq.permutation, ShuffleCheck::Permutation),
        (&eq.challenges, ShuffleCheck::Challenges),
        (&eq.reencryption, ShuffleCheck::Reencryption),
    ];
    match groups.iter().find(|(g, _)| !g.iter().all(holds)) {
        Some(&(_, check)) => Err(Error::ShuffleProof(st.seat, check)),
        None => Ok(()),
    }
}
