#!/usr/bin/env python3
"""Independent verifier of docs/hidden-dealing.md: fair dealing version 3, hidden hands (and 3.1).

Written from the specification alone (not from crates/fairdeck-hidden), as issue #33 asks:
a second implementation that agrees with the reference byte for byte. The group is
ristretto255 from libsodium through the `rbcl` package (PyNaCl's bindings have no
ristretto255 functions; `pip install rbcl` installs a wheel that bundles libsodium), SHA-512
is hashlib, and the version-2 parts the specification refers to (the manifest, its bytes M,
the decks, ChaCha20 and the bounded draws) come from docs/fair_verify.py beside this file.
Scalars are Python integers mod l. One file on purpose (over 400 lines), like fair_verify.py:
each function names the section it implements.

Usage:
  hidden_verify.py --check DOC.md
      recomputes every test vector of section 13 from the ChaCha20 generator keyed with
      0x07 bytes (card points, generators, M, the keys and key messages, the 4-card shuffle,
      its output deck and proof, which it also verifies, and the share message), and of
      section 20 from the one keyed with 0x31 bytes (the context, the digests, the heads, the
      seat's and the room's signatures and the attestation, each also verified), and prints
      one line per vector and "N passed, N failed" (scripts/test-hidden-py counts them);
  hidden_verify.py --transcript FILE [--json] [--evidence EVIDENCE]
      verifies a version-3 transcript (sections 14-15), and for revision 1 (version 3.1) its
      signatures, log, signed head and attestations (sections 17-18): prints what was checked,
      the community and opened cards, what stays hidden, and the verdict, `valid` or `invalid`
      with every difference by kind (one JSON document with --json). EVIDENCE is a seat's JSON
      list of signed heads and receipts (section 18), weighed against the published log.
Exit status 1 when anything does not match or a difference is found.
"""
import hashlib
import json
import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in docs/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fair_verify  # noqa: E402  (docs/fair_verify.py: the version-2 verifier)

try:
    import rbcl
except ImportError:
    sys.exit("hidden_verify.py needs libsodium's ristretto255: pip install rbcl")


# ---- Sections 1-3: the group, its encodings, hash to group ----

L = 2**252 + 27742317777372353535851937790883648493
IDENTITY = bytes(32)
G = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")


class Failure(Exception):
    """A failure kind of sections 12 and 15, with what it is about."""

    def __init__(self, kind, detail):
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def u64(n):
    """Section 1: u64_be(n)."""
    return struct.pack(">Q", n)


lp = fair_verify.lp  # section 1: u64_be(len(x)) ‖ x


def enc(s):
    """Section 1: enc(s), 32 bytes little-endian of s mod l."""
    return (s % L).to_bytes(32, "little")


def wide(x):
    """Section 1: wide(x) = int_le(x) mod l for 64 bytes x."""
    return int.from_bytes(x, "little") % L


def hex32(text, what):
    """Section 2: exactly 64 lowercase hex digits (`hex`)."""
    if not (isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)):
        raise Failure("hex", "%s is not 64 lowercase hex digits" % what)
    return bytes.fromhex(text)


def read_point(text, what):
    """Section 2: a point; RFC 9496 decoding refuses non-canonical bytes (`point-encoding`),
    bit 255 set included (libsodium's check ignores that bit, so it is tested here first)."""
    data = hex32(text, what)
    if data[31] & 0x80 or not rbcl.crypto_core_ristretto255_is_valid_point(data):
        raise Failure("point-encoding", "%s is not a canonical ristretto255 encoding" % what)
    return data


def read_scalar(text, what):
    """Section 2: a scalar below l, never reduced (`scalar-encoding`)."""
    value = int.from_bytes(hex32(text, what), "little")
    if value >= L:
        raise Failure("scalar-encoding", "%s is not below the group order" % what)
    return value


def mul(s, p):
    """Section 1: s·P (libsodium answers the identity as all zeros, its encoding)."""
    return rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero(enc(s), p)


def add(*points):
    """Section 1: the sum of points (the identity for none)."""
    total = IDENTITY
    for p in points:
        total = rbcl.crypto_core_ristretto255_add(total, p)
    return total


def sub(p, q):
    """Section 1: P − Q."""
    return rbcl.crypto_core_ristretto255_sub(p, q)


def combo(pairs):
    """Section 1: Σ s·P over (s, P) pairs."""
    return add(*(mul(s, p) for s, p in pairs))


def h2g(domain, x):
    """Section 3: from_uniform_bytes(SHA-512(lp(domain) ‖ x)), RFC 9496 §4.3.4."""
    return rbcl.crypto_core_ristretto255_from_hash(hashlib.sha512(lp(domain.encode()) + x).digest())


def card_point(name):
    """Section 3: P_c."""
    return h2g("fairdeck-hidden-v3/card", lp(name.encode()))


def generator(i):
    """Section 3: h_i."""
    return h2g("fairdeck-hidden-v3/generator", u64(i))


CHAIN = h2g("fairdeck-hidden-v3/chain", b"")  # section 3: H


def deck_points(deck_name):
    """Sections 3 and 4: the deck's card names in order and {point: name} (`deck`)."""
    names = fair_verify.deck(deck_name)
    points = {}
    for name in names:
        p = card_point(name)
        if p == IDENTITY or points.get(p, name) != name:
            raise Failure("deck", "card %s maps to the identity or to another card's point" % name)
        points[p] = name
    return names, points


# ---- Section 7: statements, the key proof and the share proof ----

class Statement:
    """Section 7, "Transcripts": T built element by element; challenge() = wide(SHA-512(T))."""

    def __init__(self, domain):
        self.data = lp(domain.encode())

    def bytes(self, data):
        self.data += lp(data)
        return self

    def number(self, n):
        self.data += u64(n)
        return self

    def points(self, *points):
        self.data += b"".join(points)
        return self

    def ciphertexts(self, deck):
        self.data += b"".join(a + b for a, b in deck)
        return self

    def challenge(self, suffix=b""):
        return wide(hashlib.sha512(self.data + suffix).digest())


def key_challenge(m_bytes, seat, public_key, r):
    """Section 7.1: c = wide(SHA-512(lp("…/key") ‖ lp(M) ‖ u64_be(j) ‖ enc(PK_j) ‖ enc(R)))."""
    return Statement("fairdeck-hidden-v3/key").bytes(m_bytes).number(seat).points(public_key, r).challenge()


def key_proof_holds(m_bytes, seat, public_key, c, s):
    """Section 7.1, verify: R' = s·G − c·PK_j; accept iff c' = c."""
    return key_challenge(m_bytes, seat, public_key, sub(mul(s, G), mul(c, public_key))) == c


def share_challenge(m_bytes, hand, seat, position, public_key, ciphertext, share, r1, r2):
    """Section 7.2: the Chaum–Pedersen challenge over the whole statement."""
    a, b = ciphertext
    return (Statement("fairdeck-hidden-v3/share").bytes(m_bytes).number(hand).number(seat)
            .number(position).points(public_key, a, b, share, r1, r2).challenge())


def share_proof_holds(m_bytes, hand, seat, position, public_key, ciphertext, share, c, s):
    """Section 7.2, verify: R_1' = s·G − c·PK_j, R_2' = s·b − c·D_j; accept iff c' = c."""
    r1 = sub(mul(s, G), mul(c, public_key))
    r2 = sub(mul(s, ciphertext[1]), mul(c, share))
    return share_challenge(m_bytes, hand, seat, position, public_key, ciphertext, share, r1, r2) == c


# ---- Section 8: the shuffle proof ----

SHUFFLE_LISTS = ("commitments", "chain", "t_hat", "s_hat", "s_prime")
SHUFFLE_POINTS = ("t1", "t2", "t3", "t4a", "t4b")


def shuffle_statement(domain, ctx, deck_in, deck_out, commitments):
    """Section 8, steps 2 and 6: the common start of T_u and T_c.

    lp(domain) ‖ lp(M) ‖ u64_be(n) ‖ u64_be(j) ‖ enc(PK) ‖ u64_be(N) ‖ e_0 … ‖ e'_0 … ‖ enc(c_0) …
    """
    m_bytes, hand, seat, joint_key = ctx
    return (Statement(domain).bytes(m_bytes).number(hand).number(seat).points(joint_key)
            .number(len(deck_in)).ciphertexts(deck_in).ciphertexts(deck_out).points(*commitments))


def shuffle_u(ctx, deck_in, deck_out, commitments):
    """Section 8, step 2: u_k = wide(SHA-512(T_u ‖ u64_be(k)))."""
    t_u = shuffle_statement("fairdeck-hidden-v3/shuffle-u", ctx, deck_in, deck_out, commitments)
    return [t_u.challenge(u64(k)) for k in range(len(deck_in))]


def shuffle_c(ctx, deck_in, deck_out, proof):
    """Section 8, step 6: c = wide(SHA-512(T_c)), hashing the proof's own t values."""
    t_c = shuffle_statement("fairdeck-hidden-v3/shuffle-c", ctx, deck_in, deck_out, proof["commitments"])
    return t_c.points(*proof["chain"], *(proof[k] for k in SHUFFLE_POINTS), *proof["t_hat"]).challenge()


