use std::io::Cursor;

use proptest::prelude::*;

use super::*;

/// Every line of `data` with its offset, by the definition (not by the reader).
fn all_lines(data: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' {
            out.push((start as u64, data[start..i].to_vec()));
            start = i + 1;
        }
    }
    if start < data.len() {
        out.push((start as u64, data[start..].to_vec()));
    }
    out
}

fn read(data: &[u8], start: u64, end: u64) -> Vec<(u64, Vec<u8>)> {
    let mut seen = Vec::new();
    read_split(Cursor::new(data), start, end, |at, l| {
        seen.push((at, l.to_vec()))
    })
    .unwrap();
    seen
}

/// The lines of all splits of a plan, concatenated.
fn read_plan(data: &[u8], split_bytes: u64) -> Vec<(u64, Vec<u8>)> {
    let splits = plan_splits(&[data.len() as u64], split_bytes).unwrap();
    splits
        .iter()
        .flat_map(|s| read(data, s.start, s.end))
        .collect()
}

#[test]
fn edge_cases_of_line_ends() {
    assert_eq!(read(b"", 0, 0), []);
    assert_eq!(read(b"\n", 0, 1), [(0, vec![])]);
    assert_eq!(read(b"\n\n", 1, 2), [(1, vec![])]);
    assert_eq!(
        read(b"a\r\nb\r\n", 0, 6),
        [(0, b"a\r".to_vec()), (3, b"b\r".to_vec())]
    );
    assert_eq!(read(b"abc", 0, 1), [(0, b"abc".to_vec())]);
    assert_eq!(read(b"abc", 1, 3), []);
    // A split that starts right after a `\n` owns the line starting there.
    assert_eq!(read(b"ab\ncd", 3, 4), [(3, b"cd".to_vec())]);
    // One that starts on the `\n` owns neither the line before it nor,
    // if it ends there, the line after it.
    assert_eq!(read(b"ab\ncd", 2, 3), []);
    assert_eq!(read(b"ab\ncd", 2, 4), [(3, b"cd".to_vec())]);
    assert_eq!(read(b"ab\ncd", 2, 2), []);
}

#[test]
fn a_reversed_range_is_an_error() {
    let err = SplitLines::new(Cursor::new(b"a\n"), 2, 1).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("2..1"));
}

#[test]
fn plans_skip_empty_files_and_number_files_by_listing() {
    let splits = plan_splits(&[0, 3, 0, 1], 2).unwrap();
    assert_eq!(
        splits,
        [
            Split {
                file: 1,
                start: 0,
                end: 2
            },
            Split {
                file: 1,
                start: 2,
                end: 3
            },
            Split {
                file: 3,
                start: 0,
                end: 1
            },
        ]
    );
    assert_eq!(plan_splits(&[5], 0).unwrap().len(), 5);
}

#[test]
fn reads_a_real_file() {
    let mut f = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut f, b"x\nyy\nzzz").unwrap();
    let mut seen = Vec::new();
    read_split(&mut f, 1, 9, |at, l| seen.push((at, l.to_vec()))).unwrap();
    assert_eq!(seen, [(2, b"yy".to_vec()), (5, b"zzz".to_vec())]);
}

proptest! {
    /// Any split size reads every line exactly once, with its offset.
    #[test]
    fn any_split_size_reads_each_line_once(
        data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), Just(b'b')], 0..200),
        split_bytes in 1u64..50,
    ) {
        prop_assert_eq!(read_plan(&data, split_bytes), all_lines(&data));
    }

    /// Arbitrary cut points (not just equal sizes) read each line once.
    #[test]
    fn any_cuts_read_each_line_once(
        data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'x')], 0..100),
        mut cuts in proptest::collection::vec(0u64..100, 0..8),
    ) {
        let len = data.len() as u64;
        cuts.retain(|&c| c < len);
        cuts.push(0);
        cuts.push(len);
        cuts.sort_unstable();
        let got: Vec<_> = cuts.windows(2).flat_map(|w| read(&data, w[0], w[1])).collect();
        prop_assert_eq!(got, all_lines(&data));
    }
}
