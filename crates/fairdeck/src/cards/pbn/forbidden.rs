//! The characters no text of a fair-dealing document may hold — section
//! 8.2 of `docs/fair-dealing.md`: general categories Cc (controls), Cf
//! (format characters such as U+200B ZERO WIDTH SPACE), Zl and Zp (line and
//! paragraph separators). The strict session reader refuses them in a tag
//! value, and `fairdeck-fair` refuses them in table ids, seat names and
//! seeds. The set is pinned as code point ranges (Unicode 15.0 to 17.0 agree
//! on it), so that every verifier refuses exactly the same texts whatever
//! Unicode tables its platform has.

/// Every code point of general category Cc, Cf, Zl or Zp (Unicode 15.0),
/// as inclusive ranges in increasing order. The same list is written in
/// section 8.2 of the specification, `fair_verify.py` and `fairspec-v2.js`.
pub const FORBIDDEN: &[(u32, u32)] = &[
    (0x0000, 0x001F),
    (0x007F, 0x009F),
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is in [`FORBIDDEN`]. O(log ranges).
pub fn is_forbidden(c: char) -> bool {
    let c = c as u32;
    FORBIDDEN
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forbidden_ranges_are_sorted_and_disjoint() {
        for w in FORBIDDEN.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:?}");
        }
    }
}
