//! A table of many deals, dealt, for reading its views under load (the
//! cost of a view that grows with the deals is what `fairdeck table bench
//! --many-deals` measures).

use fairdeck_fair::Manifest;
use serde_json::json;

use crate::Client;

/// Opens hold'em table `id` of two seats and `deals` deals, has both seats
/// commit and reveal, deals, and releases the flop of deal 0. The deal's
/// own answer (every deal, for the operator) may be larger than the client
/// reads; the table's phase is checked instead.
///
/// # Errors
///
/// The first step the service refused or did not answer, in one line.
pub fn dealt_table(client: &mut Client, admin: &str, id: &str, deals: u64) -> Result<(), String> {
    let manifest = Manifest {
        version: 2,
        table: id.into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bo".into()],
        first: 0,
        last: deals.saturating_sub(1),
    };
    let table = manifest.check().map_err(|e| e.to_string())?;
    let request = json!({ "manifest": manifest, "commit_seconds": 3600, "reveal_seconds": 3600 });
    let inv = expect(
        client.call("POST", "/api/tables", Some(admin), Some(&request)),
        "open",
    )?;
    let token = |key: &str, i: Option<usize>| {
        let t = match i {
            Some(i) => &inv[key][i],
            None => &inv[key],
        };
        t.as_str().unwrap_or_default().to_string()
    };
    let base = format!("/api/tables/{id}");
    let seeds = ["ann's seed", "bo's seed"];
    for (i, seed) in seeds.iter().enumerate() {
        let body = json!({ "commitment": table.seat_commitment(i, seed).to_hex() });
        let path = format!("{base}/seats/{i}/commit");
        expect(
            client.call("POST", &path, Some(&token("seats", Some(i))), Some(&body)),
            "commit",
        )?;
    }
    for (i, seed) in seeds.iter().enumerate() {
        let body = json!({ "seed": seed });
        let path = format!("{base}/seats/{i}/reveal");
        expect(
            client.call("POST", &path, Some(&token("seats", Some(i))), Some(&body)),
            "reveal",
        )?;
    }
    let op = token("operator", None);
    let _ = client.call("POST", &format!("{base}/deal"), Some(&op), Some(&json!({})));
    let public = expect(client.call("GET", &base, None, None), "read")?;
    if public["phase"] != "dealt" {
        return Err(format!("{id} was not dealt: phase {}", public["phase"]));
    }
    let flop = json!({ "deal": 0, "street": "flop" });
    let _ = client.call("POST", &format!("{base}/release"), Some(&op), Some(&flop));
    Ok(())
}

fn expect(
    answer: std::io::Result<(u16, serde_json::Value)>,
    step: &str,
) -> Result<serde_json::Value, String> {
    match answer {
        Ok((200 | 201, body)) => Ok(body),
        Ok((status, body)) => Err(format!("{step}: {status} {body}")),
        Err(e) => Err(format!("{step}: {e}")),
    }
}
