//! Shuffling from physical randomness: die rolls, coin flips, hex digits.
//!
//! A person who trusts no computer can shuffle a deck with a real die.
//! [`SymbolDice`] turns a stream of symbols in base `b` (6 for a d6, 2 for a
//! coin, 16 for hex digits) into exact uniform bounded draws, wasting almost
//! nothing: about log_b(n!) symbols for an n-card deck (≈ 87.3 d6 rolls for
//! 52 cards, 88 in practice), more only when a rejection needs them.
//!
//! # Method
//!
//! The dice keeps one exact uniform state: an integer `c` uniform in
//! `[0, v)`. Reading a symbol `s` makes it `(c·b + s, v·b)`. A draw below
//! `n` with `v ≥ n` splits `v = q·n + r`: if `c < q·n` the answer is
//! `c mod n` and the state keeps the rest, `(c div n, q)` — still uniform,
//! so no entropy is thrown away; otherwise `c − q·n` is uniform in `[0, r)`
//! and more symbols are read. This is Lumbroso's Fast Dice Roller
//! (Lumbroso 2013, "Optimal Discrete Uniform Generation from Coin Flips, and
//! Applications") generalised from coins to base-`b` symbols and made to
//! keep its leftover state between draws (the paper restarts each draw).
//!
//! [`SymbolDice::reserve`] first makes `v` a multiple of a planned product,
//! e.g. n! for a shuffle whose draws have bounds n, n−1, …, 2: then the
//! shuffle's draws never reject. The whole deck costs k = ⌈log_b n!⌉
//! symbols, and more only when those k land in the rejected remainder
//! (b^k mod n! of the b^k equally likely sequences); the rejected remainder
//! is kept and topped up, not thrown away. For 52 cards and a d6 that is 88
//! rolls with probability 0.81 and about 88.2 on average.
//!
//! ```
//! use fairdeck::dice::Dice;
//! use fairdeck::entropy::{SymbolDice, SymbolKind};
//!
//! // Two d6 rolls (faces 3 and 5) give a uniform draw below 36 exactly.
//! let rolls = SymbolKind::D6.parse_text("3 5");
//! let mut dice = SymbolDice::new(SymbolKind::D6, rolls.into_iter());
//! assert_eq!(dice.roll(36), 2 * 6 + 4);
//! assert_eq!(dice.symbols_used(), 2);
//! assert!(dice.error().is_none());
//! ```

use std::io::{BufRead, Read};

/// The big unsigned integers that products such as n! are given in (from `num-bigint`).
pub use num_bigint::BigUint;

use crate::Error;
use crate::dice::Dice;

/// The kinds of physical symbol fairdeck reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A six-sided die: faces `1`–`6`.
    D6,
    /// A coin: `H`/`h`/`1` heads, `T`/`t`/`0` tails.
    Coin,
    /// Hex digits `0`–`9`, `a`–`f` (either case), e.g. from 16-sided dice.
    Hex,
}

impl SymbolKind {
    /// How many values one symbol takes.
    pub fn base(self) -> u32 {
        match self {
            SymbolKind::D6 => 6,
            SymbolKind::Coin => 2,
            SymbolKind::Hex => 16,
        }
    }

    /// What one symbol is called, for messages (`d6 roll`, `coin flip`, `hex digit`).
    pub fn noun(self) -> &'static str {
        match self {
            SymbolKind::D6 => "d6 roll",
            SymbolKind::Coin => "coin flip",
            SymbolKind::Hex => "hex digit",
        }
    }

    /// Reads one character: `None` for a separator (white space, `,`, `;`,
    /// `-`, `|`), else the symbol's value in `[0, base)`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSymbol`] for any other character.
    pub fn parse_char(self, c: char) -> Option<Result<u8, Error>> {
        if c.is_whitespace() || matches!(c, ',' | ';' | '-' | '|') {
            return None;
        }
        let value = match (self, c.to_ascii_lowercase()) {
            (SymbolKind::D6, '1'..='6') => Some(c as u8 - b'1'),
            (SymbolKind::Coin, 't' | '0') => Some(0),
            (SymbolKind::Coin, 'h' | '1') => Some(1),
            (SymbolKind::Hex, d) => d.to_digit(16).map(|v| v as u8),
            _ => None,
        };
        Some(value.ok_or_else(|| {
            Error::InvalidSymbol(format!("{c:?} is not a {} ({})", self.noun(), self.hint()))
        }))
    }

    /// The short name used in reports: `d6`, `coin`, `hex`.
    pub fn name(self) -> &'static str {
        match self {
            SymbolKind::D6 => "d6",
            SymbolKind::Coin => "coin",
            SymbolKind::Hex => "hex",
        }
    }

    /// How to type the symbols, for prompts (`write the faces 1-6`).
    pub fn hint(self) -> &'static str {
        match self {
            SymbolKind::D6 => "write the faces 1-6",
            SymbolKind::Coin => "write H or T",
            SymbolKind::Hex => "write 0-9 or a-f",
        }
    }

    /// Every symbol of a text, in order (errors included, in place).
    pub fn parse_text(self, text: &str) -> Vec<Result<u8, Error>> {
        text.chars().filter_map(|c| self.parse_char(c)).collect()
    }

    /// The fewest symbols that can ever give a uniform draw below
    /// `product`: the least `k` with `b^k ≥ product`. O(k) big-number steps.
    pub fn symbols_needed(self, product: &BigUint) -> u64 {
        let (b, mut power, mut k) = (BigUint::from(self.base()), BigUint::from(1u8), 0);
        while &power < product {
            power *= &b;
            k += 1;
        }
        k
    }

    /// log_b(`product`): the information `product` equally likely outcomes
    /// carry, counted in symbols (≈ 87.27 d6 rolls for 52!).
    pub fn symbols_exact(self, product: &BigUint) -> f64 {
        log2(product) / f64::from(self.base()).log2()
    }
}

