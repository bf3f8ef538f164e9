//! Quoting names in messages the way GNU's `quote()` does (gnulib
//! `quotearg`, "locale" style): `'…'` in the C locale, `‘…’` when the
//! locale's character set is UTF-8, with C escapes for control characters,
//! backslashes and the closing quote, and octal escapes for bytes that are
//! not printable characters of the locale.

/// The quotation marks of the locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quotes {
    /// `'…'` (the C locale, or any locale whose character set is not UTF-8).
    #[default]
    Ascii,
    /// `‘…’` (a UTF-8 locale, where GNU has no translation of its own).
    Unicode,
}

impl Quotes {
    /// The style for a locale name as the environment gives it: the first
    /// non-empty one of `LC_ALL`, `LC_CTYPE`, `LANG` (pass them in that
    /// order). A locale whose name says UTF-8 (`C.UTF-8`, `en_US.utf8`)
    /// quotes with `‘…’`.
    ///
    /// O(length of the names). Reads nothing but its arguments.
    ///
    /// ```
    /// use fairdeck_shuf::quote::Quotes;
    /// assert_eq!(Quotes::for_locale([None, Some("C.UTF-8"), Some("C")]), Quotes::Unicode);
    /// assert_eq!(Quotes::for_locale([Some("C"), Some("en_US.UTF-8"), None]), Quotes::Ascii);
    /// ```
    pub fn for_locale<'a>(names: impl IntoIterator<Item = Option<&'a str>>) -> Self {
        let name = names.into_iter().flatten().find(|n| !n.is_empty());
        let charset = name
            .and_then(|n| n.split_once('.'))
            .map(|(_, rest)| rest.split('@').next().unwrap_or(rest))
            .map(|c| c.to_ascii_lowercase().replace('-', ""));
        match charset.as_deref() {
            Some("utf8") => Quotes::Unicode,
            _ => Quotes::Ascii,
        }
    }

    /// `bytes` quoted and escaped as GNU's `quote()` prints them.
    ///
    /// O(n) time.
    ///
    /// ```
    /// use fairdeck_shuf::quote::Quotes;
    /// assert_eq!(Quotes::Ascii.quote(b"it's\n"), r"'it\'s\n'");
    /// assert_eq!(Quotes::Unicode.quote("café".as_bytes()), "‘café’");
    /// assert_eq!(Quotes::Ascii.quote("café".as_bytes()), r"'caf\303\251'");
    /// ```
    pub fn quote(self, bytes: &[u8]) -> String {
        let (open, close) = match self {
            Quotes::Ascii => ("'", "'"),
            Quotes::Unicode => ("\u{2018}", "\u{2019}"),
        };
        let mut out = String::from(open);
        let mut rest = bytes;
        while !rest.is_empty() {
            let (c, len) = self.next_char(rest);
            match c {
                Some(c) => escape_char(c, close, &mut out),
                None => rest[..len]
                    .iter()
                    .for_each(|b| out.push_str(&format!("\\{b:03o}"))),
            }
            rest = &rest[len..];
        }
        out.push_str(close);
        out
    }

    /// A file name quoted as GNU's `quotef()` prints it in messages (gnulib
    /// `quotearg`, "shell-escape" style with `:` quoted too): left alone when
    /// no shell would misread it (`plain`, `a/b.txt`); else in single quotes
    /// (`'no file'`, `'a:b'`); in double quotes when it holds a single quote
    /// and nothing that needs escaping (`"it's"`); and with `$'…'` escapes
    /// for control characters and for bytes that are not printable
    /// characters of the locale (`'a'$'\t''b'`, `'caf'$'\303\251'` in the C
    /// locale, `café` in a UTF-8 one).
    ///
    /// O(n) time.
    ///
    /// ```
    /// use fairdeck_shuf::quote::Quotes;
    /// assert_eq!(Quotes::Ascii.name(b"plain.txt"), "plain.txt");
    /// assert_eq!(Quotes::Ascii.name(b"no file"), "'no file'");
    /// assert_eq!(Quotes::Ascii.name(b"it's"), "\"it's\"");
    /// assert_eq!(Quotes::Ascii.name(b"a\tb"), r"'a'$'\t''b'");
    /// assert_eq!(Quotes::Ascii.name("café".as_bytes()), r"'caf'$'\303\251'");
    /// assert_eq!(Quotes::Unicode.name("café".as_bytes()), "café");
    /// ```
    pub fn name(self, bytes: &[u8]) -> String {
        let pieces = self.pieces(bytes);
        let len = bytes.len();
        let all = |ok: fn(char, bool, usize) -> bool| {
            pieces.iter().enumerate().all(|(i, p)| match p {
                Piece::Text(c) => ok(*c, i == 0, len),
                Piece::Bytes(_) => false,
            })
        };
        if len > 0 && all(shell_safe) {
            return String::from_utf8_lossy(bytes).into_owned();
        }
        if bytes.contains(&b'\'') && all(double_quote_safe) {
            return format!("\"{}\"", String::from_utf8_lossy(bytes));
        }
        single_quoted(&pieces)
    }

    /// `bytes` cut into characters of the locale and runs of bytes that are
    /// not printable characters.
    fn pieces(self, bytes: &[u8]) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let (c, len) = self.next_char(rest);
            match c {
                Some(c) if !c.is_control() => out.push(Piece::Text(c)),
                _ => out.push(Piece::Bytes(rest[..len].to_vec())),
            }
            rest = &rest[len..];
        }
        out
    }

    /// The next character and its length in bytes; `None` for a byte that is
    /// not a character of the locale (any byte ≥ 0x80 in the C locale, an
    /// invalid sequence in UTF-8).
    fn next_char(self, bytes: &[u8]) -> (Option<char>, usize) {
        if bytes[0] < 0x80 {
            return (Some(char::from(bytes[0])), 1);
        }
        if self == Quotes::Ascii {
            return (None, 1);
        }
        let head = &bytes[..bytes.len().min(4)];
        let valid = match std::str::from_utf8(head) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
        };
        match valid.chars().next() {
            Some(c) => (Some(c), c.len_utf8()),
            None => (None, 1),
        }
    }
}

