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
"""Time of collision between moving polygons: constant velocity and constant acceleration.

Model ([polygons], "Interpolating Time of Collision"): every vertex moves as a point,
``r(t) = r + v t + a t^2 / 2`` (a = 0 for the constant-velocity predictor).  A vertex j meets
the line of edge P->Q of the other polygon when

    f(t) = (r_Q(t) - r_P(t)) x (r_j(t) - r_P(t)) = 0,

with u_k, w_k the Taylor coefficients of u = r_j - r_P and w = r_Q - r_P (u0 = r_j - r_P,
u1 = v_j - v_P, u2 = (a_j - a_P) / 2, and the same for w with Q), f is the quartic

    c4 = w2 x u2
    c3 = w1 x u2 + w2 x u1
    c2 = w0 x u2 + w1 x u1 + w2 x u0
    c1 = w0 x u1 + w1 x u0
    c0 = w0 x u0.

([polygons] prints c4 with (a_P - a_P) for (a_Q - a_P), c3 with velocities in both terms, and
c2 with (r_j - r_P) x (r_Q - r_P) for its first term; the lines above are derived afresh and
checked against a numeric expansion in the tests.)  Under constant velocity c4 = c3 = c2's
acceleration terms = 0, leaving the quadratic of [polygons] a t^2 + b t + c.

A root counts when it is real, in [0, horizon], and the vertex lies on the edge then: within
the tolerance tol of the segment along the line, ``-tol / |w| <= d = u(t).w(t) / |w(t)|^2 <=
1 + tol / |w|``.  At the start of the search window, where |f| <= tol |w| counts as a root
with the vertex up to tol off the line, its distance to the segment must be at most tol (as
the contact tests have it: line and slab each within tol leave up to sqrt(2) tol at a
corner).  Two polygons that are apart first touch when a vertex of one meets an edge of the
other, so the first contact is the earliest valid root over the vertices of a against the
edges of b and the vertices of b against the edges of a.

Result contract: time 0.0 when the polygons already touch, ``inf`` when nothing happens
within the horizon (so results compose with ``min``).

Cost: most of the 2 n m quartics of a pair never need their roots.  Conservative bounds,
each a quartic clipped by `polyroots.clip_step`, narrow or empty the search window: the
bodies' growing reach circles (`circles_meet_time`), each vertex's entry into the other
polygon's growing disc (`entry_times`, which also orders the search), and per vertex-edge
pair the band of the edge's line and the edge's slab (`_event_window`).  Every event found
shortens the window of the rest.  Before that exhaustive search, on pairs of more than
eight vertices, a separating line usually leaves only a few vertex-edge pairs that can meet
(`line_certificate`): one clipped quartic per vertex shows the rest stay apart.
"""

from typing import NamedTuple

import numba
import numpy as np

from .broadphase import candidate_pairs
from .constants import jit, jit_parallel
from .geometry2d.contact import polygons_intersect_kernel
from .geometry2d.primitives import (closest_on_segment, cross, norm, pair_length_tolerance,
                                    point_on_segment)
from .geometry2d.validation import as_points, is_convex, polygon_orientation
from .kinematics import (body_kinematics, held_acceleration, move_as_one, reach, swept_boxes,
                         turns)
from .narrowphase import pair_tolerance, place_bodies
from .packed import Bodies, Motion, MovingPolygon, PredictionRows
from .polyroots import bernstein4, clip_step, clip_to_band, horner, poly4_roots
from .rigid import (chord_end, is_rigid, origin_at, path_bounds, path_chords, path_error,
                    place_rigid, rigid_state)
from .threads import threads_for
from .tuning import CERTIFICATE_ROUNDS, CERTIFICATE_VERTICES, CLIP_ROUNDS


CORNER_SLACK = 1e-9
"""Least score (the sine of the angle by which a corner's edge crosses a candidate normal's
line) at which `_corner_normal` still takes the candidate as separating: rounding."""

CA_STEPS = 20000
"""Most conservative-advancement steps of `rigid_first_contact`; past them it returns the
time reached, early and never late (a near miss grazing for the whole horizon: ~1e3 steps)."""

CA_TIME_FLOOR = 1e-12
"""Step (s) under which `rigid_first_contact` takes the next one as the contact: then within
``CA_TIME_FLOOR S / v`` of it, S the pair's speed bound and v its approach speed."""

DISC_CHORDS = 8
"""How many chords `discs_meet_time` walks the two origins' paths in (`rigid.path_chords`):
each stays within ``M (H / 8)^2 / 8`` of its path."""


@jit
def quartic_coefficients(j, p, q):
    """Coefficients (c0, ..., c4) of f(t) = w(t) x u(t) for vertex j against edge P->Q, with
    u = r_j - r_P and w = r_Q - r_P; each point's kinematics is the scalar tuple
    ``(x, y, vx, vy, ax, ay)``."""
    rjx, rjy, vjx, vjy, ajx, ajy = j
    rpx, rpy, vpx, vpy, apx, apy = p
    rqx, rqy, vqx, vqy, aqx, aqy = q
    u0x, u0y = rjx - rpx, rjy - rpy
    u1x, u1y = vjx - vpx, vjy - vpy
    u2x, u2y = 0.5 * (ajx - apx), 0.5 * (ajy - apy)
    w0x, w0y = rqx - rpx, rqy - rpy
    w1x, w1y = vqx - vpx, vqy - vpy
    w2x, w2y = 0.5 * (aqx - apx), 0.5 * (aqy - apy)
    c0 = cross(w0x, w0y, u0x, u0y)
    c1 = cross(w0x, w0y, u1x, u1y) + cross(w1x, w1y, u0x, u0y)
    c2 = cross(w0x, w0y, u2x, u2y) + cross(w1x, w1y, u1x, u1y) + cross(w2x, w2y, u0x, u0y)
    c3 = cross(w1x, w1y, u2x, u2y) + cross(w2x, w2y, u1x, u1y)
    c4 = cross(w2x, w2y, u2x, u2y)
    return c0, c1, c2, c3, c4


@jit
def _at(p, v, a, t):
    return p + (v + 0.5 * a * t) * t


@jit
def _dot_coefficients(u, w):
    """Coefficients of u(t) . w(t) for u = u0 + u1 t + u2 t^2 and w likewise, each given as
    the scalar tuple ``(u0x, u0y, u1x, u1y, u2x, u2y)``."""
    u0x, u0y, u1x, u1y, u2x, u2y = u
    w0x, w0y, w1x, w1y, w2x, w2y = w
    return (u0x * w0x + u0y * w0y,
            u0x * w1x + u0y * w1y + u1x * w0x + u1y * w0y,
            u0x * w2x + u0y * w2y + u1x * w1x + u1y * w1y + u2x * w0x + u2y * w0y,
            u1x * w2x + u1y * w2y + u2x * w1x + u2y * w1y,
            u2x * w2x + u2y * w2y)


@jit
def _event_window(f, g, k, lo, hi, ftol, gtol):
    """Narrow [lo, hi] to where a vertex-edge event can be: |f| <= ftol (on the line) and
    g >= -gtol, k >= -gtol (within the edge's slab: ``g = u.w``, ``k = (w - u).w``).

    Bezier clips of the three quartics in turn (`polyroots.clip_step`), up to CLIP_ROUNDS
    rounds, until a round gains under a tenth of the window.  Returns the new lo, inf when
    one of them rules the window out.
    """
    for _ in range(CLIP_ROUNDS):
        start = lo
        lo = clip_step(f[0], f[1], f[2], f[3], f[4], lo, hi, ftol, False)
        if lo <= hi:
            lo = clip_step(g[0], g[1], g[2], g[3], g[4], lo, hi, gtol, True)
        if lo <= hi:
            lo = clip_step(k[0], k[1], k[2], k[3], k[4], lo, hi, gtol, True)
        if not lo <= hi:
            return np.inf
        if lo - start < 0.1 * (hi - start):
            break
    return lo


