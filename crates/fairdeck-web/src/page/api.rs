//! The JSON API: one handler per endpoint, each answering with the same JSON
//! document as the matching `fairdeck … --format json` command.
//!
//! A handler checks the parameters against its table (names, ranges), turns
//! them into the subcommand's own flags, parses those with the CLI's clap
//! definitions (so the CLI's validation applies unchanged), and calls the
//! subcommand's report builder on a blocking thread.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use fairdeck::algorithms::Algorithm;
use fairdeck_audit::mix::Model;
use tokio::sync::OnceCell;

use super::lanes::{self, Lane, Lanes};
use super::limits::{
    self, ApiError, MAX_AUDIT_WORK, MAX_MIX_WORK, Params, REQUEST_TIME, Spec, boolean, float, int,
    text,
};
use super::words::{Failed, request, to_api_error};
use fairdeck_report::catalogue as algorithms;
use fairdeck_report::{audit, chaos, deal, exact, fair, mix, shuffle, tree};

/// What the handlers share: the lanes work waits in and the catalogue, computed once.
pub struct AppState {
    /// Permits for cheap and for heavy requests ([`lanes`]); light ones
    /// (deals, trees, chaos, the catalogue) never take one, and cheap ones
    /// (a walk of 6 paths, an audit of 100 shuffles) never queue behind
    /// heavy ones.
    pub lanes: Lanes,
    catalogue: OnceCell<Catalogue>,
}

/// The catalogue as sent: the whole JSON array, and each entry's JSON by name.
struct Catalogue {
    all: String,
    entries: Vec<(&'static str, String)>,
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

impl AppState {
    /// A fresh state.
    pub fn new() -> Self {
        Self {
            lanes: Lanes::default(),
            catalogue: OnceCell::new(),
        }
    }

    /// The catalogue, computed on first use on a blocking thread of its own
    /// (outside the heavy-work permits); `serve` asks for it at start-up.
    /// Concurrent callers wait for the one computation.
    async fn catalogue(&self) -> Result<&Catalogue, ApiError> {
        self.catalogue
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(|| {
                    let entries = Algorithm::ALL.map(algorithms::Entry::of);
                    Ok(Catalogue {
                        all: serde_json::to_string(&entries)?,
                        entries: Algorithm::ALL
                            .iter()
                            .zip(&entries)
                            .map(|(a, e)| Ok((a.name(), serde_json::to_string(&[e])?)))
                            .collect::<Result<_, serde_json::Error>>()?,
                    })
                })
                .await
                .map_err(|e| ApiError::internal(format!("the catalogue failed: {e}")))?
                .map_err(|e: serde_json::Error| {
                    ApiError::internal(format!("the catalogue failed: {e}"))
                })
            })
            .await
    }

    /// Warms the catalogue (computed once, on a blocking thread of its own);
    /// errors show on use.
    pub async fn warm(&self) {
        let _ = self.catalogue().await;
    }
}

/// The handlers' shared state.
pub type Shared = State<Arc<AppState>>;
/// A handler's answer: a JSON document, or an error.
pub type Answer = Result<Response, ApiError>;

const RANDOM: [Spec; 2] = [text("seed"), text("generator")];

const DEAL: [Spec; 7] = [
    text("game"),
    text("deck"),
    int("players", 1, 10),
    int("cards", 1, 52),
    boolean("strict"),
    RANDOM[0],
    RANDOM[1],
];

/// `GET /api/deal`: `fairdeck deal --format json`.
pub async fn deal(state: Shared, p: Params) -> Answer {
    p.check(&DEAL)?;
    limits::deck(&p)?;
    let request: deal::Request = request(&p, &DEAL)?;
    work(&state, Lane::Light, move || {
        let mut random = request.random.randomness()?;
        json(deal::run(&request, &mut random)?.0)
    })
    .await
}

const STEPS: [Spec; 6] = [
    text("alg"),
    int("n", 1, 12),
    int("rounds", 1, 500),
    int("deal", 1, 12),
    RANDOM[0],
    RANDOM[1],
];

/// `GET /api/shuffle-steps`: `fairdeck shuffle ALG -n N --steps --format json`.
pub async fn shuffle_steps(state: Shared, p: Params) -> Answer {
    p.check(&STEPS)?;
    algorithm(&p)?;
    let mut request: shuffle::Request = request(&p, &STEPS)?;
    request.steps = true;
    work(&state, Lane::Light, move || {
        let mut random = request.random.randomness()?;
        json(shuffle::run(&request, &mut random)?)
    })
    .await
}

