//! The power table is printed twice from one run of the bench (`cargo run
//! --release -p fairdeck-audit --example power_table`): in the book, and
//! (with `-- --web`) as the module the fairness page shows beside an audit.
//! Both must carry the same decks, so that neither is edited alone.

use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `(machine, [NP at α, NP at α/17, audit])` from the page's module.
fn page_rows(js: &str) -> Vec<(String, [String; 3])> {
    let field = |line: &str, name: &str| -> String {
        let at = line.find(&format!("{name}: ")).unwrap() + name.len() + 2;
        let rest = &line[at..];
        let end = rest.find([',', ' ']).unwrap();
        rest[..end].trim_matches('\'').to_string()
    };
    js.lines()
        .filter(|l| l.trim_start().starts_with("{ machine:"))
        .map(|l| {
            let machine = l.split('\'').nth(1).unwrap().to_string();
            let cells = ["neymanPearson", "neymanPearsonShare", "audit"].map(|n| field(l, n));
            (machine, cells)
        })
        .collect()
}

/// The same from the book's table (its header starts with the Neyman–Pearson column).
fn book_rows(md: &str) -> Vec<(String, [String; 3])> {
    let header = "| machine (52 cards) | Neyman–Pearson test, α = 10⁻⁶ |";
    let start = md.find(header).expect("the book's power table");
    md[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let dash = |s: &str| {
                if s == "—" {
                    "null".to_string()
                } else {
                    s.to_string()
                }
            };
            (c[1].to_string(), [dash(c[2]), dash(c[3]), dash(c[5])])
        })
        .collect()
}

#[test]
fn the_book_and_the_page_show_the_same_power_table() {
    let page = page_rows(&read("../fairdeck-web/web/js/pages/power-table.js"));
    let book = book_rows(&read("../../docs/book/src/catalogue.md"));
    assert_eq!(page.len(), 5, "{page:?}");
    assert_eq!(page, book);
}
