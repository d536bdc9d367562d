# Copyright 2026 The collision_monitor authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Real roots of polynomials of degree <= 4 on an interval, in increasing order.

Method (no companion matrix, no allocation): the critical points of f, found recursively as
the roots of f', split the interval into pieces on which f is monotone.  Each piece holds at
most one root, found where f changes sign by a safeguarded Newton-bisection iteration
(`refine`) to ``XTOL_REL * (1 + |t|)``.  A critical point where ``|f| <= ftol`` is a double
root (grazing) even without a sign change.  Quadratics use the cancellation-free formula
``q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2``, roots ``q / a`` and ``c / q``, which also covers a
vanishing leading coefficient, so degenerate quartics (really cubic, quadratic, linear or
constant) need no special path.

Bezier clipping (`bernstein4`, `first_band_entry`, `clip_step`): on [a, b] the quartic equals
the Bernstein form ``sum_k beta_k B_k((t - a) / (b - a))`` and lies in the convex hull of its
control points ``(k / 4, beta_k)``; where that hull stays out of the band ``|y| <= ftol`` the
quartic has no root.  Clipping the left end of the interval to where the hull first enters the
band is a rigorous lower bound on the first root, and repeated clipping converges on it; time
of collision uses it to reject most vertex-edge quartics for a few dozen flops each, before
any critical point is computed.