@jit
def vertex_edge_toi(j, p, q, lo, hi, tol):
    """Earliest t in [lo, hi] at which vertex j lies on segment p->q of the other polygon.

    `j`, `p` and `q` are the kinematics of the vertex and of the edge's ends as scalar
    tuples ``(x, y, vx, vy, ax, ay)`` (arrays passed per vertex-edge pair cost more than the
    search they feed).  Returns ``(t, d)`` with d the position along the edge (0 at p, 1 at
    q), or ``(inf, nan)``.  Bezier clipping (`_event_window`) rejects most quartics, or
    narrows [lo, hi], before the roots are isolated.
    """
    jx, jy, jvx, jvy, jax, jay = j
    px, py, pvx, pvy, pax, pay = p
    qx, qy, qvx, qvy, qax, qay = q
    c0, c1, c2, c3, c4 = quartic_coefficients(j, p, q)
    ex = qx - px
    ey = qy - py
    ftol = tol * np.sqrt(ex * ex + ey * ey)
    lo = clip_step(c0, c1, c2, c3, c4, lo, hi, ftol, False)
    if not lo <= hi:
        return np.inf, np.nan
    u0x, u0y = jx - px, jy - py
    u1x, u1y = jvx - pvx, jvy - pvy
    u2x, u2y = 0.5 * (jax - pax), 0.5 * (jay - pay)
    w1x, w1y = qvx - pvx, qvy - pvy
    w2x, w2y = 0.5 * (qax - pax), 0.5 * (qay - pay)
    w = (ex, ey, w1x, w1y, w2x, w2y)
    g = _dot_coefficients((u0x, u0y, u1x, u1y, u2x, u2y), w)
    ww = _dot_coefficients(w, w)
    k = (ww[0] - g[0], ww[1] - g[1], ww[2] - g[2], ww[3] - g[3], ww[4] - g[4])
    # d >= -tol / |w| means g >= -tol |w(t)|, and |w(t)| <= |w0| + |w1| h + |w2| h^2
    gtol = tol * (np.sqrt(ww[0]) + (np.sqrt(w1x * w1x + w1y * w1y)
                                    + np.sqrt(w2x * w2x + w2y * w2y) * hi) * hi)
    lo = _event_window((c0, c1, c2, c3, c4), g, k, lo, hi, ftol, gtol)
    if not lo <= hi:
        return np.inf, np.nan
    # Roots within ftol first: the window's start counts as one where |f| <= ftol.  When the
    # start is refused (the vertex within tol of the line but not of the segment), a
    # crossing may follow within the band, too close for the first pass to tell it from
    # the start (a corner closing head-on on a corner's end): the exact crossings then.
    for band in (ftol, 0.0):
        n, r0, r1, r2, r3 = poly4_roots(c0, c1, c2, c3, c4, lo, hi, band)
        start_refused = False
        for k in range(n):
            t = r0 if k == 0 else (r1 if k == 1 else (r2 if k == 2 else r3))
            ax = _at(px, pvx, pax, t)
            ay = _at(py, pvy, pay, t)
            wx = _at(qx, qvx, qax, t) - ax
            wy = _at(qy, qvy, qay, t) - ay
            ux = _at(jx, jvx, jax, t) - ax
            uy = _at(jy, jvy, jay, t) - ay
            ww = wx * wx + wy * wy
            d = (ux * wx + uy * wy) / ww
            if t > lo:
                # a crossing or a double root: the vertex is on the line, to the roots'
                # accuracy
                slack = tol / np.sqrt(ww)
                if -slack <= d <= 1.0 + slack:
                    return t, min(1.0, max(0.0, d))
            elif point_on_segment(0.0, 0.0, wx, wy, ux, uy, tol):
                # the window's start, where the vertex may be up to tol off the line: its
                # distance to the segment decides (corner to corner, line and slab may each
                # be within tol while the vertex is farther from the edge's end)
                return t, min(1.0, max(0.0, d))
            else:
                start_refused = True
        if not start_refused:
            break
    return np.inf, np.nan


@jit
def inside_quartic(d0x, d0y, d1x, d1y, d2x, d2y, r0, r1, r2):
    """Coefficients of ``R(t)^2 - |d(t)|^2`` for d = d0 + d1 t + d2 t^2 and a reach
    R = r0 + r1 t + r2 t^2 with r_k >= 0: non-negative exactly where |d(t)| <= R(t)."""
    return (r0 * r0 - (d0x * d0x + d0y * d0y),
            2.0 * (r0 * r1 - (d0x * d1x + d0y * d1y)),
            r1 * r1 + 2.0 * r0 * r2 - (d1x * d1x + d1y * d1y + 2.0 * (d0x * d2x + d0y * d2y)),
            2.0 * (r1 * r2 - (d1x * d2x + d1y * d2y)),
            r2 * r2 - (d2x * d2x + d2y * d2y))


@jit
def reach_disc(p, v, a):
    """A disc about the mean vertex, growing with time, that holds the polygon.

    The mean of the vertex paths is the path of the mean point, m(t) = mp + mv t + ma t^2 / 2,
    and ``|r_k(t) - m(t)| <= |dp_k| + |dv_k| t + |da_k| t^2 / 2``; every point of the polygon,
    a convex combination of its vertices, is within ``R(t) = r0 + r1 t + r2 t^2`` of m(t) with
    each r the largest of those terms over k.  Returns ``(mp, mv, ma / 2, r0, r1, r2)``
    flattened.
    """
    n = p.shape[0]
    mpx = mpy = mvx = mvy = max_ = may = 0.0
    for k in range(n):
        mpx += p[k, 0]
        mpy += p[k, 1]
        mvx += v[k, 0]
        mvy += v[k, 1]
        max_ += a[k, 0]
        may += a[k, 1]
    mpx /= n
    mpy /= n
    mvx /= n
    mvy /= n
    max_ /= n
    may /= n
    r0 = r1 = r2 = 0.0
    for k in range(n):
        r0 = max(r0, norm(p[k, 0] - mpx, p[k, 1] - mpy))
        r1 = max(r1, norm(v[k, 0] - mvx, v[k, 1] - mvy))
        r2 = max(r2, 0.5 * norm(a[k, 0] - max_, a[k, 1] - may))
    return mpx, mpy, mvx, mvy, 0.5 * max_, 0.5 * may, r0, r1, r2


@jit
def entry_times(p, v, a, disc, lo, hi, tol, out):
    """Per vertex, a lower bound in [lo, hi] on when it can come within the disc
    (`reach_disc`) widened by tol, inf when it cannot; written to out."""
    mpx, mpy, mvx, mvy, m2x, m2y, r0, r1, r2 = disc
    for j in range(p.shape[0]):
        c = inside_quartic(p[j, 0] - mpx, p[j, 1] - mpy, v[j, 0] - mvx, v[j, 1] - mvy,
                           0.5 * a[j, 0] - m2x, 0.5 * a[j, 1] - m2y, r0 + tol, r1, r2)
        out[j] = clip_step(c[0], c[1], c[2], c[3], c[4], lo, hi, 0.0, True)


@jit
def _kin(p, v, a, k):
    """Vertex k's kinematics ``(x, y, vx, vy, ax, ay)``, the scalar tuple of `vertex_edge_toi`."""
    return p[k, 0], p[k, 1], v[k, 0], v[k, 1], a[k, 0], a[k, 1]


@jit
def _vertex_first_event(pj, vj, aj, j, pe, ve, ae, lo, hi, tol):
    """Earliest event in [lo, hi] of vertex j against the edges of the other polygon:
    ``(t, edge, d)``, or ``(inf, -1, nan)``.  Each event found narrows the later searches."""
    ne = pe.shape[0]
    first = np.inf
    edge = -1
    along = np.nan
    vertex = _kin(pj, vj, aj, j)
    end = _kin(pe, ve, ae, 0)
    for e in range(ne):
        start = end
        end = _kin(pe, ve, ae, e + 1 if e + 1 < ne else 0)
        t, d = vertex_edge_toi(vertex, start, end, lo, hi, tol)
        if t < first:
            first, edge, along, hi = t, e, d, t
    return first, edge, along


@jit
def _mean_at(poly, t):
    """The mean of a polygon's vertices at time t (a `packed.MovingPolygon`)."""
    p, v, a, _ = poly
    x = y = 0.0
    for k in range(p.shape[0]):
        x += _at(p[k, 0], v[k, 0], a[k, 0], t)
        y += _at(p[k, 1], v[k, 1], a[k, 1], t)
    return x / p.shape[0], y / p.shape[0]


@jit
def _facing_gap(j, e, t, dx, dy):
    """The edge of polygon e facing polygon j (`packed.MovingPolygon` each) at time t, and the
    vertex of j nearest that edge's line: ``(gap, vertex, edge)``, the gap the signed
    distance of that vertex from the line, positive outside e (metres).  (dx, dy) points
    from e towards j; the facing edge is the one of the two at e's farthest vertex that way
    whose outward normal is nearer it."""
    pj, vj, aj, _ = j
    pe, ve, ae, orient = e
    ne = pe.shape[0]
    top = -np.inf
    s = 0
    for k in range(ne):
        h = _at(pe[k, 0], ve[k, 0], ae[k, 0], t) * dx + _at(pe[k, 1], ve[k, 1], ae[k, 1], t) * dy
        if h > top:
            top, s = h, k
    after = s + 1 if s + 1 < ne else 0
    before = s - 1 if s > 0 else ne - 1
    sx, sy = _at(pe[s, 0], ve[s, 0], ae[s, 0], t), _at(pe[s, 1], ve[s, 1], ae[s, 1], t)
    # the edges s -> after (r) and before -> s (l); the outward normal of a CCW edge w is
    # (wy, -wx) / |w|
    rx = _at(pe[after, 0], ve[after, 0], ae[after, 0], t) - sx
    ry = _at(pe[after, 1], ve[after, 1], ae[after, 1], t) - sy
    lx = sx - _at(pe[before, 0], ve[before, 0], ae[before, 0], t)
    ly = sy - _at(pe[before, 1], ve[before, 1], ae[before, 1], t)
    if (-orient * cross(rx, ry, dx, dy) / norm(rx, ry)
            >= -orient * cross(lx, ly, dx, dy) / norm(lx, ly)):
        edge, px, py, ex, ey = s, sx, sy, rx, ry
    else:
        edge, px, py, ex, ey = before, sx - lx, sy - ly, lx, ly
    gap = np.inf
    vertex = 0
    for k in range(pj.shape[0]):
        out = -orient * cross(ex, ey, _at(pj[k, 0], vj[k, 0], aj[k, 0], t) - px,
                              _at(pj[k, 1], vj[k, 1], aj[k, 1], t) - py)
        if out < gap:
            gap, vertex = out, k
    return gap / norm(ex, ey), vertex, edge


