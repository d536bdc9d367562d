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
"""Rigid-body paths: the footprint turns exactly with the body (the arc and holonomic models).

A body's state at t = 0 is its pose (x, y, phi), world twist (vx, vy, w) and world
acceleration (ax, ay, alpha) (m, rad, s; CCW positive), as `packed.Motion` holds it.  In
complex notation (z = x + i y) the heading is ``phi(t) = phi0 + w t + alpha t^2 / 2`` under
both models and a vertex at body offset s is at ``c(t) + e^(i phi(t)) s``:

* HOLONOMIC: the origin keeps its world velocity and acceleration,
  ``c(t) = c0 + v t + a t^2 / 2``, while the body turns about it (omnidirectional bases,
  people, carts: the heading does not steer the path).
* ARC: the body-frame twist ``vb`` and acceleration ``ab`` are held (differential-drive and
  Ackermann robots, `cmd_vel` held): ``c'(t) = e^(i phi(t)) (vb + ab t)``.  The state's
  acceleration is ab in world axes at t = 0, ``A = e^(i phi0) ab`` (the tangential part
  alone: a robot on a circle at constant speed has A = 0, whereas its world acceleration is
  the centripetal ``i w v``; `motion.model_accelerations` converts estimates).  With
  ``V = e^(i phi0) vb`` (= v),

      c(t) = c0 + int_0^t e^(i (w s + alpha s^2 / 2)) (V + A s) ds.

  For alpha = 0 it is closed: ``c0 + V t phi1(i w t) + A t^2 phi2(i w t)``, with
  ``phi1(z) = (e^z - 1) / z`` and ``phi2(z) = (e^z (z - 1) + 1) / z^2`` (series for small
  |z|); a circle when A = 0, a straight line when w = 0.  For alpha != 0 (a clothoid) it is
  integrated by composite 4-point Gauss-Legendre (`arc_step`), with the error bound of
  `ARC_QUADRATURE_ERROR`.

Both models give a body that does not turn (w = alpha = 0) the path of the seed's point
models: ``c0 + v t + a t^2 / 2`` for every vertex.

Bounds: every point of a body lies within its bounding radius rho of the origin, and moves at
most ``|V + A t| + |w + alpha t| rho`` (under both models |c'(t)| = |V + A t|); both terms are
convex in t, so their largest values on an interval are at its ends (`path_bounds`).
"""

import math

import numpy as np

from .constants import jit, MotionModel
from .geometry2d.primitives import norm
from .trig import rotate, sincos

ARC_QUADRATURE_ERROR = 4.05e-11
"""C of the bound ``C t (|V| + 7 |A| t)`` (m) on the error of `arc_step`'s origin over [0, t].

Per panel of length h, each of the real and imaginary parts of 4-point Gauss-Legendre errs
by ``h^9 (4!)^4 / (9 (8!)^3) |f^(8)(xi)|``, and Cauchy's estimate on the circle of radius
r = 6h about xi bounds ``|f^(8)| <= 8! M / r^8`` for the integrand
``f(z) = e^(i (w z + alpha z^2 / 2)) (V + A z)``, with
``M <= e^(6 h Omega + 18 |alpha| h^2) (|V| + |A| (t + 6 h))`` (Omega the largest |w + alpha s|
on the panel).  Panels are short enough that the exponent is at most 3/4, so the error is
at most ``sqrt(2) (4!)^4 8! e^(3/4) / (9 (8!)^3 6^8) h (|V| + 7 |A| t)`` per panel
(h <= t), 4.04e-11 h (...), and the panels sum to t."""

_GL_X = (-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526)
_GL_W = (0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538)
_SERIES_LIMIT = 0.5
BOX_CHORDS = 4
"""How many chords `origin_box` walks an origin's path in (`path_chords`)."""


@jit
def is_rigid(model):
    """Whether the model moves the footprint rigidly (ARC, HOLONOMIC)."""
    return model == MotionModel.ARC or model == MotionModel.HOLONOMIC


