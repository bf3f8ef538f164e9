//! The shuffle proof of Terelius & Wikström, "Proofs of Restricted
//! Shuffles" (AFRICACRYPT 2010), as Haenni, Locher, Koenig & Dubuis write it
//! out in "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets"
//! (FC 2017 workshops, Algorithms 4 and 5), in additive notation
//! (`docs/hidden-dealing.md` §8).
//!
//! Statement: `e'_i = ReEnc(e_{π(i)}, ρ_i)` for a permutation `π` and
//! scalars `ρ_i`. What we do differently from the paper: the randomness is
//! indexed by output position, and the challenges are strong Fiat–Shamir
//! over the table bytes, hand, seat, joint key, both decks and the
//! commitments; the verifier checks all equations in one multiscalar
//! multiplication and names the failing group only when that fails.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::MultiscalarMul;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Table;
use crate::elgamal::PublishedDeck;
use crate::group::{encode_point, encode_scalar, random_scalar};
use crate::keys::PublicKey;
use crate::transcript::Transcript;
use crate::wire::Hex32;

mod verify;

pub use verify::verify;

/// Domain of the challenges `u_k`.
pub const U_DOMAIN: &str = "fairdeck-hidden-v3/shuffle-u";
/// Domain of the challenge `c`.
pub const C_DOMAIN: &str = "fairdeck-hidden-v3/shuffle-c";
/// Domain of the reference verifier's batching weights (no part of the protocol).
pub const BATCH_DOMAIN: &str = "fairdeck-hidden-v3/shuffle-batch";

/// A shuffle proof on the wire (§8, "Wire form").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuffleProof {
    /// The permutation commitment `c_0 … c_{N−1}`.
    pub commitments: Vec<Hex32>,
    /// The commitment chain `ĉ_0 … ĉ_{N−1}`.
    pub chain: Vec<Hex32>,
    /// `t_1 = ω_1·G`.
    pub t1: Hex32,
    /// `t_2 = ω_2·G`.
    pub t2: Hex32,
    /// `t_3 = ω_3·G + Σ ω'_i·h_i`.
    pub t3: Hex32,
    /// `t_4a = −ω_4·PK + Σ ω'_i·a'_i`.
    pub t4a: Hex32,
    /// `t_4b = −ω_4·G + Σ ω'_i·b'_i`.
    pub t4b: Hex32,
    /// `t̂_i = ω̂_i·G + ω'_i·ĉ_{i−1}`.
    pub t_hat: Vec<Hex32>,
    /// `s_1 = ω_1 − c·r̄`.
    pub s1: Hex32,
    /// `s_2 = ω_2 − c·r̂`.
    pub s2: Hex32,
    /// `s_3 = ω_3 − c·r`.
    pub s3: Hex32,
    /// `s_4 = ω_4 − c·ρ`.
    pub s4: Hex32,
    /// `ŝ_i = ω̂_i − c·r̂_i`.
    pub s_hat: Vec<Hex32>,
    /// `s'_i = ω'_i − c·u'_i`.
    pub s_prime: Vec<Hex32>,
}

/// What a shuffle proof is about: seat `seat` of hand `hand` turned `input`
/// into `output` under the joint key `key`.
#[derive(Debug, Clone, Copy)]
pub struct Statement<'a> {
    /// The table.
    pub table: &'a Table,
    /// The hand (deal number).
    pub hand: u64,
    /// The shuffling seat.
    pub seat: u64,
    /// The joint key `PK`.
    pub key: &'a PublicKey,
    /// The input deck `e`.
    pub input: &'a PublishedDeck,
    /// The output deck `e'`.
    pub output: &'a PublishedDeck,
}

/// The prover's secret: `π` (output `i` holds input `π(i)`) and the `ρ_i`.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Witness {
    /// `π(0) … π(N−1)`.
    pub permutation: Vec<usize>,
    /// `ρ_0 … ρ_{N−1}`.
    pub rho: Vec<Scalar>,
}

impl core::fmt::Debug for Witness {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Witness(<redacted>)")
    }
}

