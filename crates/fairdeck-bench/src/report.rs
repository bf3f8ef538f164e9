//! The production benchmark's report: its rows, their JSON form, and the
//! text table with the ratios to rand and to the memcpy floor.

use serde::Serialize;

use crate::cases::Implementation;

/// One measured case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    /// What was timed: `shuffle`, `shuffle_u64`, `memcpy`, `memcpy_u64`,
    /// `deal_holdem` or `sample` (see the module docs).
    pub op: &'static str,
    /// `"fairdeck"`, `"rand"`, or `"std"` for the memcpy floor.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The generator: `xoshiro256pp`, `chacha20`, `chacha12`,
    /// `stdrng-chacha12`, or `none` for the floor.
    pub rng: &'static str,
    /// Elements shuffled or copied, values sampled, or cards dealt.
    pub n: usize,
    /// Threads used.
    pub threads: usize,
    /// Best observed time per element (per deal for `deal_holdem`), in nanoseconds.
    pub ns_per_element: f64,
}

/// Everything one run measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// The measurements, in the order they were taken.
    pub results: Vec<Measurement>,
}

impl Report {
    /// Whether a row of `op` with this implementation, generator, size and threads exists.
    pub(crate) fn has(
        &self,
        op: &str,
        imp: Implementation,
        rng: &str,
        n: usize,
        threads: usize,
    ) -> bool {
        self.results.iter().any(|r| {
            (r.op, r.implementation, r.rng, r.n, r.threads) == (op, imp.name(), rng, n, threads)
        })
    }

    pub(crate) fn push(
        &mut self,
        op: &'static str,
        implementation: &'static str,
        rng: &'static str,
        n: usize,
        threads: usize,
        ns: f64,
    ) {
        self.results.push(Measurement {
            op,
            implementation,
            rng,
            n,
            threads,
            ns_per_element: ns,
        });
    }

    /// The rand time a fairdeck row is compared with: same op, family and n, one thread.
    pub fn baseline(&self, row: &Measurement) -> Option<&Measurement> {
        self.results.iter().find(|r| {
            r.implementation == "rand"
                && r.op == row.op
                && r.n == row.n
                && same_family(r.rng, row.rng)
        })
    }

    /// The memcpy floor of a shuffle row: the copy of the same array.
    pub fn floor(&self, row: &Measurement) -> Option<&Measurement> {
        let op = match row.op {
            "shuffle" => "memcpy",
            "shuffle_u64" => "memcpy_u64",
            _ => return None,
        };
        self.results.iter().find(|r| r.op == op && r.n == row.n)
    }

    /// A table of every row, with each fairdeck row's speed-up over rand
    /// and each shuffle's distance from the memcpy floor, then the hold'em
    /// deals per second.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{:<11} {:<8} {:<15} {:<9} {:<7} {:<9} {:<7} {}\n",
            "op", "impl", "rng", "n", "threads", "ns/elem", "vs rand", "÷ memcpy"
        );
        for row in &self.results {
            let ratio = match self.baseline(row) {
                Some(base) if row.implementation == "fairdeck" => {
                    format!("{:.2}×", base.ns_per_element / row.ns_per_element)
                }
                _ => String::new(),
            };
            let floor = self.floor(row).map_or(String::new(), |f| {
                format!("{:.1}×", row.ns_per_element / f.ns_per_element)
            });
            out += &format!(
                "{:<11} {:<8} {:<15} {:<9} {:<7} {:<9.3} {:<7} {}\n",
                row.op,
                row.implementation,
                row.rng,
                row.n,
                row.threads,
                row.ns_per_element,
                ratio,
                floor
            );
        }
        out + &self.deals_text()
    }

    /// One line per hold'em row: deals per second, and fairdeck's ratio to rand.
    fn deals_text(&self) -> String {
        let mut out = String::new();
        for row in self.results.iter().filter(|r| r.op == "deal_holdem") {
            let per_second = 1e9 / row.ns_per_element / 1e6;
            out += &format!(
                "hold'em deals/s ({} {}): {per_second:.2} M",
                row.implementation, row.rng
            );
            if let Some(base) = self
                .baseline(row)
                .filter(|_| row.implementation == "fairdeck")
            {
                out += &format!(", {:.2}× rand", base.ns_per_element / row.ns_per_element);
            }
            out += "\n";
        }
        out
    }
}

fn same_family(a: &str, b: &str) -> bool {
    let fast = |name: &str| name == "xoshiro256pp";
    fast(a) == fast(b)
}