@jit
def _edge_shrink(p, v, a, e, h):
    """``|w(0)| / min |w(t)|`` for edge e of a polygon over t in [0, h], at least 1
    (`_edge_length_range`); inf when the edge may vanish."""
    low, _ = _edge_length_range(p, v, a, e, 0.0, h)
    q = e + 1 if e + 1 < p.shape[0] else 0
    return max(1.0, norm(p[q, 0] - p[e, 0], p[q, 1] - p[e, 1]) / low)


@jit
def _polygon_shrink(p, v, a, h):
    """The largest `_edge_shrink` over the edges of a polygon."""
    worst = 1.0
    for e in range(p.shape[0]):
        worst = max(worst, _edge_shrink(p, v, a, e, h))
    return worst


@jit
def _edge_length_range(p, v, a, e, lo, hi):
    """Bounds ``(low, high)`` on the length |w(t)| of edge e over [lo, hi]: the least and
    largest Bernstein coefficients of the quartic |w(t)|^2, whose hull holds it."""
    q = e + 1 if e + 1 < p.shape[0] else 0
    w = (p[q, 0] - p[e, 0], p[q, 1] - p[e, 1], v[q, 0] - v[e, 0], v[q, 1] - v[e, 1],
         0.5 * (a[q, 0] - a[e, 0]), 0.5 * (a[q, 1] - a[e, 1]))
    c = _dot_coefficients(w, w)
    beta = bernstein4(c[0], c[1], c[2], c[3], c[4], lo, hi)
    low = min(beta[0], beta[1], beta[2], beta[3], beta[4])
    high = max(beta[0], beta[1], beta[2], beta[3], beta[4])
    return np.sqrt(max(low, 0.0)), np.sqrt(high)


@jit
def _stays_above(c, lo, hi, level):
    """Whether the quartic c = (c0, ..., c4) stays above `level` on [lo, hi]: above it at lo,
    and Bezier clipping (`polyroots.clip_to_band`) rules out every t there where it could
    come down to it.  False means only that clipping could not show it."""
    c0 = c[0] - level
    if not horner(c0, c[1], c[2], c[3], c[4], lo) > 0.0:
        return False
    return not clip_to_band(c0, c[1], c[2], c[3], c[4], lo, hi, 0.0, False,
                            CERTIFICATE_ROUNDS) <= hi


@jit
def _scaled(c, k):
    """The quartic c times k."""
    return c[0] * k, c[1] * k, c[2] * k, c[3] * k, c[4] * k


@jit
def _certify_side(poly_j, poly_e, star, k, lo, hi, tol, near, rigid):
    """`line_certificate` for the line of edge k of polygon e and polygon j's vertex `star`
    nearest it (`packed.MovingPolygon` each).  Returns ``(certified, t, flip, vertex, edge,
    along)``, flip 1 when the event is a vertex of e on an edge of j."""
    pj, vj, aj, _ = poly_j
    pe, ve, ae, orient = poly_e
    no = (False, np.inf, -1, -1, -1, np.nan)
    n = pj.shape[0]
    m = pe.shape[0]
    kq = k + 1 if k + 1 < m else 0
    ends = (_kin(pe, ve, ae, k), _kin(pe, ve, ae, kq))
    px, py = _at(pe[k, 0], ve[k, 0], ae[k, 0], lo), _at(pe[k, 1], ve[k, 1], ae[k, 1], lo)
    wx = _at(pe[kq, 0], ve[kq, 0], ae[kq, 0], lo) - px
    wy = _at(pe[kq, 1], ve[kq, 1], ae[kq, 1], lo) - py
    shallowest = np.inf
    for i in range(m):
        if i != k and i != kq:
            shallowest = min(shallowest, orient * cross(
                wx, wy, _at(pe[i, 0], ve[i, 0], ae[i, 0], lo) - px,
                _at(pe[i, 1], ve[i, 1], ae[i, 1], lo) - py))
    w_lo = norm(wx, wy)
    margin = shallowest / w_lo / 3.0
    wmin, wmax = _edge_length_range(pe, ve, ae, k, lo, hi)
    if rigid:
        # one edge each tells every edge's shrink; e's other vertices: depth at t = depth
        # at lo times |w(t)| / |w(lo)| >= 3 D wmin / w_lo
        shrink = max(_edge_shrink(pj, vj, aj, 0, hi), _edge_shrink(pe, ve, ae, 0, hi))
        deep = 3.0 * wmin > 2.0 * w_lo
    else:
        shrink = max(_polygon_shrink(pj, vj, aj, hi), _polygon_shrink(pe, ve, ae, hi))
        deep = True
    if not (deep and tol * np.sqrt(1.0 + shrink * shrink) < 0.5 * margin):
        return no
    best, along = vertex_edge_toi(_kin(pj, vj, aj, star), ends[0], ends[1], lo, hi, tol)
    found = best <= hi
    end = best if found else hi
    vertex, edge, flip = (star, k, 0) if found else (-1, -1, 0)
    for j in range(n):
        c = _scaled(quartic_coefficients(_kin(pj, vj, aj, j), ends[0], ends[1]), -orient)
        near[j] = j == star or not _stays_above(c, lo, end, margin * wmax)
        if near[j] and not _stays_above(c, lo, end, -margin * wmin):
            return no
    for i in range(0 if rigid else m):
        if i != k and i != kq and not _stays_above(
                _scaled(quartic_coefficients(_kin(pe, ve, ae, i), ends[0], ends[1]), orient),
                lo, end, 2.0 * margin * wmax):
            return no
    for j in range(n):
        if not near[j]:
            continue
        for e in (k - 1 if k > 0 else m - 1, k, kq):
            if j == star and e == k:
                continue
            eq = e + 1 if e + 1 < m else 0
            t, d = vertex_edge_toi(_kin(pj, vj, aj, j), _kin(pe, ve, ae, e),
                                   _kin(pe, ve, ae, eq), lo, end, tol)
            if t < end or (not found and t <= end):
                end, found, flip, vertex, edge, along = t, True, 0, j, e, d
        for ej in (j - 1 if j > 0 else n - 1, j):
            jq = ej + 1 if ej + 1 < n else 0
            for i in (k, kq):
                t, d = vertex_edge_toi(_kin(pe, ve, ae, i), _kin(pj, vj, aj, ej),
                                       _kin(pj, vj, aj, jq), lo, end, tol)
                if t < end or (not found and t <= end):
                    end, found, flip, vertex, edge, along = t, True, 1, i, ej, d
    if not found:
        return True, np.inf, -1, -1, -1, np.nan
    return True, end, flip, vertex, edge, along


@jit
def line_certificate(a, b, lo, hi, tol, near, rigid):
    """The first event in [lo, hi] from a separating line, without the exhaustive search.

    At lo take the edge k of one polygon (e) facing the other (j) (`_facing_gap`), with P, Q
    its ends and s the signed distance from that moving line, positive outside e.  Let D be a
    third of the shallowest depth of e's other vertices at lo.  Over [lo, T] (T the event of
    j's vertex nearest the line on edge k, else hi), Bezier clipping shows that every vertex
    of j stays at s > D ("far") or s > -D ("near"), and every vertex of e other than P and Q
    at s < -2 D.  Every vertex-edge pair is then more than D apart except near vertices
    against the edges at P and Q (k - 1, k, k + 1) and P, Q against the edges at near
    vertices; with every edge keeping enough of its length that an event is within
    ``tol sqrt(1 + shrink^2) < D / 2`` of its edge (`vertex_edge_toi`'s bands), only those
    pairs can have an event, and they are searched.

    With `rigid`, each polygon's vertices move as the rigid-body model has them
    (`kinematics`): every vertex path is the shape turned and scaled by one complex quadratic
    lambda(t) = 1 + i w t + (i alpha - w^2) t^2 / 2 plus the origin's path, so every edge of
    a polygon has length |lambda(t)| times its first, and a vertex's depth below its own
    polygon's edge scales alike: one edge bounds them all (up to the rounding of the
    kinematics, far below D).

    `near` is (M,) scratch.  Returns ``(certified, t, side, vertex, edge, along)`` as
    `searched_first_event`; not certified when some condition could not be shown (the
    exhaustive search then decides).
    """
    cax, cay = _mean_at(a, lo)
    cbx, cby = _mean_at(b, lo)
    gap_a, vertex_a, edge_b = _facing_gap(a, b, lo, cax - cbx, cay - cby)
    gap_b, vertex_b, edge_a = _facing_gap(b, a, lo, cbx - cax, cby - cay)
    # the side whose line has the wider gap first, then the other
    for attempt in range(2):
        side = int(gap_a < gap_b) ^ attempt
        if not (gap_a if side == 0 else gap_b) > 0.0:
            continue
        if side == 0:
            certified, t, flip, vertex, edge, along = _certify_side(
                a, b, vertex_a, edge_b, lo, hi, tol, near, rigid)
        else:
            certified, t, flip, vertex, edge, along = _certify_side(
                b, a, vertex_b, edge_a, lo, hi, tol, near, rigid)
        if certified:
            return True, t, side ^ flip if t <= hi else -1, vertex, edge, along
    return False, np.inf, -1, -1, -1, np.nan


