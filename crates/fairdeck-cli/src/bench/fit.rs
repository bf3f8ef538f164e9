//! The growth exponent: the least-squares slope of log(time) against log(n).

use serde::Serialize;

use super::Measurement;

/// Below this size fixed costs (allocation, call overhead) dominate, so the
/// fit leaves such sizes out when at least two larger ones were measured.
pub const SMALLEST_FITTED: usize = 100;

/// A fitted power law `time ≈ c · n^exponent`.
#[derive(Debug, Clone, Serialize)]
pub struct Fit {
    /// The subject's name.
    pub algorithm: String,
    /// The slope of ln(seconds per run) against ln(n).
    pub exponent: f64,
    /// The coefficient of determination of the fit on the log–log scale.
    pub r_squared: f64,
    /// The sizes the fit used.
    pub sizes: Vec<usize>,
}

/// Fits the growth exponent of one subject's measurements; `None` with fewer
/// than two distinct sizes.
pub fn growth_exponent(name: &str, measured: &[Measurement]) -> Option<Fit> {
    let large: Vec<&Measurement> = measured.iter().filter(|m| m.n >= SMALLEST_FITTED).collect();
    let used: Vec<&Measurement> = if large.len() >= 2 {
        large
    } else {
        measured.iter().collect()
    };
    let points: Vec<(f64, f64)> = used
        .iter()
        .filter(|m| m.n > 0 && m.seconds_per_run > 0.0)
        .map(|m| ((m.n as f64).ln(), m.seconds_per_run.ln()))
        .collect();
    let (slope, r_squared) = least_squares(&points)?;
    Some(Fit {
        algorithm: name.to_string(),
        exponent: slope,
        r_squared,
        sizes: used.iter().map(|m| m.n).collect(),
    })
}

/// Slope and R² of the least-squares line through `points`.
pub fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let len = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / len;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / len;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - mean_y).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let r_squared = if syy == 0.0 {
        1.0
    } else {
        sxy * sxy / (sxx * syy)
    };
    Some((slope, r_squared))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tests::m;

    #[test]
    fn exact_power_laws_give_their_exponent() {
        for k in [1.0f64, 1.5, 2.0] {
            let ms: Vec<_> = [10usize, 100, 1000, 10_000]
                .iter()
                .map(|&n| m(n, 3e-9 * (n as f64).powf(k)))
                .collect();
            let fit = growth_exponent("x", &ms).unwrap();
            assert!((fit.exponent - k).abs() < 1e-9, "{k}: {}", fit.exponent);
            assert!((fit.r_squared - 1.0).abs() < 1e-9);
            assert_eq!(fit.sizes, [100, 1000, 10_000], "small sizes left out");
        }
    }

    #[test]
    fn too_few_points_give_no_fit() {
        assert!(growth_exponent("x", &[m(10, 1.0)]).is_none());
        assert!(growth_exponent("x", &[]).is_none());
        let fit = growth_exponent("x", &[m(10, 1.0), m(20, 2.0)]).unwrap();
        assert!(
            (fit.exponent - 1.0).abs() < 1e-12,
            "small sizes used when nothing else"
        );
    }
}
