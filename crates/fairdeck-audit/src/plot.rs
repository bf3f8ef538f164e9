//! Pictures as SVG strings, drawn with plotters' SVG backend (no system
//! fonts needed: text is left to the SVG viewer).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::Error;

fn svg_error<E: std::fmt::Debug>(e: E) -> Error {
    Error::OutOfRange(format!("cannot draw the picture: {e:?}"))
}

fn label(size: u32, h: HPos) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(h, VPos::Center))
}

/// Colour of a deviation d in [−1, 1]: blue below, white at 0, red above.
fn diverging(d: f64) -> RGBColor {
    let t = d.clamp(-1.0, 1.0);
    let fade = |x: f64| (255.0 * (1.0 - x.abs())) as u8;
    if t >= 0.0 {
        RGBColor(255, fade(t), fade(t))
    } else {
        RGBColor(fade(t), fade(t), 255)
    }
}

/// A drawing surface: plotters' SVG backend with errors mapped to ours.
struct Canvas<'a>(SVGBackend<'a>);

impl<'a> Canvas<'a> {
    fn new(svg: &'a mut String, width: i32, height: i32) -> Result<Self, Error> {
        let mut c = Canvas(SVGBackend::with_string(svg, (width as u32, height as u32)));
        c.rect((0, 0), (width, height), &WHITE)?;
        Ok(c)
    }

    fn rect(&mut self, a: (i32, i32), b: (i32, i32), colour: &RGBColor) -> Result<(), Error> {
        self.0.draw_rect(a, b, colour, true).map_err(svg_error)
    }

    fn line(&mut self, a: (i32, i32), b: (i32, i32), colour: &RGBColor) -> Result<(), Error> {
        self.0.draw_line(a, b, colour).map_err(svg_error)
    }

    fn text(&mut self, text: &str, size: u32, h: HPos, at: (i32, i32)) -> Result<(), Error> {
        self.0
            .draw_text(text, &label(size, h), at)
            .map_err(svg_error)
    }

    fn finish(mut self) -> Result<(), Error> {
        self.0.present().map_err(svg_error)
    }
}

/// Heatmap of a card × position count matrix (`counts[card * n + pos]`):
/// each cell's colour is the deviation of its frequency from 1/n, scaled so
/// that ±`scale` (a fraction of 1/n, e.g. 0.5 = ±50 %) is full colour.
/// O(n²) time.
///
/// ```
/// let svg = fairdeck_audit::plot::heatmap(2, &[5, 5, 5, 5], 10, 0.5, "even")?;
/// assert!(svg.starts_with("<svg"));
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::OutOfRange`] if the matrix is not n × n or n = 0.
pub fn heatmap(
    n: usize,
    counts: &[u64],
    trials: u64,
    scale: f64,
    title: &str,
) -> Result<String, Error> {
    if n == 0 || counts.len() != n * n || trials == 0 {
        return Err(Error::OutOfRange(
            "the heatmap needs an n × n matrix and trials".into(),
        ));
    }
    let cell = (520 / n).clamp(4, 40) as i32;
    let (left, top) = (60, 50);
    let side = cell * n as i32;
    let expected = trials as f64 / n as f64;
    let mut svg = String::new();
    let mut c = Canvas::new(&mut svg, left + side + 130, top + side + 50)?;
    for (i, &count) in counts.iter().enumerate() {
        let (card, pos) = ((i / n) as i32, (i % n) as i32);
        let d = (count as f64 - expected) / (expected * scale);
        let (x, y) = (left + pos * cell, top + card * cell);
        c.rect((x, y), (x + cell, y + cell), &diverging(d))?;
    }
    c.text(title, 16, HPos::Left, (left, 20))?;
    c.text("position →", 12, HPos::Left, (left, top + side + 20))?;
    c.text("card ↓", 12, HPos::Left, (4, top + 8))?;
    legend(&mut c, left + side + 20, top, scale)?;
    c.finish()?;
    Ok(svg)
}

fn legend(c: &mut Canvas, x: i32, y: i32, scale: f64) -> Result<(), Error> {
    for i in 0..=40 {
        let yy = y + i * 5;
        c.rect((x, yy), (x + 16, yy + 5), &diverging(1.0 - i as f64 / 20.0))?;
    }
    c.text(
        &format!("{:+.0}%", scale * 100.0),
        12,
        HPos::Left,
        (x + 22, y + 3),
    )?;
    c.text("1/n", 12, HPos::Left, (x + 22, y + 103))?;
    c.text(
        &format!("{:+.0}%", -scale * 100.0),
        12,
        HPos::Left,
        (x + 22, y + 203),
    )
}

/// Plot area of [`curves`]: left, top, width, height in pixels.
const AREA: (i32, i32, i32, i32) = (60, 40, 560, 300);

/// Line chart of total variation (0..1) against the number of shuffles,
/// one coloured line per series. O(points) time.
///
/// # Errors
///
/// [`Error::OutOfRange`] if there is nothing to draw.
pub fn curves(title: &str, series: &[(String, Vec<(u32, f64)>)]) -> Result<String, Error> {
    let k_max = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|p| p.0))
        .max()
        .unwrap_or(0);
    if k_max == 0 {
        return Err(Error::OutOfRange("nothing to plot".into()));
    }
    let (left, top, w, h) = AREA;
    let at = |k: u32, tv: f64| {
        let x = left + (f64::from(k) / f64::from(k_max) * f64::from(w)) as i32;
        (x, top + ((1.0 - tv.clamp(0.0, 1.0)) * f64::from(h)) as i32)
    };
    let colours = [RED, BLUE, RGBColor(0, 140, 0), MAGENTA, BLACK];
    let mut svg = String::new();
    let mut c = Canvas::new(&mut svg, 800, 400)?;
    c.text(title, 16, HPos::Left, (left, 16))?;
    c.line((left, top), (left, top + h), &BLACK)?;
    c.line((left, top + h), (left + w, top + h), &BLACK)?;
    for (tv, text) in [(1.0, "1"), (0.5, "0.5"), (0.0, "0")] {
        c.text(text, 12, HPos::Right, (left - 6, at(0, tv).1))?;
    }
    let axis = format!("shuffles k (0..{k_max})  — total variation from uniform");
    c.text(&axis, 12, HPos::Left, (left, top + h + 24))?;
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = colours[i % colours.len()];
        for pair in points.windows(2) {
            c.line(at(pair[0].0, pair[0].1), at(pair[1].0, pair[1].1), &colour)?;
        }
        let y = top + 14 + 18 * i as i32;
        c.line((left + w + 10, y), (left + w + 30, y), &colour)?;
        c.text(name, 12, HPos::Left, (left + w + 34, y))?;
    }
    c.finish()?;
    Ok(svg)
}
