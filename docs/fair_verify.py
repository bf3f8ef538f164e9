#!/usr/bin/env python3
"""Independent re-implementation of docs/fair-dealing.md (standard library only).

One file on purpose (over 400 lines): a verifier a player can download and run
with nothing but Python 3.

Usage:
  fair_verify.py SECRET_HEX CLIENT_SEED NONCE [standard|jokers|piquet|italian]
      prints the commitment, the deal key and the shuffled deck, top card first;
  fair_verify.py --board SECRET_HEX CLIENT_SEED BOARD
      prints board BOARD of a session (section 7): dealer, vulnerability, PBN deal;
  fair_verify.py --pbn FILE SECRET_HEX CLIENT_SEED [COMMITMENT_HEX]
      checks every board of a session's PBN file, lists each one that differs;
  fair_verify.py --transcript FILE [COMMITMENT_HEX [LOCK_HEX]]
      checks a version 2 or 2.1 transcript, or a void record (sections 8-11): every seat's
      seed, the room's commitment (against COMMITMENT_HEX, the one published before play,
      when given), the seat lock (against LOCK_HEX, the one recorded before the reveals,
      when given), the count of deals played, and every deal of the manifest, pile by
      pile; prints each difference by kind;
  fair_verify.py --check DOC.md
      recomputes every test vector of the specification (versions 1 and 2) and reports
      the counts (appended as "fair-verify-py PASSED FAILED 0" to the file $TEST_TALLY names).
Exit status 1 when anything does not match.
"""
import hashlib
import hmac
import json
import os
import re
import struct
import sys
import unicodedata


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
    if kind.startswith("shoe:"):
        return deck("standard") * int(kind[5:])
    ranks = {"standard": "A23456789TJQK", "jokers": "A23456789TJQK",
             "piquet": "A789TJQK", "italian": "A234567JQK"}[kind]
    cards = [r + s for s in "HDCS" for r in ranks]
    return cards + (["RJ", "BJ"] if kind == "jokers" else [])


