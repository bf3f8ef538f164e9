"""An independent, pure-Python reading of the byte-exact specification in
the ``fairdeck-distributed`` crate documentation: HMAC-SHA256 keys, the RFC
8439 ChaCha20 block function, Lemire's draw, Durstenfeld's shuffle. The
tests check that Spark writes exactly what this predicts."""

from __future__ import annotations

import hashlib
import hmac
import struct

MASK = 0xFFFFFFFF


def _rotl(x: int, n: int) -> int:
    return ((x << n) & MASK) | (x >> (32 - n))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key: bytes, counter: int, nonce: bytes) -> bytes:
    """RFC 8439 section 2.3: one 64-byte keystream block."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce))
    s = state[:]
    for _ in range(10):
        for a, b, c, d in [(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)]:
            _quarter(s, a, b, c, d)
    return struct.pack("<16I", *[(x + y) & MASK for x, y in zip(s, state)])


def words(key: bytes, nonce: bytes):
    """The keystream as little-endian 64-bit words."""
    counter = 0
    while True:
        yield from struct.unpack("<8Q", chacha20_block(key, counter, nonce))
        counter += 1


def lemire(stream, n: int) -> int:
    threshold = (2**64 - n) % n
    while True:
        m = next(stream) * n
        if m % 2**64 >= threshold:
            return m >> 64


def row_bucket(seed: bytes, file: int, position: int, k: int) -> int:
    key = hmac.new(seed, b"fairdeck-distributed/v1/row-bucket", hashlib.sha256).digest()
    return lemire(words(key, struct.pack("<IQ", file, position)), k)


def bucket_order(seed: bytes, bucket: int, rows: list) -> list:
    key = hmac.new(seed, b"fairdeck-distributed/v1/bucket-shuffle" + struct.pack("<Q", bucket),
                   hashlib.sha256).digest()
    stream = words(key, bytes(12))
    rows = sorted(rows)
    for i in range(len(rows) - 1, 0, -1):
        j = lemire(stream, i + 1)
        rows[i], rows[j] = rows[j], rows[i]
    return rows


def lines(data: bytes):
    """(offset, line) of every line: starts at 0 or after a newline."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        yield start, data[start:end]
        start = end + 1


def expected_parts(files: list[bytes], seed_hex: str, k: int) -> list[bytes]:
    """The bytes of each part for the files in listing order."""
    seed = bytes.fromhex(seed_hex)
    buckets = [[] for _ in range(k)]
    for f, data in enumerate(files):
        for at, line in lines(data):
            buckets[row_bucket(seed, f, at, k)].append((f, at, line))
    return [b"".join(line + b"\n" for _, _, line in bucket_order(seed, b, rows))
            for b, rows in enumerate(buckets)]
