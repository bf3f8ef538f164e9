//! From the API's parameters to the report layer's requests, and the
//! report layer's messages back in the page's words (naming parameters
//! instead of the CLI's flags).
//!
//! Parameters become a request through serde (`request`): each checked
//! parameter becomes a JSON value of its spec's kind; the command-line
//! parser is not involved.

use fairdeck_report::RequestError;

use super::limits::{ApiError, Kind, Params, Spec};

/// A builder's error: the user's mistakes are 400 (naming the parameter
/// when the message names one of the request's), the rest 500.
pub(super) fn to_api_error(e: anyhow::Error, p: &Params) -> ApiError {
    let message = format!("{e:#}");
    if let Some(refused) = e.downcast_ref::<RequestError>() {
        return ApiError::bad(page_words(&message), Some(refused.parameter));
    }
    let mut names: Vec<&String> = p.0.keys().collect();
    names.sort();
    let mentioned = names.into_iter().find(|name| {
        let flag = name.replace('_', "-");
        message.contains(&format!("--{flag}"))
            || message.contains(&format!("-{flag} "))
            || (name.len() > 2 && message.contains(&name.replace('_', " ")))
    });
    let is_user = e
        .chain()
        .any(|c| c.is::<fairdeck::Error>() || c.is::<fairdeck_audit::Error>());
    if is_user {
        ApiError::bad(page_words(&message), mentioned.map(String::as_str))
    } else {
        ApiError::internal(message)
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
        ApiError::bad(page_words(&message), parameter)
    })
}

/// A CLI message in the page's words: `--max-shuffles` and `-n` become the
/// parameters `max_shuffles` and `n`, clap's `<VALUE>` placeholders go, and
/// advice to add `--allow-long` (which the page cannot) is dropped.
fn page_words(message: &str) -> String {
    let message = message.replace(", or add --allow-long to run it anyway", "");
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(at) = rest.find('-') {
        let (before, flag) = rest.split_at(at);
        out.push_str(before);
        let boundary = out
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || "'(`\"".contains(c));
        let dashes = if flag.starts_with("--") { 2 } else { 1 };
        let name_len = flag[dashes..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag.len() - dashes);
        let name = &flag[dashes..dashes + name_len];
        if boundary && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&name.trim_end_matches('-').replace('-', "_"));
            rest = &flag[dashes + name_len..];
            if let Some(after) = rest.strip_prefix(' ').filter(|r| r.starts_with('<')) {
                rest = after.split_once('>').map_or(after, |(_, r)| r);
            }
        } else {
            out.push('-');
            rest = &flag[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod page_words_tests {
    use super::page_words;

    #[test]
    fn flags_become_parameters() {
        assert_eq!(
            page_words(
                "over the budget (about a minute): --trials at most 30 at -n 52, or -n at \
                 most 40, or fewer --max-shuffles, or add --allow-long to run it anyway"
            ),
            "over the budget (about a minute): trials at most 30 at n 52, or n at most 40, \
             or fewer max_shuffles"
        );
        assert_eq!(
            page_words("invalid value 'chess' for '--game <GAME>': no such game"),
            "invalid value 'chess' for 'game': no such game"
        );
        assert_eq!(
            page_words("naive-swap at -3 and top-to-random"),
            "naive-swap at -3 and top-to-random"
        );
    }
}