/// log2 of a big number, accurate to about 1e-15 relative.
pub fn log2(x: &BigUint) -> f64 {
    let bits = x.bits();
    if bits <= 64 {
        return (x.iter_u64_digits().next().unwrap_or(0) as f64).log2();
    }
    let shift = bits - 64;
    let top = (x >> shift).iter_u64_digits().next().unwrap_or(0);
    (top as f64).log2() + shift as f64
}

/// n! as a big number. O(n²) word operations.
pub fn factorial(n: u64) -> BigUint {
    (2..=n).fold(BigUint::from(1u8), |acc, i| acc * i)
}

/// Longest line [`SymbolReader`] reads (a longer one is an error, so that
/// memory stays bounded whatever the input is, even `/dev/zero`).
pub const MAX_LINE_BYTES: u64 = 64 << 10;

/// Symbols read lazily, line by line, from any [`BufRead`] (stdin, a file).
/// Lines are at most [`MAX_LINE_BYTES`] long.
///
/// `on_line` is called with the number of symbols read so far before each
/// new line is read: a terminal user can be prompted only when more rolls
/// are really needed.
pub struct SymbolReader<R, F> {
    reader: R,
    kind: SymbolKind,
    pending: std::vec::IntoIter<Result<u8, Error>>,
    line_no: u64,
    read: u64,
    on_line: F,
}

impl<R: BufRead, F: FnMut(u64)> SymbolReader<R, F> {
    /// Reads symbols of `kind` from `reader`.
    pub fn new(reader: R, kind: SymbolKind, on_line: F) -> Self {
        Self {
            reader,
            kind,
            pending: Vec::new().into_iter(),
            line_no: 0,
            read: 0,
            on_line,
        }
    }
}

impl<R: BufRead, F: FnMut(u64)> Iterator for SymbolReader<R, F> {
    type Item = Result<u8, Error>;

    /// The next symbol; `None` at the end of the input; an
    /// [`Error::InvalidSymbol`] naming the line for a bad character or a
    /// read error.
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.pending.next() {
                self.read += 1;
                let line = self.line_no;
                return Some(item.map_err(|e| match e {
                    Error::InvalidSymbol(why) => {
                        Error::InvalidSymbol(format!("line {line}: {why}"))
                    }
                    other => other,
                }));
            }
            (self.on_line)(self.read);
            let mut line = Vec::new();
            let mut limited = (&mut self.reader).take(MAX_LINE_BYTES + 1);
            match limited.read_until(b'\n', &mut line) {
                Ok(0) => return None,
                Ok(n) if n as u64 > MAX_LINE_BYTES => {
                    let why = format!("line {}: longer than 64 KiB", self.line_no + 1);
                    return Some(Err(Error::InvalidSymbol(why)));
                }
                Ok(_) => {
                    self.line_no += 1;
                    let text = String::from_utf8_lossy(&line);
                    self.pending = self.kind.parse_text(&text).into_iter();
                }
                Err(e) => {
                    return Some(Err(Error::InvalidSymbol(format!("cannot read input: {e}"))));
                }
            }
        }
    }
}

/// A [`Dice`] fed by physical symbols, exact and frugal (see the module docs).
///
/// `Dice::roll` cannot fail, so running out of input (or a bad symbol) is
/// recorded instead: the roll returns 0, [`Dice::exhausted`] becomes `true`
/// and [`SymbolDice::error`] tells what happened. A caller must check
/// `error()` after the algorithm and discard its output if set.
/// [`SymbolDice::reserve`] is the fallible way to read a whole shuffle's
/// symbols up front.
pub struct SymbolDice<I> {
    symbols: I,
    kind: SymbolKind,
    /// Uniform in `[0, v)`.
    c: BigUint,
    v: BigUint,
    used: u64,
    error: Option<Error>,
}

