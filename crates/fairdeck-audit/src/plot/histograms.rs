//! Histograms of a tally's rising sequences and valleys against the
//! uniform law (and a fitted machine's), side by side in one SVG.

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use super::Canvas;
use crate::error::Error;
use crate::stats::Tally;
use crate::stats::families::{self, Statistic};
use crate::stats::laws;

/// Colour of the observed bars (tests count them by it).
pub const BAR_FILL: RGBColor = RGBColor(120, 150, 200);

/// Colour of the uniform law's markers.
const UNIFORM: RGBColor = BLACK;

/// Colour of the fitted machine's curve.
const FITTED: RGBColor = RGBColor(200, 30, 30);

/// Panel size in pixels: width, height; plot area inset left, top, bottom.
const PANEL: (i32, i32) = (440, 320);
const INSET: (i32, i32, i32) = (50, 60, 40);

/// A named machine's law on one of the two counts drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// "fitted: 8.0 GSR riffles".
    pub label: String,
    /// The count its law is on (rising sequences or valleys).
    pub statistic: Statistic,
    /// P(count = i) by index.
    pub law: Vec<f64>,
}

impl Fitted {
    /// The law of the machine an estimate names: `riffle` (value: riffles
    /// k, on rising sequences; a k that is not whole is drawn as the
    /// a-shuffle with a = 2ᵏ rounded, which the label says) or `shelf` (value: shelves m of one fair
    /// pass, on valleys), from [`families::riffle_llr`] and
    /// [`families::shelf_llr`] times the uniform law. `None` for other
    /// families (their laws are on other counts), a value out of range, or
    /// n < 3. O(n³).
    pub fn of(family: &str, value: f64, n: usize) -> Option<Fitted> {
        if n < 3 || !value.is_finite() {
            return None;
        }
        let (label, statistic, uniform, llr) = match family {
            "riffle" if (0.0..=60.0).contains(&value) => (
                riffle_label(value),
                Statistic::RisingSequences,
                laws::rising_sequences(n),
                families::riffle_llr(n, value.exp2().round()),
            ),
            "shelf" if (1.0..=1e6).contains(&value) => (
                format!("fitted: one pass of a {value:.0}-shelf machine"),
                Statistic::Valleys,
                laws::valleys(n),
                families::shelf_llr(n, value.round() as u64),
            ),
            _ => return None,
        };
        let law = uniform
            .iter()
            .zip(&llr)
            .map(|(p, l)| if *p > 0.0 { p * l.exp() } else { 0.0 })
            .collect();
        Some(Fitted {
            label,
            statistic,
            law,
        })
    }
}

/// "fitted: 8.0 GSR riffles", or for k not whole "fitted: 3.4 GSR riffles
/// (drawn as the a-shuffle, a = 11)".
fn riffle_label(k: f64) -> String {
    let a = k.exp2();
    match (a - a.round()).abs() < 1e-9 {
        true => format!("fitted: {k:.1} GSR riffles"),
        false => format!(
            "fitted: {k:.1} GSR riffles (drawn as the a-shuffle, a = {:.0})",
            a.round()
        ),
    }
}

/// One panel: observed counts, expected counts under uniform shuffling, and
/// optionally a fitted machine's.
struct Panel<'a> {
    title: &'a str,
    observed: &'a [u64],
    uniform: Vec<f64>,
    fitted: Option<(&'a str, Vec<f64>)>,
}

impl Panel<'_> {
    /// The indices drawn: from the first to the last one observed or
    /// expected at least half a deck (under either law).
    fn range(&self) -> Option<(usize, usize)> {
        let shown = |i: usize| {
            self.observed.get(i).is_some_and(|&c| c > 0)
                || self.uniform.get(i).is_some_and(|&e| e >= 0.5)
                || self
                    .fitted
                    .as_ref()
                    .is_some_and(|f| f.1.get(i).is_some_and(|&e| e >= 0.5))
        };
        let len = self.observed.len();
        let lo = (0..len).find(|&i| shown(i))?;
        let hi = (0..len).rev().find(|&i| shown(i))?;
        Some((lo, hi))
    }
}