@jit
def rigid_state(b, motion, model):
    """Body b's path coefficients: ``(x0, y0, phi0, Vx, Vy, Ax, Ay, w, alpha, arc)``, V and
    A the origin's velocity and acceleration of the module docstring.  Under the point
    models they are the origin's (no acceleration under constant velocity): the path of a
    body that does not turn."""
    poses, twists, accels = motion
    held = 0.0 if model == MotionModel.CONSTANT_VELOCITY else 1.0
    return (poses[b, 0], poses[b, 1], poses[b, 2], twists[b, 0], twists[b, 1],
            held * accels[b, 0], held * accels[b, 1], twists[b, 2], held * accels[b, 2],
            model == MotionModel.ARC)


def _series(denominator):
    """The seven coefficients ``(-1)^m / denominator(m)``, m = 0..6, of a series in z^2."""
    return tuple((-1.0) ** m / denominator(m) for m in range(7))


# phi1(i z) = sum (i z)^k / (k + 1)! and phi2(i z) = sum (i z)^k / (k! (k + 2)), split into
# real and imaginary parts (the latter with its factor z taken out)
_PHI1_RE = _series(lambda m: math.factorial(2 * m + 1))
_PHI1_IM = _series(lambda m: math.factorial(2 * m + 2))
_PHI2_RE = _series(lambda m: math.factorial(2 * m) * (2 * m + 2))
_PHI2_IM = _series(lambda m: math.factorial(2 * m + 1) * (2 * m + 3))


@jit
def _even_series(c, z2):
    """Horner's ``sum_m c[m] z2^m`` over the seven coefficients c."""
    acc = c[6]
    for m in range(5, -1, -1):
        acc = c[m] + z2 * acc
    return acc


@jit
def phi(z):
    """``(Re, Im) of phi1(i z)`` and ``of phi2(i z)`` for real z (module docstring).

    Below `_SERIES_LIMIT` from their series to the term in z^13 (Horner's, in z^2, the
    coefficients ``1 / (2m + 1)!``, ``1 / (2m + 2)!``, ``1 / ((2m)! (2m + 2))``,
    ``1 / ((2m + 1)! (2m + 3))`` with signs ``(-1)^m``); the first term left out is under
    1e-16 at |z| = 1/2, where the closed forms' cancellation is as small."""
    if abs(z) < _SERIES_LIMIT:
        z2 = z * z
        return (_even_series(_PHI1_RE, z2), z * _even_series(_PHI1_IM, z2),
                _even_series(_PHI2_RE, z2), z * _even_series(_PHI2_IM, z2))
    s, c = sincos(z)
    z2 = z * z
    return s / z, (1.0 - c) / z, (c + z * s - 1.0) / z2, (s - z * c) / z2


@jit
def _turn_rate(w, alpha, t):
    return w + alpha * t


@jit
def _closed_arc(st, t):
    """``(x, y, vx, vy)``: an ARC origin with alpha = 0 and its velocity at t, in closed form
    (module docstring); the turn's ``e^(i w t) = 1 + i w t phi1(i w t)`` comes from the same
    `phi`, so the velocity ``e^(i w t) (V + A t)`` costs no sine of its own."""
    x0, y0, _, vx, vy, ax, ay, w, _, _ = st
    z = w * t
    p1r, p1i, p2r, p2i = phi(z)
    t2 = t * t
    ux, uy = vx + ax * t, vy + ay * t
    s, c = z * p1r, 1.0 - z * p1i
    return (x0 + t * (vx * p1r - vy * p1i) + t2 * (ax * p2r - ay * p2i),
            y0 + t * (vx * p1i + vy * p1r) + t2 * (ax * p2i + ay * p2r),
            c * ux - s * uy, s * ux + c * uy)