const TREE: [Spec; 6] = [
    text("alg"),
    int("n", 1, tree::MAX_N as u64),
    int("rounds", 1, 12),
    int("deal", 1, 4),
    RANDOM[0],
    RANDOM[1],
];

/// `GET /api/tree`: the choice tree of an algorithm on n ≤ 4 and the path a seed takes.
/// Light: at most [`tree::MAX_LEAVES`] paths.
pub async fn tree(state: Shared, p: Params) -> Answer {
    p.check(&TREE)?;
    algorithm(&p)?;
    let request: shuffle::Request = request(&p, &TREE)?;
    work(&state, Lane::Light, move || {
        let random = request.random.randomness()?;
        json(tree::run(&request, random)?)
    })
    .await
}

const EXACT: [Spec; 4] = [
    text("alg"),
    int("n", 1, 7),
    int("max_paths", 1, 1_000_000),
    int("max_depth", 1, 200),
];

/// `GET /api/exact`: `fairdeck exact ALG -n N --format json` (n ≤ 7).
pub async fn exact(state: Shared, p: Params) -> Answer {
    p.check(&EXACT)?;
    let alg = algorithm(&p)?;
    let mut p = p;
    p.0.entry("max_paths".into())
        .or_insert_with(|| "1000000".into());
    let request: exact::Request = request(&p, &EXACT)?;
    let steps = lanes::exact_steps(alg, request.n, request.max_paths, request.max_depth);
    let lane = Lane::of_steps(steps);
    work(&state, lane, move || json(exact::run(&request)?.0)).await
}

const AUDIT: [Spec; 6] = [
    text("alg"),
    int("n", 2, 200),
    int("trials", 1, 200_000),
    float("alpha"),
    RANDOM[0],
    RANDOM[1],
];

/// `GET /api/audit`: `fairdeck audit ALG --positions --format json`, the
/// report with the card × position counts (`positions[card][pos]`).
pub async fn audit(state: Shared, p: Params) -> Answer {
    p.check(&AUDIT)?;
    let alg = algorithm(&p)?;
    let (n, trials) = (p.int("n", 52), p.int("trials", 100_000));
    if n * trials > MAX_AUDIT_WORK {
        return Err(ApiError::limit(
            "trials",
            format!(
                "at most {} for n = {n} (n × trials ≤ {MAX_AUDIT_WORK})",
                MAX_AUDIT_WORK / n
            ),
        ));
    }
    let mut request: audit::Request = request(&p, &AUDIT)?;
    request.positions = true;
    let lane = Lane::of_steps(lanes::audit_steps(alg, request.n, request.trials));
    work(&state, lane, move || {
        let random = request.random.randomness()?;
        json(audit::run(&request, &random, &|_| {})?.0)
    })
    .await
}

const MIX: [Spec; 8] = [
    text("model"),
    int("n", 2, 52),
    int("max_shuffles", 1, 1000),
    int("step", 1, 1000),
    int("mean_packet", 1, 52),
    int("trials", 1, 4000),
    RANDOM[0],
    RANDOM[1],
];

/// `GET /api/mix`: `fairdeck mix MODEL --format json`.
pub async fn mix(state: Shared, p: Params) -> Answer {
    p.check(&MIX)?;
    if p.get("model").is_none() {
        return Err(ApiError::bad(
            "give model: riffle, top-to-random or overhand",
            Some("model"),
        ));
    }
    let request: mix::Request = request(&p, &MIX)?;
    let plan = request.validate().map_err(|e| to_api_error(e.into()))?;
    if plan.ks.len() > 100 {
        return Err(ApiError::limit("step", "large enough for at most 100 rows"));
    }
    // Simulated rows replay k shuffles per trial; an overhand shuffle costs O(n).
    let per_shuffle = match plan.model {
        Model::Overhand { .. } => request.n as u64,
        _ => 1,
    };
    let shuffles = plan.ks.iter().map(|&k| u64::from(k)).sum::<u64>();
    let work_units = request.trials * shuffles * per_shuffle;
    if plan.simulated(request.n) && work_units > MAX_MIX_WORK {
        return Err(ApiError::limit(
            "trials",
            format!("smaller: trials × shuffles shown × (n for overhand) ≤ {MAX_MIX_WORK}"),
        ));
    }
    let steps = lanes::mix_steps(plan.model, request.n, &plan.ks, request.trials);
    work(&state, Lane::of_steps(steps), move || {
        json(mix::run(&request, &request.random.randomness()?)?)
    })
    .await
}

