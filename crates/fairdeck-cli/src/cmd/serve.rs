//! `fairdeck serve` as a subcommand: its flags, checked, then
//! [`fairdeck_web::page::serve`].

use std::net::SocketAddr;
use std::process::ExitCode;

use crate::failure::usage;

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
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let bind = listen_address(&args.bind, &args.allow_host).map_err(usage)?;
    fairdeck_web::page::serve(bind, args.allow_host.clone(), args.open)?;
    Ok(ExitCode::SUCCESS)
}

/// A server's `--bind` read as an address, and every `--allow-host` checked
/// to be a bare host name (letters, digits, `-` and `.`).
///
/// # Errors
///
/// One line naming the flag and the value, for a usage error.
pub fn listen_address(bind: &str, allow_hosts: &[String]) -> Result<SocketAddr, String> {
    let address: SocketAddr = bind
        .parse()
        .map_err(|_| format!("--bind wants ADDR:PORT, e.g. 127.0.0.1:8080 (got {bind:?})"))?;
    for name in allow_hosts {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        if !ok {
            return Err(format!(
                "--allow-host wants a host name without a port, e.g. box.lan (got {name:?})"
            ));
        }
    }
    Ok(address)
}
