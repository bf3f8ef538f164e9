//! The password, when the connection string gives none, found where libpq
//! looks for it, so that it need not be written on the command line (where
//! every user of the machine can read it in the process list):
//!
//! 1. the `PGPASSWORD` environment variable, if set and not empty;
//! 2. else the first matching line of the password file: `passfile=FILE` in
//!    the string, else the `PGPASSFILE` environment variable, else
//!    `~/.pgpass`.
//!
//! A line of the file is `host:port:database:user:password`. A field that is
//! `*` matches anything; a backslash makes the next character plain (`\:` a
//! colon, `\\` a backslash, `\*` a star); a line starting with `#` is a
//! comment. The host is matched as written in
//! the string (a name, an IP address, or a Unix socket directory, which also
//! matches `localhost`); a string without a port is port 5432, one without
//! a database names the user's. With several hosts, the first host that has
//! a matching line decides.
//!
//! Where libpq warns and goes on, this refuses with one line: a password
//! file that its group or other users may read (it should be mode 0600), one
//! that is not a plain file, and a file named by `passfile=` or
//! `PGPASSFILE` that does not exist. A missing `~/.pgpass` is not an error.

use std::path::{Path, PathBuf};

use postgres::config::Host;

use crate::Error;

/// libpq's default port, for a string that names none.
const DEFAULT_PORT: u16 = 5432;

/// Where a password may come from besides the string.
#[derive(Debug, Default)]
pub(crate) struct Environment {
    /// `PGPASSWORD`.
    pub(crate) password: Option<String>,
    /// `PGPASSFILE`.
    pub(crate) passfile: Option<PathBuf>,
    /// The home directory (for `~/.pgpass`).
    pub(crate) home: Option<PathBuf>,
}

impl Environment {
    /// This process's environment.
    pub(crate) fn of_process() -> Environment {
        Environment {
            password: std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()),
            passfile: std::env::var_os("PGPASSFILE")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
            home: std::env::home_dir(),
        }
    }
}

/// Gives `config` a password from `env` or a password file if the string
/// gave none; `passfile` is the string's `passfile=` value. Reads at most
/// one file; sets nothing if no line matches.
pub(crate) fn fill(
    config: &mut postgres::Config,
    passfile: Option<&str>,
    env: &Environment,
) -> Result<(), Error> {
    if config.get_password().is_some() {
        return Ok(());
    }
    if let Some(password) = &env.password {
        config.password(password.as_bytes());
        return Ok(());
    }
    let (path, named) = match (passfile, &env.passfile, &env.home) {
        (Some(file), _, _) => (PathBuf::from(file), true),
        (None, Some(file), _) => (file.clone(), true),
        (None, None, Some(home)) => (home.join(".pgpass"), false),
        (None, None, None) => return Ok(()),
    };
    let Some(text) = read_private(&path, named)? else {
        return Ok(());
    };
    if let Some(password) = find(&text, &wanted(config)) {
        config.password(password);
    }
    Ok(())
}

/// The password file's text, or `None` for a missing file not `named`.
fn read_private(path: &Path, named: bool) -> Result<Option<String>, Error> {
    let refuse = |why: String| Err(Error::invalid("db", why));
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !named => return Ok(None),
        Err(e) => return refuse(format!("password file {shown}: {e}")),
    };
    if !meta.is_file() {
        return refuse(format!("password file {shown} is not a plain file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return refuse(format!(
                "password file {shown} may be read by other users (mode {mode:04o}): \
                 chmod 0600 {shown}"
            ));
        }
    }
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) => refuse(format!("password file {shown}: {e}")),
    }
}

/// One host's `host`, `port`, `database` and `user` values to match.
#[derive(Debug, PartialEq, Eq)]
struct Wanted {
    host: String,
    /// A Unix socket directory, which `localhost` matches as well.
    socket: bool,
    port: String,
    database: String,
    user: String,
}

/// What to look up, for each host of `config` in order.
fn wanted(config: &postgres::Config) -> Vec<Wanted> {
    let user = config.get_user().unwrap_or_default().to_owned();
    let database = config
        .get_dbname()
        .map_or_else(|| user.clone(), str::to_owned);
    let (hosts, addrs, ports) = (
        config.get_hosts(),
        config.get_hostaddrs(),
        config.get_ports(),
    );
    (0..hosts.len().max(addrs.len()))
        .map(|i| {
            let (host, socket) = match (hosts.get(i), addrs.get(i)) {
                (Some(Host::Tcp(name)), _) => (name.clone(), false),
                #[cfg(unix)]
                (Some(Host::Unix(dir)), _) => (dir.display().to_string(), true),
                (None, Some(addr)) => (addr.to_string(), false),
                (None, None) => ("localhost".to_owned(), false),
            };
            // One port for all hosts, one per host, or none (the default).
            let port = ports
                .get(i)
                .or(if ports.len() == 1 {
                    ports.first()
                } else {
                    None
                })
                .copied()
                .unwrap_or(DEFAULT_PORT);
            Wanted {
                host,
                socket,
                port: port.to_string(),
                database: database.clone(),
                user: user.clone(),
            }
        })
        .collect()
}

/// The password of the first line matching the first host that has one.
fn find(text: &str, wanted: &[Wanted]) -> Option<Vec<u8>> {
    let lines: Vec<Vec<Field>> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(fields)
        .collect();
    wanted.iter().find_map(|w| {
        lines
            .iter()
            .find(|f| {
                let host = |field: &str| field == w.host || (w.socket && field == "localhost");
                matches(&f[0], host)
                    && matches(&f[1], |p| p == w.port)
                    && matches(&f[2], |d| d == w.database)
                    && matches(&f[3], |u| u == w.user)
            })
            .map(|f| f[4].text.clone().into_bytes())
    })
}

/// A field of a line, unescaped.
#[derive(Default)]
struct Field {
    text: String,
    /// Whether a backslash escaped anything in it: `\*` is a star, not a wildcard.
    escaped: bool,
}

/// An unescaped `*` matches anything, any other field as `is` says.
fn matches(field: &Field, is: impl Fn(&str) -> bool) -> bool {
    (field.text == "*" && !field.escaped) || is(&field.text)
}

/// A line's five fields, unescaped; `None` for a line with fewer (libpq
/// skips such a line). The password ends at its first unescaped colon.
fn fields(line: &str) -> Option<Vec<Field>> {
    let mut fields = vec![Field::default()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        let count = fields.len();
        let field = fields.last_mut()?;
        match c {
            '\\' => {
                field.text.extend(chars.next());
                field.escaped = true;
            }
            ':' if count == 5 => break,
            ':' => fields.push(Field::default()),
            c => field.text.push(c),
        }
    }
    (fields.len() == 5).then_some(fields)
}

#[cfg(test)]
mod tests;