/// Two histograms side by side: decks by number of rising sequences and by
/// number of valleys, bars observed, black markers the counts expected of a
/// uniform shuffle ([`laws::rising_sequences`], [`laws::valleys`]), and a
/// red curve a fitted machine's ([`Fitted`]) on its own count. Only the
/// values seen or expected at least half a deck are drawn. O(n²) time.
///
/// ```
/// let mut t = fairdeck_audit::stats::Tally::new(4);
/// t.add(&[2, 0, 3, 1])?;
/// let svg = fairdeck_audit::plot::histograms(&t, None, "one deck")?;
/// assert!(svg.contains("Rising sequences per deck"));
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::OutOfRange`] if the tally has no decks, fewer than 2 cards, or
/// histograms of the wrong length.
pub fn histograms(t: &Tally, fitted: Option<&Fitted>, title: &str) -> Result<String, Error> {
    let n = t.n;
    if n < 2 || t.trials == 0 || t.rising_sequences.len() != n + 1 || t.valleys.len() != n / 2 + 1 {
        return Err(Error::OutOfRange(
            "the histograms need decks of at least 2 cards".into(),
        ));
    }
    let expected =
        |law: Vec<f64>| -> Vec<f64> { law.iter().map(|p| p * t.trials as f64).collect() };
    let fitted_on = |s: Statistic| {
        fitted
            .filter(|f| f.statistic == s)
            .map(|f| (f.label.as_str(), expected(f.law.clone())))
    };
    let panels = [
        Panel {
            title: "Rising sequences per deck",
            observed: &t.rising_sequences,
            uniform: expected(laws::rising_sequences(n)),
            fitted: fitted_on(Statistic::RisingSequences),
        },
        Panel {
            title: "Valleys per deck",
            observed: &t.valleys,
            uniform: expected(laws::valleys(n)),
            fitted: fitted_on(Statistic::Valleys),
        },
    ];
    let mut svg = String::new();
    let mut c = Canvas::new(&mut svg, 2 * PANEL.0, PANEL.1 + 30)?;
    c.text(title, 16, HPos::Left, (INSET.0, 16))?;
    for (i, panel) in panels.iter().enumerate() {
        draw_panel(&mut c, panel, (i as i32 * PANEL.0, 30))?;
    }
    c.finish()?;
    Ok(svg)
}

/// Draws one panel with its top-left corner at `origin`.
fn draw_panel(c: &mut Canvas, p: &Panel, origin: (i32, i32)) -> Result<(), Error> {
    let (left, top, bottom) = INSET;
    let (x0, y0) = (origin.0 + left, origin.1 + top);
    let (w, h) = (PANEL.0 - left - 20, PANEL.1 - top - bottom);
    c.text(p.title, 14, HPos::Left, (x0, origin.1 + 12))?;
    let Some((lo, hi)) = p.range() else {
        return c.text("no decks", 12, HPos::Left, (x0, y0 + h / 2));
    };
    let slots = (hi - lo + 1) as f64;
    let value = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
    let mut top_count = (lo..=hi)
        .map(|i| {
            let f = p.fitted.as_ref().map_or(0.0, |f| value(&f.1, i));
            (p.observed[i] as f64).max(value(&p.uniform, i)).max(f)
        })
        .fold(1.0, f64::max);
    top_count *= 1.05;
    let x_at =
        |i: usize, frac: f64| f64::from(x0) + ((i - lo) as f64 + frac) / slots * f64::from(w);
    let y_at = |count: f64| y0 + h - (count / top_count * f64::from(h)) as i32;
    for i in lo..=hi {
        let (a, b) = (
            x_at(i, 0.1) as i32,
            x_at(i, 0.9).max(x_at(i, 0.1) + 1.0) as i32,
        );
        c.rect((a, y_at(p.observed[i] as f64)), (b, y0 + h), &BAR_FILL)?;
    }
    c.line((x0, y0 + h), (x0 + w, y0 + h), &BLACK)?;
    c.line((x0, y0), (x0, y0 + h), &BLACK)?;
    c.text(
        &format!("{:.0}", top_count / 1.05),
        10,
        HPos::Right,
        (x0 - 4, y_at(top_count / 1.05)),
    )?;
    c.text(
        &lo.to_string(),
        10,
        HPos::Center,
        (x_at(lo, 0.5) as i32, y0 + h + 12),
    )?;
    c.text(
        &hi.to_string(),
        10,
        HPos::Center,
        (x_at(hi, 0.5) as i32, y0 + h + 12),
    )?;
    let curves = std::iter::once(("uniform shuffle (expected)", &p.uniform, UNIFORM))
        .chain(p.fitted.as_ref().map(|f| (f.0, &f.1, FITTED)));
    for (k, (name, counts, colour)) in curves.enumerate() {
        let point = |i: usize| (x_at(i, 0.5) as i32, y_at(value(counts, i)));
        for i in lo..=hi {
            let (x, y) = point(i);
            c.rect((x - 2, y - 2), (x + 2, y + 2), &colour)?;
            if i < hi {
                c.line(point(i), point(i + 1), &colour)?;
            }
        }
        let y = origin.1 + 30 + 14 * k as i32;
        c.rect((x0 + 8, y - 2), (x0 + 12, y + 2), &colour)?;
        c.text(name, 11, HPos::Left, (x0 + 18, y))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