@jit
def searched_first_event(a, b, start, horizon, tol, entry):
    """Earliest vertex-edge event in [start, horizon] by the exhaustive search: every vertex
    gets the time it can first enter the other polygon's growing disc (`entry`, (2, M)
    scratch, M >= n, m); vertices are then searched soonest first, and the search stops once
    the soonest left cannot beat the best event found.

    Returns ``(t, side, vertex, edge, along)``, side -1 when nothing happens (see
    `first_contact_kernel`).
    """
    pa, va, aa, orient_a = a
    pb, vb, ab, orient_b = b
    n = pa.shape[0]
    m = pb.shape[0]
    disc_a = reach_disc(pa, va, aa)
    disc_b = reach_disc(pb, vb, ab)
    entry_times(pa, va, aa, disc_b, start, horizon, tol, entry[0])
    entry_times(pb, vb, ab, disc_a, start, horizon, tol, entry[1])
    best = horizon
    side = vertex = edge = -1
    along = np.nan
    while True:
        soonest = np.inf
        s = j = -1
        for k in range(n + m):
            ks, kj = (0, k) if k < n else (1, k - n)
            if entry[ks, kj] < soonest:
                soonest, s, j = entry[ks, kj], ks, kj
        if s < 0 or soonest > best:
            break
        entry[s, j] = np.inf
        if s == 0:
            t, e, d = _vertex_first_event(pa, va, aa, j, pb, vb, ab, soonest, best, tol)
        else:
            t, e, d = _vertex_first_event(pb, vb, ab, j, pa, va, aa, soonest, best, tol)
        if t < best or (side < 0 and t <= best):
            best, side, vertex, edge, along = t, s, j, e, d
    return best, side, vertex, edge, along


@jit
def _corner_edges(poly, k, t, sign):
    """The two edges of `poly` at its vertex k at time t: the unit outward normals of edges
    k-1 -> k and k -> k+1, each times `sign`, and the offsets of vertices k-1 and k+1 from
    k, over their lengths: ``(n0x, n0y, n1x, n1y), (d0x, d0y, d1x, d1y)``."""
    p, v, a, orient = poly
    n = p.shape[0]
    kx = _at(p[k, 0], v[k, 0], a[k, 0], t)
    ky = _at(p[k, 1], v[k, 1], a[k, 1], t)
    o = (k - 1) % n
    d0x = _at(p[o, 0], v[o, 0], a[o, 0], t) - kx
    d0y = _at(p[o, 1], v[o, 1], a[o, 1], t) - ky
    o = (k + 1) % n
    d1x = _at(p[o, 0], v[o, 0], a[o, 0], t) - kx
    d1y = _at(p[o, 1], v[o, 1], a[o, 1], t) - ky
    l0 = np.sqrt(d0x * d0x + d0y * d0y)
    l1 = np.sqrt(d1x * d1x + d1y * d1y)
    d0x, d0y, d1x, d1y = d0x / l0, d0y / l0, d1x / l1, d1y / l1
    # edge k-1 -> k runs along -d0, edge k -> k+1 along d1; the outward normal of a CCW edge
    # w is (wy, -wx) / |w|, and orientation flips it for CW
    f = sign * orient
    return (-f * d0y, f * d0x, f * d1y, -f * d1x), (d0x, d0y, d1x, d1y)


@jit
def _corner_score(nx, ny, da, db):
    """`_corner_normal`'s score of the direction (nx, ny)."""
    return min(-(nx * da[0] + ny * da[1]), -(nx * da[2] + ny * da[3]),
               nx * db[0] + ny * db[1], nx * db[2] + ny * db[3])


@jit
def _corner_normal(a, i, b, j, t):
    """Unit normal from a to b where vertex i of a meets vertex j of b at time t: a
    direction whose line through the contact keeps each corner on its own side.

    The directions n that do so form the arc where a's normal cone at i (between the
    outward normals of its two edges there) meets b's, negated; the arc's ends are among
    those four edge normals.  A candidate's score is the least of ``-n.d`` over a's two
    edge directions d out of i and ``n.d`` over b's out of j (unit d): the sine of the angle
    by which the worst edge crosses n's line, at least about 0 where n separates the corners
    (and so the bodies, where convex: a convex body lies within the wedge of its edges at
    any vertex).  Returns the unit bisector of the two separating candidates farthest apart
    (the middle of the arc: swapping a and b negates it), or the best scored candidate when
    none separates (a reflex corner).
    """
    na, da = _corner_edges(a, i, t, 1.0)
    nb, db = _corner_edges(b, j, t, -1.0)
    cand = (na[0], na[1], na[2], na[3], nb[0], nb[1], nb[2], nb[3])
    scores = (_corner_score(na[0], na[1], da, db), _corner_score(na[2], na[3], da, db),
              _corner_score(nb[0], nb[1], da, db), _corner_score(nb[2], nb[3], da, db))
    best = 0
    for c in range(1, 4):
        if scores[c] > scores[best]:
            best = c
    # the two separating candidates farthest apart: the arc's ends
    first = second = -1
    widest = 2.0
    for c in range(4):
        for d in range(c + 1, 4):
            if scores[c] >= -CORNER_SLACK and scores[d] >= -CORNER_SLACK:
                dot = cand[2 * c] * cand[2 * d] + cand[2 * c + 1] * cand[2 * d + 1]
                if dot < widest:
                    widest, first, second = dot, c, d
    if first < 0:
        # one separating candidate (the arc is a point), or none (a reflex corner)
        return cand[2 * best], cand[2 * best + 1]
    mx = cand[2 * first] + cand[2 * second]
    my = cand[2 * first + 1] + cand[2 * second + 1]
    lm = np.sqrt(mx * mx + my * my)
    if not lm > 1e-12:  # two straight corners: their normals opposite
        return cand[2 * best], cand[2 * best + 1]
    return mx / lm, my / lm


@jit
def first_contact_kernel(a, b, start, horizon, tol, entry, rigid):
    """Earliest vertex-edge event in [start, horizon] between polygons a and b (each a
    `packed.MovingPolygon`; `start` > 0 only when nothing can happen before it).

    Returns ``(t, side, vertex, edge, x, y, nx, ny)``: side 0 when a vertex of a meets an edge
    of b, 1 when a vertex of b meets an edge of a; the contact point and the unit normal from
    a to b at time t (the outward normal of the edge, negated when the edge is b's; where the
    vertex meets the edge within tol of its end, a corner meeting a corner, `_corner_normal`).
    ``t`` is inf and the rest meaningless when nothing happens within the horizon.

    A separating line usually confines the search to a few vertex-edge pairs
    (`line_certificate`, tried from `CERTIFICATE_VERTICES` vertices on); where it cannot,
    every pair is searched (`searched_first_event`).
    `entry` is (2, M) scratch, M >= n, m.  `rigid`: both polygons' vertices move as the
    rigid-body model has them (`kinematics.body_kinematics`), which lets the certificate
    bound every edge from one; False checks each edge and vertex.
    """
    pa, va, aa, orient_a = a
    pb, vb, ab, orient_b = b
    n = pa.shape[0]
    m = pb.shape[0]
    certified = False
    if n + m >= CERTIFICATE_VERTICES:
        certified, t, side, vertex, edge, along = line_certificate(a, b, start, horizon, tol,
                                                                   entry[0], rigid)
    if not certified:
        t, side, vertex, edge, along = searched_first_event(a, b, start, horizon, tol, entry)
    if side < 0:
        return np.inf, -1, -1, -1, np.nan, np.nan, np.nan, np.nan
    x, y, nx, ny = _described(a, b, t, side, vertex, edge, along, tol)
    return t, side, vertex, edge, x, y, nx, ny


@jit
def _described(a, b, t, side, vertex, edge, along, tol):
    """``(x, y, nx, ny)`` of the event where vertex `vertex` of one polygon (of a when side
    is 0, of b when 1) meets edge `edge` of the other at fraction `along` of its length, at
    time t: the point on the edge and the unit normal from a to b (the edge's outward
    normal, negated when the edge is b's; `_corner_normal` where the vertex is within tol
    of the edge's end)."""
    pa, va, aa, orient_a = a
    pb, vb, ab, orient_b = b
    if side == 0:
        pe, ve, ae, ne, sign = pb, vb, ab, pb.shape[0], -orient_b
    else:
        pe, ve, ae, ne, sign = pa, va, aa, pa.shape[0], orient_a
    q = edge + 1 if edge + 1 < ne else 0
    px = _at(pe[edge, 0], ve[edge, 0], ae[edge, 0], t)
    py = _at(pe[edge, 1], ve[edge, 1], ae[edge, 1], t)
    wx = _at(pe[q, 0], ve[q, 0], ae[q, 0], t) - px
    wy = _at(pe[q, 1], ve[q, 1], ae[q, 1], t) - py
    lw = np.sqrt(wx * wx + wy * wy)
    # outward normal of a CCW edge w is (wy, -wx) / |w|; orientation flips it for CW
    nx = sign * wy / lw
    ny = -sign * wx / lw
    if along * lw <= tol or (1.0 - along) * lw <= tol:
        # the vertex meets the edge at one of its ends: a corner meets a corner
        corner = edge if along * lw <= tol else q
        if side == 0:
            nx, ny = _corner_normal(a, vertex, b, corner, t)
        else:
            nx, ny = _corner_normal(a, corner, b, vertex, t)
    return px + along * wx, py + along * wy, nx, ny


