#!/usr/bin/env python3
"""Independent re-implementation of docs/fair-dealing.md (standard library only).

Usage: fair_verify.py SECRET_HEX CLIENT_SEED NONCE [standard|jokers|piquet|italian]
Prints the commitment, the deal key and the shuffled deck, top card first.
"""
import hashlib
import hmac
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


def main():
    secret, client, nonce = bytes.fromhex(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    kind = sys.argv[4] if len(sys.argv) > 4 else "standard"
    seed = client.encode("utf-8")
    message = b"fairdeck-fair-v1" + struct.pack(">Q", len(seed)) + seed + struct.pack(">Q", nonce)
    key = hmac.new(secret, message, hashlib.sha256).digest()
    cards, words = deck(kind), chacha20_words(key)
    for i in range(len(cards) - 1, 0, -1):
        j = draw(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    print("commitment", hashlib.sha256(secret).hexdigest())
    print("key", key.hex())
    print("deck", " ".join(cards))


if __name__ == "__main__":
    main()