const CHAOS: [Spec; 1] = [text("values")];

/// `GET /api/chaos?values=1 4 2 3 5`: `fairdeck chaos VALUES --format json`.
pub async fn chaos(state: Shared, p: Params) -> Answer {
    p.check(&CHAOS)?;
    let values = p
        .get("values")
        .ok_or_else(|| ApiError::bad("give values, e.g. values=1 4 2 3 5", Some("values")))?
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| ApiError::bad("values must be integers", Some("values")))?;
    if values.is_empty() {
        return Err(ApiError::bad("give at least one value", Some("values")));
    }
    let request = chaos::Request { values };
    work(&state, Lane::Light, move || json(chaos::run(&request)?)).await
}

const ALGORITHMS: [Spec; 1] = [text("alg")];

/// `GET /api/algorithms`: `fairdeck algorithms --format json` (all, or `alg`),
/// from the catalogue computed once.
pub async fn algorithms(state: Shared, p: Params) -> Answer {
    p.check(&ALGORITHMS)?;
    let wanted = match p.get("alg") {
        Some(_) => Some(algorithm(&p)?.name()),
        None => None,
    };
    let catalogue = tokio::time::timeout(REQUEST_TIME, state.catalogue())
        .await
        .map_err(|_| ApiError::busy("the catalogue is still being computed"))??;
    let text = match wanted {
        None => &catalogue.all,
        Some(name) => catalogue
            .entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
            .ok_or_else(|| ApiError::internal(format!("{name} is not in the catalogue")))?,
    };
    Ok(document(text.clone()))
}

/// `POST /api/fair/commit`: `fairdeck fair commit --format json` (the secret shown).
pub async fn fair_commit(state: Shared, p: Params) -> Answer {
    p.check(&[])?;
    work(&state, Lane::Light, || {
        json(fair::committed(&fair::fresh_secret()?, None))
    })
    .await
}

const FAIR_DEAL: [Spec; 6] = [
    text("server_secret"),
    text("client_seed"),
    int("nonce", 0, u64::MAX),
    text("game"),
    text("deck"),
    int("players", 1, 10),
];

/// `GET /api/fair/deal`: `fairdeck fair deal --format json`.
pub async fn fair_deal(state: Shared, p: Params) -> Answer {
    p.check(&FAIR_DEAL)?;
    limits::deck(&p)?;
    for needed in ["server_secret", "client_seed", "nonce"] {
        if p.get(needed).is_none() {
            return Err(ApiError::bad(format!("give {needed}"), Some(needed)));
        }
    }
    let request: fair::DealRequest = request(&p, &FAIR_DEAL)?;
    work(&state, Lane::Light, move || json(fair::deal(&request)?.0)).await
}

/// The `alg` parameter, which every algorithm endpoint needs.
fn algorithm(p: &Params) -> Result<Algorithm, ApiError> {
    let name = p
        .get("alg")
        .ok_or_else(|| ApiError::bad("give alg (see /api/algorithms)", Some("alg")))?;
    name.parse()
        .map_err(|e: fairdeck::Error| ApiError::bad(e.to_string(), Some("alg")))
}

pub(super) fn json(value: impl serde::Serialize) -> Result<String, Failed> {
    Ok(serde_json::to_string(&value)?)
}

/// A JSON text as a response.
fn document(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Runs `f` on a blocking thread within the request's time limit; cheap and
/// heavy work first takes a permit of its lane ([`lanes`]) and holds it
/// until the work ends (even past the time limit, so a slow request still
/// counts against the bound).
pub(super) async fn work<F>(state: &AppState, lane: Lane, f: F) -> Answer
where
    F: FnOnce() -> Result<String, Failed> + Send + 'static,
{
    let run = async {
        let permit = state.lanes.permit(lane).await?;
        let joined = tokio::task::spawn_blocking(move || {
            let out = f();
            drop(permit);
            out
        })
        .await;
        match joined {
            Ok(result) => result.map(document).map_err(to_api_error),
            Err(e) => Err(ApiError::internal(format!("the computation failed: {e}"))),
        }
    };
    tokio::time::timeout(REQUEST_TIME, run)
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::busy(
                "the request took too long (the server is busy, or the work too large)",
            ))
        })
}