@jit
def _closest_features(pa, pb, nx, ny):
    """``(d, side, vertex, edge, along)``: the least distance between the boundaries of two
    placed polygons, and where: vertex `vertex` of pa (side 0) or of pb (side 1) nearest
    edge `edge` of the other, at fraction `along` of it.

    n = (nx, ny), a unit direction from pa toward pb (or zero: none), only prunes: along any
    n, a point x of pa is at least ``n.y - n.x`` from a point y of pb, so a vertex of one
    and an edge of the other whose projections on n are farther apart than the nearest pair
    found so far are not measured.  The last slab's direction leaves a few pairs near the
    contact."""
    best, side, vertex, edge, along = np.inf, -1, -1, -1, 0.0
    for sd in range(2):
        p = pa if sd == 0 else pb
        q = pb if sd == 0 else pa
        # along s n, vertices of p lie below the edges of q
        sx, sy = (nx, ny) if sd == 0 else (-nx, -ny)
        m = q.shape[0]
        bottom = np.inf
        for e in range(m):
            bottom = min(bottom, sx * q[e, 0] + sy * q[e, 1])
        for k in range(p.shape[0]):
            x, y = p[k, 0], p[k, 1]
            h = sx * x + sy * y
            if bottom - h > 0.0 and (bottom - h) * (bottom - h) >= best:
                continue
            for e in range(m):
                e1 = e + 1 if e + 1 < m else 0
                low = min(sx * q[e, 0] + sy * q[e, 1], sx * q[e1, 0] + sy * q[e1, 1]) - h
                if low > 0.0 and low * low >= best:
                    continue
                cx, cy, u = closest_on_segment(q[e, 0], q[e, 1], q[e1, 0], q[e1, 1], x, y)
                d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
                if d2 < best:
                    best, side, vertex, edge, along = d2, sd, k, e, u
    return np.sqrt(best), side, vertex, edge, along


@jit
def _feature_gap(pa, pb, side, vertex, edge):
    """``(d, along)``: the distance from vertex `vertex` of pa (side 0) or pb (side 1) to
    edge `edge` of the other, and the fraction of the edge where it is nearest."""
    p, q = (pa, pb) if side == 0 else (pb, pa)
    e1 = edge + 1 if edge + 1 < q.shape[0] else 0
    x, y = p[vertex, 0], p[vertex, 1]
    cx, cy, u = closest_on_segment(q[edge, 0], q[edge, 1], q[e1, 0], q[e1, 1], x, y)
    return norm(x - cx, y - cy), u


@jit
def _mean_direction(pa, pb):
    """The unit direction from pa's mean vertex to pb's ((0, 0) when they coincide)."""
    bx = by = ax = ay = 0.0
    for k in range(pb.shape[0]):
        bx += pb[k, 0]
        by += pb[k, 1]
    for k in range(pa.shape[0]):
        ax += pa[k, 0]
        ay += pa[k, 1]
    dx, dy = bx / pb.shape[0] - ax / pa.shape[0], by / pb.shape[0] - ay / pa.shape[0]
    length = norm(dx, dy)
    return (dx / length, dy / length) if length > 0.0 else (0.0, 0.0)


@jit
def _point_speed_bound(vel, acc, lo, hi):
    """Largest speed over [lo, hi] of the vertices moving as points, ``v + a t`` (convex in
    t: largest at an end)."""
    top = 0.0
    for k in range(vel.shape[0]):
        top = max(top, norm(vel[k, 0] + acc[k, 0] * lo, vel[k, 1] + acc[k, 1] * lo),
                  norm(vel[k, 0] + acc[k, 0] * hi, vel[k, 1] + acc[k, 1] * hi))
    return top


@jit
def _points_at(kin, t, out):
    """Vertices moving as points (``kin = (pos, vel, acc, ...)``) at time t, into out."""
    for k in range(out.shape[0]):
        out[k, 0] = _at(kin[0][k, 0], kin[1][k, 0], kin[2][k, 0], t)
        out[k, 1] = _at(kin[0][k, 1], kin[1][k, 1], kin[2][k, 1], t)


@jit
def _body_bounds(path, st, kin, lo, hi):
    """``(speed, turn, acceleration, error)`` of a body over [lo, hi]: on a path (rigid, or
    not turning) `rigid.path_bounds` of its origin and its placements' error bound
    `rigid.path_error`; a body turning under a point model, its fastest vertex's speed (no
    turn term) and no acceleration bound."""
    if path:
        speed, turn, accel = path_bounds(st, lo, hi)
        return speed, turn, accel, path_error(st, hi)
    return _point_speed_bound(kin[1], kin[2], lo, hi), 0.0, np.inf, 0.0


@jit
def _place_body(path, st, origin, kin, offsets, first, t, out):
    """A body's vertices at time t into `out`; returns the origin ``(t, x, y, vx, vy)``: where
    the next placement integrates from, and its velocity (`rigid.origin_at`; as given for
    vertices moving as points)."""
    if path:
        x, y, vx, vy = origin_at(st, origin[0], origin[1], origin[2], t)
        place_rigid(st, offsets, first, out.shape[0], t, x, y, out)
        return t, x, y, vx, vy
    _points_at(kin, t, out)
    return origin


@jit
def _advance(room, rate, curve):
    """How long a gap of `room` (m) that shrinks at `rate` (m/s, negative when it grows)
    with at most `curve` (m/s^2) more stays open: the root of
    ``room - rate t - curve t^2 / 2`` (inf when it never closes)."""
    return 2.0 * room / (rate + np.sqrt(rate * rate + 2.0 * curve * room))


@jit
def _on_path(b, motion, model):
    """Whether body b moves rigidly about an origin on a path (`rigid`): under a rigid
    model, or not turning (then every model's path is its origin's)."""
    return is_rigid(model) or not turns(b, motion, model)


@jit
def _chord_entry(dx, dy, ex, ey, reach):
    """The least s >= 0 with ``|D + E s| <= reach`` (inf when none): the smaller root of
    ``|E|^2 s^2 + 2 D.E s + |D|^2 - reach^2``, written without cancellation."""
    c = dx * dx + dy * dy - reach * reach
    if c <= 0.0:
        return 0.0
    b = dx * ex + dy * ey
    if b >= 0.0:
        return np.inf
    disc = b * b - (ex * ex + ey * ey) * c
    if disc < 0.0:
        return np.inf
    return c / (np.sqrt(disc) - b)


@jit
def discs_meet_time(i, j, motion, models, radius, horizon, tol):
    """Conservative bound, as `circles_meet_time` for the point models, for a pair with a
    body turning under a rigid model: no contact comes before the returned time (inf:
    none within the horizon; 0 when the bodies' bounding discs touch now, or a body turns
    under a point model).

    Each origin's path is walked in `DISC_CHORDS` chords (`rigid.path_chords`), both in
    step: on chord k, the origins' offset is within ``pad_i + pad_j`` of the chords' offset
    ``D + E s`` (s in [0, 1]), so the bounding discs (radii rho_i + rho_j, widened by `tol`
    and the paths' errors) cannot touch before the least s with
    ``|D + E s| <= rho_i + rho_j + tol + e_i + e_j + pad_i + pad_j`` (`_chord_entry`).  Most
    candidate pairs of the swept broad phase end here, before a vertex is placed.
    """
    mi, mj = models[i], models[j]
    if not (_on_path(i, motion, mi) and _on_path(j, motion, mj)):
        return 0.0
    si, sj = rigid_state(i, motion, mi), rigid_state(j, motion, mj)
    d, pad_i, walk_i = path_chords(si, horizon, DISC_CHORDS)
    _, pad_j, walk_j = path_chords(sj, horizon, DISC_CHORDS)
    reach = (radius[i] + radius[j] + tol + path_error(si, horizon) + path_error(sj, horizon)
             + pad_i + pad_j)
    xi, yi, xj, yj = si[0], si[1], sj[0], sj[1]
    for k in range(DISC_CHORDS):
        ui, vi, walk_i = chord_end(si, d, walk_i, k, xi, yi)
        uj, vj, walk_j = chord_end(sj, d, walk_j, k, xj, yj)
        dx, dy = xj - xi, yj - yi
        s = _chord_entry(dx, dy, (uj - ui) - dx, (vj - vi) - dy, reach)
        if s <= 1.0:
            return (k + s) * d
        xi, yi, xj, yj = ui, vi, uj, vj
    return np.inf


@jit
def _slab(pa, pb, side, vertex, edge, along):
    """``(top, bottom, nx, ny)``: n the unit direction from pa to pb of their closest
    features (`_closest_features`: the edge's normal where the vertex faces the edge's
    inside, which stays exact however close they come; the vertex's offset from the edge's
    end otherwise), top the largest projection on n of a vertex of pa and bottom the least
    of pb: the slab between them parts the placed polygons when ``bottom - top`` is
    positive (not so for interlocked concave shapes)."""
    p, q = (pa, pb) if side == 0 else (pb, pa)
    e1 = edge + 1 if edge + 1 < q.shape[0] else 0
    ex, ey = q[e1, 0] - q[edge, 0], q[e1, 1] - q[edge, 1]
    dx = q[edge, 0] + along * ex - p[vertex, 0]
    dy = q[edge, 1] + along * ey - p[vertex, 1]
    if 0.0 < along < 1.0:
        dx, dy = (ey, -ex) if ey * dx - ex * dy >= 0.0 else (-ey, ex)
    length = norm(dx, dy)
    if not length > 0.0:
        return np.inf, -np.inf, 0.0, 0.0
    nx, ny = (dx / length, dy / length) if side == 0 else (-dx / length, -dy / length)
    top, bottom = -np.inf, np.inf
    for k in range(pa.shape[0]):
        top = max(top, nx * pa[k, 0] + ny * pa[k, 1])
    for k in range(pb.shape[0]):
        bottom = min(bottom, nx * pb[k, 0] + ny * pb[k, 1])
    return top, bottom, nx, ny


