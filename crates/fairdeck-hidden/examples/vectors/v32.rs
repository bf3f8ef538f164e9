//! The version-3.2 vectors of `docs/hidden-dealing-v3.2.md` §30, items 1–4:
//! a four-seat table tolerating one lost seat, with a room; its ChaCha20
//! generator keyed with 32 bytes of `0x32`, drawn in the order listed.

use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use fairdeck_hidden::dkg::digest::{complaint_digest, dealing_digest, ready_digest};
use fairdeck_hidden::dkg::{self, Dealing, DealingMessage, DealingSecrets, KeyShare, Received};
use fairdeck_hidden::group::{encode_point, encode_scalar};
use fairdeck_hidden::keys::{self, PublicKey, SecretKey};
use fairdeck_hidden::ledger::key_digest;
use fairdeck_hidden::signature::{Context, sign_seat};
use fairdeck_hidden::{Error, Table};
use rand_core::SeedableRng;

use super::hex;

/// §30's table: hold'em, ann, bob, cat and dan, hand 1, `tolerate 1`.
pub fn manifest_32() -> Manifest {
    Manifest {
        version: 3,
        table: "vector-table-32".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: ["ann", "bob", "cat", "dan"].map(String::from).to_vec(),
        first: 1,
        last: 1,
    }
}

fn block(out: &mut String, title: &str, body: String) {
    out.push_str(&format!("### {title}\n\n```\n{body}\n```\n\n"));
}

fn line<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// The table, its seats' keys, the room's context and the generator.
struct Setup {
    table: Table,
    sk: Vec<SecretKey>,
    keys: Vec<PublicKey>,
    ctx: Context,
    rng: ChaCha20Rng,
}

/// The version-3.2 vectors as the spec prints them.
pub fn vectors_32() -> String {
    let mut out = String::new();
    let mut s = seat_keys(&mut out);
    let (dealings, secrets) = keygen(&mut s, &mut out, None);
    let k01 = secrets[0].ephemeral() * s.keys[1].0;
    let pad = dkg::share_pad(&s.table, (0, 1), &dealings[0].ephemeral, &s.keys[1], &k01);
    block(
        &mut out,
        "Intermediate values: K_{0,1} = r_0·PK_1 and pad_{0,1}",
        format!(
            "K_01    {}\npad_01  {}",
            encode_point(&k01),
            encode_scalar(&pad)
        ),
    );
    results(&mut s, &mut out, &dealings);
    complaints(&mut s, &mut out);
    out
}

/// Item 1: `sk_0 … sk_3`, `sk_room`, `C`, the signed key messages.
fn seat_keys(out: &mut String) -> Setup {
    let table = Table::with_tolerance(manifest_32(), 1).expect("the vector manifest is valid");
    let mut rng = ChaCha20Rng::from_seed([0x32; 32]);
    let sk: Vec<SecretKey> = (0..4).map(|_| SecretKey::generate(&mut rng)).collect();
    let room = SecretKey::generate(&mut rng);
    let room_pk = encode_point(&room.public_key().0);
    let ctx = Context::new(&table, Some(&room_pk));
    block(out, "M (hex), revision 2", hex(table.manifest_bytes()));
    let mut lines: Vec<String> = (0..4)
        .map(|j| format!("sk_{j}     {}", hex(&sk[j].to_bytes()[..])))
        .collect();
    lines.push(format!("sk_room  {}", hex(&room.to_bytes()[..])));
    lines.push(format!("PK_room  {room_pk}\nC        {}", ctx.bytes));
    block(out, "Keys: seats, room, context", lines.join("\n"));
    let mut msgs = Vec::new();
    for j in 0..4u64 {
        let mut m = keys::key_message(&table, j, &sk[j as usize], &mut rng).unwrap();
        m.signature = Some(sign_seat(
            &ctx,
            j,
            &sk[j as usize],
            &key_digest(&ctx, &m),
            &mut rng,
        ));
        msgs.push(line(&m));
    }
    let title = "Signed key messages, seats 0 to 3 (each: key proof nonce, signature nonce)";
    block(out, title, msgs.join("\n"));
    let keys = sk.iter().map(SecretKey::public_key).collect();
    Setup {
        table,
        sk,
        keys,
        ctx,
        rng,
    }
}

