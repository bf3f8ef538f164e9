//! `fairdeck serve`: the local web page (see [`crate::web`]).

use std::net::SocketAddr;
use std::process::ExitCode;

use crate::failure::usage;
use crate::output::Output;

/// Flags of `fairdeck serve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Serves the page and its JSON API (/api/deal, /api/exact, …) from the \
binary itself;\nnothing is fetched from the network. Port 0 picks a free port; the URL is \
printed.\nExample: fairdeck serve --open"
)]
pub struct Args {
    /// Address and port to listen on (loopback by default: only this machine).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// Also answer to this Host name (repeatable). The server always answers to
    /// localhost and to IP addresses; any other name is refused (421), so a web
    /// site cannot reach it by pointing its own name at this machine (DNS rebinding).
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,

    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub open: bool,
}

/// Runs `fairdeck serve` until Ctrl-C.
pub fn run(args: &Args, _out: &mut Output) -> anyhow::Result<ExitCode> {
    let bind = listen_address(&args.bind, &args.allow_host)?;
    crate::web::serve(bind, args.allow_host.clone(), args.open)?;
    Ok(ExitCode::SUCCESS)
}

/// `--bind` read as an address, and every `--allow-host` checked to be a
/// bare host name (shared by `fairdeck serve` and `fairdeck table serve`).
pub fn listen_address(bind: &str, allow_hosts: &[String]) -> anyhow::Result<SocketAddr> {
    let address: SocketAddr = bind.parse().map_err(|_| {
        usage(format!(
            "--bind wants ADDR:PORT, e.g. 127.0.0.1:8080 (got {bind:?})"
        ))
    })?;
    for name in allow_hosts {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        if !ok {
            return Err(usage(format!(
                "--allow-host wants a host name without a port, e.g. box.lan (got {name:?})"
            )));
        }
    }
    Ok(address)
}
