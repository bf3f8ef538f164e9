//! Where the store lives, read from one `--db` string by one rule, so no
//! front end guesses: a PostgreSQL connection string, or a SQLite file.

use std::path::PathBuf;

use crate::Error;

/// The database a `--db` string names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// PostgreSQL: a `postgres://` or `postgresql://` URL, or a key=value
    /// string such as `host=/run/postgresql dbname=tables`, with its
    /// `sslmode` checked ([`PostgresStore::connect`](crate::PostgresStore::connect)).
    Postgres(String),
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
}

impl Location {
    /// Reads `db`: a `postgres://`/`postgresql://` URL or any string with
    /// `=` (the key=value form) is PostgreSQL; any other `SCHEME://` is
    /// refused; everything else is a SQLite file's path. So a connection
    /// string never becomes the name of a new SQLite file. A PostgreSQL
    /// string is read whole here, TLS keys included, without opening any
    /// file or connection. O(len).
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] (`db`) for an empty string, another URL scheme,
    /// SQLite's `:memory:`, a name that starts like a URL (`sqlite:…`),
    /// a PostgreSQL string that does not read, an unsupported sslmode, or a
    /// host on another machine without `sslmode`.
    ///
    /// ```
    /// use fairdeck_table::Location;
    ///
    /// assert!(matches!(Location::parse("dbname=t user=u")?, Location::Postgres(_)));
    /// let remote = "postgresql://h/t?sslmode=verify-full&sslrootcert=ca.pem";
    /// assert!(matches!(Location::parse(remote)?, Location::Postgres(_)));
    /// assert!(Location::parse("postgresql://h/t").is_err()); // which sslmode?
    /// assert!(matches!(Location::parse("tables.sqlite")?, Location::Sqlite(_)));
    /// assert!(Location::parse("mysql://h/t").is_err());
    /// # Ok::<(), fairdeck_table::Error>(())
    /// ```
    pub fn parse(db: &str) -> Result<Location, Error> {
        let lower = db.to_ascii_lowercase();
        if lower.starts_with("postgres://")
            || lower.starts_with("postgresql://")
            || db.contains('=')
        {
            super::postgres::Settings::read(db)?;
            return Ok(Location::Postgres(db.to_string()));
        }
        if let Some((scheme, _)) = db.split_once("://") {
            let why = format!(
                "{scheme}:// is not a database this service uses: give a postgres:// URL, \
                 a key=value PostgreSQL string, or a SQLite file's path"
            );
            return Err(Error::invalid("db", why));
        }
        if db.trim().is_empty() {
            return Err(Error::invalid(
                "db",
                "empty: give a SQLite file or a PostgreSQL string",
            ));
        }
        if let Some(why) = not_a_file(db) {
            return Err(Error::invalid("db", why));
        }
        Ok(Location::Sqlite(PathBuf::from(db)))
    }
}

/// Why `db` is no SQLite file's path, if it is not: SQLite's in-memory
/// database (`:memory:`, whose tables are lost at exit; SQLite would open
/// it and the service would leave an empty file of that name), or a name
/// that starts like a URL (`sqlite:`, `sqlite::memory:`, `file:t.db`,
/// which other tools read as a database URL and SQLite as a URI or a file
/// named so). A file with such a name is still given as `./NAME`. O(len).
fn not_a_file(db: &str) -> Option<String> {
    if db == ":memory:" || db.starts_with("file::memory:") {
        return Some(format!(
            "{db} is a database in memory, lost at exit: give a SQLite file or a PostgreSQL string"
        ));
    }
    let scheme = db.split_once(':')?.0;
    let mut chars = scheme.chars();
    let url_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    url_like.then(|| {
        format!(
            "{db} reads like a URL ({scheme}:), not a file: give a SQLite file's path \
             (./{db} for a file of that very name) or a PostgreSQL string"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::Location;

    #[test]
    fn each_form_is_read_by_one_rule() {
        let pg = |s: &str| Location::Postgres(s.to_string());
        for s in [
            "postgres://u@h/db?sslmode=require",
            "POSTGRESQL://h/db?sslmode=disable",
            "postgres://u@127.0.0.1/db",
            "dbname=t user=u",
            "host=/run/postgresql dbname=tables sslmode=require",
        ] {
            assert_eq!(Location::parse(s).unwrap(), pg(s), "{s}");
        }
        for s in [
            "tables.sqlite",
            "/var/lib/fairdeck/t.db",
            "./a b.sqlite",
            "./sqlite:",
            "./:memory:",
            "1:t.db",
        ] {
            assert_eq!(
                Location::parse(s).unwrap(),
                Location::Sqlite(s.into()),
                "{s}"
            );
        }
        for s in [
            "mysql://h/db",
            "sqlite://t.db",
            "",
            "  ",
            "postgres://u@h/db",
            "host=h dbname=t",
            "host=h sslmode=allow",
            ":memory:",
            "file::memory:?cache=shared",
            "sqlite::memory:",
            "sqlite:",
            "sqlite:t.db",
            "file:t.db",
        ] {
            assert!(Location::parse(s).is_err(), "{s:?}");
        }
    }
}