def shuffle_proof_group(ctx, deck_in, deck_out, proof):
    """Section 8, "Verifier": None when E1-E5 hold, else the first failing group.

    Groups in order: `permutation` (E1, E2, E5), `challenges` (E3), `reencryption` (E4).
    Every equation is checked on its own (no batching), which names the group directly.
    """
    n, joint_key = len(deck_in), ctx[3]
    h = [generator(i) for i in range(n)]
    u = shuffle_u(ctx, deck_in, deck_out, proof["commitments"])
    c = shuffle_c(ctx, deck_in, deck_out, proof)
    cs, chain, s_prime = proof["commitments"], proof["chain"], proof["s_prime"]
    u_all = 1
    for x in u:
        u_all = u_all * x % L
    c_bar = sub(add(*cs), add(*h))
    c_hat = sub(chain[-1], mul(u_all, CHAIN))
    previous = [CHAIN] + chain[:-1]
    e1 = proof["t1"] == add(mul(c, c_bar), mul(proof["s1"], G))
    e2 = proof["t2"] == add(mul(c, c_hat), mul(proof["s2"], G))
    e5 = all(proof["t_hat"][i] == combo([(c, chain[i]), (proof["s_hat"][i], G), (s_prime[i], previous[i])])
             for i in range(n))
    if not (e1 and e2 and e5):
        return "permutation"
    c_tilde = combo(zip(u, cs))
    if proof["t3"] != combo([(c, c_tilde), (proof["s3"], G)] + list(zip(s_prime, h))):
        return "challenges"
    a_tilde = combo(zip(u, (a for a, _ in deck_in)))
    b_tilde = combo(zip(u, (b for _, b in deck_in)))
    t4a = combo([(c, a_tilde), (-proof["s4"], joint_key)] + [(s, a) for s, (a, _) in zip(s_prime, deck_out)])
    t4b = combo([(c, b_tilde), (-proof["s4"], G)] + [(s, b) for s, (_, b) in zip(s_prime, deck_out)])
    if (proof["t4a"], proof["t4b"]) != (t4a, t4b):
        return "reencryption"
    return None


def check_shuffle(ctx, deck_in, deck_out, proof):
    """Section 8, "Verifier", with section 12's kinds: raises `deck-size` or `shuffle-proof`."""
    n = len(deck_in)
    sizes = [len(deck_out)] + [len(proof[k]) for k in SHUFFLE_LISTS]
    if any(size != n for size in sizes):
        raise Failure("deck-size", "the shuffle's deck and proof lists must have %d entries" % n)
    group = shuffle_proof_group(ctx, deck_in, deck_out, proof)
    if group:
        raise Failure("shuffle-proof", "the shuffle proof fails (%s)" % group)


def reencrypt(ciphertext, rho, joint_key):
    """Section 6: ReEnc((a, b), ρ) = (a + ρ·PK, b + ρ·G)."""
    a, b = ciphertext
    return add(a, mul(rho, joint_key)), add(b, mul(rho, G))


def prove_shuffle(ctx, deck_in, pi, rho, draw):
    """Section 8, "Prover", steps 1-7, with scalars from draw() in the order section 8 lists.

    Only used to recompute the vectors of section 13 (a verifier never proves).
    """
    n, joint_key = len(deck_in), ctx[3]
    h = [generator(i) for i in range(n)]
    deck_out = [reencrypt(deck_in[pi[i]], rho[i], joint_key) for i in range(n)]
    r = [0] * n
    for i in range(n):
        r[pi[i]] = draw()
    cs = [None] * n
    for i in range(n):
        cs[pi[i]] = add(mul(r[pi[i]], G), h[i])
    u = shuffle_u(ctx, deck_in, deck_out, cs)
    u_out = [u[pi[i]] for i in range(n)]
    r_hat = [draw() for _ in range(n)]
    chain, previous = [], CHAIN
    for i in range(n):
        previous = add(mul(r_hat[i], G), mul(u_out[i], previous))
        chain.append(previous)
    v = [1] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_out[i] * v[i] % L
    r_bar, r_chain = sum(r) % L, sum(x * y for x, y in zip(r_hat, v)) % L
    r_u, rho_u = sum(x * y for x, y in zip(r, u)) % L, sum(x * y for x, y in zip(rho, u_out)) % L
    w = [draw() for _ in range(4)]
    w_hat = [draw() for _ in range(n)]
    w_prime = [draw() for _ in range(n)]
    proof = {"commitments": cs, "chain": chain, "t1": mul(w[0], G), "t2": mul(w[1], G),
             "t3": combo([(w[2], G)] + list(zip(w_prime, h))),
             "t4a": combo([(-w[3], joint_key)] + [(x, a) for x, (a, _) in zip(w_prime, deck_out)]),
             "t4b": combo([(-w[3], G)] + [(x, b) for x, (_, b) in zip(w_prime, deck_out)]),
             "t_hat": [add(mul(w_hat[i], G), mul(w_prime[i], ([CHAIN] + chain)[i])) for i in range(n)]}
    c = shuffle_c(ctx, deck_in, deck_out, proof)
    proof.update({"s1": (w[0] - c * r_bar) % L, "s2": (w[1] - c * r_chain) % L,
                  "s3": (w[2] - c * r_u) % L, "s4": (w[3] - c * rho_u) % L,
                  "s_hat": [(w_hat[i] - c * r_hat[i]) % L for i in range(n)],
                  "s_prime": [(w_prime[i] - c * u_out[i]) % L for i in range(n)]})
    return deck_out, proof


def batched_rolls(words, bounds):
    """Section 8, "The shuffle itself": one word x gives a roll per bound b (x·b: the high
    64 bits are the roll, the low 64 bits go on); the word is redrawn while the last low
    half is below 2^64 mod (the product of the bounds)."""
    product = 1
    for b in bounds:
        product *= b
    while True:
        x, rolls = next(words), []
        for b in bounds:
            rolls.append(x * b >> 64)
            x = x * b % 2**64
        if x >= 2**64 % product:
            return rolls


