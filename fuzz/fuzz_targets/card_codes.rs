//! Card codes: text (`AS`, `10h`, `🃏R`) and seed-002 bytes. Never a panic;
//! whatever parses prints back to a code that parses to the same card.
#![no_main]

use fairdeck::cards::Card;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(&byte) = data.first()
        && let Ok(card) = Card::from_byte(byte)
    {
        assert_eq!(card.to_byte(), byte);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(card) = text.parse::<Card>() {
        assert_eq!(card.to_string().parse::<Card>().ok(), Some(card));
        assert_eq!(card.symbol().parse::<Card>().ok(), Some(card));
    }
});
