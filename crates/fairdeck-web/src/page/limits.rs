//! What a request may ask for, and the JSON error it gets when it asks for more.
//!
//! Every parameter of every endpoint is checked here before any work starts:
//! a request names only known parameters, numbers lie in their ranges, text
//! is short. The bounds keep each request to well under a second of CPU on a
//! small machine (the CLI allows far more: it is the user's own time there).

use std::collections::HashMap;

pub use fairdeck_http::error::ApiError;
pub use fairdeck_http::transport::REQUEST_TIME;

use axum::extract::{FromRequest, Query, Request};
use axum::http::Method;

/// Largest request body accepted (a JSON object of parameters).
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Largest body of `POST /api/fair/verify`: a transcript of a table of
/// hundreds of deals, or of a few hidden hands (each version-3 hand with
/// its shuffle proofs is some 100 KiB), with the player's evidence. The
/// CLI reads up to 64 MiB; the page's bound keeps one verification to a
/// few seconds of CPU.
pub const MAX_TRANSCRIPT_BYTES: usize = 4 << 20;
/// Longest query string accepted.
pub const MAX_QUERY_BYTES: usize = 8 * 1024;
/// Largest deck a deal may ask for, on every endpoint that deals
/// (`shoe:8`: 416 cards).
pub const MAX_DECK_CARDS: usize = 416;
/// Longest text parameter (seeds, names, card lists).
pub const MAX_TEXT_CHARS: usize = 1024;
/// Heavy requests (walks, audits, mixing) computed at once; more wait their turn.
pub const HEAVY_AT_ONCE: usize = 2;
/// Shuffles times items an audit may simulate (about a second of CPU).
pub const MAX_AUDIT_WORK: u64 = 10_000_000;
/// Simulated hand shuffles times their cost a mixing curve may take
/// (top-to-random on 52 cards with the CLI's defaults is 3·10^7, about 2 s).
pub const MAX_MIX_WORK: u64 = 40_000_000;

/// The allowed range of one numeric parameter.
#[derive(Debug, Clone, Copy)]
pub struct Range {
    /// Smallest value.
    pub min: u64,
    /// Largest value.
    pub max: u64,
}

/// What values a parameter takes.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Any short text.
    Text,
    /// Decimal digits only (no sign, no spaces), in the range.
    Int(Range),
    /// `true` or `false`.
    Bool,
    /// A finite decimal number (`0.001`, `1e-6`).
    Float,
}

/// A parameter an endpoint accepts: its name and the values it takes.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The query or JSON name.
    pub name: &'static str,
    /// Its values.
    pub kind: Kind,
}

/// A text parameter.
pub const fn text(name: &'static str) -> Spec {
    Spec {
        name,
        kind: Kind::Text,
    }
}

/// An integer parameter in `min..=max`.
pub const fn int(name: &'static str, min: u64, max: u64) -> Spec {
    Spec {
        name,
        kind: Kind::Int(Range { min, max }),
    }
}

/// A number parameter (finite; its range is the request's to check).
pub const fn float(name: &'static str) -> Spec {
    Spec {
        name,
        kind: Kind::Float,
    }
}

/// A yes/no parameter: `true` or `false`.
pub const fn boolean(name: &'static str) -> Spec {
    Spec {
        name,
        kind: Kind::Bool,
    }
}

/// The parameters of one request: the query string of a GET, or the JSON
/// object of a POST (strings, numbers, booleans, and arrays joined by spaces).
#[derive(Debug, Default, Clone)]
pub struct Params(pub HashMap<String, String>);

impl<S: Send + Sync> FromRequest<S> for Params {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, ApiError> {
        let query = req.uri().query().unwrap_or("");
        if query.len() > MAX_QUERY_BYTES {
            return Err(ApiError::limit(
                "query",
                format!("at most {MAX_QUERY_BYTES} bytes"),
            ));
        }
        let mut params = Query::<HashMap<String, String>>::try_from_uri(req.uri())
            .map_err(|e| ApiError::bad(format!("bad query string: {e}"), Some("query")))?
            .0;
        if req.method() == Method::POST {
            let body = fairdeck_http::body::read(req.into_body(), MAX_BODY_BYTES).await?;
            if !body.is_empty() {
                params.extend(json_pairs(&body)?);
            }
        }
        Ok(Params(params))
    }
}