Coefficients are passed low order first: f(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4.
Missing roots are returned as inf.
"""

import math

import numpy as np

from .constants import jit

XTOL_REL = 1e-14
MAX_ITER = 100


@jit
def horner(c0, c1, c2, c3, c4, t):
    """Evaluate c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4."""
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


@jit
def refine(c0, c1, c2, c3, c4, lo, hi, flo):
    """Root of f in [lo, hi] where f(lo) = flo and f(hi) have opposite signs (or one is 0)."""
    d1, d2, d3 = 2.0 * c2, 3.0 * c3, 4.0 * c4
    t = 0.5 * (lo + hi)
    for _ in range(MAX_ITER):
        ft = horner(c0, c1, c2, c3, c4, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo, flo = t, ft
        else:
            hi = t
        if hi - lo <= XTOL_REL * (1.0 + abs(t)):
            break
        dft = ((d3 * t + d2) * t + d1) * t + c1
        step = t - ft / dft if dft != 0.0 else 0.5 * (lo + hi)
        # Newton when it stays well inside the bracket, else bisection
        t = step if lo < step < hi else 0.5 * (lo + hi)
    return t


@jit
def quadratic_roots(a, b, c, lo, hi):
    """Roots of a t^2 + b t + c in [lo, hi]: ``(n, r0, r1)`` with r0 <= r1, inf if missing."""
    inf = np.inf
    r0 = inf
    r1 = inf
    if a == 0.0:
        if b != 0.0:
            r0 = -c / b
    else:
        disc = b * b - 4.0 * a * c
        if disc < 0.0:
            # a negative discriminant within rounding is a double root
            if disc > -16.0 * 2.2e-16 * b * b:
                r0 = -b / (2.0 * a)
        else:
            q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
            x0 = q / a
            x1 = c / q if q != 0.0 else inf
            r0 = min(x0, x1)
            r1 = max(x0, x1)
    n = 0
    o0 = inf
    o1 = inf
    if lo <= r0 <= hi:
        o0 = r0
        n = 1
    if lo <= r1 <= hi and r1 != r0:
        if n == 0:
            o0 = r1
        else:
            o1 = r1
        n += 1
    return n, o0, o1


@jit
def _roots_on_pieces(c, lo, hi, critical, ftol):
    """Roots of f (coefficients c = (c0, ..., c4)) on [lo, hi] split at the sorted critical
    points ``critical = (k0, k1, k2)``, k0 <= k1 <= k2 (inf = none)."""
    c0, c1, c2, c3, c4 = c
    k0, k1, k2 = critical
    inf = np.inf
    out0 = inf
    out1 = inf
    out2 = inf
    out3 = inf
    n = 0
    a = lo
    fa = horner(c0, c1, c2, c3, c4, a)
    if abs(fa) <= ftol:
        out0 = a
        n = 1
    for p in range(4):
        b = hi
        if p == 0 and k0 < hi:
            b = k0
        elif p == 1 and k1 < hi:
            b = k1
        elif p == 2 and k2 < hi:
            b = k2
        elif p < 3:
            continue
        if b <= a:
            continue
        fb = horner(c0, c1, c2, c3, c4, b)
        root = inf
        if abs(fb) <= ftol:
            if abs(fa) > ftol:
                # reaching the tolerance band at b: the crossing itself when f changes sign
                crosses = fb != 0.0 and (fa > 0.0) != (fb > 0.0)
                root = refine(c0, c1, c2, c3, c4, a, b, fa) if crosses else b
        elif abs(fa) > ftol and (fa > 0.0) != (fb > 0.0):
            root = refine(c0, c1, c2, c3, c4, a, b, fa)
        if root < inf:
            if n == 0:
                out0 = root
            elif n == 1:
                out1 = root
            elif n == 2:
                out2 = root
            else:
                out3 = root
            n += 1
        a = b
        fa = fb
        if b >= hi:
            break
    return n, out0, out1, out2, out3


@jit
def cubic_roots(d0, d1, d2, d3, lo, hi):
    """Sign-change roots of d0 + d1 t + d2 t^2 + d3 t^3 in [lo, hi]: ``(n, r0, r1, r2)``."""
    m, k0, k1 = quadratic_roots(3.0 * d3, 2.0 * d2, d1, lo, hi)
    n, r0, r1, r2, r3 = _roots_on_pieces((d0, d1, d2, d3, 0.0), lo, hi, (k0, k1, np.inf), 0.0)
    return n, r0, r1, r2


@jit
def poly4_roots(c0, c1, c2, c3, c4, lo, hi, ftol):
    """Roots of the quartic on [lo, hi], increasing: ``(n, r0, r1, r2, r3)``.

    A point where ``|f| <= ftol`` counts as a root where it is a crossing, an end of the
    interval or a critical point (a touching, double root).
    """
    m, k0, k1, k2 = cubic_roots(c1, 2.0 * c2, 3.0 * c3, 4.0 * c4, lo, hi)
    n, r0, r1, r2, r3 = _roots_on_pieces((c0, c1, c2, c3, c4), lo, hi, (k0, k1, k2), ftol)
    return n, r0, r1, r2, r3


@jit
def bernstein4(c0, c1, c2, c3, c4, a, b):
    """Bernstein coefficients of the quartic on [a, b], control points at s = k / 4.

    Taylor shift to a (synthetic division), scale by h = b - a, then the power-to-Bernstein
    map ``beta_k = sum_{i<=k} C(k, i) / C(4, i) d_i``.
    """
    # shift: coefficients of f(a + x)
    d3 = c3 + a * c4
    d2 = c2 + a * d3
    d1 = c1 + a * d2
    d0 = c0 + a * d1
    d3 = d3 + a * c4
    d2 = d2 + a * d3
    d1 = d1 + a * d2
    d3 = d3 + a * c4
    d2 = d2 + a * d3
    d3 = d3 + a * c4
    h = b - a
    d1 *= h
    d2 *= h * h
    d3 *= h * h * h
    d4 = c4 * h * h * h * h
    return (d0, d0 + 0.25 * d1, d0 + 0.5 * d1 + d2 / 6.0,
            d0 + 0.75 * d1 + 0.5 * d2 + 0.25 * d3, d0 + d1 + d2 + d3 + d4)


@jit
def first_band_entry(beta, band):
    """Smallest s in [0, 1] where the hull of the control points (k / 4, beta_k) meets
    ``|y| <= band``; 2.0 when it never does (no root on the interval).

    With beta_0 outside the band, the hull's leftmost point inside it lies on a segment
    from a control point outside (same side as beta_0) to a point k inside or beyond.
    Only outside points m < k need trying: beta_0 is one, and its segment to k meets the
    band at or left of k / 4, where a segment from k to a later point cannot.
    """
    if abs(beta[0]) <= band:
        return 0.0
    sign = 1.0 if beta[0] > 0.0 else -1.0
    best = 2.0
    for k in range(1, 5):
        yk = sign * beta[k] - band
        if yk > 0.0:
            continue
        for m in range(k):
            ym = sign * beta[m] - band
            if ym > 0.0:
                s = 0.25 * (m + (k - m) * ym / (ym - yk))
                best = min(best, s)
    return best


@jit
def clip_step(c0, c1, c2, c3, c4, lo, hi, band, at_least):
    """One Bezier clip: the first t in [lo, hi] where the hull of f's control points meets
    ``|y| <= band`` (or ``y >= -band`` when `at_least`); inf when it never does.

    The band is widened by the rounding of the shift and the Bernstein map, bounded by
    ``sum |c_k| T^k`` with T = max(|lo|, |hi|), so the bound stays safe.
    """
    span = max(abs(lo), abs(hi))
    band = band + 64.0 * 2.2e-16 * horner(abs(c0), abs(c1), abs(c2), abs(c3), abs(c4), span)
    beta = bernstein4(c0, c1, c2, c3, c4, lo, hi)
    if at_least and beta[0] >= -band:
        return lo
    s = first_band_entry(beta, band)
    return lo + s * (hi - lo) if s <= 1.0 else np.inf


@jit
def clip_to_band(c0, c1, c2, c3, c4, lo, hi, band, at_least, rounds):
    """`clip_step` repeated up to `rounds` times, until a clip gains under a tenth of what is
    left of [lo, hi]: a lower bound on the first t there where ``|f| <= band`` (``f >= -band``
    when `at_least`), tighter the more rounds; inf when a clip rules the interval out."""
    for _ in range(rounds):
        start = lo
        lo = clip_step(c0, c1, c2, c3, c4, lo, hi, band, at_least)
        if not lo <= hi:
            return np.inf
        if lo - start < 0.1 * (hi - start):
            break
    return lo
