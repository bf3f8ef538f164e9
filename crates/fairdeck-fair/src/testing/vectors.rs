//! The test vectors of `docs/fair-dealing.md`, checked against the code.
//! Print them with `cargo test -p fairdeck-fair --lib testing::vectors -- --ignored --nocapture`;
//! `docs/fair_verify.py` (an independent Python implementation) prints the same.

use crate::*;

/// One vector: inputs and every intermediate value.
struct Vector {
    secret: &'static str,
    client_seed: &'static str,
    nonce: u64,
    deck: DeckKind,
    /// commitment, message, key, first keystream word, deck (top first).
    expected: [&'static str; 5],
}

const VECTORS: [Vector; 3] = [
    Vector {
        secret: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        client_seed: "alice",
        nonce: 0,
        deck: DeckKind::Standard,
        expected: [
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
            "666169726465636b2d666169722d76310000000000000005616c6963650000000000000000",
            "0c4222c8abed31c41493b062acf7184ac7e2a8ea551d4efef913c5dc890f11d3",
            "4ff494dac3ab1537",
            "5D QS 3C AC 7C 2C 7D 9S 6S KH 4C 5S 3S QD 9D AD 4S 7S JS KD KS 5C 8C 5H 6D 8D AH QC QH TH 3H TS AS 2D 9H JH 4H 9C 6C JD 3D 2H TD 7H 6H 8S KC 8H 2S TC JC 4D",
        ],
    },
    Vector {
        secret: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        client_seed: "alice",
        nonce: 1,
        deck: DeckKind::Standard,
        expected: [
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
            "666169726465636b2d666169722d76310000000000000005616c6963650000000000000001",
            "47a0925f8a799bcfb63a37c665edaf8b45a965b724e02ec3dbc309a5f554737b",
            "bd848bb6be45267a",
            "3H 7C JS TC JD TS 8S 4C 6H 6C 3C 7H QC 6S 5C 9D 9C 8C 2S 3S 9S 2C AD KD 3D 2D 5S QD QH AC 9H KS 5D 2H JC 4H 7D 4D 7S AS JH TH 4S 8H 6D 5H AH KH TD 8D QS KC",
        ],
    },
    Vector {
        secret: "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        client_seed: "",
        nonce: 18446744073709551615,
        deck: DeckKind::Piquet,
        expected: [
            "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
            "666169726465636b2d666169722d76310000000000000000ffffffffffffffff",
            "8b042f285111cbc5d6ed0c6cc8d91c077f0a1743d6d926f4bba5bcb437c68100",
            "dcd5a718304f812d",
            "AS JC TS AC AH 9C TD AD QC KH 9D JD JH QD 8S QS 7H QH KC 7S 7D 9H KS TH 8D 8C 7C KD JS TC 8H 9S",
        ],
    },
];

fn render(v: &Vector) -> [String; 5] {
    let secret = ServerSecret::from_hex(v.secret).unwrap();
    let key = deal_key(&secret, v.client_seed, v.nonce);
    let deck = shuffled_deck(&secret, v.client_seed, v.nonce, v.deck);
    [
        secret.commitment().to_hex(),
        to_hex(&derivation_message(v.client_seed, v.nonce)),
        to_hex(&key),
        format!("{:016x}", KeyStream::new(key).next_word()),
        deck.iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    ]
}

#[test]
#[ignore = "prints the vectors for the docs"]
fn print_vectors() {
    for v in &VECTORS {
        let [c, m, k, w, d] = render(v);
        println!(
            "secret {}\nclient {:?}\nnonce {}\ndeck {}\ncommitment {c}\nmessage {m}\nkey {k}\nword0 {w}\ndeal {d}\n",
            v.secret, v.client_seed, v.nonce, v.deck
        );
    }
}

#[test]
fn test_vectors_match_the_docs() {
    // A failure here breaks every published deal: a reproducibility-breaking
    // change (CHANGELOG.md), and docs/fair-dealing.md must change with it.
    for v in &VECTORS {
        assert_eq!(
            render(v).map(|s| s),
            v.expected.map(String::from),
            "{:?}",
            v.client_seed
        );
    }
}

#[test]
fn verify_accepts_the_vectors_and_pinpoints_tampering() {
    let v = &VECTORS[0];
    let secret = ServerSecret::from_hex(v.secret).unwrap();
    let published = Commitment::from_hex(v.expected[0]).unwrap();
    let deal: Vec<Card> = v.expected[4]
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    let check = |s: &ServerSecret, client: &str, nonce: u64, d: &[Card]| {
        verify(&published, s, client, nonce, v.deck, d)
    };
    assert_eq!(check(&secret, "alice", 0, &deal), Ok(()));
    let mut other = *secret.as_bytes();
    other[31] ^= 1;
    let tampered = ServerSecret::from_bytes(other);
    assert!(matches!(
        check(&tampered, "alice", 0, &deal),
        Err(Mismatch::Commitment { .. })
    ));
    for (client, nonce) in [("alicf", 0), ("alice", 1)] {
        let Err(Mismatch::Order { differing, .. }) = check(&secret, client, nonce, &deal) else {
            panic!("{client} {nonce}: no order mismatch");
        };
        assert!(differing > 26, "{differing}");
    }
    let mut swapped = deal.clone();
    swapped.swap(2, 40);
    let err = check(&secret, "alice", 0, &swapped).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the deal differs from the derived deck at 2 of 52 places, first at card 3: \
         3D where the derivation gives 3C (cards were moved after the deal)"
    );
    let mut doubled = deal.clone();
    doubled[0] = doubled[1];
    assert!(matches!(
        check(&secret, "alice", 0, &doubled),
        Err(Mismatch::NotTheDeck { claimed: 2, .. })
    ));
    assert!(matches!(
        check(&secret, "alice", 0, &deal[1..]),
        Err(Mismatch::CardCount { claimed: 51, .. })
    ));
}