/// Item 2 (and, with `bad = Some(j)`, item 4's dealings): each seat's
/// coefficients and `r_i`, then its dealing proven and signed; with `bad`,
/// seat 0's share to seat `j` is increased by 1 before it proves and signs.
fn keygen(
    s: &mut Setup,
    out: &mut String,
    bad: Option<usize>,
) -> (Vec<Dealing>, Vec<DealingSecrets>) {
    let (mut dealings, mut all, mut lines) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..4u64 {
        let secrets = DealingSecrets::draw(&s.table, &mut s.rng);
        let mut m: DealingMessage = dkg::deal_shares(&s.table, i, &s.keys, &secrets).unwrap();
        if let (0, Some(j)) = (i, bad) {
            let e = fairdeck_hidden::group::decode_scalar(&m.shares[j]).unwrap();
            m.shares[j] = encode_scalar(&(e + curve25519_dalek::Scalar::ONE));
        }
        dkg::prove_dealing(&s.table, &mut m, &secrets, &mut s.rng);
        let d = dealing_digest(&s.ctx, &m);
        m.signature = Some(sign_seat(&s.ctx, i, &s.sk[i as usize], &d, &mut s.rng));
        let a: Vec<String> = secrets
            .coefficients()
            .iter()
            .map(|a| encode_scalar(a).to_string())
            .collect();
        lines.push(format!(
            "a_{i}  {}\nr_{i}  {}",
            a.join(" "),
            encode_scalar(secrets.ephemeral())
        ));
        lines.push(format!("dealing_{i}  {}", line(&m)));
        dealings.push(dkg::check_dealing(&s.table, &m).unwrap());
        all.push(secrets);
    }
    let title = match bad {
        None => {
            "Dealings, seats 0 to 3 (a_{i,0..2}, r_i, proof nonce, signature nonce)".to_string()
        }
        Some(j) => format!("A second key generation: seat 0's e_{{0,{j}}} increased by 1"),
    };
    block(out, &title, lines.join("\n"));
    (dealings, all)
}

/// Item 3: `PK`, every `Y_j`, every `s_j` and the signed readies.
fn results(s: &mut Setup, out: &mut String, dealings: &[Dealing]) {
    let result = dkg::public_result(&s.table, dealings).unwrap();
    let mut lines = vec![format!("PK   {}", encode_point(&result.key.0))];
    for (j, y) in result.verifying_shares.iter().enumerate() {
        lines.push(format!("Y_{j}  {}", encode_point(&y.0)));
    }
    let mut readies = Vec::new();
    for j in 0..4u64 {
        let share: KeyShare = match dkg::receive(&s.table, dealings, j, &s.sk[j as usize]) {
            Received::Ready(share) => share,
            Received::Complain(bad) => panic!("seat {j} complains against {bad:?}"),
        };
        lines.push(format!("s_{j}  {}", hex(&share.to_bytes()[..])));
        let mut m = dkg::ready(&s.table, j, &result.key, &share, &mut s.rng).unwrap();
        dkg::check_ready(&s.table, &result, &m).unwrap();
        let d = ready_digest(&s.ctx, &m);
        m.signature = Some(sign_seat(&s.ctx, j, &s.sk[j as usize], &d, &mut s.rng));
        readies.push(line(&m));
    }
    block(
        out,
        "Results: PK, Y_0 … Y_3, s_0 … s_3 (secret)",
        lines.join("\n"),
    );
    block(
        out,
        "Signed readies, seats 0 to 3 (proof nonce, signature nonce)",
        readies.join("\n"),
    );
}

/// Item 4: a bad share and seat 2's complaint; seat 3's false complaint
/// against seat 1 with the true `K_{1,3}`.
fn complaints(s: &mut Setup, out: &mut String) {
    let (dealings, _) = keygen(s, out, Some(2));
    let mut lines = Vec::new();
    for (j, i) in [(2u64, 0usize), (3, 1)] {
        let received = dkg::receive(&s.table, &dealings, j, &s.sk[j as usize]);
        let complains = matches!(&received, Received::Complain(bad) if bad == &[i as u64]);
        assert_eq!(complains, j == 2, "only seat 2 has a bad share");
        let sk = &s.sk[j as usize];
        let mut m = dkg::complaint(&s.table, j, &dealings[i], sk, &mut s.rng).unwrap();
        m.signature = Some(sign_seat(
            &s.ctx,
            j,
            sk,
            &complaint_digest(&s.ctx, &m),
            &mut s.rng,
        ));
        let verdict: Error = dkg::judge(&s.table, &s.keys, &dealings, &m);
        lines.push(format!("complaint  {}\nverdict    {verdict}", line(&m)));
    }
    let title = "Seat 2's complaint against seat 0, seat 3's false one against seat 1 (proof nonce, signature nonce)";
    block(out, title, lines.join("\n"));
}
