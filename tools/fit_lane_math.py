"""Coefficients of the erf/erfc and lgamma/tgamma lane forms (kernelkit/mux/clc/include/clc_lanes_gamma_erf.h and
clc_lanes_double_gamma_erf.h), derived with mpmath: Chebyshev interpolation at the Chebyshev nodes of an interval,
converted to monomials in a variable scaled to [-1, 1] and rounded to the element type; each fit is then evaluated
by Horner's rule in that type (numpy) at 20000 points against mpmath, and its largest error printed.

    python tools/fit_lane_math.py [--check N]

- erfc(z) for z >= 0 as t exp(P(s) - z^2) with t = 2 / (2 + z), u = (z - 2) / (z + 2), s = u scaled from
  [-1, u(zmax)] (the form of Numerical Recipes' erfcc): P fits log(erfc(z) / t) + z^2 (float: P / (1 + s));
- lgamma(2 + e) = e G(e) for |e| <= 1/2: G fits lgamma(2 + e) / e (its Taylor series converges only as 2^-k);
- erf(x) / x: its Taylor series for |x| <= 1 (double), a fit in x^2 for |x| <= 1 (float);
- the zeros of lgamma in (-18, -2) (two in each (-k-1, -k)) as double-doubles with the Taylor coefficients of
  R = lgamma(x) + log|x + k| + log|x + k + 1| there (lgamma = R(z + d) - R(z) - log1p(d / (z + k)) - log1p(d / (z + k + 1))).
"""

from __future__ import annotations

import argparse
import re

import mpmath as mp
import numpy as np

mp.mp.prec = 200


def _chebyshev_polys(n: int) -> list:
    polys = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
    while len(polys) < n:
        a, b = polys[-1], polys[-2]
        nxt = [mp.mpf(0)] + [2 * c for c in a]
        for i, c in enumerate(b):
            nxt[i] -= c
        polys.append(nxt)
    return polys[:n]


def fit(f, a, b, degree: int) -> list:
    """Monomial coefficients (constant first) in s in [-1, 1] of f's Chebyshev interpolant on [a, b]."""
    a, b = mp.mpf(a), mp.mpf(b)
    n = degree + 1
    nodes = [mp.cos(mp.pi * (k + mp.mpf(0.5)) / n) for k in range(n)]
    values = [f((b - a) / 2 * s + (a + b) / 2) for s in nodes]
    cheb = [2 * mp.fsum(values[k] * mp.cos(mp.pi * j * (k + mp.mpf(0.5)) / n) for k in range(n)) / n for j in range(n)]
    cheb[0] /= 2
    mono = [mp.mpf(0)] * n
    for c, poly in zip(cheb, _chebyshev_polys(n), strict=True):
        for i, p in enumerate(poly):
            mono[i] += c * p
    return mono


def horner(coefficients, s, dtype):
    c = [dtype(float(x)) for x in coefficients]
    p = np.full_like(s, c[-1])
    for x in reversed(c[:-1]):
        p = p * s + x   # (fma in the C code: numpy rounds twice, a slight overestimate)
    return p


def c_lines(name: str, coefficients, variable: str, dtype) -> str:
    """Horner's rule in C (highest coefficient first)."""
    fmt = (lambda x: float(x).hex()) if dtype is np.float64 else (lambda x: re.sub("0+p", "p", float(np.float32(float(x))).hex()) + "f")
    fma = "__builtin_fma" if dtype is np.float64 else "__builtin_fmaf"
    c = list(reversed(coefficients))
    lines = [f"  {name} = {fmt(c[0])};"] + [f"  {name} = {fma}({name}, {variable}, {fmt(x)});" for x in c[1:]]
    return "\n".join(lines)


def erfc_exponent(z):
    return mp.log(mp.erfc(z) * (2 + z) / 2) + z * z