def permutation(n, words):
    """Section 8, "The shuffle itself": π from fairdeck's Fisher–Yates with batched rolls."""
    order, i = list(range(n)), n
    while i > 1:
        bits = i.bit_length()
        k = min(max(1, min(8, 56 // bits)), i - 1)
        floor = max(1 << (bits - 1), k + 1)
        while i >= floor:
            for t, j in enumerate(batched_rolls(words, [i - t for t in range(k)])):
                order[i - 1 - t], order[j] = order[j], order[i - 1 - t]
            i -= k
    return order


# ---- Sections 17-18 (version 3.1): context, digests, signatures, the log and its heads ----

def first32(data):
    """Section 17: the first 32 bytes of SHA-512(data)."""
    return hashlib.sha512(data).digest()[:32]


def context(m_bytes, room):
    """Section 17: C = first32(SHA-512(lp("…/context") ‖ lp(M) ‖ lp(R_room))), R_room = b"" without a room."""
    return first32(lp(b"fairdeck-hidden-v3.1/context") + lp(m_bytes) + lp(room or b""))


def raw(text):
    """Section 17: a 32-byte field appended as the 32 bytes its 64 hex digits spell."""
    return bytes.fromhex(text)


def message_digest(ctx, kind, body):
    """Section 17: first32(SHA-512(lp("…/message") ‖ C ‖ lp(kind) ‖ body))."""
    return first32(lp(b"fairdeck-hidden-v3.1/message") + ctx + lp(kind.encode()) + body)


def key_digest(ctx, message):
    """Section 17, kind "key": u64_be(j) ‖ enc(PK_j) ‖ c ‖ s."""
    proof = message["proof"]
    return message_digest(ctx, "key", u64(message["seat"]) + raw(message["public_key"])
                          + raw(proof["c"]) + raw(proof["s"]))


def shuffle_digest(ctx, message):
    """Section 17, kind "shuffle": the deck with its count, the proof's lists each with theirs."""
    proof = message["proof"]

    def listed(key):
        return u64(len(proof[key])) + b"".join(raw(x) for x in proof[key])
    body = (u64(message["hand"]) + u64(message["seat"]) + u64(len(message["deck"]))
            + b"".join(raw(e["a"]) + raw(e["b"]) for e in message["deck"])
            + listed("commitments") + listed("chain") + b"".join(raw(proof[k]) for k in SHUFFLE_POINTS)
            + listed("t_hat") + b"".join(raw(proof["s%d" % i]) for i in range(1, 5))
            + listed("s_hat") + listed("s_prime"))
    return message_digest(ctx, "shuffle", body)


def share_digest(ctx, stage, message):
    """Section 17, kind "share": lp(stage) ‖ u64_be(n) ‖ u64_be(j) ‖ u64_be(p) ‖ share ‖ c ‖ s."""
    proof = message["proof"]
    return message_digest(ctx, "share", lp(stage.encode()) + u64(message["hand"]) + u64(message["seat"])
                          + u64(message["position"]) + raw(message["share"]) + raw(proof["c"]) + raw(proof["s"]))


def void_digest(ctx, scope, hand, void):
    """Section 17, kind "void": lp(scope) ‖ u64_be(n) ‖ lp(stage) ‖ u64_be(seat) ‖ u64_be(m) ‖ the missing."""
    body = lp(scope.encode()) + u64(hand) + lp(void["stage"].encode()) + u64(void["seat"]) + u64(len(void["missing"]))
    for item in void["missing"]:
        body += lp(item["message"].encode()) + u64(item.get("position", 0))
    return message_digest(ctx, "void", body)


def seat_challenge(ctx, seat, public_key, d, r):
    """Section 17, seat signature:
    c = wide(SHA-512(lp("…/seat-signature") ‖ C ‖ u64_be(j) ‖ enc(PK_j) ‖ d ‖ enc(R)))."""
    return wide(hashlib.sha512(lp(b"fairdeck-hidden-v3.1/seat-signature") + ctx + u64(seat) + public_key
                               + d + r).digest())


def room_challenge(ctx, room_key, length, head, r):
    """Section 17, room signature:
    c = wide(SHA-512(lp("…/room-signature") ‖ C ‖ enc(PK_room) ‖ u64_be(L) ‖ h_L ‖ enc(R)))."""
    return wide(hashlib.sha512(lp(b"fairdeck-hidden-v3.1/room-signature") + ctx + room_key + u64(length)
                               + head + r).digest())


def signature_holds(signature, public_key, challenge):
    """Section 17, verify: R' = s·G − c·PK; accept iff c' = c. A c or s that is not a canonical
    scalar makes the signature fail (not `scalar-encoding`). CHALLENGE(R') recomputes c'."""
    c, s = int.from_bytes(raw(signature["c"]), "little"), int.from_bytes(raw(signature["s"]), "little")
    if c >= L or s >= L:
        return False
    return challenge(sub(mul(s, G), mul(c, public_key))) == c


def seat_signature_holds(ctx, seat, public_key, d, signature):
    return signature_holds(signature, public_key, lambda r: seat_challenge(ctx, seat, public_key, d, r))


def room_signature_holds(ctx, room_key, length, head, signature):
    return signature_holds(signature, room_key, lambda r: room_challenge(ctx, room_key, length, head, r))


def schnorr_sign(secret, nonce, challenge):
    """Section 17, sign: R = k·G, c = challenge(R), s = k + c·sk (only for the vectors and tests)."""
    c = challenge(mul(nonce, G))
    return {"c": enc(c).hex(), "s": enc(nonce + c * secret).hex()}


def heads(ctx, log):
    """Section 18, every head of LOG: h_0 = first32(SHA-512(lp("…/chain") ‖ C)),
    h_{i+1} = first32(SHA-512(lp("…/chain") ‖ h_i ‖ d_i))."""
    chain = [first32(lp(b"fairdeck-hidden-v3.1/chain") + ctx)]
    for d in log:
        chain.append(first32(lp(b"fairdeck-hidden-v3.1/chain") + chain[-1] + d))
    return chain


def attestation_digest(length, head):
    """Section 18, check 4: first32(SHA-512(lp("…/attestation") ‖ u64_be(L) ‖ h_L))."""
    return first32(lp(b"fairdeck-hidden-v3.1/attestation") + u64(length) + head)


# ---- Section 14: reading a transcript strictly ----

HEX, U64, TEXT = "hex", "u64", "text"
SCALAR_PROOF = {"c": HEX, "s": HEX}
SIGNED = {"signature": SCALAR_PROOF}  # section 17: every seat message of revision 1 carries one
KEY_MESSAGE = {"seat": U64, "public_key": HEX, "proof": SCALAR_PROOF}
SHUFFLE_MESSAGE = {"hand": U64, "seat": U64, "deck": [{"a": HEX, "b": HEX}],
                   "proof": dict({k: [HEX] for k in SHUFFLE_LISTS}, **{k: HEX for k in SHUFFLE_POINTS},
                                 **{"s%d" % i: HEX for i in range(1, 5)})}
SHARE_MESSAGE = {"hand": U64, "seat": U64, "position": U64, "share": HEX, "proof": SCALAR_PROOF}
VOID = {"stage": TEXT, "seat": U64, "missing": ["missing"]}
MANIFEST = {"version": U64, "table": TEXT, "game": TEXT, "deck": TEXT, "seats": [TEXT],
            "first": U64, "last": U64}
SIGNED_HEAD = {"length": U64, "head": HEX, "signature": SCALAR_PROOF}  # section 18
ATTESTATION = {"seat": U64, "length": U64, "head": HEX, "signature": SCALAR_PROOF}
RECEIPT = dict(SIGNED_HEAD, index=U64, digest=HEX)


def transcript_shape(revision):
    """Section 14's document; for revision 1 (section 18) every seat message signed, and the room,
    its log, its signed head and the attestations (each may be left out: null or empty)."""
    signed = (lambda shape: dict(shape, **SIGNED)) if revision == 1 else (lambda shape: shape)
    share = signed(SHARE_MESSAGE)
    hand = {"hand": U64, "shuffles": [signed(SHUFFLE_MESSAGE)], "deal": [share],
            "streets": [{"street": TEXT, "shares": [share]}], "showdown": [share], "void?": VOID}
    shape = {"version": U64, "revision?": U64, "manifest": MANIFEST, "keys": [signed(KEY_MESSAGE)],
             "void?": VOID, "hands": [hand]}
    if revision == 1:
        shape.update({"room?": HEX, "log?": [HEX], "head?": SIGNED_HEAD, "attestations?": [ATTESTATION]})
    return shape


TRANSCRIPT = transcript_shape(0)


def refuse(what):
    """Section 14: the document is unreadable (`document`)."""
    raise Failure("document", what)


def parse_strictly(text):
    """Section 14: RFC 8259 JSON, no key twice in an object, every number an unsigned 64-bit integer."""
    def pairs(items):
        if len({k for k, _ in items}) != len(items):
            refuse("a key appears twice in one object")
        return dict(items)

    def integer(digits):
        if digits.startswith("-") or int(digits) >= 2**64:
            refuse("the number %s is not an unsigned 64-bit integer" % digits)
        return int(digits)

    def not_integer(token):
        refuse("the number %s is not an unsigned 64-bit integer" % token)
    try:
        return json.loads(text, object_pairs_hook=pairs, parse_int=integer, parse_float=not_integer,
                          parse_constant=not_integer)
    except (ValueError, RecursionError) as error:
        refuse("not JSON: %s" % error)


def conform(value, shape, where):
    """Section 14: VALUE has exactly SHAPE's fields and types ("name?" may be absent or null)."""
    if shape == U64:
        ok = type(value) is int
    elif shape == TEXT:
        ok = isinstance(value, str)
    elif shape == HEX:
        ok = isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    elif shape == "missing":
        ok = isinstance(value, dict) and (set(value) == {"message"} and value["message"] in ("key", "shuffle")
                                          or set(value) == {"message", "position"} and value["message"] == "share"
                                          and type(value["position"]) is int)
    elif isinstance(shape, list):
        ok = isinstance(value, list)
        for i, item in enumerate(value if ok else []):
            conform(item, shape[0], "%s[%d]" % (where, i))
    else:
        ok = isinstance(value, dict) and conform_object(value, shape, where)
    if not ok:
        refuse("%s does not have the form of section 14" % where)


def conform_object(value, shape, where):
    optional = {k[:-1] for k in shape if k.endswith("?")}
    required = {k for k in shape if not k.endswith("?")}
    if not required <= set(value) or not set(value) <= required | optional:
        refuse("%s has fields %s; section 14 names %s" % (where, sorted(value), sorted(required | optional)))
    for key, item in value.items():
        sub_shape = shape.get(key, shape.get(key + "?"))
        if key in optional and item is None:
            continue
        conform(item, sub_shape, "%s.%s" % (where, key))
    return True


def read_transcript(text):
    """Section 14: the document, or Failure("document", …)."""
    document = parse_strictly(text)
    revision = document.get("revision") if isinstance(document, dict) else None
    if revision not in (None, 0, 1):
        refuse("revision %s: neither 0 (version 3) nor 1 (version 3.1)" % json.dumps(revision))
    conform(document, transcript_shape(revision or 0), "the transcript")
    if document["version"] != 3:
        refuse("version %d: not a version-3 transcript" % document["version"])
    if revision == 1 and document.get("head") is not None and document.get("room") is None:
        refuse("a head without a room (section 18)")
    return document


# ---- Sections 14-15: the layout, the stages and the verdict ----

SKAT_PACKETS = [(0, 3, 0), (3, 6, 1), (6, 9, 2), (11, 15, 0), (15, 19, 1), (19, 23, 2),
                (23, 26, 0), (26, 29, 1), (29, 32, 2)]


def layout(game, seats):
    """Section 14, "Layout" (docs/fair-dealing.md §9): {private position: seat} and the streets."""
    p = seats
    owners = {"holdem": 2 * p, "draw": 5 * p, "bridge": 52, "scopa": 3 * p}
    if game in owners:
        private = {q: q % p for q in range(owners[game])}
    elif game == "skat":
        private = {q: seat for start, end, seat in SKAT_PACKETS for q in range(start, end)}
    else:
        private = {}
    streets = {"holdem": [("flop", [2 * p + 1, 2 * p + 2, 2 * p + 3]), ("turn", [2 * p + 5]),
                          ("river", [2 * p + 7])],
               "scopa": [("table", [3 * p + k for k in range(4)])]}.get(game, [])
    return private, streets


class Report:
    """Section 15, "Verdict": what was checked, the cards shown, what stays hidden, the differences."""

    def __init__(self):
        self.checked, self.hands, self.differences = [], [], []
        self.revision = 0

    def differ(self, kind, detail, hand=None, seat=None):
        self.differences.append({"kind": kind, "hand": hand, "seat": seat, "detail": detail})


class Table:
    """The table's facts every hand needs: M, the seats, the deck's points, the keys, the layout."""

    def __init__(self, manifest, names, points):
        self.manifest, self.names, self.points = manifest, names, points
        self.cards = {name: point for point, name in points.items()}
        self.m_bytes = fair_verify.manifest_bytes(manifest)
        self.seats, self.size = len(manifest["seats"]), len(names)
        self.private, self.streets = layout(manifest["game"], self.seats)
        self.keys, self.joint_key = [], None
        self.signed, self.ctx, self.room = False, None, None  # revision 1: section 17's context C, the room

    def signature(self, seat, public_key, d, message, report, where, hand=None):
        """Section 18, check 1: MESSAGE (with digest D) in seat SEAT's place is signed by that seat
        (`signature`, naming the room); True for a revision-0 transcript, which has no signatures."""
        if not self.signed or seat_signature_holds(self.ctx, seat, public_key, d, message["signature"]):
            return True
        report.differ("signature", "%s is not signed by seat %d: the room put it there" % (where, seat),
                      hand=hand, seat=seat)
        return False


def check_manifest(document, report):
    """Section 15, step 1: the versions and section 4's manifest (`manifest`, `deck`)."""
    manifest = document["manifest"]
    if manifest["version"] != 3:
        report.differ("manifest", "the manifest's version is %d, not 3" % manifest["version"])
        return None
    problem = fair_verify.manifest_problem(dict(manifest, version=2))
    if problem:
        report.differ("manifest", problem)
        return None
    try:
        names, points = deck_points(manifest["deck"])
    except Failure as failure:
        report.differ(failure.kind, failure.detail)
        return None
    report.checked.append("the manifest: table %s, %s, %s deck, seats %s, hands %d-%d" % (
        json.dumps(manifest["table"], ensure_ascii=False), manifest["game"], manifest["deck"],
        ", ".join(manifest["seats"]), manifest["first"], manifest["last"]))
    return Table(manifest, names, points)


def check_key_message(table, place, message, report):
    """Section 15, step 2, for one key message: its place and its proof (section 7.1)."""
    if message["seat"] != place:
        report.differ("replay", "the key message at seat %d's place names seat %d" % (place, message["seat"]),
                      seat=place)
        return None
    try:
        public_key = read_point(message["public_key"], "seat %d's public key" % place)
        if public_key == IDENTITY:
            raise Failure("identity", "seat %d's public key is the identity" % place)
        c = read_scalar(message["proof"]["c"], "seat %d's key proof c" % place)
        s = read_scalar(message["proof"]["s"], "seat %d's key proof s" % place)
        if not key_proof_holds(table.m_bytes, place, public_key, c, s):
            # Section 17, order of checks: a failed key proof is the seat's (key-proof) only under
            # a signature that holds with the key it carries; else it is `signature`.
            if table.signed and not table.signature(place, public_key, key_digest(table.ctx, message), message,
                                                    report, "the key message at seat %d's place" % place):
                return None
            raise Failure("key-proof", "seat %d's key proof fails" % place)
    except Failure as failure:
        report.differ(failure.kind, failure.detail, seat=place)
        return None
    if table.signed and not table.signature(place, public_key, key_digest(table.ctx, message), message, report,
                                            "the key message at seat %d's place" % place):
        return None
    return public_key


def check_keys(document, table, report):
    """Section 15, step 2: every key, in seat order; the joint key. False stops the table."""
    keys = document["keys"]
    for _ in keys[table.seats:]:
        report.differ("unexpected-message", "a key message beyond the table's %d seats" % table.seats)
    table.keys = [check_key_message(table, place, message, report)
                  for place, message in enumerate(keys[:table.seats])]
    missing = list(range(len(table.keys), table.seats))
    void = document.get("void")
    if void is not None:
        check_table_void(document, void, missing, report)
        return False
    if missing:
        report.differ("missing-message", "no key message of seat %s" % ", ".join(map(str, missing)))
    if missing or None in table.keys or len(keys) > table.seats:
        return False
    table.joint_key = add(*table.keys)
    if table.joint_key == IDENTITY:
        report.differ("identity", "the joint key is the identity")
        return False
    report.checked.append("%d key proof(s) and the joint key" % table.seats)
    return True


def check_table_void(document, void, missing, report):
    """Section 14, "Void", at the stage `keys`: the lowest seat without a key, nothing after."""
    if void["stage"] != "keys" or not missing or void["seat"] != missing[0] \
            or void["missing"] != [{"message": "key"}]:
        report.differ("void", "the table's void record does not name the first stalled seat of the keys")
    else:
        report.checked.append("void at the keys stage: seat %d did not send its key" % void["seat"])
    if document["hands"]:
        report.differ("unexpected-message", "hands after a void at the keys stage")


def check_hand_numbers(document, table, report):
    """Section 15, step 3: hands in first … last (`hand`: such a hand is not checked further),
    strictly increasing (`hand-order`: the hand is still checked)."""
    manifest, before = table.manifest, None
    for record in document["hands"]:
        n = record["hand"]
        if not manifest["first"] <= n <= manifest["last"]:
            report.differ("hand", "hand %d is outside %d-%d" % (n, manifest["first"], manifest["last"]), hand=n)
        if before is not None and n <= before:
            report.differ("hand-order", "hand %d comes after hand %d" % (n, before), hand=n)
        before = n


class Hand:
    """Section 15, step 4: one hand record checked against its table."""

    def __init__(self, table, record, report):
        self.table, self.record, self.report, self.n = table, record, report, record["hand"]
        self.summary = {"hand": self.n, "status": "complete", "shuffles_verified": 0,
                        "shares_verified": 0, "community": [], "opened": [], "hidden": []}
        self.deck, self.deal, self.missing, self.seen = None, {}, [], set()

    def differ(self, kind, detail, seat=None):
        self.report.differ(kind, "hand %d: %s" % (self.n, detail), hand=self.n, seat=seat)

    def envelopes(self):
        """Step 4.1: each share names this hand (`replay`: a message of another hand copied here).
        Returns the shares of the deal, of each street record and of the showdown that do."""
        groups = []
        for label, messages in ([("deal", self.record["deal"])]
                                + [(s["street"], s["shares"]) for s in self.record["streets"]]
                                + [("showdown", self.record["showdown"])]):
            for m in messages:
                if m["hand"] != self.n:
                    self.differ("replay", "a share of hand %d in the %s" % (m["hand"], label), m["seat"])
            groups.append([m for m in messages if m["hand"] == self.n])
        return groups[0], groups[1:-1], groups[-1]

    def placed(self, message, stage, belongs, why):
        """Steps 4.3-4.5: a share has a place in its stage (`unexpected-message`: a seat or position
        the table does not have is no exception) and is the first of its seat and position there
        (`duplicate-share`). A copy in the wrong place is only `unexpected-message`."""
        j, p = message["seat"], message["position"]
        if j >= self.table.seats or p >= self.table.size or not belongs(j, p):
            self.differ("unexpected-message", "seat %d's share of position %d in the %s: %s" % (j, p, stage, why), j)
        elif (j, p) in self.seen:
            self.differ("duplicate-share", "seat %d's share of position %d appears twice" % (j, p), j)
        else:
            self.seen.add((j, p))
            return True
        return False

    def check_shuffles(self):
        """Step 4.2: E^0, then seat j's shuffle of E^j for j = 0 … P−1 (section 8). False stops the hand."""
        table, shuffles = self.table, self.record["shuffles"]
        deck = [(table.cards[name], IDENTITY) for name in table.names]
        for _ in shuffles[table.seats:]:
            self.differ("unexpected-message", "a shuffle beyond the table's %d seats" % table.seats)
        for j in range(table.seats):
            if j >= len(shuffles):
                self.missing.append(("shuffle", {j: [{"message": "shuffle"}]}))
                self.summary["status"] = "stopped: seat %d's shuffle is missing" % j
                return False
            deck = self.check_shuffle(j, shuffles[j], deck)
            if deck is None:
                self.summary["status"] = "not checked further: seat %d's shuffle is refused" % j
                return False
        self.deck = deck
        self.missing.append(("shuffle", {}))
        return True

    def check_shuffle(self, j, message, deck_in):
        """Step 4.2 for seat j: its place (`replay`), its encodings (section 2), its proof (section 8)."""
        if message["hand"] != self.n or message["seat"] != j:
            self.differ("replay", "the shuffle at seat %d's place names hand %d, seat %d"
                        % (j, message["hand"], message["seat"]), j)
            return None
        if self.table.signed and not self.table.signature(
                j, self.table.keys[j], shuffle_digest(self.table.ctx, message), message, self.report,
                "hand %d: the shuffle at seat %d's place" % (self.n, j), hand=self.n):
            return None
        try:
            deck_out = [(read_point(e["a"], "a"), read_point(e["b"], "b")) for e in message["deck"]]
            wire = message["proof"]
            proof = {k: [read_point(x, k) for x in wire[k]] for k in ("commitments", "chain", "t_hat")}
            proof.update({k: read_point(wire[k], k) for k in SHUFFLE_POINTS})
            proof.update({k: [read_scalar(x, k) for x in wire[k]] for k in ("s_hat", "s_prime")})
            proof.update({"s%d" % i: read_scalar(wire["s%d" % i], "s%d" % i) for i in range(1, 5)})
            check_shuffle((self.table.m_bytes, self.n, j, self.table.joint_key), deck_in, deck_out, proof)
        except Failure as failure:
            self.differ(failure.kind, "seat %d's shuffle: %s" % (j, failure.detail), j)
            return None
        self.summary["shuffles_verified"] += 1
        return deck_out

    def share(self, message, stage):
        """Sections 7.2 and 15: the share D_j if its signature (section 17, at STAGE) and its proof
        against D_p (`share-proof`) hold, else None."""
        j, p = message["seat"], message["position"]
        if self.table.signed and not self.table.signature(
                j, self.table.keys[j], share_digest(self.table.ctx, stage, message), message, self.report,
                "hand %d: seat %d's share of position %d in the %s" % (self.n, j, p, stage), hand=self.n):
            return None
        try:
            share = read_point(message["share"], "share")
            c = read_scalar(message["proof"]["c"], "share proof c")
            s = read_scalar(message["proof"]["s"], "share proof s")
            if not share_proof_holds(self.table.m_bytes, self.n, j, p, self.table.keys[j],
                                     self.deck[p], share, c, s):
                raise Failure("share-proof", "share proof fails")
        except Failure as failure:
            self.differ(failure.kind, "seat %d's %s (position %d)" % (j, failure.detail, p), j)
            return None
        self.summary["shares_verified"] += 1
        return share

    def decrypt(self, p, shares):
        """Section 9: X = a − Σ D_j must be a card of the deck (`unknown-card`)."""
        card = self.table.points.get(sub(self.deck[p][0], add(*shares)))
        if card is None:
            self.differ("unknown-card", "position %d decrypts to no card of the deck" % p)
        return card

    def check_deal(self, shares):
        """Step 4.3: shares of private positions by the other seats, each proof against D_p."""
        private, missing = self.table.private, {}
        for message in shares:
            if self.placed(message, "deal", lambda j, p: private.get(p) not in (None, j),
                           "not another seat's private position"):
                self.deal[(message["seat"], message["position"])] = self.share(message, "deal")
        for p, owner in sorted(private.items()):
            for j in range(self.table.seats):
                if j != owner and (j, p) not in self.deal:
                    missing.setdefault(j, []).append({"message": "share", "position": p})
        self.missing.append(("deal", missing))

    def check_streets(self, groups):
        """Step 4.4: the layout's streets in order; a complete street shows community cards."""
        layout_streets = self.table.streets
        for k, (record, shares) in enumerate(zip(self.record["streets"], groups)):
            if k >= len(layout_streets) or record["street"] != layout_streets[k][0]:
                self.differ("unexpected-message", "a street %s where the layout has %s" % (
                    json.dumps(record["street"]), layout_streets[k][0] if k < len(layout_streets) else "none"))
                return
            self.check_street(record["street"], layout_streets[k][1], shares)
        for name, positions in layout_streets[len(self.record["streets"]):]:
            self.missing.append((name, {j: [{"message": "share", "position": p} for p in positions]
                                        for j in range(self.table.seats)}))

    def check_street(self, name, positions, shares):
        """Step 4.4 for one street: every seat's share of every position, then the cards (section 9)."""
        got, missing = {}, {}
        for message in shares:
            if self.placed(message, name, lambda j, p: p in positions, "not a position of this street"):
                got[(message["seat"], message["position"])] = self.share(message, name)
        for p in positions:
            for j in range(self.table.seats):
                if (j, p) not in got:
                    missing.setdefault(j, []).append({"message": "share", "position": p})
        self.missing.append((name, missing))
        if not missing and None not in got.values():
            for p in positions:
                card = self.decrypt(p, [got[(j, p)] for j in range(self.table.seats)])
                if card:
                    self.summary["community"].append({"street": name, "position": p, "card": card})

    def check_showdown(self, shares):
        """Step 4.5: a seat's own share of its own private position opens the card."""
        for message in shares:
            if not self.placed(message, "showdown", lambda j, p: self.table.private.get(p) == j,
                               "not its own private position"):
                continue
            j, p = message["seat"], message["position"]
            own = self.share(message, "showdown")
            others = [self.deal.get((k, p)) for k in range(self.table.seats) if k != j]
            if own is not None and None not in others:
                card = self.decrypt(p, others + [own])
                if card:
                    self.summary["opened"].append({"seat": j, "position": p, "card": card})

    def check_void(self):
        """Step 4.6: the void record names the first incomplete stage, its lowest seat and exactly
        that seat's missing messages (`void`), nothing of a later stage is present
        (`unexpected-message`); without one, every stage present is complete (`missing-message`)."""
        void, stages = self.record.get("void"), self.missing
        if void is None:
            present = 2 + len(self.record["streets"])
            for stage, missing in stages[:present]:
                for j, items in sorted(missing.items()):
                    self.differ("missing-message", "seat %d did not send %s" % (j, describe(items, stage)), j)
            return
        incomplete = [(stage, missing) for stage, missing in stages if missing]
        if not incomplete or void["stage"] != incomplete[0][0]:
            self.differ("void", "the void record names the stage %s, not the first incomplete one (%s)"
                        % (json.dumps(void["stage"]), incomplete[0][0] if incomplete else "none"))
        else:
            stage, missing = incomplete[0]
            seat = min(missing)
            if void["seat"] != seat or sorted(map(json.dumps, void["missing"])) != sorted(map(json.dumps, missing[seat])):
                self.differ("void", "the void record does not name seat %d and exactly %s"
                            % (seat, describe(missing[seat], stage)))
            self.summary["status"] = "void at the %s stage: seat %d" % (stage, seat)
        self.later_messages(void["stage"])

    def later_messages(self, stage):
        """Step 4.6: no message of a stage after the void's."""
        names = ["shuffle", "deal"] + [name for name, _ in self.table.streets]
        after = names.index(stage) + 1 if stage in names else len(names)
        later = (len(self.record["deal"]) if after <= 1 else 0) + len(self.record["showdown"])
        later += sum(len(s["shares"]) or 1 for s in self.record["streets"][max(0, after - 2):])
        if later:
            self.differ("unexpected-message", "messages after the void's stage %s" % stage)

    def hidden(self):
        """Section 15, "Verdict": the private positions not opened and the positions never decrypted."""
        opened = {o["position"] for o in self.summary["opened"]}
        shown = {c["position"] for c in self.summary["community"]}
        for seat in range(self.table.seats):
            closed = [p for p, owner in self.table.private.items() if owner == seat and p not in opened]
            if closed:
                self.summary["hidden"].append({"seat": seat, "positions": len(closed), "what": "private, not opened"})
        never = [p for p in range(self.table.size) if p not in self.table.private and p not in shown]
        self.summary["hidden"].append({"seat": None, "positions": len(never),
                                       "what": "burned, kitty, stock or a board card not shown"})

    def check(self):
        """Step 4, in order; returns the hand's summary."""
        deal, streets, showdown = self.envelopes()
        if self.check_shuffles():
            self.check_deal(deal)
            self.check_streets(streets)
            self.check_showdown(showdown)
            self.hidden()
            self.check_void()
        elif self.missing:
            self.check_void()
        return self.summary


def describe(items, stage):
    """Section 14's missing messages of one seat, in words."""
    if items[0]["message"] != "share":
        return "its %s" % items[0]["message"]
    return "its share of position(s) %s (%s)" % (", ".join(str(i["position"]) for i in items), stage)


def verify(document, evidence=None):
    """Section 15: every check in order, then, for revision 1, section 18's (and the EVIDENCE items
    given, a list of signed heads and receipts); the report with every difference."""
    report = Report()
    report.revision = document.get("revision") or 0
    table = check_manifest(document, report)
    if table is None:
        return report
    if document.get("revision") == 1 and not start_signed(document, table, report):
        return report
    if check_keys(document, table, report):
        check_hand_numbers(document, table, report)
        for record in document["hands"]:
            if table.manifest["first"] <= record["hand"] <= table.manifest["last"]:
                report.hands.append(Hand(table, record, report).check())
        report.checked.append("%d hand(s)" % len(document["hands"]))
    if table.signed:
        log = check_log(document, table, report)
        check_head(document, table, log, report)
        check_attestations(document, table, log, report)
        if evidence is not None:
            check_evidence(evidence, table, log, report)
        void = document.get("void") is not None or any(r.get("void") is not None for r in document["hands"])
        if void and any(d["kind"] == "room" for d in report.differences):
            report.checked.append("the void's blame is not proof: the room is at fault (section 18)")
    elif evidence is not None:
        report.differ("room-signature", "evidence given for a revision-0 transcript, which has no room to sign it")
    else:
        report.checked.append("revision 0 (plain version 3): its messages are not bound to their authors")
    return report


# ---- Section 18: the log, the room's signed head, attestations, evidence ----

def start_signed(document, table, report):
    """Section 17: the room's key (or none) and the context C every signature of the table hashes."""
    room = document.get("room")
    try:
        table.room = read_point(room, "the room's key") if room is not None else None
    except Failure as failure:
        report.differ(failure.kind, failure.detail)
        return False
    table.signed, table.ctx = True, context(table.m_bytes, table.room)
    return True


def placed_digests(document, table):
    """Section 18, check 2: the digest of every message and void record, taken from its place
    (a share's stage is the record it sits in), with the place in words."""
    ctx, found = table.ctx, []
    for i, message in enumerate(document["keys"]):
        found.append((key_digest(ctx, message), "key message %d" % i))
    if document.get("void") is not None:
        found.append((void_digest(ctx, "table", 0, document["void"]), "the table's void record"))
    for record in document["hands"]:
        n = record["hand"]
        for j, message in enumerate(record["shuffles"]):
            found.append((shuffle_digest(ctx, message), "hand %d: shuffle %d" % (n, j)))
        for stage, shares in ([("deal", record["deal"])] + [(s["street"], s["shares"]) for s in record["streets"]]
                              + [("showdown", record["showdown"])]):
            for message in shares:
                found.append((share_digest(ctx, stage, message), "hand %d: seat %d's share of position %d in the %s"
                              % (n, message["seat"], message["position"], stage)))
        if record.get("void") is not None:
            found.append((void_digest(ctx, "hand", n, record["void"]), "hand %d: the void record" % n))
    return found


def check_log(document, table, report):
    """Section 18, check 2: the placed digests are exactly the log's entries, each once (`log`),
    both ways (a finished transcript). Returns the log as bytes."""
    log = [raw(d) for d in document.get("log") or []]
    unmatched = {}
    for d in log:
        unmatched[d] = unmatched.get(d, 0) + 1
    for d, where in placed_digests(document, table):
        if unmatched.get(d):
            unmatched[d] -= 1
        else:
            report.differ("log", "%s (digest %s) is not in the room's log: put there behind the log's back"
                          % (where, d.hex()))
    for i, d in enumerate(log):
        if unmatched.get(d):
            unmatched[d] -= 1
            report.differ("log", "log entry %d (%s) matches no message of the transcript: a message it lost"
                          % (i, d.hex()))
    report.checked.append("the log: %d digest(s)" % len(log))
    return log


def check_head(document, table, log, report):
    """Section 18, check 3: with a room, the signed head of the whole log (`room-signature`)."""
    head = document.get("head")
    if table.room is None:
        return
    chain = heads(table.ctx, log)
    if head is None:
        report.differ("room-signature", "the transcript has a room but no signed head")
    elif not room_signature_holds(table.ctx, table.room, head["length"], raw(head["head"]), head["signature"]):
        report.differ("room-signature", "the head at length %d is not signed by the room" % head["length"])
    elif head["length"] != len(log) or raw(head["head"]) != chain[-1]:
        report.differ("room-signature", "the signed head (length %d) is not the head of the whole log (length %d)"
                      % (head["length"], len(log)))
    else:
        report.checked.append("the room's signed head of the whole log (length %d)" % len(log))


def read_evidence(text):
    """Section 18, "Evidence": a JSON list of signed heads and receipts, read strictly (`document`)."""
    items = parse_strictly(text)
    if not isinstance(items, list):
        refuse("the evidence is not a JSON list")
    for i, item in enumerate(items):
        conform(item, RECEIPT if isinstance(item, dict) and "index" in item else SIGNED_HEAD, "evidence item %d" % i)
    return items


def check_evidence(items, table, log, report):
    """Section 18, "Evidence": an item the room did not sign proves nothing (`room-signature`);
    nor does a receipt whose length is not its index + 1, or whose digest is not the log entry
    its signed head covers (its holder altered the unsigned fields: `room-signature`). A signed
    head at L that the published log does not reach is the room's own signature against what it
    published (`room`)."""
    chain = heads(table.ctx, log)
    for i, item in enumerate(items):
        what = "evidence item %d (%s at length %d)" % (i, "receipt" if "index" in item else "signed head", item["length"])
        if table.room is None or not room_signature_holds(table.ctx, table.room, item["length"], raw(item["head"]),
                                                          item["signature"]):
            report.differ("room-signature", "%s is not signed by the table's room: it proves nothing" % what)
        elif "index" in item and item["length"] != item["index"] + 1:
            report.differ("room-signature", "%s: its index is not what the room signed: it proves nothing" % what)
        elif item["length"] > len(log) or chain[item["length"]] != raw(item["head"]):
            report.differ("room", "%s: the room signed a log the published one does not extend" % what)
        elif "index" in item and log[item["index"]] != raw(item["digest"]):
            report.differ("room-signature", "%s: its digest is not the one its signed head covers: it proves "
                          "nothing" % what)
    report.checked.append("%d evidence item(s)" % len(items))


def check_attestations(document, table, log, report):
    """Section 18, check 4: each attestation is seat j's signature over the digest of (L, h_L),
    h_L the log's head at L ≤ len(log) (`attestation`); lists who attested what."""
    chain, whole, earlier = heads(table.ctx, log), [], []
    for a in document.get("attestations") or []:
        j, length = a["seat"], a["length"]
        key = table.keys[j] if j < len(table.keys) else None
        if j >= table.seats or key is None or length > len(log) or raw(a["head"]) != chain[length] \
                or not seat_signature_holds(table.ctx, j, key, attestation_digest(length, raw(a["head"])),
                                            a["signature"]):
            report.differ("attestation", "seat %d's attestation of the head at length %d does not hold" % (j, length),
                          seat=j)
        else:
            (whole if length == len(log) else earlier).append(j)
    if whole or earlier:
        report.checked.append("attestations: the whole log by seat(s) %s; an earlier head by seat(s) %s" % (
            ", ".join(map(str, whole)) or "none", ", ".join(map(str, earlier)) or "none"))


def print_report(report):
    """Section 15, "Verdict", as text; returns the exit status."""
    print(("version 3.1 transcript (revision 1); checked:" if report.revision == 1 else "version 3 transcript; checked:")
          if report.checked else "nothing checked:")
    for line in report.checked:
        print("  " + line)
    for hand in report.hands:
        print("hand %d: %s; %d shuffle proof(s) and %d share proof(s) hold" % (
            hand["hand"], hand["status"], hand["shuffles_verified"], hand["shares_verified"]))
        streets = {}
        for c in hand["community"]:
            streets.setdefault(c["street"], []).append("%s (position %d)" % (c["card"], c["position"]))
        for street, cards in streets.items():
            print("  community, %s: %s" % (street, ", ".join(cards)))
        seats = {}
        for o in hand["opened"]:
            seats.setdefault(o["seat"], []).append("%s (position %d)" % (o["card"], o["position"]))
        for seat, cards in seats.items():
            print("  opened by seat %d: %s" % (seat, ", ".join(cards)))
        for h in hand["hidden"]:
            who = "seat %d: " % h["seat"] if h["seat"] is not None else ""
            print("  hidden: %s%s, %d position(s)" % (who, h["what"], h["positions"]))
    for d in report.differences:
        print("%s: %s" % (d["kind"], d["detail"]))
    if report.differences:
        kinds = sorted({d["kind"] for d in report.differences})
        print("invalid: %d difference(s): %s" % (len(report.differences), ", ".join(kinds)))
        return 1
    print("valid: every message is in its place%s and every proof checked holds"
          % (", signed by its seat and in the room's log," if report.revision == 1 else ""))
    return 0


def check_transcript(path, as_json=False, evidence=None):
    """--transcript: read strictly (section 14), verify (sections 15 and 18), print the verdict."""
    texts = []
    for name in (path, evidence) if evidence else (path,):
        try:
            with open(name, encoding="utf-8") as source:
                texts.append(source.read())
        except (OSError, UnicodeDecodeError) as error:
            sys.exit("hidden_verify.py: cannot read %s: %s" % (name, error))
    try:
        report = verify(read_transcript(texts[0]), read_evidence(texts[1]) if evidence else None)
    except Failure as failure:
        report = Report()
        report.differ(failure.kind, failure.detail)
    if as_json:
        print(json.dumps({"verdict": "invalid" if report.differences else "valid", "revision": report.revision,
                          "checked": report.checked,
                          "hands": report.hands, "differences": report.differences}, indent=2))
        return 1 if report.differences else 0
    return print_report(report)


# ---- Section 13: the test vectors, recomputed from the generator ----

def vector_blocks(doc, number=13):
    """Section NUMBER's fenced blocks (13 or 20), each under the heading it follows: {heading: text}."""
    text = open(doc, encoding="utf-8").read()
    section = text.split("\n## %d." % number, 1)[1].split("\n## %d." % (number + 1), 1)[0]
    blocks = {}
    for part in section.split("\n### ")[1:]:
        heading, rest = part.split("\n", 1)
        if "```" in rest:
            blocks[heading.strip()] = rest.split("```", 2)[1].split("\n", 1)[1]
    return blocks


def named_lines(text):
    """Section 13's "name value" lines."""
    return dict(line.split(None, 1) for line in text.strip().splitlines())


def hexed(value):
    """A message of section 8's wire form: points as hex, scalars as hex of enc(s)."""
    if isinstance(value, dict):
        return {k: hexed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [hexed(v) for v in value]
    return value.hex() if isinstance(value, bytes) else enc(value).hex() if isinstance(value, int) else value


def generate(manifest):
    """Section 13: every value of the vectors, from ChaCha20 keyed with 32 bytes of 0x07, in the
    order the section lists (seat keys, key proofs, the 4-card shuffle, the share)."""
    words = fair_verify.chacha20_words(b"\x07" * 32)

    def draw():  # section 2: 64 bytes of the generator, reduced with wide
        return wide(b"".join(struct.pack("<Q", next(words)) for _ in range(8)))
    m_bytes, got = fair_verify.manifest_bytes(manifest), {}
    got["M"] = m_bytes.hex()
    sk = [draw() for _ in manifest["seats"]]
    pks = [mul(s, G) for s in sk]
    joint = add(*pks)
    got.update({"sk": [enc(s).hex() for s in sk], "PK": joint.hex(), "keys": []})
    for j, pk in enumerate(pks):
        k = draw()
        c = key_challenge(m_bytes, j, pk, mul(k, G))
        got["keys"].append({"seat": j, "public_key": pk.hex(), "proof": hexed({"c": c, "s": k + c * sk[j]})})
    names = fair_verify.deck(manifest["deck"])[:4]
    deck_in = [(card_point(name), IDENTITY) for name in names]
    pi = permutation(4, words)
    rho = [draw() for _ in range(4)]
    deck_out, proof = prove_shuffle((m_bytes, 1, 0, joint), deck_in, pi, rho, draw)
    got.update({"pi": " ".join(map(str, pi)), "deck": hexed([{"a": a, "b": b} for a, b in deck_out]),
                "proof": hexed(proof)})
    share, k = mul(sk[1], deck_out[0][1]), draw()
    c = share_challenge(m_bytes, 1, 1, 0, pks[1], deck_out[0], share, mul(k, G), mul(k, deck_out[0][1]))
    got["share"] = {"hand": 1, "seat": 1, "position": 0, "share": share.hex(),
                    "proof": hexed({"c": c, "s": k + c * sk[1]})}
    return got, m_bytes, joint, deck_in


def decode_shuffle_vector(deck_text, proof_text):
    """The 4-card output deck and proof of section 13, read as a verifier reads them (section 8)."""
    message = {"hand": 1, "seat": 0, "deck": parse_strictly(deck_text), "proof": parse_strictly(proof_text)}
    conform(message, SHUFFLE_MESSAGE, "the 4-card shuffle")
    deck = [(read_point(e["a"], "a"), read_point(e["b"], "b")) for e in message["deck"]]
    wire = message["proof"]
    proof = {k: [read_point(x, k) for x in wire[k]] for k in ("commitments", "chain", "t_hat")}
    proof.update({k: read_point(wire[k], k) for k in SHUFFLE_POINTS})
    proof.update({k: [read_scalar(x, k) for x in wire[k]] for k in ("s_hat", "s_prime")})
    proof.update({"s%d" % i: read_scalar(wire["s%d" % i], "s%d" % i) for i in range(1, 5)})
    return deck, proof


def shuffle_refusal(ctx, deck_in, deck_out, proof):
    """The kind (and group) with which check_shuffle refuses, or None when it accepts."""
    try:
        check_shuffle(ctx, deck_in, deck_out, proof)
    except Failure as failure:
        return failure.detail
    return None


def vector_checks(blocks):
    """Every vector of section 13 as (name, expected, computed) triples, negative controls included."""
    manifest = parse_strictly(blocks["Manifest"])
    got, m_bytes, joint, deck_in = generate(manifest)
    points = named_lines(blocks["Card points and generators"])
    keys = named_lines(next(v for k, v in blocks.items() if k.startswith("Seat keys")))
    checks = [("M", blocks["M (hex)"].strip(), got["M"])]
    for name in points:
        kind, _, arg = name.partition("_")
        computed = CHAIN if name == "H" else card_point(arg) if kind == "P" else generator(int(arg))
        checks.append((name, points[name], computed.hex()))
    checks += [("sk_%d" % j, keys["sk_%d" % j], got["sk"][j]) for j in range(len(got["sk"]))]
    checks.append(("PK (joint key)", keys["PK"], got["PK"]))
    for j, mine in enumerate(got["keys"]):
        theirs = parse_strictly(blocks["Key message of seat %d" % j])
        checks.append(("key message of seat %d" % j, theirs, mine))
        pk, proof = read_point(theirs["public_key"], "public key"), theirs["proof"]
        holds = key_proof_holds(m_bytes, j, pk, read_scalar(proof["c"], "c"), read_scalar(proof["s"], "s"))
        checks.append(("key proof of seat %d verifies (section 7.1)" % j, True, holds))
        other = key_proof_holds(m_bytes, 1 - j, pk, read_scalar(proof["c"], "c"), read_scalar(proof["s"], "s"))
        checks.append(("key proof of seat %d refused as seat %d's" % (j, 1 - j), False, other))
    shuffle = {k.split(": ", 1)[1].split(" ")[0]: v for k, v in blocks.items() if k.startswith("4-card shuffle")}
    checks.append(("4-card shuffle: pi", shuffle["π"].strip(), got["pi"]))
    checks.append(("4-card shuffle: output deck", parse_strictly(shuffle["output"]), got["deck"]))
    checks.append(("4-card shuffle: proof", parse_strictly(shuffle["proof"]), got["proof"]))
    checks += shuffle_checks((m_bytes, 1, 0, joint), deck_in, *decode_shuffle_vector(shuffle["output"], shuffle["proof"]))
    theirs = parse_strictly(next(v for k, v in blocks.items() if k.startswith("Seat 1's share")))
    checks.append(("share message of seat 1, position 0", theirs, got["share"]))
    checks += share_checks(m_bytes, theirs, keys_of(got), decode_shuffle_vector(shuffle["output"], shuffle["proof"])[0])
    return checks


def keys_of(got):
    """Section 13: the seats' public keys PK_j."""
    return [bytes.fromhex(k["public_key"]) for k in got["keys"]]


def shuffle_checks(ctx, deck_in, deck_out, proof):
    """The vector's proof verifies; changed, it is refused with the group section 8 names."""
    m_bytes, hand, seat, joint = ctx
    bumped = dict(proof, s3=(proof["s3"] + 1) % L)
    swapped = [deck_out[1], deck_out[0]] + deck_out[2:]
    return [("4-card shuffle: the proof verifies (section 8)", None, shuffle_refusal(ctx, deck_in, deck_out, proof)),
            ("4-card shuffle: refused as seat 1's", "the shuffle proof fails (permutation)",
             shuffle_refusal((m_bytes, hand, 1, joint), deck_in, deck_out, proof)),
            ("4-card shuffle: refused with two output ciphertexts swapped", "the shuffle proof fails (permutation)",
             shuffle_refusal(ctx, deck_in, swapped, proof)),
            ("4-card shuffle: refused with s_3 changed", "the shuffle proof fails (challenges)",
             shuffle_refusal(ctx, deck_in, deck_out, bumped)),
            ("4-card shuffle: refused with one card dropped",
             "the shuffle's deck and proof lists must have 4 entries",
             shuffle_refusal(ctx, deck_in, deck_out[:3], proof))]


def share_checks(m_bytes, message, pks, deck):
    """The vector's share proof verifies against D_0; moved to position 1 it is refused."""
    share = read_point(message["share"], "share")
    c, s = read_scalar(message["proof"]["c"], "c"), read_scalar(message["proof"]["s"], "s")
    return [("share proof verifies (section 7.2)", True,
             share_proof_holds(m_bytes, 1, 1, 0, pks[1], deck[0], share, c, s)),
            ("share proof refused for position 1", False,
             share_proof_holds(m_bytes, 1, 1, 1, pks[1], deck[1], share, c, s))]


# ---- Section 20: the version-3.1 test vectors, recomputed from the generator ----

def generate31(manifest):
    """Section 20: every value of the vectors, from ChaCha20 keyed with 32 bytes of 0x31, in the
    order the section lists (sk_0, sk_1, sk_room, seat 0's key-proof and signature nonces, ρ,
    seat 1's share-proof nonce, the receipt's, the signed head's and the attestation's nonces)."""
    words = fair_verify.chacha20_words(b"\x31" * 32)

    def draw():
        return wide(b"".join(struct.pack("<Q", next(words)) for _ in range(8)))
    m_bytes = fair_verify.manifest_bytes(manifest)
    sk = [draw(), draw()]
    sk_room = draw()
    pks, room = [mul(s, G) for s in sk], mul(sk_room, G)
    ctx = context(m_bytes, room)
    got = {"sk_0": enc(sk[0]).hex(), "sk_1": enc(sk[1]).hex(), "sk_room": enc(sk_room).hex(),
           "PK_room": room.hex(), "C": ctx.hex()}
    k = draw()
    c = key_challenge(m_bytes, 0, pks[0], mul(k, G))
    key = {"seat": 0, "public_key": pks[0].hex(), "proof": hexed({"c": c, "s": k + c * sk[0]})}
    d_key = key_digest(ctx, key)
    key["signature"] = schnorr_sign(sk[0], draw(), lambda r: seat_challenge(ctx, 0, pks[0], d_key, r))
    got["key"] = key
    joint = add(*pks)
    ciphertext = reencrypt((card_point(fair_verify.deck(manifest["deck"])[0]), IDENTITY), draw(), joint)
    got["ciphertext"] = {"a": ciphertext[0].hex(), "b": ciphertext[1].hex()}
    share, k = mul(sk[1], ciphertext[1]), draw()
    c = share_challenge(m_bytes, 1, 1, 0, pks[1], ciphertext, share, mul(k, G), mul(k, ciphertext[1]))
    got["share"] = {"hand": 1, "seat": 1, "position": 0, "share": share.hex(),
                    "proof": hexed({"c": c, "s": k + c * sk[1]})}
    void = {"stage": "flop", "seat": 0, "missing": [{"message": "share", "position": p} for p in (5, 6)]}
    log = [d_key, share_digest(ctx, "deal", got["share"]), void_digest(ctx, "hand", 1, void)]
    got.update({"d_key0": log[0].hex(), "d_share": log[1].hex(), "d_void": log[2].hex()})
    chain = heads(ctx, log)
    got.update({"h_%d" % i: h.hex() for i, h in enumerate(chain)})

    def room_signed(length, nonce):
        return schnorr_sign(sk_room, nonce, lambda r: room_challenge(ctx, room, length, chain[length], r))
    got["receipt"] = {"index": 1, "digest": log[1].hex(), "length": 2, "head": chain[2].hex(),
                      "signature": room_signed(2, draw())}
    got["signed head"] = {"length": 3, "head": chain[3].hex(), "signature": room_signed(3, draw())}
    attested = attestation_digest(3, chain[3])
    got["attestation"] = {"seat": 1, "length": 3, "head": chain[3].hex(), "signature": schnorr_sign(
        sk[1], draw(), lambda r: seat_challenge(ctx, 1, pks[1], attested, r))}
    got.update({"fp_%d" % j: fingerprint(pk) for j, pk in enumerate(pks)})
    return got, ctx, pks, room


def fingerprint(public_key):
    """Section 17, key fingerprints: the first 10 bytes of SHA-512(lp(D_fp) || enc(PK)), as 20 hex
    digits in five groups of four joined by '-'."""
    digits = hashlib.sha512(lp(b"fairdeck-hidden-v3.1/key-fingerprint") + public_key).digest()[:10].hex()
    return "-".join(digits[i:i + 4] for i in range(0, 20, 4))


def vector_checks31(blocks, manifest):
    """Every vector of section 20 as (name, expected, computed) triples: recomputed from the
    generator, and the signatures as written verified (section 17), with negative controls."""
    got, ctx, pks, room = generate31(manifest)
    named = {}
    for title, text in blocks.items():
        if not text.lstrip().startswith("{"):
            named.update(named_lines(text))
    block = lambda start: parse_strictly(next(v for k, v in blocks.items() if k.startswith(start)))
    checks = [("3.1: " + name, named[name], got[name]) for name in ("sk_0", "sk_1", "sk_room", "PK_room", "C")]
    theirs = block("Seat 0's signed key message")
    checks.append(("3.1: seat 0's signed key message", theirs, got["key"]))
    for name in ("ciphertext", "share"):
        checks.append(("3.1: " + name, parse_strictly(named[name]), got[name]))
    for name in ("d_key0", "d_share", "d_void", "fp_0", "fp_1") + tuple("h_%d" % i for i in range(4)):
        checks.append(("3.1: " + name, named[name], got[name]))
    d_key = key_digest(ctx, theirs)
    checks.append(("3.1: d_key0 from the written key message", named["d_key0"], d_key.hex()))
    checks.append(("3.1: d_share from the written share (stage deal)", named["d_share"],
                   share_digest(ctx, "deal", parse_strictly(named["share"])).hex()))
    checks.append(("3.1: the share's digest at stage flop differs", False,
                   share_digest(ctx, "flop", parse_strictly(named["share"])).hex() == named["d_share"]))
    log = [raw(named[k]) for k in ("d_key0", "d_share", "d_void")]
    checks.append(("3.1: h_0 … h_3 from the written digests", [named["h_%d" % i] for i in range(4)],
                   [h.hex() for h in heads(raw(named["C"]), log)]))
    checks.append(("3.1: seat 0's signature verifies (section 17)", True,
                   seat_signature_holds(ctx, 0, pks[0], d_key, theirs["signature"])))
    checks.append(("3.1: seat 0's signature refused as seat 1's", False,
                   seat_signature_holds(ctx, 1, pks[0], d_key, theirs["signature"])))
    checks.append(("3.1: seat 0's signature refused without the room (C of another room)", False,
                   seat_signature_holds(context(fair_verify.manifest_bytes(manifest), None), 0, pks[0], d_key,
                                        theirs["signature"])))
    room_key = raw(named["PK_room"])
    for title, name, index in (("The room's receipt", "receipt", 1), ("The room's signed head", "signed head", None)):
        theirs = block(title)
        checks.append(("3.1: the room's %s" % name, theirs, got[name]))
        length, head = theirs["length"], raw(theirs["head"])
        checks.append(("3.1: the %s's room signature verifies (section 17)" % name, True,
                       room_signature_holds(ctx, room_key, length, head, theirs["signature"])))
        checks.append(("3.1: the %s's room signature refused at length %d" % (name, length + 1), False,
                       room_signature_holds(ctx, room_key, length + 1, head, theirs["signature"])))
        checks.append(("3.1: the %s's head is h_%d of the log" % (name, length), named["h_%d" % length], theirs["head"]))
        if index is not None:
            checks.append(("3.1: the receipt's digest is log[%d]" % index, named["d_share"], theirs["digest"]))
    theirs = block("Seat 1's attestation")
    checks.append(("3.1: seat 1's attestation", theirs, got["attestation"]))
    attested = attestation_digest(theirs["length"], raw(theirs["head"]))
    checks.append(("3.1: seat 1's attestation verifies (section 18, check 4)", True,
                   seat_signature_holds(ctx, 1, pks[1], attested, theirs["signature"])))
    checks.append(("3.1: seat 1's attestation refused at h_2", False, seat_signature_holds(
        ctx, 1, pks[1], attestation_digest(2, raw(named["h_2"])), theirs["signature"])))
    return checks


def example_transcripts(doc):
    """Every ```json block of DOC that is a whole version-3 transcript (section 14)."""
    text = open(doc, encoding="utf-8").read()
    for block in text.split("```json\n")[1:]:
        body = block.split("```", 1)[0]
        try:
            value = json.loads(body)
        except ValueError:
            continue
        if isinstance(value, dict) and "hands" in value and "manifest" in value:
            yield body


def check_vectors(doc):
    """--check: one line per vector, then "N passed, N failed"; returns the exit status."""
    if not os.path.isfile(doc):
        sys.exit("hidden_verify.py: no such file: %s" % doc)
    passed = failed = 0
    try:
        checks = vector_checks(vector_blocks(doc))
    except (Failure, KeyError, IndexError, ValueError, OSError) as error:
        checks = [("section 13 readable", "every block section 13 lists", "unreadable: %r" % error)]
    try:
        checks += vector_checks31(vector_blocks(doc, 20), parse_strictly(vector_blocks(doc)["Manifest"]))
    except (Failure, KeyError, IndexError, ValueError, OSError, StopIteration) as error:
        checks.append(("section 20 readable", "every block section 20 lists", "unreadable: %r" % error))
    for number, body in enumerate(example_transcripts(doc)):
        try:
            report = verify(read_transcript(body))
            kinds = [d["kind"] for d in report.differences]
        except Failure as failure:
            kinds = [failure.kind]
        checks.append(("example transcript %d is valid (section 15)" % (number + 1), [], kinds))
    for name, expected, computed in checks:
        ok = expected == computed
        passed, failed = passed + ok, failed + (not ok)
        print("%s %s" % ("ok  " if ok else "FAIL", name) + ("" if ok else ": expected %s, computed %s"
                                                            % (json.dumps(expected), json.dumps(computed))))
    print("hidden_verify.py: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


def main(args):
    if args[:1] == ["--check"] and len(args) == 2:
        return check_vectors(args[1])
    if args[:1] == ["--transcript"] and len(args) >= 2:
        rest, evidence = args[2:], None
        if rest[-2:-1] == ["--evidence"]:
            rest, evidence = rest[:-2], rest[-1]
        if rest in ([], ["--json"]):
            return check_transcript(args[1], as_json=rest == ["--json"], evidence=evidence)
    sys.stderr.write(__doc__.split("Usage:", 1)[1].join(["usage:", ""]))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
