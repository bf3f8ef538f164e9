use super::table::size_label;
use super::*;

#[test]
fn sizes_parse_in_three_spellings() {
    assert_eq!(parse_size("1000"), Ok(1000));
    assert_eq!(parse_size("1_000"), Ok(1000));
    assert_eq!(parse_size("1e3"), Ok(1000));
    assert_eq!(parse_size("5e2"), Ok(500));
    assert!(parse_size("0").is_err());
    assert!(parse_size("1e30").is_err());
    assert!(parse_size("ten").is_err());
}

#[test]
fn labels() {
    assert_eq!(size_label(100), "n=100");
    assert_eq!(size_label(1_000_000), "n=1e6");
    assert_eq!(size_label(3162), "n=3162");
}