def erfc_fit(zmax, degree, dtype, check, *, over_1_plus_s=False):
    """P, or with over_1_plus_s Q = P / (1 + s) (P = (1 + s) Q keeps P's relative accuracy next to z = 0,
    where P -> 0 and 1 + s = 2 z t / (u(zmax) + 1) is computed without cancellation)."""
    umax = (mp.mpf(zmax) - 2) / (mp.mpf(zmax) + 2)
    u_of = lambda s: (s + 1) / 2 * (umax + 1) - 1   # noqa: E731

    def target(u):
        value = erfc_exponent(2 * (1 + u) / (1 - u))
        if not over_1_plus_s:
            return value
        s = 2 * (u + 1) / (umax + 1) - 1
        if s + 1 < mp.mpf(2) ** -40:   # (the limit at s = -1: P'(-1))
            return mp.diff(lambda t: erfc_exponent(2 * (1 + u_of(t)) / (1 - u_of(t))), -1)
        return value / (1 + s)
    coefficients = fit(target, -1, umax, degree)
    s = np.linspace(-1, 1, check)
    got = horner(coefficients, s.astype(dtype), dtype)
    if over_1_plus_s:
        got = got * (s + 1).astype(dtype)
    worst = 0.0
    for si, gi in zip(s, got, strict=True):
        u = (si + 1) / 2 * (umax + 1) - 1
        worst = max(worst, abs(float(mp.mpf(float(gi)) - erfc_exponent(2 * (1 + u) / (1 - u)))))
    return coefficients, umax, worst


def lgamma2_over_e(e):
    """lgamma(2 + e) / e; its Taylor series (1 - gamma) + sum_k (-1)^k (zeta(k) - 1) / k e^(k-1) where 2 + e would
    round (a Chebyshev node next to 0)"""
    if abs(e) < mp.mpf(2) ** -60:
        return 1 - mp.euler + sum((-1) ** k * (mp.zeta(k) - 1) / k * e ** (k - 1) for k in range(2, 6))
    return mp.loggamma(2 + e) / e


def lgamma2_fit(degree, dtype, check):
    coefficients = fit(lgamma2_over_e, -0.5, 0.5, degree)   # (in s = 2e)
    coefficients = [c * mp.mpf(2) ** i for i, c in enumerate(coefficients)]   # (in e)
    e = np.linspace(-0.5, 0.5, check)
    got = horner(coefficients, e.astype(dtype), dtype)
    worst = max(abs(float((mp.mpf(float(g)) - lgamma2_over_e(mp.mpf(float(x)))) / lgamma2_over_e(mp.mpf(float(x)))))
                for x, g in zip(e, got, strict=True))
    return coefficients, worst


def erf_small_fit(zmax, degree, dtype, check):
    f = lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z else 2 / mp.sqrt(mp.pi)   # noqa: E731
    coefficients = fit(f, 0, zmax, degree)   # (in s = 2 z / zmax - 1)
    # to monomials in z: substitute s = 2 z / zmax - 1
    n = len(coefficients)
    mono = [mp.mpf(0)] * n
    for k, c in enumerate(coefficients):
        for i in range(k + 1):
            mono[i] += c * mp.binomial(k, i) * (2 / mp.mpf(zmax)) ** i * (-1) ** (k - i)
    z = np.linspace(0, zmax, check)
    got = horner(mono, z.astype(dtype), dtype)
    worst = max(abs(float((mp.mpf(float(g)) - f(mp.mpf(float(x)))) / f(mp.mpf(float(x))))) for x, g in zip(z, got, strict=True))
    return mono, worst


def erf_taylor(terms: int) -> list:
    """erf(x) / x = 2/sqrt(pi) sum_n (-1)^n z^n / (n! (2n + 1)) in z = x^2 (constant first)."""
    return [2 / mp.sqrt(mp.pi) * (-1) ** n / (mp.factorial(n) * (2 * n + 1)) for n in range(terms)]


def double_double(name: str, value) -> str:
    hi = float(value)
    return f"#define {name} {hi.hex()}\n#define {name}_LO {float(value - mp.mpf(hi)).hex()}"


def _r_derivative(n: int, x, k: int):
    """The n-th derivative (n >= 1) of R(x) = lgamma(x) + log|x + k| + log|x + k + 1| (the poles at the ends of
    (-k-1, -k) taken out) as lgamma(x + k + 2) - sum_{j < k} log|x + j|: no cancellation next to the poles."""
    v = mp.polygamma(n - 1, x + k + 2)
    for j in range(k):
        v -= (-1) ** (n - 1) * mp.factorial(n - 1) / (x + j) ** n
    return v


def _reach(lg, z, direction: int, limit, threshold):
    """How far from z towards limit |lg| stays below threshold (all the way: the distance to limit)."""
    h = abs(limit - z) * (1 - mp.mpf(10) ** -9)
    f = lambda t: abs(lg(z + direction * t)) - threshold   # noqa: E731
    return h if f(h) < 0 else mp.findroot(f, (mp.mpf(0), h), solver="anderson")


