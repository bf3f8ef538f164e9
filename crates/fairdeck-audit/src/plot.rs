//! Pictures as SVG strings, drawn with plotters' SVG backend (no system
//! fonts needed: text is left to the SVG viewer).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::Error;

mod histograms;

pub use histograms::{BAR_FILL, Fitted, histograms};

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

/// Most rows (and columns) a heatmap draws: a larger matrix is drawn in
/// square blocks ([`heatmap_block`]), so that the picture stays a few MB
/// (at n = 4096 one rectangle per cell was a 1.5 GB SVG) and its drawing
/// time O(n²) at most.
pub const MAX_HEATMAP_SIDE: usize = 256;

/// The side of the square blocks of cells a heatmap of an n × n matrix draws
/// as one rectangle: 1 up to [`MAX_HEATMAP_SIDE`], then the least b with
/// ⌈n / b⌉ ≤ [`MAX_HEATMAP_SIDE`]. O(1).
///
/// ```
/// use fairdeck_audit::plot::heatmap_block;
///
/// assert_eq!(heatmap_block(52), 1);
/// assert_eq!(heatmap_block(4096), 16);
/// assert_eq!(heatmap_block(10_000), 40);
/// ```
pub fn heatmap_block(n: usize) -> usize {
    n.div_ceil(MAX_HEATMAP_SIDE).max(1)
}

/// Heatmap of a card × position count matrix (`counts[card * n + pos]`):
/// each cell's colour is the deviation of its frequency from 1/n, scaled so
/// that ±`scale` (a fraction of 1/n, e.g. 0.5 = ±50 %) is full colour.
/// Above [`MAX_HEATMAP_SIDE`] cards, square blocks of [`heatmap_block`]
/// cards × positions are drawn as one rectangle coloured by the mean
/// deviation of their cells (the title says so). O(n²) time, O(picture) memory.
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
    if n == 0 || n.checked_mul(n) != Some(counts.len()) || trials == 0 {
        return Err(Error::OutOfRange(
            "the heatmap needs an n × n matrix and trials".into(),
        ));
    }
    let block = heatmap_block(n);
    let side_cells = n.div_ceil(block);
    let deviation = block_deviations(n, counts, trials, block);
    let cell = (520 / side_cells).clamp(4, 40) as i32;
    let (left, top) = (60, 50);
    let side = cell * side_cells as i32;
    let mut svg = String::new();
    let mut c = Canvas::new(&mut svg, left + side + 130, top + side + 50)?;
    for (i, &d) in deviation.iter().enumerate() {
        let (row, col) = ((i / side_cells) as i32, (i % side_cells) as i32);
        let (x, y) = (left + col * cell, top + row * cell);
        c.rect((x, y), (x + cell, y + cell), &diverging(d / scale))?;
    }
    let title = match block {
        1 => title.to_string(),
        b => format!("{title}; each square: mean of {b} × {b} cards × positions"),
    };
    c.text(&title, 16, HPos::Left, (left, 20))?;
    c.text("position →", 12, HPos::Left, (left, top + side + 20))?;
    c.text("card ↓", 12, HPos::Left, (4, top + 8))?;
    legend(&mut c, left + side + 20, top, scale)?;
    c.finish()?;
    Ok(svg)
}

/// The mean relative deviation (count − expected) / expected of each
/// `block` × `block` square of the matrix, row by row. O(n²) time.
fn block_deviations(n: usize, counts: &[u64], trials: u64, block: usize) -> Vec<f64> {
    let side = n.div_ceil(block);
    let expected = trials as f64 / n as f64;
    let mut sum = vec![0.0; side * side];
    let mut cells = vec![0u32; side * side];
    for (i, &count) in counts.iter().enumerate() {
        let at = (i / n / block) * side + (i % n) / block;
        sum[at] += (count as f64 - expected) / expected;
        cells[at] += 1;
    }
    sum.iter()
        .zip(&cells)
        .map(|(s, &k)| s / f64::from(k.max(1)))
        .collect()
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

/// One SVG showing `parts` (SVGs drawn by this module) one below the
/// other, each kept whole as a nested `<svg>` at its offset. O(total length).
///
/// ```
/// use fairdeck_audit::plot::{heatmap, stack};
///
/// let one = heatmap(2, &[5, 5, 5, 5], 10, 0.5, "one")?;
/// let two = heatmap(2, &[9, 1, 1, 9], 10, 0.5, "two")?;
/// let both = stack(&[&one, &two])?;
/// assert_eq!(both.matches("<svg").count(), 3);
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::OutOfRange`] if a part is not an SVG with a width and height.
pub fn stack(parts: &[&str]) -> Result<String, Error> {
    let (mut width, mut height) = (0u32, 0u32);
    let mut body = String::new();
    for part in parts {
        let inner = part.strip_prefix("<svg ");
        let (Some(inner), Some((w, h))) = (inner, svg_size(part)) else {
            return Err(Error::OutOfRange(
                "cannot stack a picture that is not an SVG".into(),
            ));
        };
        body.push_str(&format!("<svg x=\"0\" y=\"{height}\" {inner}"));
        width = width.max(w);
        height += h;
    }
    Ok(format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">\n{body}</svg>\n"
    ))
}

/// The width and height attributes of an SVG's root element.
fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |name: &str| -> Option<u32> {
        let after = head.split(&format!(" {name}=\"")).nth(1)?;
        after.split('"').next()?.parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26 item 15: `audit asf-poker -n 4096 --trials 1000 --plot`
    /// wrote a 1.49 GB SVG (one rectangle per cell). Large matrices are
    /// drawn in blocks: a bounded picture, and a title that says so.
    #[test]
    fn a_large_heatmap_is_drawn_in_blocks_of_bounded_size() {
        let n = 4096;
        let counts = vec![7u64; n * n];
        let svg = heatmap(n, &counts, 7 * n as u64, 0.5, "big").unwrap();
        assert!(svg.len() < 8_000_000, "{} bytes", svg.len());
        assert!(svg.contains("each square: mean of 16 × 16"));
        let small = heatmap(MAX_HEATMAP_SIDE, &vec![1; 256 * 256], 256, 0.5, "x").unwrap();
        assert!(!small.contains("each square"));
        assert_eq!(heatmap_block(MAX_HEATMAP_SIDE + 1), 2);
    }

    #[test]
    fn a_block_keeps_the_sign_of_its_cells_deviation() {
        // n = 2, one block per cell: card 0 lands at position 0 too often.
        let d = block_deviations(2, &[15, 5, 5, 15], 20, 1);
        assert_eq!(d, vec![0.5, -0.5, -0.5, 0.5]);
        // n = 4 in 2 × 2 blocks: the means of the four cells.
        let counts = [6, 6, 2, 2, 6, 6, 2, 2, 2, 2, 6, 6, 2, 2, 6, 6];
        let d = block_deviations(4, &counts, 16, 2);
        assert_eq!(d, vec![0.5, -0.5, -0.5, 0.5]);
    }
}