impl Statement<'_> {
    /// `lp(domain) ‖ lp(M) ‖ u64_be(n) ‖ u64_be(j) ‖ enc(PK) ‖ u64_be(N) ‖ e ‖ e'
    /// ‖ enc(c_0) … enc(c_{N−1})`: the common prefix of `T_u` and `T_c`.
    fn transcript(&self, domain: &str, commitments: &[Hex32]) -> Transcript {
        let mut t = Transcript::new(domain);
        t.bytes(self.table.manifest_bytes())
            .u64(self.hand)
            .u64(self.seat)
            .element(&encode_point(&self.key.0))
            .u64(self.input.len() as u64);
        for e in self.input.wire.iter().chain(&self.output.wire) {
            t.element(&e.a).element(&e.b);
        }
        t.elements(commitments);
        t
    }

    /// The challenges `u_k = wide(SHA-512(T_u ‖ u64_be(k)))`.
    fn challenges(&self, commitments: &[Hex32]) -> Vec<Scalar> {
        let t = self.transcript(U_DOMAIN, commitments);
        (0..self.input.len() as u64)
            .map(|k| t.challenge_at(k))
            .collect()
    }

    /// `c = wide(SHA-512(T_c))`, `T_c` the prefix, the chain and the `t` values.
    fn challenge(&self, p: &ShuffleProof) -> Scalar {
        let mut t = self.transcript(C_DOMAIN, &p.commitments);
        t.elements(&p.chain)
            .elements([&p.t1, &p.t2, &p.t3, &p.t4a, &p.t4b])
            .elements(&p.t_hat);
        t.challenge()
    }
}

/// The prover's random scalars, wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Nonces {
    r: Vec<Scalar>,
    r_hat: Vec<Scalar>,
    omega: [Scalar; 4],
    omega_hat: Vec<Scalar>,
    omega_prime: Vec<Scalar>,
}

impl Nonces {
    /// Draws `r_{π(0)}, r_{π(1)}, …`, then `r̂_i`, `ω_1 … ω_4`, `ω̂_i`, `ω'_i`.
    fn draw<R: CryptoRng + ?Sized>(pi: &[usize], rng: &mut R) -> Nonces {
        let n = pi.len();
        let mut r = vec![Scalar::ZERO; n];
        for &k in pi {
            r[k] = random_scalar(rng);
        }
        let many = |rng: &mut R| (0..n).map(|_| random_scalar(rng)).collect::<Vec<_>>();
        let r_hat = many(rng);
        let omega = core::array::from_fn(|_| random_scalar(rng));
        let omega_hat = many(rng);
        let omega_prime = many(rng);
        Nonces {
            r,
            r_hat,
            omega,
            omega_hat,
            omega_prime,
        }
    }
}

fn mul_g(s: &Scalar) -> RistrettoPoint {
    RISTRETTO_BASEPOINT_TABLE * s
}

fn encode_all(points: &[RistrettoPoint]) -> Vec<Hex32> {
    points.iter().map(encode_point).collect()
}