def lgamma_zeros(kmax: int, threshold, degree: int):
    """For each interval (-k-1, -k), 2 <= k <= kmax: the minimum m of |Gamma| (a zero of digamma) and the zeros of
    lgamma either side, each with z as a double-double and R's Taylor coefficients R^(n)(z) / n!,
    n = 1..degree; the largest relative error the truncation makes where |lgamma| < threshold."""
    lg = lambda x: mp.re(mp.loggamma(x))   # noqa: E731
    mids, rows, worst = [], [], mp.mpf(0)
    for k in range(2, kmax + 1):
        m = mp.findroot(mp.digamma, -k - mp.mpf(0.5))
        mids.append(m)
        for lo, hi in ((-k - 1, m), (m, -k)):
            z = mp.findroot(lg, (lo + (mp.mpf(10) ** -40 if lo == -k - 1 else 0), hi - (mp.mpf(10) ** -40 if hi == -k else 0)),
                            solver="anderson")
            coefficients = [_r_derivative(n, z, k) / mp.factorial(n) for n in range(1, degree + 12)]

            for d in (-_reach(lg, z, -1, lo, threshold), _reach(lg, z, 1, hi, threshold)):
                tail = abs(mp.fsum(c * d ** (n + 1) for n, c in enumerate(coefficients) if n + 1 > degree))
                worst = max(worst, tail / abs(lg(z + d)))
            hi_part = float(z)
            rows.append([hi_part, float(z - mp.mpf(hi_part))] + [float(c) for c in coefficients[:degree]])
    return mids, rows, worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=int, default=20000)
    args = ap.parse_args()
    for dtype, zmax, degree in ((np.float64, 27.3, 27), (np.float32, 10.1, 9)):
        over = dtype is np.float32
        coefficients, umax, worst = erfc_fit(zmax, degree, dtype, args.check, over_1_plus_s=over)
        print(f"/* erfc exponent{' / (1 + s)' if over else ''}, {dtype.__name__}, z <= {zmax}, u in [-1, {float(umax)!r}], "
              f"degree {degree}: largest error {worst:.3g} */")
        print(c_lines("p", coefficients, "s", dtype))
    for dtype, degree in ((np.float64, 19),):   # (float lgamma and tgamma round the double forms)
        coefficients, worst = lgamma2_fit(degree, dtype, args.check)
        print(f"/* lgamma(2 + e) / e, {dtype.__name__}, |e| <= 1/2, degree {degree}: largest relative error {worst:.3g} */")
        print(c_lines("g", coefficients, "e", dtype))
    terms = erf_taylor(18)
    print(f"/* erf(x) / x in z = x^2 <= 1, float64: Taylor series to z^17 (next term {float(erf_taylor(19)[-1]):.3g}) */")
    print(c_lines("p", terms, "z", np.float64))
    print(double_double("KK_LDD_2_SQRTPI", 2 / mp.sqrt(mp.pi)))   # (the series' first term, kept apart in C)
    print(double_double("KK_LDD_LGAMMA2_C0", 1 - mp.euler))      # (G(0), kept apart in C)
    print(double_double("KK_LDD_LOG_PI", mp.log(mp.pi)))
    print(double_double("KK_LDD_HALF_LOG_2PI", mp.log(2 * mp.pi) / 2))
    mids, rows, worst = lgamma_zeros(17, 1, 22)
    print(f"/* lgamma's zeros in (-18, -2): truncation error where |lgamma| < 1 at most {float(worst):.3g} (relative) */")
    print("static __constant double kk_ldd_lgamma_mids[16] = {" + ", ".join(float(m).hex() for m in mids) + "};")
    print("static __constant double kk_ldd_lgamma_zeros[32 * 24] = {")
    print(",\n".join("  " + ", ".join(x.hex() for x in row) for row in rows))
    print("};")
    coefficients, worst = erf_small_fit(1, 7, np.float32, args.check)
    print(f"/* erf(x) / x in z = x^2 <= 1, float32, degree 7: largest relative error {worst:.3g} */")
    print(c_lines("p", coefficients, "z", np.float32))


if __name__ == "__main__":
    main()