impl<I: Iterator<Item = Result<u8, Error>>> SymbolDice<I> {
    /// A dice with an empty state that reads `symbols` of `kind` as needed.
    pub fn new(kind: SymbolKind, symbols: I) -> Self {
        Self {
            symbols,
            kind,
            c: BigUint::from(0u8),
            v: BigUint::from(1u8),
            used: 0,
            error: None,
        }
    }

    /// Symbols read so far.
    pub fn symbols_used(&self) -> u64 {
        self.used
    }

    /// Why the dice stopped answering, if it did.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// Reads symbols until the state is uniform over a multiple of
    /// `product`, so that draws whose bounds multiply to `product` (in any
    /// order) never reject. Reads nothing if it already is.
    ///
    /// O(k) big-number steps for k symbols read.
    ///
    /// ```
    /// use fairdeck::entropy::{factorial, SymbolDice, SymbolKind};
    /// use fairdeck::shuffle::shuffle;
    ///
    /// let rolls = SymbolKind::D6.parse_text(&"3615244213".repeat(9));
    /// let mut dice = SymbolDice::new(SymbolKind::D6, rolls.into_iter());
    /// dice.reserve(&factorial(52))?;
    /// let mut deck: Vec<u8> = (0..52).collect();
    /// shuffle(&mut deck, &mut dice);
    /// assert!(dice.error().is_none());
    /// assert!(dice.symbols_used() >= 88);
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::EntropyExhausted`] if the symbols end first, or the
    /// [`Error::InvalidSymbol`] met; the dice is then exhausted.
    pub fn reserve(&mut self, product: &BigUint) -> Result<(), Error> {
        loop {
            if let Some(e) = &self.error {
                return Err(e.clone());
            }
            if &self.v >= product {
                let whole = &self.v - &self.v % product;
                if self.c < whole {
                    self.v = whole;
                    return Ok(());
                }
                self.c -= &whole;
                self.v -= &whole;
            }
            self.pull();
        }
    }

    /// An exact uniform draw below a big `bound`, e.g. a deal number below
    /// D = 52!/(13!)⁴: [`SymbolDice::reserve`], then the state's value
    /// modulo `bound`, keeping the quotient as leftover state. About
    /// log_b(`bound`) symbols (37 d6 rolls for a bridge deal).
    ///
    /// ```
    /// use fairdeck::entropy::{BigUint, SymbolDice, SymbolKind};
    ///
    /// let rolls = SymbolKind::D6.parse_text("6 6");
    /// let mut dice = SymbolDice::new(SymbolKind::D6, rolls.into_iter());
    /// assert_eq!(dice.draw_below(&BigUint::from(36u8))?, BigUint::from(35u8));
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`SymbolDice::reserve`]; [`Error::InvalidDeal`] for a zero bound.
    pub fn draw_below(&mut self, bound: &BigUint) -> Result<BigUint, Error> {
        if *bound == BigUint::from(0u8) {
            return Err(Error::InvalidDeal("nothing to draw from".into()));
        }
        self.reserve(bound)?;
        let answer = &self.c % bound;
        self.c /= bound;
        self.v /= bound;
        Ok(answer)
    }

    /// Reads one symbol into the state; records an error if there is none.
    fn pull(&mut self) {
        match self.symbols.next() {
            Some(Ok(s)) if u32::from(s) < self.kind.base() => {
                self.c = &self.c * self.kind.base() + s;
                self.v *= self.kind.base();
                self.used += 1;
            }
            Some(Ok(s)) => {
                let e = format!(
                    "symbol value {s} is out of range for a {}",
                    self.kind.noun()
                );
                self.error = Some(Error::InvalidSymbol(e));
            }
            Some(Err(e)) => self.error = Some(e),
            None => self.error = Some(Error::EntropyExhausted { used: self.used }),
        }
    }
}

impl<I: Iterator<Item = Result<u8, Error>>> Dice for SymbolDice<I> {
    /// An exact uniform draw below `n`, reading symbols only as needed.
    /// Returns 0 once the dice is exhausted (see the type's docs).
    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        loop {
            if self.error.is_some() {
                return 0;
            }
            if self.v >= BigUint::from(n) {
                let q = &self.v / n;
                let whole = &q * n;
                if self.c < whole {
                    let answer = &self.c % n;
                    self.c /= n;
                    self.v = q;
                    return answer.iter_u64_digits().next().unwrap_or(0);
                }
                self.c -= &whole;
                self.v -= &whole;
            }
            self.pull();
        }
    }

    fn exhausted(&self) -> bool {
        self.error.is_some()
    }
}

#[cfg(test)]
mod tests;