/// Proves `st` with the witness `w` (GenShuffleProof). The caller makes sure
/// `st.output` is the shuffle the witness describes: a proof of a false
/// statement simply does not verify. O(N) scalar multiplications.
///
/// # Panics
///
/// If the witness, the decks and the table's generators differ in length
/// (a programming error: [`crate::shuffle::shuffle`] builds them together).
pub fn prove<R: CryptoRng + ?Sized>(st: &Statement<'_>, w: &Witness, rng: &mut R) -> ShuffleProof {
    let (pi, n) = (&w.permutation, w.permutation.len());
    let gens = st.table.generators();
    assert!(n == st.input.len() && n == st.output.len() && n <= gens.h.len());
    let nonce = Nonces::draw(pi, rng);
    // 1. c_{π(i)} = r_{π(i)}·G + h_i
    let mut c = vec![RistrettoPoint::default(); n];
    for (i, &k) in pi.iter().enumerate() {
        c[k] = mul_g(&nonce.r[k]) + gens.h[i];
    }
    let commitments = encode_all(&c);
    // 2. u_k, u'_i = u_{π(i)}
    let u = st.challenges(&commitments);
    let u_perm: Vec<Scalar> = pi.iter().map(|&k| u[k]).collect();
    // 3. ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}, ĉ_{−1} = H; t̂_i = ω̂_i·G + ω'_i·ĉ_{i−1}
    let (mut chain, mut t_hat) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut prev = gens.chain;
    let steps = nonce.omega_hat.iter().zip(&nonce.omega_prime);
    for ((w_hat, w_prime), (r_hat, u_i)) in steps.zip(nonce.r_hat.iter().zip(&u_perm)) {
        t_hat.push(mul_g(w_hat) + w_prime * prev);
        prev = mul_g(r_hat) + u_i * prev;
        chain.push(prev);
    }
    let t = commit_t(st, &nonce);
    let mut proof = ShuffleProof {
        commitments,
        chain: encode_all(&chain),
        t1: t[0],
        t2: t[1],
        t3: t[2],
        t4a: t[3],
        t4b: t[4],
        t_hat: encode_all(&t_hat),
        s1: Hex32([0; 32]),
        s2: Hex32([0; 32]),
        s3: Hex32([0; 32]),
        s4: Hex32([0; 32]),
        s_hat: Vec::new(),
        s_prime: Vec::new(),
    };
    respond(st, w, &nonce, &u, &u_perm, &mut proof);
    proof
}

/// `t_1, t_2, t_3, t_4a, t_4b` (constant-time multiscalar multiplications:
/// the scalars are secret).
fn commit_t(st: &Statement<'_>, nonce: &Nonces) -> [Hex32; 5] {
    let [w1, w2, w3, w4] = nonce.omega;
    let gens = st.table.generators();
    let out = &st.output.deck.0;
    let wp = &nonce.omega_prime;
    let t3 = mul_g(&w3) + RistrettoPoint::multiscalar_mul(wp, &gens.h[..wp.len()]);
    let t4a = RistrettoPoint::multiscalar_mul(
        wp.iter().chain([&-w4]),
        out.iter().map(|e| e.a).chain([st.key.0]),
    );
    let t4b = mul_g(&-w4) + RistrettoPoint::multiscalar_mul(wp, out.iter().map(|e| e.b));
    [mul_g(&w1), mul_g(&w2), t3, t4a, t4b].map(|p| encode_point(&p))
}

/// Steps 4, 6 and 7: the aggregates, the challenge `c` and the responses.
fn respond(
    st: &Statement<'_>,
    w: &Witness,
    nonce: &Nonces,
    u: &[Scalar],
    u_perm: &[Scalar],
    proof: &mut ShuffleProof,
) {
    let n = u.len();
    let mut v = vec![Scalar::ONE; n];
    for i in (1..n).rev() {
        v[i - 1] = u_perm[i] * v[i];
    }
    let dot = |x: &[Scalar], y: &[Scalar]| x.iter().zip(y).map(|(a, b)| a * b).sum::<Scalar>();
    let mut agg = [
        nonce.r.iter().sum::<Scalar>(),
        dot(&nonce.r_hat, &v),
        dot(&nonce.r, u),
        dot(&w.rho, u_perm),
    ];
    let c = st.challenge(proof);
    let [s1, s2, s3, s4] = core::array::from_fn(|k| encode_scalar(&(nonce.omega[k] - c * agg[k])));
    agg.zeroize();
    (proof.s1, proof.s2, proof.s3, proof.s4) = (s1, s2, s3, s4);
    let resp = |om: &[Scalar], x: &[Scalar]| {
        om.iter()
            .zip(x)
            .map(|(o, x)| encode_scalar(&(o - c * x)))
            .collect::<Vec<_>>()
    };
    proof.s_hat = resp(&nonce.omega_hat, &nonce.r_hat);
    proof.s_prime = resp(&nonce.omega_prime, u_perm);
}