@jit
def arc_step(st, t0, cx, cy, t1):
    """Origin at t1 given the origin (cx, cy) at t0 (t0 <= t1), by the closed form when
    alpha = 0 (then from t = 0, ignoring t0) or one 4-point Gauss-Legendre panel per stretch
    short enough for `ARC_QUADRATURE_ERROR`; HOLONOMIC from its polynomial."""
    x0, y0, _, vx, vy, ax, ay, w, al, arc = st
    if not arc:
        return x0 + (vx + 0.5 * ax * t1) * t1, y0 + (vy + 0.5 * ay * t1) * t1
    if al == 0.0:
        x, y, _, _ = _closed_arc(st, t1)
        return x, y
    span = t1 - t0
    if not span > 0.0:
        return cx, cy
    most = max(abs(_turn_rate(w, al, t0)), abs(_turn_rate(w, al, t1)))
    panels = int(math.ceil(max(12.0 * most * span, math.sqrt(72.0 * abs(al)) * span, 1.0)))
    h = span / panels
    for k in range(panels):
        mid = t0 + (k + 0.5) * h
        for g in range(4):
            s = mid + 0.5 * h * _GL_X[g]
            sn, cs = sincos((w + 0.5 * al * s) * s)
            ux, uy = vx + ax * s, vy + ay * s
            f = 0.5 * h * _GL_W[g]
            cx += f * (cs * ux - sn * uy)
            cy += f * (sn * ux + cs * uy)
    return cx, cy


@jit
def origin_at(st, t0, cx, cy, t1):
    """``(x, y, vx, vy)``: the origin at t1 (`arc_step` from (cx, cy) at t0) and its velocity
    c'(t1) (`origin_velocity`), in one call: under ARC with alpha = 0 from one `phi`."""
    if st[9] and st[8] == 0.0:
        return _closed_arc(st, t1)
    x, y = arc_step(st, t0, cx, cy, t1)
    vx, vy = origin_velocity(st, t1)
    return x, y, vx, vy


@jit
def heading(st, t):
    """phi(t) = phi0 + w t + alpha t^2 / 2."""
    return st[2] + (st[7] + 0.5 * st[8] * t) * t


@jit
def path_error(st, horizon):
    """Bound (m) on the error of the origin `arc_step` gives on [0, horizon]: 0 for the
    closed forms (rounding aside), `ARC_QUADRATURE_ERROR`'s bound for a clothoid."""
    _, _, _, vx, vy, ax, ay, _, al, arc = st
    if not arc or al == 0.0:
        return 0.0
    return ARC_QUADRATURE_ERROR * horizon * (norm(vx, vy) + 7.0 * norm(ax, ay) * horizon)


@jit
def path_bounds(st, lo, hi):
    """``(speed, turn, acceleration)``: bounds over [lo, hi] on the origin's speed |c'|, the
    turn rate |w + alpha t| (both convex in t: their largest values are at the ends) and the
    origin's acceleration |c''|: |A| under HOLONOMIC, ``|A| + turn speed`` under ARC
    (``c'' = e^(i phi) (A + i phi' (V + A t))``)."""
    _, _, _, vx, vy, ax, ay, w, al, arc = st
    speed = max(norm(vx + ax * lo, vy + ay * lo), norm(vx + ax * hi, vy + ay * hi))
    turn = max(abs(_turn_rate(w, al, lo)), abs(_turn_rate(w, al, hi)))
    accel = norm(ax, ay)
    return speed, turn, accel + turn * speed if arc else accel


@jit
def origin_velocity(st, t):
    """c'(t): ``V + A t``, turned by ``w t + alpha t^2 / 2`` under ARC."""
    _, _, _, vx, vy, ax, ay, w, al, arc = st
    ux, uy = vx + ax * t, vy + ay * t
    if not arc:
        return ux, uy
    s, c = sincos((w + 0.5 * al * t) * t)
    return rotate(s, c, ux, uy)


@jit
def quadratic_extent(p, v, a, horizon):
    """Min and max over t in [0, horizon] of p + v t + a t^2 / 2 (one axis).

    The extremes are at the ends and at the turning point t = -v / a; clamped into
    [0, horizon] that point is always on the path, so taking it unconditionally keeps the
    loop free of unpredictable branches.
    """
    end = p + (v + 0.5 * a * horizon) * horizon
    t = min(max(-v / a if a != 0.0 else 0.0, 0.0), horizon)
    mid = p + (v + 0.5 * a * t) * t
    return min(p, end, mid), max(p, end, mid)


