//! `algorithms`: the catalogue of shuffles, each with its sources,
//! complexity and exact verdicts on small decks.

use fairdeck::algorithms::{Algorithm, PYTHON_SNIPPET_BUG};
use fairdeck_audit::exact::{Verdict, verdicts};
use serde::Serialize;

/// One catalogue entry as printed in JSON (the web page's `/api/algorithms`).
#[derive(Serialize)]
pub struct Entry {
    /// The catalogue name.
    pub name: &'static str,
    /// Where the algorithm comes from (articles, papers).
    pub sources: &'static [&'static str],
    /// What it does, in a paragraph.
    pub description: &'static str,
    /// Its running time.
    pub time: &'static str,
    /// Its extra memory.
    pub space: &'static str,
    /// Whether it is meant to give every order with the same probability.
    pub intended_uniform: bool,
    /// Whether it can roll without bound (a rejection loop).
    pub unbounded: bool,
    /// Extra remarks.
    pub notes: Vec<&'static str>,
    /// Exact verdicts for n = 2, 3, … as far as the walk budget reaches.
    pub exact: Vec<ExactVerdict>,
}

/// One exact verdict, with fractions written as `"p/q"`.
#[derive(Serialize)]
pub struct ExactVerdict {
    /// Items shuffled.
    pub n: usize,
    /// Proven uniform: a complete walk with every order at 1/n!.
    pub uniform: bool,
    /// Uniform on the resolved paths (rejection loops cut at a depth).
    pub uniform_on_resolved: bool,
    /// Distance from uniform on the resolved paths, `"p/q"`.
    pub total_variation: String,
    /// Orders that come out.
    pub support: usize,
    /// Probability left on cut paths, `"p/q"`.
    pub unresolved: String,
}

impl From<&Verdict> for ExactVerdict {
    fn from(v: &Verdict) -> Self {
        Self {
            n: v.n,
            uniform: v.uniform,
            uniform_on_resolved: v.uniform_on_resolved,
            total_variation: v.total_variation.to_string(),
            support: v.support,
            unresolved: v.unresolved.to_string(),
        }
    }
}

impl Entry {
    /// The entry of `alg`, with its exact verdicts (walked now: up to a
    /// few seconds for the whole catalogue).
    pub fn of(alg: Algorithm) -> Self {
        Self {
            name: alg.name(),
            sources: alg.sources(),
            description: alg.description(),
            time: alg.time(),
            space: alg.space(),
            intended_uniform: alg.intended_uniform(),
            unbounded: alg.is_unbounded(),
            notes: notes(alg),
            exact: verdicts(alg).iter().map(ExactVerdict::from).collect(),
        }
    }
}

/// Extra remarks: the “Mischiamo le carte” article’s Python snippet belongs with the shuffle it tried to be.
fn notes(alg: Algorithm) -> Vec<&'static str> {
    match alg {
        Algorithm::FisherYates => vec![PYTHON_SNIPPET_BUG],
        _ => Vec::new(),
    }
}