@jit
def _projections(poly, nx, ny, st, origin, out):
    """Each vertex's projection on n and its rate, ``out[k] = (n.p_k, n.p_k')``, for a
    polygon placed about `origin` ``(t, x, y, vx, vy)`` (`_place_body`'s) on the path of
    `st`: the vertex velocity is ``c'(t) + w(t) x (p_k - c(t))``."""
    t, vx, vy = origin[0], origin[3], origin[4]
    w = st[7] + st[8] * t
    for k in range(poly.shape[0]):
        rx, ry = poly[k, 0] - origin[1], poly[k, 1] - origin[2]
        out[k, 0] = nx * poly[k, 0] + ny * poly[k, 1]
        out[k, 1] = nx * (vx - w * ry) + ny * (vy + w * rx)


@jit
def _frame_slab_advance(fo, po, support, nx, ny, sign, frame, w, bound, band):
    """The step over which the slab along n (`_slab`'s) stays over `band` wide, n turning
    with the body F whose edge is the closest feature: F's vertices keep their projections
    on n relative to F's origin c, so only the other body's vertices `po` cross it.  Along
    ``u = sign n`` (from the other body to F: sign 1 when F is pb) F's least projection is
    `support`; vertex p's is ``g = u(t).(p - c)``, closing at
    ``g' = sign (n.p' - n.c' + w (-ny, nx).(p - c))`` (``fo`` as `_projections` writes it,
    `frame` ``(t, x, y, vx, vy)`` F's origin, w its turn rate now), and `bound` bounds |g''|
    over the step; each vertex keeps its gap for `_advance` of it.  A vertex facing F's edge
    closes at the rate of the true gap, so near a contact each step is a Newton step with a
    rigorous margin.  A vertex whose gap is still open at the least step so far (its
    concave bound positive there) cannot close sooner: its root is not computed."""
    _, cx, cy, vx, vy = frame
    drift = nx * vx + ny * vy
    best = np.inf
    for k in range(po.shape[0]):
        room = support - sign * fo[k, 0] - band
        rate = sign * (fo[k, 1] - drift + w * (nx * (po[k, 1] - cy) - ny * (po[k, 0] - cx)))
        if room > (rate + 0.5 * bound * best) * best:
            continue
        best = min(best, _advance(room, rate, bound))
    return best


@jit
def rigid_first_contact(i, j, motion, models, bodies, kin, start, horizon, tol):
    """First contact in [start, horizon] of bodies i and j, apart at `start`, when either
    turns under a rigid model (`rigid`): ``(t, side, vertex, edge, x, y, nx, ny)`` as
    `first_contact_kernel` returns it.

    Conservative advancement: no step passes a time at which the boundaries could come
    within ``tol + e`` (e the bound of the placements' quadrature error,
    `rigid.path_error`; 0 for closed forms).  Each step takes the longer of two bounds:

    * distance: at distance d no point of either body moves faster than ``S_i + S_j``
      (`rigid.path_bounds`: ``|c'| + |w| rho``; a turning body under a point model, its
      fastest vertex), so nothing touches before ``(d - tol - e) / S``;
    * slab (both bodies rigid, or not turning): the polygons' projections on the
      direction n of their closest features part by a slab (`_slab`).  n turns with the
      body F whose edge is the closest feature, so F's side of the slab stays put
      relative to F's origin and only the other body's vertices cross it: each at its
      rate now, within ``K t^2 / 2`` of that line (K bounds the projection's second
      derivative, rotation of n included), so the slab stays open for the least
      `_advance` over those vertices (`_frame_slab_advance`).  The vertex meeting F's edge
      closes at the true gap's rate: near a contact each step is a Newton step with a
      rigorous margin, and the search converges in a few steps.

    Each step seeks the closest features (`_closest_features`) pruned by the last slab's
    direction (at the first, the line of the vertices' means): a few vertex-edge pairs are
    measured instead of n m.  Where the last step's features still part the polygons by a
    slab at least half their own gap (`_feature_gap`), they are kept instead: the slab's
    width is the distance step's lower bound, and their gap, an upper bound on the
    distance, the stopping test's.  The search starts at `start` (`discs_meet_time` in the
    batch).  Steps go on
    until the boundaries are within ``tol + e``, a step falls under `CA_TIME_FLOOR` (then
    the contact is within about ``CA_TIME_FLOOR S / v`` s, v the approach speed), or the
    horizon is passed.  After `CA_STEPS` steps the time reached is returned (early, never
    late).

    ``kin`` (2, 4, M, 2): rows 0-2 of each body hold `kinematics.body_kinematics` at t = 0,
    row 3 takes the vertices at t.
    """
    offsets, vstart, orient, radius = bodies.offsets, bodies.vstart, bodies.orient, bodies.radius
    na = vstart[i + 1] - vstart[i]
    nb = vstart[j + 1] - vstart[j]
    mi, mj = models[i], models[j]
    on_i, on_j = _on_path(i, motion, mi), _on_path(j, motion, mj)
    si, sj = rigid_state(i, motion, mi), rigid_state(j, motion, mj)
    ka = (kin[0, 0, :na], kin[0, 1, :na], kin[0, 2, :na])
    kb = (kin[1, 0, :nb], kin[1, 1, :nb], kin[1, 2, :nb])
    speed_a, turn_a, accel_a, error_a = _body_bounds(on_i, si, ka, start, horizon)
    speed_b, turn_b, accel_b, error_b = _body_bounds(on_j, sj, kb, start, horizon)
    band = tol + error_a + error_b
    paths = on_i and on_j
    speed = speed_a + speed_b + turn_a * radius[i] + turn_b * radius[j]
    # `_frame_slab_advance`'s bound on |g''| with F = b, u = n, r = p - c_b, p a vertex of a:
    # ``g'' = n''.r + 2 n'.r' + n.r''`` with |n'| <= w_b, |n''| <= |alpha_b| + w_b^2 (spin_b),
    # |r| <= |c_a - c_b| + rho_a + |r'| tau over a step tau, |r'| <= |c_a'| + w_a rho_a +
    # |c_b'| (across_a) and |r''| <= |c_a''| + spin_a rho_a + |c_b''| (sway_a); and so with
    # a and b swapped
    spin_a = abs(si[8]) + turn_a * turn_a
    spin_b = abs(sj[8]) + turn_b * turn_b
    across_a = speed_a + turn_a * radius[i] + speed_b
    across_b = speed_b + turn_b * radius[j] + speed_a
    sway_a = accel_a + spin_a * radius[i] + accel_b
    sway_b = accel_b + spin_b * radius[j] + accel_a
    origin_a, origin_b = (0.0, si[0], si[1], 0.0, 0.0), (0.0, sj[0], sj[1], 0.0, 0.0)
    t = start
    pa, pb = kin[0, 3, :na], kin[1, 3, :nb]
    fa, fb = kin[0, 2, :na], kin[1, 2, :nb]  # projections, where a path needs no kinematics
    last = False
    side, vertex, edge, along = -1, -1, -1, 0.0
    nx = ny = 0.0  # the last slab's direction: it prunes the search for closest features
    top = bottom = 0.0
    for _ in range(CA_STEPS):
        origin_a = _place_body(on_i, si, origin_a, ka, offsets, vstart[i], t, pa)
        origin_b = _place_body(on_j, sj, origin_b, kb, offsets, vstart[j], t, pb)
        kept = False
        if paths and side >= 0:
            # the last features, measured anew: their slab's width bounds the distance
            # from below, their own gap from above; kept while the two are within a factor 2
            top, bottom, nx, ny = _slab(pa, pb, side, vertex, edge, along)
            if bottom - top > band:
                d, u = _feature_gap(pa, pb, side, vertex, edge)
                kept = 2.0 * (bottom - top) >= d
                along = u if kept else along
        if not kept:
            if nx == 0.0 and ny == 0.0:  # no slab yet: the line of the vertices' means
                nx, ny = _mean_direction(pa, pb)
            d, side, vertex, edge, along = _closest_features(pa, pb, nx, ny)
        if last or d <= band:
            break
        step = ((bottom - top if kept else d) - band) / speed
        if paths:
            if not kept:
                top, bottom, nx, ny = _slab(pa, pb, side, vertex, edge, along)
            if bottom - top > band:
                # n turns with the body whose edge is the closest feature
                reach = norm(origin_b[1] - origin_a[1], origin_b[2] - origin_a[2])
                if side == 0:
                    _projections(pa, nx, ny, si, origin_a, fa)
                    bound = (spin_b * (reach + radius[i] + across_a * (horizon - t))
                             + 2.0 * turn_b * across_a + sway_a)
                    step = max(step, _frame_slab_advance(fa, pa, bottom, nx, ny, 1.0, origin_b,
                                                         sj[7] + sj[8] * t, bound, band))
                else:
                    _projections(pb, nx, ny, sj, origin_b, fb)
                    bound = (spin_a * (reach + radius[j] + across_b * (horizon - t))
                             + 2.0 * turn_a * across_b + sway_b)
                    step = max(step, _frame_slab_advance(fb, pb, -top, nx, ny, -1.0, origin_a,
                                                         si[7] + si[8] * t, bound, band))
        t += step
        if not t <= horizon:
            return np.inf, -1, -1, -1, np.nan, np.nan, np.nan, np.nan
        last = step < CA_TIME_FLOOR
    x, y, nx, ny = _described(MovingPolygon(pa, ka[1], ka[2], orient[i]),
                              MovingPolygon(pb, kb[1], kb[2], orient[j]), 0.0, side, vertex,
                              edge, along, tol)
    return t, side, vertex, edge, x, y, nx, ny