/// A character of a name, or bytes that are not a printable character.
enum Piece {
    Text(char),
    Bytes(Vec<u8>),
}

/// Whether `c` (the first character when `first`, in a name of `len`
/// bytes) leaves a name unquoted: gnulib's characters that no shell misreads.
fn shell_safe(c: char, first: bool, len: usize) -> bool {
    c.is_ascii_alphanumeric()
        || "%+,-./]_@".contains(c)
        || (matches!(c, '#' | '~') && !first)
        || (matches!(c, '{' | '}') && len > 1)
        || !c.is_ascii()
}

/// Whether `c` may stand in a name printed in double quotes (gnulib's
/// characters that C and the shell read alike).
fn double_quote_safe(c: char, first: bool, len: usize) -> bool {
    c.is_ascii_alphanumeric()
        || "%+,-./:]_ '@".contains(c)
        || (matches!(c, '#' | '~') && first)
        || (matches!(c, '{' | '}') && len == 1)
        || !c.is_ascii()
}

/// `'…'`, with `'\''` for a single quote and `$'…'` for escapes.
fn single_quoted(pieces: &[Piece]) -> String {
    let mut out = String::from("'");
    let mut in_dollar = false;
    for piece in pieces {
        match piece {
            Piece::Text('\'') => {
                out.push_str(r"'\''");
                in_dollar = false;
            }
            Piece::Text(c) => {
                if in_dollar {
                    out.push_str("''");
                    in_dollar = false;
                }
                out.push(*c);
            }
            Piece::Bytes(bytes) => {
                for &b in bytes {
                    if !in_dollar {
                        out.push_str("'$'");
                        in_dollar = true;
                    }
                    out.push_str(&byte_escape(b));
                }
            }
        }
    }
    out.push('\'');
    out
}

/// `\t`-style for the C escapes, `\ooo` for any other byte.
fn byte_escape(b: u8) -> String {
    let letter = match b {
        7 => 'a',
        8 => 'b',
        9 => 't',
        10 => 'n',
        11 => 'v',
        12 => 'f',
        13 => 'r',
        _ => return format!("\\{b:03o}"),
    };
    format!("\\{letter}")
}

fn escape_char(c: char, close: &str, out: &mut String) {
    let escaped = match c {
        '\x07' => "\\a",
        '\x08' => "\\b",
        '\x0c' => "\\f",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\x0b' => "\\v",
        '\\' => "\\\\",
        _ if close.starts_with(c) => {
            out.push('\\');
            out.push(c);
            return;
        }
        _ if c.is_control() => {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\{b:03o}"));
            }
            return;
        }
        _ => {
            out.push(c);
            return;
        }
    };
    out.push_str(escaped);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_as_gnus_quotef() {
        // Each expectation is GNU coreutils 9.1's message (LC_ALL=C).
        let a = |b: &[u8]| Quotes::Ascii.name(b);
        assert_eq!(a(b"a:b"), "'a:b'");
        assert_eq!(a(b"\x01"), r"''$'\001'");
        assert_eq!(a(b"\t'"), r"''$'\t'\'''");
        assert_eq!(a(b"#x'"), "\"#x'\"");
        assert_eq!(a(b"x#'"), r"'x#'\'''");
        assert_eq!(a(b""), "''");
        assert_eq!(a(b"{"), "'{'");
        assert_eq!(a(b"a{"), "a{");
        assert_eq!(a(b"@x"), "@x");
        assert_eq!(a(b"a\\b'"), r"'a\b'\'''");
        assert_eq!(a(b"~x"), "'~x'");
        assert_eq!(a(b"x~"), "x~");
        let u = |b: &[u8]| Quotes::Unicode.name(b);
        assert_eq!(u(b"caf\xc3"), r"'caf'$'\303'");
        assert_eq!(u(b"\xc2\x85x"), r"''$'\302\205''x'");
    }

    #[test]
    fn quoting_escapes_like_gnu() {
        assert_eq!(
            Quotes::Ascii.quote(b"a\\b\x01\x7f\xff"),
            r"'a\\b\001\177\377'"
        );
        assert_eq!(Quotes::Unicode.quote("x’y'".as_bytes()), "‘x\\’y'’");
        assert_eq!(Quotes::Unicode.quote(b"\xe2\x80"), r"‘\342\200’");
        assert_eq!(Quotes::Ascii.quote(b""), "''");
    }

    #[test]
    fn the_first_set_locale_variable_decides() {
        assert_eq!(
            Quotes::for_locale([Some(""), Some("en_US.utf8")]),
            Quotes::Unicode
        );
        assert_eq!(
            Quotes::for_locale([Some("de_DE.UTF-8@euro")]),
            Quotes::Unicode
        );
        assert_eq!(Quotes::for_locale([Some("POSIX")]), Quotes::Ascii);
        assert_eq!(Quotes::for_locale([None, None, None]), Quotes::Ascii);
    }
}
