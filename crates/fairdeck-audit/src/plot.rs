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
    let mut svg = String::new();
    {
        let size = ((left + side + 130) as u32, (top + side + 50) as u32);
        let mut root = SVGBackend::with_string(&mut svg, size);
        root.draw_rect((0, 0), (size.0 as i32, size.1 as i32), &WHITE, true)
            .map_err(svg_error)?;
        let expected = trials as f64 / n as f64;
        for card in 0..n {
            for pos in 0..n {
                let d = (counts[card * n + pos] as f64 - expected) / (expected * scale);
                let (x, y) = (left + pos as i32 * cell, top + card as i32 * cell);
                root.draw_rect((x, y), (x + cell, y + cell), &diverging(d), true)
                    .map_err(svg_error)?;
            }
        }
        root.draw_text(title, &label(16, HPos::Left), (left, 20))
            .map_err(svg_error)?;
        root.draw_text(
            "position →",
            &label(12, HPos::Left),
            (left, top + side + 20),
        )
        .map_err(svg_error)?;
        root.draw_text("card ↓", &label(12, HPos::Left), (4, top + 8))
            .map_err(svg_error)?;
        legend(&mut root, left + side + 20, top, scale)?;
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}

fn legend(root: &mut SVGBackend, x: i32, y: i32, scale: f64) -> Result<(), Error> {
    for i in 0..=40 {
        let d = 1.0 - i as f64 / 20.0;
        let yy = y + i * 5;
        root.draw_rect((x, yy), (x + 16, yy + 5), &diverging(d), true)
            .map_err(svg_error)?;
    }
    let pct = format!("{:+.0}%", scale * 100.0);
    root.draw_text(&pct, &label(12, HPos::Left), (x + 22, y + 3))
        .map_err(svg_error)?;
    root.draw_text("1/n", &label(12, HPos::Left), (x + 22, y + 103))
        .map_err(svg_error)?;
    let neg = format!("{:+.0}%", -scale * 100.0);
    root.draw_text(&neg, &label(12, HPos::Left), (x + 22, y + 203))
        .map_err(svg_error)?;
    Ok(())
}

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
    let (left, top, w, h) = (60, 40, 560, 300);
    let px = |k: u32| left + (k as f64 / k_max as f64 * w as f64) as i32;
    let py = |tv: f64| top + ((1.0 - tv.clamp(0.0, 1.0)) * h as f64) as i32;
    let colours = [RED, BLUE, RGBColor(0, 140, 0), MAGENTA, BLACK];
    let mut svg = String::new();
    {
        let mut root = SVGBackend::with_string(&mut svg, (800, 400));
        root.draw_rect((0, 0), (800, 400), &WHITE, true)
            .map_err(svg_error)?;
        root.draw_text(title, &label(16, HPos::Left), (left, 16))
            .map_err(svg_error)?;
        root.draw_line((left, top), (left, top + h), &BLACK)
            .map_err(svg_error)?;
        root.draw_line((left, top + h), (left + w, top + h), &BLACK)
            .map_err(svg_error)?;
        for (tv, text) in [(1.0, "1"), (0.5, "0.5"), (0.0, "0")] {
            root.draw_text(text, &label(12, HPos::Right), (left - 6, py(tv)))
                .map_err(svg_error)?;
        }
        let axis = format!("shuffles k (0..{k_max})  — total variation from uniform");
        root.draw_text(&axis, &label(12, HPos::Left), (left, top + h + 24))
            .map_err(svg_error)?;
        for (i, (name, points)) in series.iter().enumerate() {
            let colour = colours[i % colours.len()];
            for pair in points.windows(2) {
                let (a, b) = (
                    (px(pair[0].0), py(pair[0].1)),
                    (px(pair[1].0), py(pair[1].1)),
                );
                root.draw_line(a, b, &colour).map_err(svg_error)?;
            }
            let y = top + 14 + 18 * i as i32;
            root.draw_line((left + w + 10, y), (left + w + 30, y), &colour)
                .map_err(svg_error)?;
            root.draw_text(name, &label(12, HPos::Left), (left + w + 34, y))
                .map_err(svg_error)?;
        }
        root.present().map_err(svg_error)?;
    }
    Ok(svg)
}
