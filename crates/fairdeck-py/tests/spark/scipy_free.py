"""The chi-square survival function without scipy (tests only)."""

import math


def chi_square_sf(x: float, df: int) -> float:
    """P(X > x) for X ~ chi-square(df), df odd or even, by the series of
    the regularised upper incomplete gamma function Q(df/2, x/2)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    # Lower series: P(a, z) = z^a e^-z / Gamma(a + 1) * sum z^n / ((a+1)...(a+n)).
    term = total = 1.0
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= z / (a + n)
        total += term
    lower = math.exp(a * math.log(z) - z - math.lgamma(a + 1)) * total
    return max(0.0, 1.0 - lower)
