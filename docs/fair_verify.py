#!/usr/bin/env python3
"""Independent re-implementation of docs/fair-dealing.md (standard library only).

Usage:
  fair_verify.py SECRET_HEX CLIENT_SEED NONCE [standard|jokers|piquet|italian]
      prints the commitment, the deal key and the shuffled deck, top card first;
  fair_verify.py --board SECRET_HEX CLIENT_SEED BOARD
      prints board BOARD of a session (section 7): dealer, vulnerability, PBN deal;
  fair_verify.py --pbn FILE SECRET_HEX CLIENT_SEED [COMMITMENT_HEX]
      checks every board of a session's PBN file, lists each one that differs;
  fair_verify.py --check DOC.md
      recomputes every test vector of the specification and reports the counts
      (appended as "fair-verify-py PASSED FAILED 0" to the file $TEST_TALLY names).
Exit status 1 when anything does not match.
"""
import hashlib
import hmac
import json
import os
import re
import struct
import sys


def chacha20_words(key):
    """ChaCha20 keystream (RFC 8439), nonce 0, counter from 0, as little-endian u64."""
    const = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    k = list(struct.unpack("<8I", key))
    counter = 0
    while True:
        init = const + k + [counter, 0, 0, 0]
        x = init[:]
        def qr(a, b, c, d):
            rot = lambda v, n: ((v << n) | (v >> (32 - n))) & 0xFFFFFFFF
            x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rot(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rot(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rot(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rot(x[b] ^ x[c], 7)
        for _ in range(10):
            qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15)
            qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14)
        block = struct.pack("<16I", *[(a + b) & 0xFFFFFFFF for a, b in zip(x, init)])
        yield from struct.unpack("<8Q", block)
        counter += 1


def draw(words, s):
    """Lemire's multiply-and-reject, one 64-bit word per attempt."""
    threshold = (2**64 - s) % s
    while True:
        m = next(words) * s
        if m % 2**64 >= threshold:
            return m >> 64


def deck(kind):
    ranks = {"standard": "A23456789TJQK", "jokers": "A23456789TJQK",
             "piquet": "A789TJQK", "italian": "A234567JQK"}[kind]
    cards = [r + s for s in "HDCS" for r in ranks]
    return cards + (["RJ", "BJ"] if kind == "jokers" else [])


def derive(secret, client, nonce, kind="standard"):
    """Section 2: the message, the deal key and the shuffled deck (top first)."""
    seed = client.encode("utf-8")
    message = b"fairdeck-fair-v1" + struct.pack(">Q", len(seed)) + seed + struct.pack(">Q", nonce)
    key = hmac.new(secret, message, hashlib.sha256).digest()
    cards, words = deck(kind), chacha20_words(key)
    for i in range(len(cards) - 1, 0, -1):
        j = draw(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return message, key, cards


VULNERABLE = "None NS EW All NS EW All None EW All None NS All None NS EW".split()


def board(secret, client, number):
    """Section 7: board NUMBER is the deal of nonce NUMBER, dealt N, E, S, W in turn."""
    cards = derive(secret, client, number)[2]
    hands = [cards[seat::4] for seat in range(4)]
    text = lambda h: ".".join("".join(r for r in "AKQJT98765432" if r + s in h) for s in "SHDC")
    dealer = "NESW"[(number - 1) % 4]
    return dealer, VULNERABLE[(number - 1) % 16], "N:" + " ".join(text(h) for h in hands)


def hands_of(deal):
    """A PBN deal value as {seat: set of cards}."""
    first, rest = deal.split(":")
    seats = "NESW"[("NESW".index(first.upper())):] + "NESW"[:"NESW".index(first.upper())]
    out = {}
    for seat, hand in zip(seats, rest.split()):
        out[seat] = {r.upper() + s for s, ranks in zip("SHDC", hand.split(".")) for r in ranks}
    return out


def check_pbn(path, secret, client, commitment=None):
    """Checks every [Board]/[Deal] of a session file; returns the number of bad boards."""
    text = open(path, encoding="utf-8").read()
    note = re.search(r"^%\s*commitment:\s*([0-9a-fA-F]{64})", text, re.M)
    published = commitment or (note.group(1) if note else None)
    bad, boards, tags = 0, 0, {}
    if published is None or published.lower() != hashlib.sha256(secret).hexdigest():
        print("invalid: the secret does not match the commitment", published)
        bad += 1
    for name, value in re.findall(r'^\[(\w+) "([^"]*)"\]', text, re.M):
        tags[name] = value
        if name != "Deal":
            continue
        number = int(tags["Board"])
        dealer, vul, deal = board(secret, client, number)
        boards += 1
        wrong = [what for what, ok in (("hands", hands_of(value) == hands_of(deal)),
                                        ("dealer", tags.get("Dealer", dealer) == dealer),
                                        ("vulnerable", tags.get("Vulnerable", vul) == vul)) if not ok]
        if wrong:
            bad += 1
            print("board", number, "differs:", ", ".join(wrong))
        tags = {}
    print("%d boards checked, %d problems" % (boards, bad))
    return bad


def vectors(doc):
    """Every fenced block of DOC with a `secret` line, as {field: value}."""
    blocks, inside = [], False
    for line in open(doc, encoding="utf-8").read().splitlines():
        if line.startswith("```"):
            inside = not inside
            blocks.append([]) if inside else None
        elif inside:
            blocks[-1].append(line)
    for block in blocks:
        fields = {line[:12].strip(): line[12:].strip() for line in block}
        if "secret" in fields:
            fields["client seed"] = json.loads(fields["client seed"])
            yield fields


def check_vectors(doc):
    """Recomputes every vector of DOC; returns (passed, failed)."""
    passed = failed = 0
    for v in vectors(doc):
        secret, client = bytes.fromhex(v["secret"]), v["client seed"]
        if "board" in v:
            got = dict(zip(("dealer", "vulnerable", "deal"), board(secret, client, int(v["board"]))))
            got["nonce"] = v["board"]
        else:
            message, key, cards = derive(secret, client, int(v["nonce"]), v["deck"])
            got = {"message": message.hex(), "key": key.hex(), "cards": " ".join(cards),
                   "word0": "%016x" % next(chacha20_words(key))}
        got["commitment"] = hashlib.sha256(secret).hexdigest()
        wrong = [k for k in got if k in v and v[k] != got[k]]
        passed, failed = passed + (not wrong), failed + bool(wrong)
        if wrong:
            print("vector", v.get("board", v.get("nonce")), "differs in", ", ".join(wrong))
    print("fair_verify.py: %d vectors passed, %d failed" % (passed, failed))
    if os.environ.get("TEST_TALLY"):
        with open(os.environ["TEST_TALLY"], "a") as tally:
            tally.write("fair-verify-py %d %d 0\n" % (passed, failed))
    return passed, failed


def main():
    args = sys.argv[1:]
    if args[:1] == ["--check"]:
        passed, failed = check_vectors(args[1])
        sys.exit(1 if failed or not passed else 0)
    if args[:1] == ["--board"]:
        print("dealer %s\nvulnerable %s\ndeal %s" % board(bytes.fromhex(args[1]), args[2], int(args[3])))
        return
    if args[:1] == ["--pbn"]:
        sys.exit(1 if check_pbn(args[1], bytes.fromhex(args[2]), args[3], *args[4:5]) else 0)
    secret, client, nonce = bytes.fromhex(args[0]), args[1], int(args[2])
    message, key, cards = derive(secret, client, nonce, args[3] if len(args) > 3 else "standard")
    print("commitment", hashlib.sha256(secret).hexdigest())
    print("key", key.hex())
    print("deck", " ".join(cards))


if __name__ == "__main__":
    main()