@jit
def turns_rigidly(b, motion, models):
    """Whether body b turns under a rigid model: its pairs need `rigid_first_contact`."""
    return is_rigid(models[b]) and turns(b, motion, models[b])


@jit
def pair_first_event(i, j, motion, models, bodies, kin, entry, start, horizon, tol):
    """First contact in [start, horizon] of bodies i and j, apart at `start`, each under its
    model: ``(t, side, vertex, edge, x, y, nx, ny)`` (`first_contact_kernel`'s).

    ``kin`` (2, 4, M, 2) holds both bodies' `kinematics.body_kinematics` at t = 0 (rows
    0-2), `entry` (2, M) is scratch.  A pair with a body turning under a rigid model goes to
    `rigid_first_contact`; otherwise every vertex moves as a point along a quadratic, and a
    pair moving as one, or with a line beside a body that does not turn, stays apart
    (`beside_throughout`); the rest go to `first_contact_kernel`.
    """
    if turns_rigidly(i, motion, models) or turns_rigidly(j, motion, models):
        return rigid_first_contact(i, j, motion, models, bodies, kin, start, horizon, tol)
    vstart, orient = bodies.vstart, bodies.orient
    na = vstart[i + 1] - vstart[i]
    nb = vstart[j + 1] - vstart[j]
    a = MovingPolygon(kin[0, 0, :na], kin[0, 1, :na], kin[0, 2, :na], orient[i])
    b = MovingPolygon(kin[1, 0, :nb], kin[1, 1, :nb], kin[1, 2, :nb], orient[j])
    if (move_as_one(i, j, motion, models)
            or (not turns(i, motion, models[i]) and beside_throughout(a, b, start, horizon, tol))
            or (not turns(j, motion, models[j]) and beside_throughout(b, a, start, horizon, tol))):
        return np.inf, -1, -1, -1, np.nan, np.nan, np.nan, np.nan
    return first_contact_kernel(a, b, start, horizon, tol, entry, True)


class FirstContact(NamedTuple):
    """The first contact predicted between two moving polygons.

    Attributes
    ----------
    time : float
        Seconds from now; 0.0 when they already touch.
    vertex_of : str
        ``'a'`` when a vertex of a meets an edge of b, ``'b'`` for the other way round, ``''``
        when they already touch (time 0: see `collision_monitor.kernels.geometry2d.contact`).
    vertex, edge : int
        Index of the vertex in its polygon, and of the edge (joining vertices edge and
        edge + 1) in the other; -1 at time 0.
    point : (2,) float64
        Where the vertex meets the edge (nan at time 0).
    normal : (2,) float64
        Unit normal from a to b at that time: the edge's outward normal, negated when the edge
        is b's; where a corner meets a corner, the middle of the directions whose line
        through the point keeps each corner on its own side (nan at time 0).

    """

    time: float
    vertex_of: str
    vertex: int
    edge: int
    point: np.ndarray
    normal: np.ndarray


def _kinematics(name, verts, vel, acc):
    p = as_points(verts, f'verts_{name}')
    v = as_points(vel, f'vel_{name}')
    a = as_points(acc, f'acc_{name}') if acc is not None else np.zeros_like(p)
    if not (p.shape == v.shape == a.shape):
        raise ValueError(f'verts_{name}, vel_{name} and acc_{name} must have the same shape')
    for arr, what in ((p, 'verts'), (v, 'vel'), (a, 'acc')):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f'{what}_{name} has non-finite values')
    return p, v, a


def first_contact(verts_a, vel_a, acc_a, verts_b, vel_b, acc_b, horizon):
    """First contact of two moving polygons within `horizon`, or None.

    Parameters
    ----------
    verts_a, verts_b : (n, 2) array_like of float
        World vertices at t = 0 (metres), simple polygons of either winding.
    vel_a, vel_b : (n, 2) array_like of float
        Vertex velocities (m/s), e.g. from `kinematics.vertex_kinematics`.
    acc_a, acc_b : (n, 2) array_like of float or None
        Vertex accelerations (m/s^2); None for the constant-velocity predictor.
    horizon : float
        Look-ahead, seconds (> 0).

    Returns
    -------
    FirstContact or None
        None when the polygons do not touch within the horizon.

    """
    if not horizon > 0.0 or not np.isfinite(horizon):
        raise ValueError(f'horizon must be a positive number of seconds, got {horizon}')
    pa, va, aa = _kinematics('a', verts_a, vel_a, acc_a)
    pb, vb, ab = _kinematics('b', verts_b, vel_b, acc_b)
    oa, ob = polygon_orientation(pa), polygon_orientation(pb)
    tol = pair_length_tolerance(pa, pb)
    if polygons_intersect_kernel(pa, oa, is_convex(pa), pb, ob, is_convex(pb), tol):
        nan2 = np.full(2, np.nan)
        return FirstContact(0.0, '', -1, -1, nan2, nan2.copy())
    t, side, vertex, edge, x, y, nx, ny = first_contact_kernel(
        MovingPolygon(pa, va, aa, oa), MovingPolygon(pb, vb, ab, ob), 0.0, float(horizon), tol,
        np.empty((2, max(len(pa), len(pb)))), False)
    if not np.isfinite(t):
        return None
    return FirstContact(float(t), 'ab'[side], int(vertex), int(edge), np.array([x, y]),
                        np.array([nx, ny]))


@jit
def circles_meet_time(i, j, motion, radius, horizon, models, tol):
    """Conservative bound: no vertex of i can reach j (or j i) before the returned time.

    For bodies under point models, or not turning (``models`` (N,): a `MotionModel` value
    per body).  Over [0, H] each body's vertices stay within its `kinematics.reach` R_b(t)
    (for this H),
    a polynomial with non-negative coefficients, of its origin's path; the pair can only
    touch once the origins' relative path ``d(t) = dp + dv t + da t^2 / 2`` comes within
    R(t) = R_i(t) + R_j(t), where the quartic ``R(t)^2 - |d(t)|^2`` is >= 0.  Bezier clipping
    (`polyroots.clip_to_band`, CLIP_ROUNDS rounds) bounds the first such t in [0, H] from
    below: 0 when it is now, inf when it rules out the whole horizon.  Most candidate pairs
    of the swept broad phase end here, for a few dozen flops each.
    """
    poses, twists, accels = motion
    mi, mj = models[i], models[j]
    a0, a1, a2 = reach(i, twists, accels, radius, mi, horizon)
    b0, b1, b2 = reach(j, twists, accels, radius, mj, horizon)
    r0, r1, r2 = a0 + b0 + tol, a1 + b1, a2 + b2
    d2x = 0.5 * (held_acceleration(j, motion, mj, 0) - held_acceleration(i, motion, mi, 0))
    d2y = 0.5 * (held_acceleration(j, motion, mj, 1) - held_acceleration(i, motion, mi, 1))
    c = inside_quartic(poses[j, 0] - poses[i, 0], poses[j, 1] - poses[i, 1],
                       twists[j, 0] - twists[i, 0], twists[j, 1] - twists[i, 1],
                       d2x, d2y, r0, r1, r2)
    return clip_to_band(c[0], c[1], c[2], c[3], c[4], 0.0, horizon, 0.0, True, CLIP_ROUNDS)


@jit
def beside_throughout(a, b, lo, hi, tol):
    """Whether polygon b stays beyond the line of one edge of polygon a over [lo, hi], a
    translating (all its vertices with one velocity and one acceleration: a body that does
    not turn): then the pair never meets there.  `a` and `b` are `packed.MovingPolygon`.

    Along a fixed unit direction n, vertex j of b projects to the quadratic
    ``n.p_j + n.v_j t + n.a_j t^2 / 2`` (the predictors' model moves every vertex as a
    point), and a's support to ``top + n.v t + n.a t^2 / 2``, top the largest n.vertex now.
    For n an edge's outward normal, each vertex's gap to the support is a quadratic whose
    least value on [lo, hi] is at an end or at its turning point.  When every one is over
    2 tol (the rounding of these few products is a few ulps of the positions and paths,
    far below a tolerance at a robot's speeds), a line parts the two polygons by more than
    the tolerance throughout: no vertex comes within tol of an edge, and
    `first_contact_kernel` would find nothing.  A robot driving along a shelf is the case.
    """
    pa, va, aa, orient = a
    pb, vb, ab, _ = b
    n = pa.shape[0]
    for k in range(n):
        k1 = k + 1 if k + 1 < n else 0
        ex = pa[k1, 0] - pa[k, 0]
        ey = pa[k1, 1] - pa[k, 1]
        length = norm(ex, ey)
        if length == 0.0:
            continue
        # outward normal of a CCW edge e is (ey, -ex) / |e|; orientation flips it for CW
        nx = orient * ey / length
        ny = -orient * ex / length
        top = -np.inf
        for m in range(n):
            top = max(top, nx * pa[m, 0] + ny * pa[m, 1])
        apart = True
        for j in range(pb.shape[0]):
            g0 = nx * pb[j, 0] + ny * pb[j, 1] - top
            g1 = nx * (vb[j, 0] - va[0, 0]) + ny * (vb[j, 1] - va[0, 1])
            g2 = 0.5 * (nx * (ab[j, 0] - aa[0, 0]) + ny * (ab[j, 1] - aa[0, 1]))
            least = min(g0 + (g1 + g2 * lo) * lo, g0 + (g1 + g2 * hi) * hi)
            if g2 > 0.0:
                turn = -0.5 * g1 / g2
                if lo < turn < hi:
                    least = min(least, g0 + (g1 + g2 * turn) * turn)
            if not least > 2.0 * tol:
                apart = False
                break
        if apart:
            return True
    return False