def shuffle(key, kind):
    """Sections 2.3-2.5: Durstenfeld over the ChaCha20 words of KEY."""
    cards, words = deck(kind), chacha20_words(key)
    for i in range(len(cards) - 1, 0, -1):
        j = draw(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def derive(secret, client, nonce, kind="standard"):
    """Section 2: the message, the deal key and the shuffled deck (top first)."""
    seed = client.encode("utf-8")
    message = b"fairdeck-fair-v1" + struct.pack(">Q", len(seed)) + seed + struct.pack(">Q", nonce)
    key = hmac.new(secret, message, hashlib.sha256).digest()
    return message, key, shuffle(key, kind)


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


PBN_VALUES = {"Board": r"[1-9][0-9]*", "Dealer": r"[NESW]", "Vulnerable": r"None|NS|EW|All",
              "Deal": r"[NESW]:[AKQJT2-9.]+ [AKQJT2-9.]+ [AKQJT2-9.]+ [AKQJT2-9.]+"}


def pbn_line_problem(line, comment):
    """Section 7.1's characters: none of the forbidden set but the tab; outside comments no
    white space but spaces and tabs."""
    for c in line:
        if (c != "\t" and any(lo <= ord(c) <= hi for lo, hi in FORBIDDEN)) or \
                (not comment and c.isspace() and c not in " \t"):
            return "U+%04X: a control, format or separator character, or white space other than spaces and tabs" % ord(c)
    return None


def pbn_blocks(text):
    """Section 7.1, strict: each board is one block of tags; every loose spelling is an error."""
    if text.startswith("\ufeff"):
        raise ValueError("line 1: a byte-order mark")
    blocks, tags, in_comment = [], {}, False
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n") + [""], 1):
        problem = pbn_line_problem(line, in_comment or line[:1] in ("%", "{"))
        if problem:
            raise ValueError("line %d: %s" % (number, problem))
        if in_comment or line.startswith("{"):
            in_comment = "}" not in line
            if not in_comment and not line.rstrip(" \t").endswith("}"):
                raise ValueError("line %d: text after a comment's '}'" % number)
            continue
        if line.startswith("%"):
            continue
        if not line:
            if tags:
                missing = [t for t in ("Board", "Dealer", "Vulnerable", "Deal") if t not in tags]
                if missing:
                    raise ValueError("line %d: the board starting here has no [%s] tag" % (first, missing[0]))
                blocks.append(tags)
            tags = {}
            continue
        tag = re.fullmatch(r'\[(\w+) "((?:[^"\\]|\\.)*)"\][ \t]*', line)
        if not tag:
            raise ValueError("line %d: not a tag [Name \"value\"] at the start of the line" % number)
        name, value = tag.group(1), re.sub(r"\\(.)", r"\1", tag.group(2))
        if name != name.capitalize() and name.lower() in ("board", "dealer", "vulnerable", "deal"):
            raise ValueError("line %d: [%s]: tag names are case-sensitive" % (number, name))
        if name in PBN_VALUES and not re.fullmatch(PBN_VALUES[name], value):
            raise ValueError("line %d: [%s \"%s\"] is not in the one spelling of section 7.1" % (number, name, value))
        if name in tags:
            raise ValueError("line %d: [%s] again: two boards run together, or a repeated tag" % (number, name))
        first = number if not tags else first
        tags[name] = value
    return blocks


def check_pbn(path, secret, client, commitment=None):
    """Checks every board of a session file (the file's own % commitment line is never used)."""
    try:
        blocks = pbn_blocks(open(path, encoding="utf-8", newline="").read())
    except ValueError as e:
        print("invalid:", e)
        return 1
    bad, numbers = 0, [int(tags["Board"]) for tags in blocks]
    if commitment is not None and commitment.lower() != hashlib.sha256(secret).hexdigest():
        print("invalid: the secret does not match the commitment", commitment)
        bad += 1
    if numbers != list(range(min(numbers or [1]), max(numbers or [0]) + 1)):
        print("invalid: the boards are not one run in order:", numbers)
        bad += 1
    for tags, number in zip(blocks, numbers):
        dealer, vul, deal = board(secret, client, number)
        wrong = [what for what, ok in (("hands", hands_of(tags["Deal"]) == hands_of(deal)),
                                        ("dealer", tags["Dealer"] == dealer),
                                        ("vulnerable", tags["Vulnerable"] == vul)) if not ok]
        if wrong:
            bad += 1
            print("board", number, "differs:", ", ".join(wrong))
    print("%d boards checked, %d problems%s" % (len(blocks), bad, "" if commitment else
          "; self-consistent only: no commitment given to compare"))
    return bad


# ---- Version 2 (sections 8-11) ----

def lp(data):
    """u64 big-endian length, then the bytes."""
    return struct.pack(">Q", len(data)) + data


GAMES = {"bridge": ("standard", 4, 4), "holdem": ("standard", 2, 22), "draw": ("standard", 2, 10),
         "skat": ("piquet", 3, 3), "scopa": ("italian", 2, 4), "shoe": (None, 1, 22)}


# Section 8.2: the code points of general categories Cc, Cf, Zl, Zp (Unicode 15.0), pinned so
# that every verifier refuses the same texts whatever Unicode version its platform has.
FORBIDDEN = [(0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
             (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
             (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF),
             (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
             (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F)]
PILE_NAMES = ("Board", "Burn", "Skat", "Table")


def text_problem(t):
    """Section 8.2's text rule (table ids, seat names, seeds): None, or what is wrong."""
    if not isinstance(t, str) or not t or len(t.encode("utf-8")) > 256:
        return "must be 1 to 256 bytes"
    for c in t:
        if any(lo <= ord(c) <= hi for lo, hi in FORBIDDEN):
            return "holds U+%04X, a control, format or separator character" % ord(c)
    if not unicodedata.is_normalized("NFC", t):
        return "is not in NFC"
    return None


def manifest_problem(m):
    """Section 8.2's rules: None, or what is wrong."""
    if m["version"] != 2 or m["game"] not in GAMES:
        return "version %r, game %r" % (m["version"], m["game"])
    own, low, high = GAMES[m["game"]]
    shoe = re.fullmatch(r"shoe:([1-8])", m["deck"])
    if m["deck"] != own and not (own is None and shoe):
        return "deck %r is not the deck of %s" % (m["deck"], m["game"])
    if m["game"] == "bridge" and m["seats"] != ["North", "East", "South", "West"]:
        return "a bridge table's seats are North, East, South, West"
    for n in [m["table"]] + m["seats"]:
        if text_problem(n):
            return "name %r %s" % (n, text_problem(n))
    if any(n in PILE_NAMES for n in m["seats"]):
        return "a seat has the name of a pile"
    if not low <= len(m["seats"]) <= high or len(set(m["seats"])) != len(m["seats"]):
        return "%d seats (or a repeated name) for %s" % (len(m["seats"]), m["game"])
    if not m["first"] <= m["last"] < m["first"] + 10000 or (m["game"] == "bridge" and m["first"] < 1):
        return "the deal range %d-%d" % (m["first"], m["last"])
    return None


def manifest_bytes(m):
    """Section 8.2: M."""
    u64 = lambda n: struct.pack(">Q", n)
    text = lambda t: lp(t.encode("utf-8"))
    return (lp(b"fairdeck-table") + u64(m["version"]) + text(m["table"]) + text(m["game"])
            + text(m["deck"]) + u64(len(m["seats"])) + b"".join(text(s) for s in m["seats"])
            + u64(m["first"]) + u64(m["last"]))


def domain(m, purpose):
    return lp(("fairdeck-fair-v2/%s/%s/%s" % (m["game"], m["deck"], purpose)).encode())


def room_commitment(m, secret):
    return hashlib.sha256(domain(m, "room") + secret + lp(manifest_bytes(m))).hexdigest()


def seat_commitment(m, index, seed):
    data = domain(m, "seat") + lp(manifest_bytes(m)) + struct.pack(">Q", index) + lp(seed.encode())
    return hashlib.sha256(data).hexdigest()


def seat_lock_message(m, commitment_hex, seat_commitments_hex):
    """Section 8.6: the bytes L hashes (C and every c_i as 32 raw bytes)."""
    return (domain(m, "lock") + bytes.fromhex(commitment_hex) + lp(manifest_bytes(m))
            + struct.pack(">Q", len(seat_commitments_hex))
            + b"".join(bytes.fromhex(c) for c in seat_commitments_hex))


def seat_lock(m, commitment_hex, seat_commitments_hex):
    """Section 8.6: L as hex, or None when a commitment is missing or not 64 hex digits."""
    hexes = [commitment_hex] + list(seat_commitments_hex)
    if not all(isinstance(c, str) and re.fullmatch(r"[0-9a-fA-F]{64}", c) for c in hexes):
        return None
    return hashlib.sha256(seat_lock_message(m, commitment_hex, seat_commitments_hex)).hexdigest()


def deal_message(m, seeds, nonce):
    return (domain(m, "deal") + lp(manifest_bytes(m)) + struct.pack(">Q", len(seeds))
            + b"".join(lp(s.encode()) for s in seeds) + struct.pack(">Q", nonce))


def lay_out(m, cards):
    """Section 9: [(name, role, cards)] and the stock."""
    seats, p = m["seats"], len(m["seats"])
    game = m["game"]
    if game == "shoe":
        return [], cards
    if game == "bridge":
        return [(seats[s], "player", cards[s::4]) for s in range(4)], []
    if game == "holdem":
        piles = [(seats[s], "player", [cards[s], cards[s + p]]) for s in range(p)]
        b = 2 * p
        board = cards[b + 1:b + 4] + [cards[b + 5], cards[b + 7]]
        burn = [cards[b], cards[b + 4], cards[b + 6]]
        return piles + [("Board", "board", board), ("Burn", "burn", burn)], cards[b + 8:]
    if game == "draw":
        return [(seats[s], "player", cards[s:5 * p:p]) for s in range(p)], cards[5 * p:]
    if game == "scopa":
        piles = [(seats[s], "player", cards[s:3 * p:p]) for s in range(p)]
        return piles + [("Table", "board", cards[3 * p:3 * p + 4])], cards[3 * p + 4:]
    packets = [(0, 3), (1, 3), (2, 3), (3, 2), (0, 4), (1, 4), (2, 4), (0, 3), (1, 3), (2, 3)]
    hands, top = [[], [], [], []], 0
    for pile, count in packets:
        hands[pile] += cards[top:top + count]
        top += count
    return [(seats[s], "player", hands[s]) for s in range(3)] + [("Skat", "kitty", hands[3])], []


def compare_cards(expected, claimed, as_set):
    if sorted(expected) != sorted(claimed):
        return "has %s, the derivation gives %s" % (" ".join(claimed), " ".join(expected))
    if not as_set and expected != claimed:
        return "the right cards in another order"
    return None


def compare_deal(m, secret, seeds, claimed, out):
    n = claimed["nonce"]
    key = hmac.new(secret, deal_message(m, seeds, n), hashlib.sha256).digest()
    cards = shuffle(key, m["deck"])
    piles, stock = lay_out(m, cards)
    got = claimed.get("piles", [])
    if [(p[0], p[1]) for p in piles] != [(p.get("name"), p.get("role")) for p in got]:
        out.append(("piles", "deal %d: not the layout's piles" % n))
    else:
        kinds = {"player": "hand", "kitty": "kitty", "burn": "burn", "board": "community"}
        for (name, role, want), have in zip(piles, got):
            why = compare_cards(want, have["cards"], role in ("player", "kitty"))
            if why:
                out.append((kinds[role], "deal %d, %s: %s" % (n, name, why)))
    for kind, want, have in (("stock", stock, claimed.get("stock")), ("deck", cards, claimed.get("deck", cards))):
        why = compare_cards(want, have or [], False)
        if why:
            out.append((kind, "deal %d: %s" % (n, why)))
    if m["game"] == "bridge":
        if claimed.get("dealer") != "NESW"[(n - 1) % 4]:
            out.append(("dealer", "deal %d: dealer %s" % (n, claimed.get("dealer"))))
        if claimed.get("vulnerable") != VULNERABLE[(n - 1) % 16]:
            out.append(("vulnerable", "deal %d: vulnerable %s" % (n, claimed.get("vulnerable"))))


def check_deal_range(m, deals, out):
    seen, previous = set(), None
    for d in deals:
        n = d["nonce"]
        if not m["first"] <= n <= m["last"]:
            out.append(("extra-deal", "deal %d is outside the manifest's range" % n))
        elif n in seen:
            out.append(("duplicate-deal", "deal %d twice" % n))
        else:
            if previous is not None and n < previous:
                out.append(("deal-order", "deal %d comes after deal %d" % (n, previous)))
            previous = n
            seen.add(n)
            yield d
    missing = [n for n in range(m["first"], m["last"] + 1) if n not in seen]
    if missing:
        out.append(("missing-deal", "deals %s are missing" % missing[:20]))


def void_of(m, seats):
    """Section 8.7: (phase, failed seats) that the seats show, or None."""
    uncommitted = [s["name"] for s in seats if s.get("commitment") is None]
    if uncommitted:
        return ("commit", uncommitted)
    late = [s["name"] for i, s in enumerate(seats) if s.get("seed") is None
            or seat_commitment(m, i, s["seed"]) != s["commitment"].lower()]
    return ("reveal", late) if late else None


def check_void(t, m, published, out):
    """Section 8.7: the void record names the seats that failed and deals nothing."""
    record = t["void"]
    shown = void_of(m, t["seats"])
    if shown != (record.get("phase"), record.get("seats")):
        out.append(("void", "the record says %r, the seats show %r" % (record, shown)))
    if record.get("phase") == "commit" and any(s.get("seed") is not None for s in t["seats"]):
        out.append(("void", "a seed shown before every seat committed"))
    if t.get("deals") or t.get("played"):
        out.append(("void", "a void table deals nothing"))
    check_room(t, m, published, out)


def check_room(t, m, published, out):
    """The secret against the transcript's commitment and the published one; the secret."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", t.get("server_secret") or ""):
        out.append(("secret", "the server secret is missing or not 64 hex digits"))
        return None
    secret = bytes.fromhex(t["server_secret"])
    computed = room_commitment(m, secret)
    if computed != t["commitment"].lower():
        out.append(("commitment", "S and the manifest give %s, the transcript states %s" % (computed, t["commitment"])))
    if published is not None and computed != published.lower():
        out.append(("published-commitment", "S and the manifest give %s, published: %s" % (computed, published)))
    return secret


def check_lock_and_played(t, m, lock, out):
    """Sections 8.6 and 10: the transcript's lock and count of deals played."""
    computed = seat_lock(m, t["commitment"], [s.get("commitment") for s in t["seats"]])
    v21 = t.get("version") == "2.1"
    commit_void = (t.get("void") or {}).get("phase") == "commit"
    if t.get("lock") is not None and (computed is None or t["lock"].lower() != computed):
        out.append(("lock", "the seats' commitments give the lock %s, the transcript states %s" % (computed, t["lock"])))
    elif t.get("lock") is None and v21 and not commit_void:
        out.append(("lock", "a version 2.1 transcript carries the seat lock; this one has none"))
    if lock is not None and (computed is None or computed != lock.lower()):
        out.append(("published-lock", "the seats' commitments give the lock %s, recorded: %s" % (computed, lock)))
    played, count = t.get("played"), m["last"] - m["first"] + 1
    if (played is None and v21) or (played is not None and not 0 <= played <= count):
        out.append(("played", "deals played: %r of %d" % (played, count)))


# ---- Strict reading (section 10.1) ----

CARD = re.compile(r"(?:[A2-9TJQK][HDCS]|RJ|BJ)\Z")
HEX = re.compile(r"[0-9a-f]{64}\Z")


class DocumentError(Exception):
    """A document that breaks the reading rules: kind `document`."""


def _pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise DocumentError("the key %r appears twice in one object" % k)
        out[k] = v
    return out


def _constant(name):
    raise DocumentError("%s is not JSON" % name)


def _obj(v, path, required, optional=()):
    if not isinstance(v, dict):
        raise DocumentError("%s: an object was expected" % path)
    for k in v:
        if k not in required and k not in optional:
            raise DocumentError("%s: unknown field %r" % (path, k))
    for k in required:
        if k not in v:
            raise DocumentError("%s: the field %r is missing" % (path, k))
    return v


def _str(v, path):
    if not isinstance(v, str):
        raise DocumentError("%s: a string was expected" % path)
    return v


def _int(v, path):
    if type(v) is not int or not 0 <= v < 2 ** 64:
        raise DocumentError("%s: an integer from 0 to 2^64-1 was expected" % path)


def _hex(v, path, nullable=False):
    if not (nullable and v is None) and not (isinstance(v, str) and HEX.match(v)):
        raise DocumentError("%s: %r is not 64 lowercase hex digits" % (path, v))


def _cards(v, path):
    if not isinstance(v, list):
        raise DocumentError("%s: an array was expected" % path)
    for i, c in enumerate(v):
        if not (isinstance(c, str) and CARD.match(c)):
            raise DocumentError("%s[%d]: %r is not a card as the specification writes it" % (path, i, c))


def _list(v, path):
    if not isinstance(v, list):
        raise DocumentError("%s: an array was expected" % path)
    return v


def check_record_form(t):
    """Section 10.1 for a version 2 or 2.1 document (already parsed strictly)."""
    version = t.get("version")
    if version not in (2, "2.1") or isinstance(version, bool):
        raise DocumentError("version: %r is not 2 or \"2.1\"" % (version,))
    top = ["version", "manifest", "commitment", "seats", "server_secret", "deals"]
    if version == 2:
        _obj(t, "the transcript", top)
    else:
        _obj(t, "the transcript", top + ["lock", "played"], ["void"])
    m = _obj(t["manifest"], "manifest", ["version", "table", "game", "deck", "seats", "first", "last"])
    for f in ("version", "first", "last"):
        _int(m[f], "manifest." + f)
    for f in ("table", "game", "deck"):
        _str(m[f], "manifest." + f)
    for i, n in enumerate(_list(m["seats"], "manifest.seats")):
        _str(n, "manifest.seats[%d]" % i)
    _hex(t["commitment"], "commitment")
    for i, seat in enumerate(_list(t["seats"], "seats")):
        at = "seats[%d]" % i
        _obj(seat, at, ["name", "commitment", "seed"])
        _str(seat["name"], at + ".name")
        _hex(seat["commitment"], at + ".commitment", True)
        if seat["seed"] is not None and text_problem(_str(seat["seed"], at + ".seed")):
            raise DocumentError("%s.seed: a seed %s" % (at, text_problem(seat["seed"])))
    _hex(t["server_secret"], "server_secret", True)
    if version == "2.1":
        _hex(t["lock"], "lock", True)
        _int(t["played"], "played")
    if "void" in t:
        void = _obj(t["void"], "void", ["phase", "seats"])
        if void["phase"] not in ("commit", "reveal"):
            raise DocumentError("void.phase: %r" % (void["phase"],))
        for i, n in enumerate(_list(void["seats"], "void.seats")):
            _str(n, "void.seats[%d]" % i)
    for i, d in enumerate(_list(t["deals"], "deals")):
        at = "deals[%d]" % i
        _obj(d, at, ["nonce", "piles", "stock"], ["dealer", "vulnerable", "deck"])
        _int(d["nonce"], at + ".nonce")
        for f in ("dealer", "vulnerable"):
            if f in d:
                _str(d[f], at + "." + f)
        for j, p in enumerate(_list(d["piles"], at + ".piles")):
            pat = "%s.piles[%d]" % (at, j)
            _obj(p, pat, ["name", "role", "cards"])
            _str(p["name"], pat + ".name")
            _str(p["role"], pat + ".role")
            _cards(p["cards"], pat + ".cards")
        _cards(d["stock"], at + ".stock")
        if "deck" in d:
            _cards(d["deck"], at + ".deck")


def read_document(text):
    """Parses TEXT strictly (duplicate keys, NaN and Infinity refused); raises DocumentError."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except ValueError as e:
        raise DocumentError("not JSON: %s" % e)


def verify_transcript(t, published=None, lock=None):
    """Section 11: a list of (kind, message); empty when everything matches."""
    out, m = [], t.get("manifest", {})
    problem = manifest_problem(m) if t.get("version") in (2, "2.1") else "not version 2 or 2.1"
    if problem:
        return [("manifest", problem)]
    if [s["name"] for s in t["seats"]] != m["seats"]:
        return [("seats", "the seats are not the manifest's")]
    check_lock_and_played(t, m, lock, out)
    if t.get("void") is not None:
        check_void(t, m, published, out)
        return out
    for i, seat in enumerate(t["seats"]):
        if seat.get("seed") is None:
            out.append(("missing-reveal", "seat %r did not reveal: the table is void" % seat["name"]))
        elif seat_commitment(m, i, seat["seed"]) != seat["commitment"].lower():
            out.append(("seat-commitment", "seat %r's seed does not match its commitment" % seat["name"]))
    if any(k == "missing-reveal" for k, _ in out):
        return out
    secret = check_room(t, m, published, out)
    if secret is None:
        return out
    seeds = [s["seed"] for s in t["seats"]]
    for d in list(check_deal_range(m, t["deals"], out)):
        compare_deal(m, secret, seeds, d, out)
    return out


def check_transcript(path, published=None, lock=None):
    text = (sys.stdin if path == "-" else open(path, encoding="utf-8")).read()
    try:
        t = read_document(text)
        check_record_form(t)
    except DocumentError as e:
        print("document: %s" % e)
        print("invalid: 1 difference(s)")
        return 1
    found = verify_transcript(t, published, lock)
    for kind, message in found:
        print("%s: %s" % (kind, message))
    version = t.get("version")
    if found:
        print("invalid: %d difference(s)" % len(found))
    elif t.get("void"):
        print("void at the %s phase: seat(s) %s failed; nothing was dealt%s" % (
            t["void"]["phase"], ", ".join(t["void"]["seats"]),
            "" if published else "; the commitment was not compared with the published one"))
    elif not published:
        print("self-consistent only: compare the commitment %s with the one published before play"
              % t["commitment"])
    elif not lock:
        print("partial (version %s): every deal matches and the commitment is the one published "
              "before play; the seat lock was not checked (give LOCK_HEX)" % version)
    else:
        print("valid as far as this script checks (version %s): every deal, the commitment and the "
              "seat lock; compare your own seed and the deal numbers you were shown yourself" % version)
    played = t.get("played")
    if played is not None and not t.get("void") and played < t["manifest"]["last"] - t["manifest"]["first"] + 1:
        print("the table stopped after %d deal(s): visible, not preventable" % played)
    return len(found)


def check_v2_vector(v):
    """A version 2 vector (section 12): the intermediate values and the whole transcript."""
    t = v["transcript"]
    m, secret = t["manifest"], bytes.fromhex(t["server_secret"])
    got = {"manifest_bytes": manifest_bytes(m).hex()}
    if "first_message" in v:
        seeds = [s["seed"] for s in t["seats"]]
        message = deal_message(m, seeds, m["first"])
        key = hmac.new(secret, message, hashlib.sha256).digest()
        got.update({"first_message": message.hex(), "first_key": key.hex(),
                    "first_word0": "%016x" % next(chacha20_words(key))})
    if "lock" in v:
        commitments = [s["commitment"] for s in t["seats"]]
        got["lock_message"] = seat_lock_message(m, t["commitment"], commitments).hex()
        got["lock"] = seat_lock(m, t["commitment"], commitments)
    wrong = [k for k in got if v[k] != got[k]]
    try:
        check_record_form(t)
    except DocumentError as e:
        wrong.append("document (%s)" % e)
    wrong += [kind for kind, _ in verify_transcript(t, t["commitment"], v.get("lock"))]
    if t.get("version") == "2.1" and "lock" not in v and not t.get("void"):
        wrong.append("no lock in a version 2.1 vector")
    return wrong


def json_vectors(doc):
    """Every ```json block of DOC that holds a version 2 vector."""
    for block in re.findall(r"```json\n(.*?)```", open(doc, encoding="utf-8").read(), re.S):
        value = read_document(block)
        if "transcript" in value:
            yield value



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


# Negative controls of the reading rules (issue 32): each edit of the "hold'em, 2 seats"
# vector must be refused with this kind.
CONTROLS = [
    ('"seed": "b"', '"seed": "x", "seed": "b"', "document"),
    ('"first": 0', '"first": 5, "first": 0', "document"),
    ('"deals"', '"note": 1, "deals"', "document"),
    ('"role": "player", ', '', "document"),
    ('"b96fef7f58a3845c', '"B96FEF7F58A3845C', "document"),
    ('["9D", "3D"]', '[" 9D", "3D"]', "document"),
    ('["9D", "3D"]', '["3d ", "3D"]', "document"),
    ('["9D", "3D"]', '["9\u2666", "3D"]', "document"),
    ('"nonce": 0', '"nonce": 0.0', "document"),
    ('"nonce": 0', '"nonce": 18446744073709551616', "document"),
    ('"seed": "a"', '"seed": "a\\u200b"', "document"),
    ('["9D", "3D"]', '["9D", "9D"]', "hand"),
    ('["ann", "bo"]', '["ann", "Board"]', "manifest"),
    ('["ann", "bo"]', '["ann", "bo\\u202e"]', "manifest"),
    ('["ann", "bo"]', '["ann", "Zoe\\u0308"]', "manifest"),
]


def check_controls(doc):
    """Runs CONTROLS; returns the number that were not refused as they should be."""
    text = open(doc, encoding="utf-8").read()
    block = text.split('{"vector": "hold\'em, 2 seats",', 1)[1].split("```", 1)[0]
    transcript = block.split('"transcript":\n', 1)[1].rstrip()[:-1]
    failed = 0 if not verify_transcript(read_document(transcript), "b96fef7f58a3845c1dbf034fc21ffcd1428c4a0d5a6ee6d93497b476ac5cf8e9") else 1
    for old, new, kind in CONTROLS:
        edited = transcript.replace(old, new, 1)
        try:
            t = read_document(edited)
            check_record_form(t)
            kinds = [k for k, _ in verify_transcript(t, t["commitment"])]
        except DocumentError:
            kinds = ["document"]
        if old not in transcript or kind not in kinds:
            failed += 1
            print("control %r -> %r: expected %s, found %s" % (old, new, kind, kinds))
    return failed


# Negative controls of section 7.1 (issue 32 item 6): (edit, line of the refusal) on a
# two-board session, each with the same line as fairdeck's strict reader.
PBN_CONTROLS = [
    (("Q9 T6", "Q9\u00a0T6"), 5), (('[Board "1"]', '[Board "01"]'), 2), (("[Deal ", "[deal "), 5),
    (("\n\n", "\n  \n"), 6), (('[Dealer "N"]', '[Dealer "N\u0000"]'), 3), (("% header", "; header"), 1),
    (("% header", '{c} [Board "9"]'), 1), (('[Vulnerable "None"]', '[Vulnerable "Love"]'), 4),
    (("[Board ", "[Board  "), 2), (("N:", "n:"), 5),
]


def check_pbn_controls():
    """Runs PBN_CONTROLS; returns the number not refused on their line."""
    secret = bytes(range(32))
    session = "% header\n" + "\n".join(
        '[Board "%d"]\n[Dealer "%s"]\n[Vulnerable "%s"]\n[Deal "%s"]\n' % ((n,) + board(secret, "alice", n))
        for n in (1, 2))
    failed = 0 if len(pbn_blocks(session)) == 2 else 1
    for (old, new), line in PBN_CONTROLS + [((chr(0xfeff), chr(0xfeff)), 1)]:
        text = chr(0xfeff) + session if old == chr(0xfeff) else session.replace(old, new, 1)
        try:
            pbn_blocks(text)
            got = "read"
        except ValueError as e:
            got = str(e)
        if not got.startswith("line %d: " % line):
            failed += 1
            print("PBN control %r: expected a refusal on line %d, got %s" % (new, line, got))
    return failed


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
    for v in json_vectors(doc):
        wrong = check_v2_vector(v)
        passed, failed = passed + (not wrong), failed + bool(wrong)
        if wrong:
            print("version 2 vector", repr(v["vector"]), "differs in", ", ".join(wrong))
    controls = check_controls(doc) + check_pbn_controls()
    total = len(CONTROLS) + len(PBN_CONTROLS) + 1
    passed, failed = passed + total - controls, failed + controls
    print("fair_verify.py: %d vectors and controls passed, %d failed" % (passed, failed))
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
    if args[:1] == ["--transcript"]:
        sys.exit(1 if check_transcript(args[1], *args[2:4]) else 0)
    if args[:1] == ["--pbn"]:
        sys.exit(1 if check_pbn(args[1], bytes.fromhex(args[2]), args[3], *args[4:5]) else 0)
    secret, client, nonce = bytes.fromhex(args[0]), args[1], int(args[2])
    message, key, cards = derive(secret, client, nonce, args[3] if len(args) > 3 else "standard")
    print("commitment", hashlib.sha256(secret).hexdigest())
    print("key", key.hex())
    print("deck", " ".join(cards))


if __name__ == "__main__":
    main()
