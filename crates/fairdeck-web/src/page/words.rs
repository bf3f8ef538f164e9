//! From the API's parameters to the report layer's requests, and the
//! report layer's errors back in the page's words: a refusal's fields are
//! spelled as the page's parameters ([`fairdeck_report::Message::render`]),
//! and asides about fields the page does not take (`allow_long`) are left out.
//!
//! Parameters become a request through serde (`request`): each checked
//! parameter becomes a JSON value of its spec's kind; the command-line
//! parser is not involved.

use fairdeck_report::Field;

use super::limits::{ApiError, Kind, Params, Spec};

/// Why a computation failed: the report layer's error, or the page's own
/// (a JSON encoding that failed, which is the page's fault).
#[derive(Debug)]
pub(super) enum Failed {
    /// The report layer refused the request or failed.
    Report(fairdeck_report::Error),
    /// Something that is not the user's mistake.
    Internal(String),
}

impl From<fairdeck_report::Error> for Failed {
    fn from(e: fairdeck_report::Error) -> Self {
        Failed::Report(e)
    }
}

impl From<fairdeck::Error> for Failed {
    fn from(e: fairdeck::Error) -> Self {
        Failed::Report(e.into())
    }
}

impl From<serde_json::Error> for Failed {
    fn from(e: serde_json::Error) -> Self {
        Failed::Internal(format!("cannot encode the answer: {e}"))
    }
}

/// Fields the page never takes: advice to set one is left out of its
/// messages.
const NOT_ON_THE_PAGE: [Field; 4] = [
    Field::AllowLong,
    Field::Max,
    Field::Distribution,
    Field::Format,
];

/// A field as the page spells it: its parameter name.
pub(super) fn page_spelling(field: Field) -> Option<String> {
    (!NOT_ON_THE_PAGE.contains(&field)).then(|| field.name().to_string())
}

/// A failure as the page answers it: the user's mistakes are 400 (naming
/// the parameter a refusal names), the rest 500.
pub(super) fn to_api_error(e: Failed) -> ApiError {
    use fairdeck_report::Error as E;
    match e {
        Failed::Report(E::Refused(r)) => {
            ApiError::bad(r.message.render(&page_spelling), Some(r.field.name()))
        }
        Failed::Report(e @ (E::Core(_) | E::Audit(_))) => ApiError::bad(e.to_string(), None),
        Failed::Report(other) => ApiError::internal(other.to_string()),
        Failed::Internal(why) => ApiError::internal(why),
    }
}

/// The parameters (already checked against `specs`) as the report layer's
/// request `R`: integers become JSON numbers, `true`/`false` booleans, the
/// rest strings, and serde builds the request (its defaults fill the rest).
pub(super) fn request<R: serde::de::DeserializeOwned>(
    p: &Params,
    specs: &[Spec],
) -> Result<R, ApiError> {
    use serde_json::Value;
    if let Some(name) = p.get("generator") {
        name.parse::<fairdeck::rng::Generator>()
            .map_err(|e| ApiError::bad(e.to_string(), Some("generator")))?;
    }
    let object =
        p.0.iter()
            .map(|(name, text)| {
                let kind = specs.iter().find(|s| s.name == name).map(|s| s.kind);
                let value = match kind {
                    Some(Kind::Int(_)) => text
                        .parse::<u64>()
                        .map_or_else(|_| Value::from(text.as_str()), Value::from),
                    Some(Kind::Bool) => Value::Bool(text == "true"),
                    Some(Kind::Float) => text
                        .parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                        .map_or_else(|| Value::from(text.as_str()), Value::Number),
                    _ => Value::from(text.as_str()),
                };
                (name.clone(), value)
            })
            .collect();
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        let message = e.to_string();
        let parameter = specs
            .iter()
            .map(|s| s.name)
            .find(|n| message.contains(&format!("`{n}`")));
        ApiError::bad(message, parameter)
    })
}
