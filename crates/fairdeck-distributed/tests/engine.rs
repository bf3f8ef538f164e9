//! The output depends only on (seed, data): a simulated engine that splits
//! the files differently, runs its tasks in another order and retries some
//! of them writes exactly the parts of the in-memory reference.

use std::io::Cursor;

use fairdeck::rng::Seed;
use fairdeck_distributed::split::{Split, plan_splits, read_split};
use fairdeck_distributed::{RowId, ShuffleKey, order_bucket, shuffle_rows};

/// Three files: CRLF lines, no final newline, an empty file, empty lines.
fn files() -> Vec<Vec<u8>> {
    let mut a = Vec::new();
    for i in 0..40 {
        a.extend_from_slice(format!("alpha {i}\r\n").as_bytes());
    }
    let b = Vec::new();
    let mut c = b"\n\nlast file, no newline at the end".to_vec();
    c.splice(
        0..0,
        (0..25).flat_map(|i| format!("gamma {}\n", i * i).into_bytes()),
    );
    vec![a, b, c]
}

type Row = (RowId, Vec<u8>);

/// The map side of one split: its rows with their buckets.
fn map_task(key: &ShuffleKey, k: u64, data: &[Vec<u8>], s: Split) -> Vec<(u64, Row)> {
    let mut out = Vec::new();
    let file = &data[s.file as usize];
    read_split(Cursor::new(file), s.start, s.end, |at, line| {
        let id = RowId::new(s.file, at);
        out.push((key.bucket_of(id, k).unwrap(), (id, line.to_vec())));
    })
    .unwrap();
    out
}

/// An engine run: splits of `split_bytes`, map tasks in `order`, every
/// third task failing once (its output thrown away, then run again).
fn engine(seed: &str, k: u64, split_bytes: u64, reverse: bool) -> Vec<Vec<Vec<u8>>> {
    let key = ShuffleKey::new(&Seed::parse(seed));
    let data = files();
    let sizes: Vec<u64> = data.iter().map(|f| f.len() as u64).collect();
    let mut splits = plan_splits(&sizes, split_bytes).unwrap();
    if reverse {
        splits.reverse();
    }
    let mut buckets: Vec<Vec<Row>> = vec![Vec::new(); k as usize];
    for (i, s) in splits.into_iter().enumerate() {
        if i % 3 == 0 {
            drop(map_task(&key, k, &data, s)); // the failed first attempt
        }
        for (b, row) in map_task(&key, k, &data, s) {
            buckets[b as usize].push(row);
        }
    }
    let reduce = |(b, rows): (usize, Vec<Row>)| {
        let ids: Vec<RowId> = rows.iter().map(|r| r.0).collect();
        let order = order_bucket(&key, b as u64, &ids).unwrap();
        order
            .into_iter()
            .map(|i| rows[i].1.clone())
            .collect::<Vec<_>>()
    };
    // Reduce tasks also run in either order.
    let mut parts: Vec<_> = buckets.into_iter().enumerate().collect();
    if reverse {
        parts.reverse();
    }
    let mut out: Vec<(usize, Vec<Vec<u8>>)> = parts.into_iter().map(|p| (p.0, reduce(p))).collect();
    out.sort_by_key(|p| p.0);
    out.into_iter().map(|p| p.1).collect()
}

/// The in-memory reference on all rows at once.
fn reference(seed: &str, k: u64) -> Vec<Vec<Vec<u8>>> {
    let mut rows = Vec::new();
    for (f, file) in files().iter().enumerate() {
        read_split(Cursor::new(file), 0, file.len() as u64, |at, line| {
            rows.push((RowId::new(f as u32, at), line.to_vec()));
        })
        .unwrap();
    }
    let mut key = ShuffleKey::new(&Seed::parse(seed));
    let parts = shuffle_rows(&mut key, k, rows).unwrap();
    parts
        .into_iter()
        .map(|p| p.into_iter().map(|r| r.1).collect())
        .collect()
}

#[test]
fn output_depends_only_on_seed_and_data() {
    for k in [1, 3, 8] {
        let want = reference("invariance", k);
        assert_eq!(want.iter().map(Vec::len).sum::<usize>(), 68);
        for split_bytes in [1, 7, 64, 1 << 20] {
            for reverse in [false, true] {
                assert_eq!(
                    engine("invariance", k, split_bytes, reverse),
                    want,
                    "k {k}, split {split_bytes}"
                );
            }
        }
    }
}

#[test]
fn output_is_a_permutation_and_the_seed_matters() {
    let a: Vec<Vec<u8>> = reference("one", 4).concat();
    let b: Vec<Vec<u8>> = reference("two", 4).concat();
    assert_ne!(a, b);
    let mut all: Vec<Vec<u8>> = Vec::new();
    for file in files() {
        read_split(Cursor::new(&file), 0, file.len() as u64, |_, l| {
            all.push(l.to_vec())
        })
        .unwrap();
    }
    for mut got in [a, b] {
        got.sort();
        let mut want = all.clone();
        want.sort();
        assert_eq!(got, want);
    }
}

#[test]
fn value_stability() {
    // Pinned: a change here is a reproducibility-breaking change (CHANGELOG.md).
    let key = ShuffleKey::new(&Seed::parse("fairdeck"));
    let buckets: Vec<u64> = (0..12)
        .map(|p| key.bucket_of(RowId::new(p % 2, p as u64 * 10), 7).unwrap())
        .collect();
    assert_eq!(buckets, PINNED_BUCKETS);
    let ids: Vec<RowId> = (0..10).map(|p| RowId::new(1, p)).collect();
    assert_eq!(order_bucket(&key, 5, &ids).unwrap(), PINNED_ORDER);
    let row_key = key.row_key();
    assert_eq!(&row_key[..4], &PINNED_ROW_KEY);
}

const PINNED_BUCKETS: [u64; 12] = [3, 6, 5, 5, 6, 5, 4, 5, 4, 2, 3, 1];
const PINNED_ORDER: [usize; 10] = [7, 5, 1, 8, 9, 3, 4, 2, 0, 6];
const PINNED_ROW_KEY: [u8; 4] = [243, 130, 123, 31];