@jit
def path_chords(st, horizon, steps):
    """``(d, pad, walk)`` for walking an origin's path over [0, H] in `steps` chords
    (`chord_end`): the step d = H / steps and a bound `pad` on how far the path, true
    or as `arc_step` places it, strays from the chord joining its points at k d and
    (k + 1) d: ``M d^2 / 8 + 2 e``.  Linear interpolation's error ``c(t) - chord(t)`` is c''
    against a non-negative kernel of mass ``(t - t_k)(t_k+1 - t) / 2 <= d^2 / 8``, M the bound
    on |c''| of `path_bounds`; e bounds the points' own error (`path_error`; rounding aside).

    With alpha = 0 under ARC, one `phi` serves every chord: from t = k d the origin moves by
    ``e^(i w t) ((V + A t) d phi1(i w d) + A d^2 phi2(i w d))`` (the module docstring's
    integral, shifted to start at t), ``B + k C`` turned by ``e^(i w k d)``, the k-th power
    of ``e^(i w d) = 1 + i w d phi1(i w d)``; `walk` holds B, C, e^(i w d) and the power."""
    _, _, _, vx, vy, ax, ay, w, _, _ = st
    _, _, accel = path_bounds(st, 0.0, horizon)
    d = horizon / steps
    p1r, p1i, p2r, p2i = phi(w * d)
    walk = (d * (vx * p1r - vy * p1i) + d * d * (ax * p2r - ay * p2i),
            d * (vx * p1i + vy * p1r) + d * d * (ax * p2i + ay * p2r),
            d * d * (ax * p1r - ay * p1i), d * d * (ax * p1i + ay * p1r),
            1.0 - w * d * p1i, w * d * p1r, 1.0, 0.0)
    return d, 0.125 * accel * d * d + 2.0 * path_error(st, horizon), walk


@jit
def chord_end(st, d, walk, k, x, y):
    """``(x, y, walk)``: the origin at (k + 1) d from the origin (x, y) at k d
    (`path_chords`); a clothoid's and a polynomial path's from `arc_step`."""
    bx, by, cx, cy, er, ei, rr, ri = walk
    if not st[9] or st[8] != 0.0:
        x, y = arc_step(st, k * d, x, y, (k + 1) * d)
        return x, y, walk
    sx, sy = bx + k * cx, by + k * cy
    return (x + rr * sx - ri * sy, y + ri * sx + rr * sy,
            (bx, by, cx, cy, er, ei, rr * er - ri * ei, rr * ei + ri * er))


@jit
def origin_box(st, horizon):
    """``(xlo, ylo, xhi, yhi)``: a box holding an ARC origin's path over [0, H]: the box of
    its points at the ends of its chords (`path_chords`), widened by their `pad`."""
    d, pad, walk = path_chords(st, horizon, BOX_CHORDS)
    x, y = st[0], st[1]
    xlo = xhi = x
    ylo = yhi = y
    for k in range(BOX_CHORDS):
        x, y, walk = chord_end(st, d, walk, k, x, y)
        xlo, xhi = min(xlo, x), max(xhi, x)
        ylo, yhi = min(ylo, y), max(yhi, y)
    return xlo - pad, ylo - pad, xhi + pad, yhi + pad


@jit
def place_rigid(st, offsets, first, count, t, cx, cy, out):
    """Write the count vertices at body offsets ``offsets[first:first + count]`` placed at
    heading phi(t) about origin (cx, cy) to ``out[:count]``."""
    s, c = sincos(heading(st, t))
    for k in range(count):
        rx, ry = rotate(s, c, offsets[first + k, 0], offsets[first + k, 1])
        out[k, 0] = cx + rx
        out[k, 1] = cy + ry


def rigid_vertices(model, pose, twist, acceleration, offsets, t):
    """World vertices (n, 2) of one body t seconds ahead under a rigid model (ARC or
    HOLONOMIC; see the module docstring), from its world pose, twist and acceleration."""
    off = np.ascontiguousarray(offsets, dtype=np.float64).reshape(-1, 2)
    motion = tuple(np.asarray(x, np.float64).reshape(1, 3) for x in (pose, twist, acceleration))
    st = rigid_state(0, motion, int(MotionModel.parse(model)))
    cx, cy = arc_step(st, 0.0, st[0], st[1], float(t))
    out = np.empty_like(off)
    place_rigid(st, off, 0, off.shape[0], float(t), cx, cy, out)
    return out