fn json_pairs(body: &[u8]) -> Result<HashMap<String, String>, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}"), Some("body")))?;
    let serde_json::Value::Object(map) = value else {
        return Err(ApiError::bad(
            "the body must be a JSON object",
            Some("body"),
        ));
    };
    map.into_iter()
        .map(|(k, v)| Ok((k.clone(), flat(&k, v)?)))
        .collect()
}

/// A JSON value as the text of a parameter.
fn flat(name: &str, v: serde_json::Value) -> Result<String, ApiError> {
    use serde_json::Value as V;
    Ok(match v {
        V::String(s) => s,
        V::Number(n) => n.to_string(),
        V::Bool(b) => b.to_string(),
        V::Array(items) => items
            .into_iter()
            .map(|i| flat(name, i))
            .collect::<Result<Vec<_>, _>>()?
            .join(" "),
        V::Null | V::Object(_) => {
            return Err(ApiError::bad(
                format!("{name} must be a string, number or list"),
                Some(name),
            ));
        }
    })
}

impl Params {
    /// Checks every parameter against `specs`: known names, integers in
    /// range, text not too long.
    ///
    /// # Errors
    ///
    /// The first parameter at fault, named, with its limit.
    pub fn check(&self, specs: &[Spec]) -> Result<(), ApiError> {
        let mut names: Vec<&String> = self.0.keys().collect();
        names.sort();
        for name in names {
            let value = &self.0[name];
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(ApiError::bad(
                    format!("unknown parameter {name:?} (known: {})", known.join(", ")),
                    Some(name),
                ));
            };
            check_one(spec, value)?;
        }
        Ok(())
    }

    /// The text of a parameter, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// An integer parameter (already checked), or `default`.
    pub fn int(&self, name: &str, default: u64) -> u64 {
        self.get(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }
}

fn check_one(spec: &Spec, value: &str) -> Result<(), ApiError> {
    if value.chars().count() > MAX_TEXT_CHARS {
        return Err(ApiError::limit(
            spec.name,
            format!("at most {MAX_TEXT_CHARS} characters"),
        ));
    }
    match spec.kind {
        Kind::Text => Ok(()),
        Kind::Bool if matches!(value, "true" | "false") => Ok(()),
        Kind::Bool => Err(ApiError::limit(spec.name, "true or false")),
        Kind::Float => match value.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(()),
            _ => Err(ApiError::limit(spec.name, "a finite number")),
        },
        Kind::Int(r) => {
            // Digits only: "+7" and " 7" are refused alike, here, in the
            // page's words, rather than one passing and one reaching clap.
            let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
            match value.parse::<u64>() {
                Ok(v) if digits && (r.min..=r.max).contains(&v) => Ok(()),
                _ => Err(ApiError::limit(
                    spec.name,
                    format!("an integer from {} to {}", r.min, r.max),
                )),
            }
        }
    }
}

/// The deck a request names, refused when it is not a deck or is larger
/// than [`MAX_DECK_CARDS`]; every endpoint that deals calls this.
///
/// # Errors
///
/// An unknown deck, or one over the limit (naming `deck`).
pub fn deck(p: &Params) -> Result<(), ApiError> {
    let Some(d) = p.get("deck") else {
        return Ok(());
    };
    let kind: fairdeck::cards::DeckKind = d
        .parse()
        .map_err(|e: fairdeck::Error| ApiError::bad(e.to_string(), Some("deck")))?;
    if kind.len() > MAX_DECK_CARDS {
        return Err(ApiError::limit(
            "deck",
            format!("at most {MAX_DECK_CARDS} cards (shoe:8)"),
        ));
    }
    Ok(())
}