@jit_parallel
def first_contacts(candidates, n_pairs, motion, bodies, boxes, models, horizon, scratch, entry,
                   found):
    """First contact of every candidate pair within the horizon (`packed.Motion` and
    `packed.Bodies` in), row p of `found` (P, 8) for pair p: time (inf when none within the
    horizon), side, vertex, edge, point x, y, normal x, y; `pack_predictions` turns them into
    `packed.PredictionRows`.

    `boxes` is ``(aabb, swept)``: the bodies' current boxes and their `swept_boxes` for this
    horizon and the models (``models`` (N,), a `MotionModel` value per body).  `candidates`
    is ``(pairs, touching)``: the pairs (P, 2) and (P,) bool the ones known to touch now.
    Pairs touching now get time 0 (side, vertex, edge -1; point and normal nan), untested where
    `touching` says so; pairs apart now that `kinematics.move_as_one` (two bodies at rest, say)
    never meet.  A pair whose swept boxes are apart never meets (the candidates are pairs of
    *fat* swept boxes, `broadphase.PairCache`: over half of them, in a scene moving at up to 1
    m/s over 2 s, end at these four comparisons).  For pairs of bodies under point models (or
    not turning), `circles_meet_time` drops pairs whose reach circles never meet and starts the
    vertex-edge search of the others where they first do; for pairs with a body turning
    under a rigid model, `discs_meet_time` does the same; `pair_first_event` searches.

    `scratch` (S, 2, 4, M, 2) holds the vertex kinematics (position, velocity, acceleration,
    and the vertices at a time of the rigid search) of the two bodies of a pair and `entry`
    (S, 2, M) the search order of `first_contact_kernel`, M at least the largest vertex
    count: a ``prange`` over the S slots, slot s taking pairs s, s + S, ...
    """
    offsets, vstart, orient, convex = bodies.offsets, bodies.vstart, bodies.orient, bodies.convex
    radius = bodies.radius
    pairs, touching = candidates
    aabb, swept = boxes
    n_slots = scratch.shape[0]
    for slot in numba.prange(n_slots):
        kin = scratch[slot]
        for p in range(slot, n_pairs, n_slots):
            i = pairs[p, 0]
            j = pairs[p, 1]
            na = vstart[i + 1] - vstart[i]
            nb = vstart[j + 1] - vstart[j]
            start = np.inf
            bound = 0.0
            t, side, vertex, edge = np.inf, -1, -1, -1
            x = y = nx = ny = np.nan
            # the swept-box test written out: a helper taking the arrays costs more than it
            if touching[p]:
                t = 0.0
            elif (swept[i, 0] <= swept[j, 2] and swept[j, 0] <= swept[i, 2]
                    and swept[i, 1] <= swept[j, 3] and swept[j, 1] <= swept[i, 3]):
                bound = pair_tolerance(aabb, i, j)
                if turns_rigidly(i, motion, models) or turns_rigidly(j, motion, models):
                    start = discs_meet_time(i, j, motion, models, radius, horizon, bound)
                else:
                    start = circles_meet_time(i, j, motion, radius, horizon, models, bound)
            if start <= horizon:
                body_kinematics(i, motion, offsets, vstart, models[i],
                                (kin[0, 0], kin[0, 1], kin[0, 2]), 0)
                body_kinematics(j, motion, offsets, vstart, models[j],
                                (kin[1, 0], kin[1, 1], kin[1, 2]), 0)
                pa, pb = kin[0, 0, :na], kin[1, 0, :nb]
                tol = pair_length_tolerance(pa, pb)
                # touching now needs the reach circles to meet now (start > 0: their centres
                # are farther apart than the narrow phase's bounding circles, which then
                # reject the pair too) and the current boxes to meet, before the polygon test
                apart = (start > 0.0
                         or aabb[i, 0] > aabb[j, 2] + bound or aabb[j, 0] > aabb[i, 2] + bound
                         or aabb[i, 1] > aabb[j, 3] + bound or aabb[j, 1] > aabb[i, 3] + bound)
                if not apart and polygons_intersect_kernel(pa, orient[i], convex[i], pb,
                                                           orient[j], convex[j], tol):
                    t = 0.0
                else:
                    t, side, vertex, edge, x, y, nx, ny = pair_first_event(
                        i, j, motion, models, bodies, kin, entry[slot], start, horizon, tol)
            found[p, 0] = t
            found[p, 1] = side
            found[p, 2] = vertex
            found[p, 3] = edge
            found[p, 4] = x
            found[p, 5] = y
            found[p, 6] = nx
            found[p, 7] = ny


@jit
def search_pairs(pairs, n_pairs, known, motion, bodies, boxes, models, horizon, search, rows):
    """`first_contacts` over the first n_pairs candidates, then `pack_predictions` into
    `rows`; returns how many meet within the horizon.

    `known` (k, 2) lists the candidates that touch now, in their order among the candidates
    (the narrow phase's contacts over them, which `polygons_intersect_kernel` confirms: both
    take touching within the pair's tolerance alike): they get time 0 without a test of
    their own.  An empty `known` leaves every pair to `first_contacts`.  `search` is
    ``(scratch, entry, touching, found)``, touching a (P,) bool written here.  `motion`,
    `bodies` and `rows` are a `packed.Motion`, `packed.Bodies` and `packed.PredictionRows`
    or their plain tuples (the faster to dispatch).
    """
    motion, bodies, rows = Motion(*motion), Bodies(*bodies), PredictionRows(*rows)
    scratch, entry, touching, found = search
    c = 0
    for p in range(n_pairs):
        hit = (c < known.shape[0] and pairs[p, 0] == known[c, 0]
               and pairs[p, 1] == known[c, 1])
        touching[p] = hit
        c += hit
    first_contacts((pairs, touching), n_pairs, motion, bodies, boxes, models, horizon, scratch,
                   entry, found)
    return pack_predictions(pairs, n_pairs, horizon, found, rows)


@jit
def pack_predictions(pairs, n_pairs, horizon, found, rows):
    """Write the pairs of `first_contacts` that meet within the horizon to the front of
    `rows` (`packed.PredictionRows`); return how many.  Adding 0.0 to each float turns the
    -0.0 of a sign flip into 0.0."""
    out_pairs, out_time, out_side, out_vertex, out_edge, out_point, out_normal = rows
    k = 0
    for p in range(n_pairs):
        if not found[p, 0] <= horizon:
            continue
        out_pairs[k, 0] = pairs[p, 0]
        out_pairs[k, 1] = pairs[p, 1]
        out_time[k] = found[p, 0] + 0.0
        out_side[k] = int(found[p, 1])
        out_vertex[k] = int(found[p, 2])
        out_edge[k] = int(found[p, 3])
        out_point[k, 0] = found[p, 4] + 0.0
        out_point[k, 1] = found[p, 5] + 0.0
        out_normal[k, 0] = found[p, 6] + 0.0
        out_normal[k, 1] = found[p, 7] + 0.0
        k += 1
    return k


@jit
def place_and_predict(motion, active, bodies, placement, sweep, look, threads, search, rows):
    """A `predict` tick in one call: `place_bodies` unless placed, `swept_boxes` unless
    swept, the candidate pairs of the swept boxes (`broadphase.candidate_pairs`), then, when
    searching, `search_pairs` over them into `rows`.

    `motion`, `bodies` and `rows` are a `packed.Motion`, `packed.Bodies` and
    `packed.PredictionRows` as plain tuples; `placement` is ``(aabb, placed_at, placed)``
    (`place_bodies`' boxes and poses, and whether they are current), `sweep` ``(swept,
    movable, cache, swept)``: the swept boxes, which bodies move, the
    `broadphase.PairCache.arrays()` of the swept candidates, and whether the boxes are
    current; `look` ``(models, horizon)``; `search` ``(searching, known,
    search)``, the last two as `search_pairs` takes them.  `threads` is
    ``(running, parallel)``: the threads numba runs this call on (a cached kernel cannot set
    them; the caller picks `threads.threads_for` the bodies) and those of a large search.

    Returns ``(pairs, predictions)``: the swept candidates' count, and how many meet, or -1
    when not searched: when not searching, when the candidates exceed the pairs array (the
    caller grows it and calls again) or when the search wants other threads than `running`
    (the caller then calls `search_pairs` on those).
    """
    motion, bodies, rows = Motion(*motion), Bodies(*bodies), PredictionRows(*rows)
    aabb, placed_at, placed = placement
    swept, movable, cache, swept_now = sweep
    models, horizon = look
    running, parallel = threads
    searching, known, search = search
    if not placed:
        place_bodies(motion.poses, active, bodies, aabb, placed_at)
    if not swept_now:
        swept_boxes(motion, active, bodies.radius, aabb, models, horizon, swept)
    n_pairs = candidate_pairs(swept, active, movable, cache)
    pairs = cache[2]
    if not searching or n_pairs > pairs.shape[0]:
        return n_pairs, -1
    if n_pairs == 0:
        return 0, 0
    if threads_for(n_pairs * search[0].shape[3], parallel) != running:
        return n_pairs, -1
    return n_pairs, search_pairs(pairs, n_pairs, known, motion, bodies, (aabb, swept), models,
                                 horizon, search, rows)