#[test]
fn the_message_is_injective() {
    // Splitting the same bytes differently between seed and nonce never
    // gives the same message: the length prefix tells them apart.
    assert_ne!(derivation_message("ab", 0x63), derivation_message("abc", 0));
    assert_ne!(derivation_message("", 0), derivation_message("\0", 0));
    let m = derivation_message("ab", 5);
    assert_eq!(&m[..16], DOMAIN_TAG);
    assert_eq!(u64::from_be_bytes(m[16..24].try_into().unwrap()), 2);
    assert_eq!(&m[24..26], b"ab");
    assert_eq!(u64::from_be_bytes(m[26..].try_into().unwrap()), 5);
}

#[test]
fn hex_inputs_are_checked() {
    assert!(ServerSecret::from_hex("00").is_err());
    assert!(Commitment::from_hex(&"g".repeat(64)).is_err());
    let s = ServerSecret::from_hex(&"AB".repeat(32)).unwrap();
    assert_eq!(s.to_hex(), "ab".repeat(32));
    assert!(!format!("{s:?}").contains(&"ab".repeat(32)));
}

#[test]
fn the_docs_show_the_same_vectors() {
    let doc = include_str!("../../../../docs/fair-dealing.md");
    for v in &VECTORS {
        let nonce = format!("nonce       {}\n", v.nonce);
        let seed = format!("client seed {:?}\n", v.client_seed);
        let cards = format!("cards       {}\n", v.expected[4]);
        for needle in [v.secret, &nonce, &seed, &cards]
            .into_iter()
            .chain(v.expected)
        {
            assert!(
                doc.contains(needle),
                "docs/fair-dealing.md lacks {needle:?}"
            );
        }
    }
}

/// The board vectors of section 7: secret, client seed, board, dealer,
/// vulnerability, PBN deal.
const BOARD_VECTORS: [[&str; 6]; 3] = [
    [
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "alice",
        "1",
        "N",
        "None",
        "N:9.QJ63.JT7653.Q9 T6.T52.842.A8762 QJ87542.A9.A.J53 AK3.K874.KQ9.KT4",
    ],
    [
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "alice",
        "2",
        "E",
        "NS",
        "N:AT87.AT.A.KT8753 6.K973.KJ532.QJ6 J94.Q65.T964.A92 KQ532.J842.Q87.4",
    ],
    [
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "club night ♠",
        "17",
        "N",
        "None",
        "N:AJ6.54.AJ3.KQ732 KQT43.A32.5.AT85 98.Q86.KT9864.J9 752.KJT97.Q72.64",
    ],
];

#[test]
fn board_vectors_match_the_code_and_the_docs() {
    // Section 7: board b is the v1 deal of nonce b, dealt N, E, S, W in turn.
    let doc = include_str!("../../../../docs/fair-dealing.md");
    for [secret, client, board, dealer, vul, deal] in BOARD_VECTORS {
        let s = ServerSecret::from_hex(secret).unwrap();
        let b = fairdeck::cards::Board::new(board.parse().unwrap()).unwrap();
        let got = session_board(&s, client, b);
        assert_eq!(fairdeck::cards::pbn::deal_value(&got.hands), deal);
        assert_eq!(
            (got.dealer.letter().to_string(), got.vulnerable.pbn()),
            (dealer.into(), vul)
        );
        let lines = [
            format!("client seed {client:?}\nboard       {board}\nnonce       {board}\n"),
            format!("commitment  {}\n", s.commitment()),
            format!("dealer      {dealer}\nvulnerable  {vul}\ndeal        {deal}\n"),
        ];
        for line in lines {
            assert!(doc.contains(&line), "docs/fair-dealing.md lacks {line:?}");
        }
    }
}

proptest::proptest! {
    #[test]
    fn every_deal_verifies_and_every_swap_is_caught(
        secret in proptest::prelude::any::<[u8; 32]>(),
        client in ".{0,12}",
        nonce in proptest::prelude::any::<u64>(),
        a in 0usize..54,
        b in 0usize..54,
    ) {
        let secret = ServerSecret::from_bytes(secret);
        let published = secret.commitment();
        let mut deal = shuffled_deck(&secret, &client, nonce, DeckKind::Jokers);
        proptest::prop_assert_eq!(verify(&published, &secret, &client, nonce, DeckKind::Jokers, &deal), Ok(()));
        deal.swap(a, b);
        let result = verify(&published, &secret, &client, nonce, DeckKind::Jokers, &deal);
        if a == b {
            proptest::prop_assert_eq!(result, Ok(()));
        } else {
            let is_order = matches!(result, Err(Mismatch::Order { differing: 2, .. }));
            proptest::prop_assert!(is_order);
        }
    }
}
