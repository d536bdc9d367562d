# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Time of collision between moving polygons: constant velocity and constant acceleration.

Model (seed 000, "Interpolating Time of Collision"): every vertex moves as a point,
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

(The seed prints c4 with (a_P - a_P) for (a_Q - a_P), c3 with velocities in both terms, and
c2 with (r_j - r_P) x (r_Q - r_P) for its first term; the lines above are derived afresh and
checked against a numeric expansion in the tests.)  Under constant velocity c4 = c3 = c2's
acceleration terms = 0, leaving the seed's quadratic a t^2 + b t + c.

A root counts when it is real, in [0, horizon], and the vertex lies within the edge then:
``0 <= d = u(t).w(t) / |w(t)|^2 <= 1``.  Two polygons that are apart first touch when a vertex
of one meets an edge of the other, so the first contact is the earliest valid root over the
vertices of a against the edges of b and the vertices of b against the edges of a.

Result contract: time 0.0 when the polygons already touch, ``inf`` when nothing happens
within the horizon (so results compose with ``min``).
"""

from typing import NamedTuple

import numpy as np

from .constants import jit
from .geometry2d.contact import polygons_intersect_kernel
from .geometry2d.primitives import cross, length_tolerance, polygon_scale
from .geometry2d.validation import as_points, is_convex, polygon_orientation
from .polyroots import poly4_roots

PREDICTORS = ('constant_acceleration', 'constant_velocity')


@jit
def quartic_coefficients(rjx, rjy, vjx, vjy, ajx, ajy, rpx, rpy, vpx, vpy, apx, apy,
                         rqx, rqy, vqx, vqy, aqx, aqy):
    """Coefficients (c0, ..., c4) of f(t) = w(t) x u(t) for vertex j against edge P->Q."""
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
def vertex_edge_toi(pj, vj, aj, j, pe, ve, ae, p, q, horizon, tol):
    """Earliest t in [0, horizon] at which vertex j lies on segment p->q of the other polygon.

    `pj, vj, aj` and `pe, ve, ae` are (n, 2) vertex kinematics of the vertex's polygon and of
    the edge's polygon.  Returns ``(t, d)`` with d the position along the edge (0 at p,
    1 at q), or ``(inf, nan)``.
    """
    c0, c1, c2, c3, c4 = quartic_coefficients(
        pj[j, 0], pj[j, 1], vj[j, 0], vj[j, 1], aj[j, 0], aj[j, 1],
        pe[p, 0], pe[p, 1], ve[p, 0], ve[p, 1], ae[p, 0], ae[p, 1],
        pe[q, 0], pe[q, 1], ve[q, 0], ve[q, 1], ae[q, 0], ae[q, 1])
    ex = pe[q, 0] - pe[p, 0]
    ey = pe[q, 1] - pe[p, 1]
    ftol = tol * np.sqrt(ex * ex + ey * ey)
    # cheap rejection: |f(t)| >= |c0| - sum |c_k| H^k > ftol on the whole interval
    h = horizon
    if abs(c0) - (abs(c1) + (abs(c2) + (abs(c3) + abs(c4) * h) * h) * h) * h > ftol:
        return np.inf, np.nan
    n, r0, r1, r2, r3 = poly4_roots(c0, c1, c2, c3, c4, 0.0, horizon, ftol)
    for k in range(n):
        t = r0 if k == 0 else (r1 if k == 1 else (r2 if k == 2 else r3))
        px = _at(pe[p, 0], ve[p, 0], ae[p, 0], t)
        py = _at(pe[p, 1], ve[p, 1], ae[p, 1], t)
        wx = _at(pe[q, 0], ve[q, 0], ae[q, 0], t) - px
        wy = _at(pe[q, 1], ve[q, 1], ae[q, 1], t) - py
        ux = _at(pj[j, 0], vj[j, 0], aj[j, 0], t) - px
        uy = _at(pj[j, 1], vj[j, 1], aj[j, 1], t) - py
        ww = wx * wx + wy * wy
        d = (ux * wx + uy * wy) / ww
        slack = tol / np.sqrt(ww)
        if -slack <= d <= 1.0 + slack:
            return t, min(1.0, max(0.0, d))
    return np.inf, np.nan


@jit
def first_contact_kernel(pa, va, aa, orient_a, pb, vb, ab, orient_b, horizon, tol):
    """Earliest vertex-edge event between polygons a and b (vertex kinematics (n, 2) each).

    Returns ``(t, side, vertex, edge, x, y, nx, ny)``: side 0 when a vertex of a meets an edge
    of b, 1 when a vertex of b meets an edge of a; the contact point and the unit normal from
    a to b at time t (the outward normal of the edge, negated when the edge is b's).  ``t`` is
    inf and the rest meaningless when nothing happens within the horizon.
    """
    best = horizon
    side = -1
    vertex = -1
    edge = -1
    along = 0.0
    n = pa.shape[0]
    m = pb.shape[0]
    for s in range(2):
        nv = n if s == 0 else m
        ne = m if s == 0 else n
        for j in range(nv):
            for e in range(ne):
                q = e + 1 if e + 1 < ne else 0
                if s == 0:
                    t, d = vertex_edge_toi(pa, va, aa, j, pb, vb, ab, e, q, best, tol)
                else:
                    t, d = vertex_edge_toi(pb, vb, ab, j, pa, va, aa, e, q, best, tol)
                if t < best or (side < 0 and t <= best):
                    best, side, vertex, edge, along = t, s, j, e, d
    if side < 0:
        return np.inf, -1, -1, -1, np.nan, np.nan, np.nan, np.nan
    t = best
    if side == 0:
        pe, ve, ae, ne, sign = pb, vb, ab, m, -orient_b
    else:
        pe, ve, ae, ne, sign = pa, va, aa, n, orient_a
    q = edge + 1 if edge + 1 < ne else 0
    px = _at(pe[edge, 0], ve[edge, 0], ae[edge, 0], t)
    py = _at(pe[edge, 1], ve[edge, 1], ae[edge, 1], t)
    wx = _at(pe[q, 0], ve[q, 0], ae[q, 0], t) - px
    wy = _at(pe[q, 1], ve[q, 1], ae[q, 1], t) - py
    lw = np.sqrt(wx * wx + wy * wy)
    # outward normal of a CCW edge w is (wy, -wx) / |w|; orientation flips it for CW
    nx = sign * wy / lw
    ny = -sign * wx / lw
    return t, side, vertex, edge, px + along * wx, py + along * wy, nx, ny


class FirstContact(NamedTuple):
    """The first contact predicted between two moving polygons.

    Attributes
    ----------
    time : float
        Seconds from now; 0.0 when they already touch.
    vertex_of : str
        ``'a'`` when a vertex of a meets an edge of b, ``'b'`` for the other way round, ``''``
        when they already touch (time 0: see `collision_monitor.geometry2d.contact`).
    vertex, edge : int
        Index of the vertex in its polygon, and of the edge (joining vertices edge and
        edge + 1) in the other; -1 at time 0.
    point : (2,) float64
        Where the vertex meets the edge (nan at time 0).
    normal : (2,) float64
        Unit normal from a to b at that time: the edge's outward normal, negated when the edge
        is b's (nan at time 0).
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
        Vertex velocities (m/s), e.g. from `collision_monitor.kinematics.vertex_kinematics`.
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
    tol = length_tolerance(max(polygon_scale(pa), polygon_scale(pb)))
    if polygons_intersect_kernel(pa, oa, is_convex(pa), pb, ob, is_convex(pb), tol):
        nan2 = np.full(2, np.nan)
        return FirstContact(0.0, '', -1, -1, nan2, nan2.copy())
    t, side, vertex, edge, x, y, nx, ny = first_contact_kernel(pa, va, aa, oa, pb, vb, ab, ob,
                                                               float(horizon), tol)
    if not np.isfinite(t):
        return None
    return FirstContact(float(t), 'ab'[side], int(vertex), int(edge), np.array([x, y]),
                        np.array([nx, ny]))


@jit
def circles_may_meet(i, j, poses, twists, accels, radius, horizon, constant_velocity, tol):
    """Conservative test: can any vertex of i come within reach of any vertex of j?

    Under the point model a vertex at offset r from its body's origin follows
    ``c(t) + r + (w x r) t + (alpha x r - w^2 r) t^2 / 2`` with c(t) the origin's path, so it
    stays within ``rho(t) <= rho (1 + |w| H + (|alpha| + w^2) H^2 / 2)`` of c(t) (rho: the
    bounding radius, seed 000).  The pair can only touch if the origins' relative path
    ``d(t) = dp + dv t + da t^2 / 2`` comes within the sum of those reaches:
    ``|d(t)|^2 - R^2``, a quartic, has a root or is negative on [0, H].
    """
    h = horizon
    reach = tol
    for b in (i, j):
        w = abs(twists[b, 2])
        if constant_velocity:
            reach += radius[b] * (1.0 + w * h)
        else:
            reach += radius[b] * (1.0 + w * h + 0.5 * (abs(accels[b, 2]) + w * w) * h * h)
    d0x = poses[j, 0] - poses[i, 0]
    d0y = poses[j, 1] - poses[i, 1]
    d1x = twists[j, 0] - twists[i, 0]
    d1y = twists[j, 1] - twists[i, 1]
    d2x = 0.0
    d2y = 0.0
    if not constant_velocity:
        d2x = 0.5 * (accels[j, 0] - accels[i, 0])
        d2y = 0.5 * (accels[j, 1] - accels[i, 1])
    c0 = d0x * d0x + d0y * d0y - reach * reach
    if c0 <= 0.0:
        return True
    c1 = 2.0 * (d0x * d1x + d0y * d1y)
    c2 = d1x * d1x + d1y * d1y + 2.0 * (d0x * d2x + d0y * d2y)
    c3 = 2.0 * (d1x * d2x + d1y * d2y)
    c4 = d2x * d2x + d2y * d2y
    return poly4_roots(c0, c1, c2, c3, c4, 0.0, horizon, 0.0)[0] > 0


@jit
def predict_pairs(pairs, n_pairs, pos, vel, acc, vstart, orient, convex, aabb, poses, twists,
                  accels, radius, constant_velocity, horizon, out_pairs, out_time, out_side,
                  out_vertex, out_edge, out_point, out_normal):
    """First contact of every candidate pair within the horizon; returns how many were found.

    Pairs touching now get time 0 (side, vertex, edge -1; point and normal nan); pairs with no
    contact within the horizon are left out.  `circles_may_meet` drops pairs whose bounding
    circles never meet under the model before the vertex-edge quartics are solved.  Outputs
    are row-aligned, at most `n_pairs` rows.
    """
    k = 0
    for p in range(n_pairs):
        i = pairs[p, 0]
        j = pairs[p, 1]
        a0, a1, b0, b1 = vstart[i], vstart[i + 1], vstart[j], vstart[j + 1]
        big = 0.0
        for r in range(4):
            big = max(big, abs(aabb[i, r]), abs(aabb[j, r]))
        tol = length_tolerance(big + max(aabb[i, 2] - aabb[i, 0], aabb[i, 3] - aabb[i, 1],
                                         aabb[j, 2] - aabb[j, 0], aabb[j, 3] - aabb[j, 1]))
        if not circles_may_meet(i, j, poses, twists, accels, radius, horizon,
                                constant_velocity, tol):
            continue
        if polygons_intersect_kernel(pos[a0:a1], orient[i], convex[i], pos[b0:b1], orient[j],
                                     convex[j], tol):
            t, side, vertex, edge = 0.0, -1, -1, -1
            x = y = nx = ny = np.nan
        else:
            t, side, vertex, edge, x, y, nx, ny = first_contact_kernel(
                pos[a0:a1], vel[a0:a1], acc[a0:a1], orient[i],
                pos[b0:b1], vel[b0:b1], acc[b0:b1], orient[j], horizon, tol)
            if not t <= horizon:
                continue
        out_pairs[k, 0] = i
        out_pairs[k, 1] = j
        out_time[k] = t
        out_side[k] = side
        out_vertex[k] = vertex
        out_edge[k] = edge
        out_point[k, 0] = x
        out_point[k, 1] = y
        out_normal[k, 0] = nx
        out_normal[k, 1] = ny
        k += 1
    return k
