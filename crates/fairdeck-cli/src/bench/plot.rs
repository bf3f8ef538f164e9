//! The log–log chart of `fairdeck bench --plot`: seconds per shuffle against
//! n, one line per algorithm. SVG, or PNG drawn with an embedded font (Noto
//! Sans, from the `ttf-noto-sans` crate), so no system fonts are needed.

use std::path::Path;
use std::sync::Once;

use anyhow::{Context, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::Measurement;

/// The picture format, from the file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Scalable vector graphics.
    Svg,
    /// A 1200 × 800 bitmap.
    Png,
}

impl Kind {
    /// The format named by the file's extension.
    ///
    /// # Errors
    ///
    /// When the extension is neither `.svg` nor `.png`.
    pub fn of(path: &Path) -> anyhow::Result<Kind> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Kind::Svg),
            Some("png") => Ok(Kind::Png),
            _ => Err(crate::failure::usage(format!(
                "--plot {}: the file name must end in .svg or .png",
                path.display()
            ))),
        }
    }
}

const SIZE: (u32, u32) = (1200, 800);

/// Makes the embedded font the "sans-serif" family, once per process.
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font shipped by the crate.
        let _ =
            plotters::style::register_font("sans-serif", FontStyle::Normal, ttf_noto_sans::REGULAR);
    });
}

/// Draws the chart of `series` (one `(name, measurements)` per line) into `path`.
///
/// # Errors
///
/// When nothing was measured, or the file cannot be written.
pub fn draw(path: &Path, series: &[(String, Vec<Measurement>)]) -> anyhow::Result<()> {
    register_font();
    let kind = Kind::of(path)?;
    let result = match kind {
        // Drawn into memory and written here: plotters' own SVG file is
        // flushed when dropped, where a full disk went unnoticed (exit 0).
        Kind::Svg => {
            let mut svg = String::new();
            chart(
                SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
                series,
            )
            .and_then(|()| Ok(std::fs::write(path, svg)?))
        }
        Kind::Png => chart(BitMapBackend::new(path, SIZE).into_drawing_area(), series),
    };
    result.with_context(|| format!("cannot draw the plot {}", path.display()))
}

/// The range of a log axis covering `values`, widened a little.
fn log_range(values: impl Iterator<Item = f64>) -> Option<std::ops::Range<f64>> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    (hi > 0.0).then(|| lo / 1.5..hi * 1.5)
}

fn chart<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    series: &[(String, Vec<Measurement>)],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let all = || series.iter().flat_map(|(_, ms)| ms.iter());
    let xs = log_range(all().map(|m| m.n as f64)).ok_or_else(|| anyhow!("nothing was measured"))?;
    let ys = log_range(all().map(|m| m.seconds_per_run))
        .ok_or_else(|| anyhow!("nothing was measured"))?;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow!("{e}");
    root.fill(&WHITE).map_err(e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("fairdeck bench: time per shuffle", ("sans-serif", 28))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(xs.log_scale(), ys.log_scale())
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("n (cards)")
        .y_desc("seconds per shuffle")
        .x_label_formatter(&|x| format!("{x:.0e}"))
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(e)?;
    for (index, (name, ms)) in series.iter().enumerate() {
        let color = Palette99::pick(index).to_rgba();
        let points: Vec<(f64, f64)> = ms.iter().map(|m| (m.n as f64, m.seconds_per_run)).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(e)?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
            });
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension() {
        assert_eq!(Kind::of(Path::new("a/b.SVG")).unwrap(), Kind::Svg);
        assert_eq!(Kind::of(Path::new("b.png")).unwrap(), Kind::Png);
        assert!(Kind::of(Path::new("b.pdf")).is_err());
        assert!(Kind::of(Path::new("noext")).is_err());
    }

    #[test]
    fn log_range_ignores_zeros() {
        let r = log_range([0.0, 2.0, 8.0].into_iter()).unwrap();
        assert!((r.start - 2.0 / 1.5).abs() < 1e-12 && (r.end - 12.0).abs() < 1e-12);
        assert!(log_range([0.0].into_iter()).is_none());
    }
}
