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
"""The contact manifold of two convex polyhedra from their separating plane ([baraff]).

The vertices of a and of b within ``band`` of the mid-plane are projected onto it (basis u, v
orthogonal to the normal n, origin the plane point m); the convex hull of each set is taken
(`planar.hull2`), the two hulls are intersected (`planar.clip_convex`), and the corners of the
intersection, mapped back to 3D, are the contact points.  A hull that is a point or a segment
(a vertex or an edge touching) gives the part of it inside the other hull.  Everything runs in
one kernel on scratch arrays: per query this was Python's cost, not the geometry's.
"""

import numpy as np

from .gjk import gjk_kernel
from .planar import clip_convex, hull2, plane_basis_kernel
from .separating_plane import plane_through_gap
from ..kernels.constants import jit
from ..kernels.geometry2d.point_in_polygon import point_in_convex_kernel
from ..kernels.geometry2d.primitives import (closest_on_segment, point_on_segment,
                                             segment_intersection)

DEGENERATE_TOL = 1e-9
"""Slack (m, in the plane) of the manifold's point-in-hull and on-segment tests when one
side's contact set is a vertex or an edge, and of the touch of hulls that share no area."""
LEAN_TOL = 16.0
"""How far (in length tolerances) the gap of the axis test may fall short of the GJK
distance before its plane counts as leaning: GJK's distance was found up to 4 tolerances
long between bodies 10 m across and nanometres apart."""


@jit
def _degenerate_overlap(small, ns, big, nb, tol, out):
    """Overlap when a hull is a point or a segment (a vertex or an edge touching): written to
    out, returns its size (0, 1 or 2)."""
    if nb >= 3:
        if ns == 1:
            if point_in_convex_kernel(small[0, 0], small[0, 1], big[:nb], 1.0, tol):
                out[0] = small[0]
                return 1
            return 0
        # the segment clipped by every edge's inner half-plane
        px, py, qx, qy = small[0, 0], small[0, 1], small[1, 0], small[1, 1]
        lo, hi = 0.0, 1.0
        for k in range(nb):
            ax, ay = big[k, 0], big[k, 1]
            ex = big[(k + 1) % nb, 0] - ax
            ey = big[(k + 1) % nb, 1] - ay
            sp = ex * (py - ay) - ey * (px - ax)
            sq = ex * (qy - ay) - ey * (qx - ax)
            if sp < -tol and sq < -tol:
                return 0
            if (sp < -tol) != (sq < -tol):
                t = sp / (sp - sq)
                if sp < -tol:
                    lo = max(lo, t)
                else:
                    hi = min(hi, t)
        if lo > hi:
            return 0
        out[0, 0], out[0, 1] = px + lo * (qx - px), py + lo * (qy - py)
        if (hi - lo) * np.hypot(qx - px, qy - py) <= tol:  # a touch at one point
            return 1
        out[1, 0], out[1, 1] = px + hi * (qx - px), py + hi * (qy - py)
        return 2
    ax, ay, bx, by = big[0, 0], big[0, 1], big[nb - 1, 0], big[nb - 1, 1]
    if ns == 1:
        if point_on_segment(ax, ay, bx, by, small[0, 0], small[0, 1], tol):
            out[0] = small[0]
            return 1
        return 0
    cnt, x0, y0, _, _, x1, y1, _, _ = segment_intersection(
        small[0, 0], small[0, 1], small[1, 0], small[1, 1], ax, ay, bx, by, tol)
    out[0, 0], out[0, 1] = x0, y0
    out[1, 0], out[1, 1] = x1, y1
    return cnt


@jit
def _nearest_midpoint(ha, na, hb, nb):
    """``(d2, x, y)``: the squared distance between the hulls ha[:na] and hb[:nb] (a point,
    a segment or a CCW polygon each, in the plane) when they do not overlap, and the midpoint
    of its two nearest points: a vertex of one and the nearest point on an edge of the
    other."""
    best, mx, my = np.inf, 0.0, 0.0
    for side in range(2):
        p, n_p, q, n_q = (ha, na, hb, nb) if side == 0 else (hb, nb, ha, na)
        for i in range(n_p):
            for j in range(n_q):
                k = j + 1 if j + 1 < n_q else 0
                qx, qy, _ = closest_on_segment(q[j, 0], q[j, 1], q[k, 0], q[k, 1],
                                               p[i, 0], p[i, 1])
                d2 = (p[i, 0] - qx) ** 2 + (p[i, 1] - qy) ** 2
                if d2 < best:
                    best, mx, my = d2, 0.5 * (p[i, 0] + qx), 0.5 * (p[i, 1] + qy)
    return best, mx, my


@jit
def _project(v, m, n, u, w, band, out):
    """Rows of out: (u, w) coordinates of the vertices within band of the plane through m
    with unit normal n (3-tuples, as the in-plane basis u, w)."""
    mx, my, mz = m
    nx, ny, nz = n
    ux, uy, uz = u
    wx, wy, wz = w
    k = 0
    for i in range(v.shape[0]):
        dx, dy, dz = v[i, 0] - mx, v[i, 1] - my, v[i, 2] - mz
        if abs(dx * nx + dy * ny + dz * nz) <= band:
            out[k, 0] = dx * ux + dy * uy + dz * uz
            out[k, 1] = dx * wx + dy * wy + dz * wz
            k += 1
    return k


@jit
def manifold_kernel(a, b, m, n, band, tol, out):
    """Contact points of a and b (vertices (n, 3), (m, 3)) about the plane through the point
    m with unit normal n (3-tuples); written to out (>= n + m rows, 3 columns), returns how
    many."""
    mx, my, mz = m
    ux, uy, uz, wx, wy, wz = plane_basis_kernel(n[0], n[1], n[2])
    u = (ux, uy, uz)
    w = (wx, wy, wz)
    size = a.shape[0] + b.shape[0] + 1
    work = np.empty((4 * size, 2))
    pa = work[:size]
    pb = work[size:2 * size]
    ha = work[2 * size:3 * size]
    hb = work[3 * size:]
    na = hull2(pa, _project(a, m, n, u, w, band, pa), ha)
    nb = hull2(pb, _project(b, m, n, u, w, band, pb), hb)
    if na == 0 or nb == 0:
        return 0
    if na >= 3 and nb >= 3:
        k = clip_convex(ha, na, hb, nb, pa, pb)
    elif na <= nb:
        k = _degenerate_overlap(ha, na, hb, nb, tol, pa)
    else:
        k = _degenerate_overlap(hb, nb, ha, na, tol, pa)
    if k == 0:
        # hulls within the slack of one another: a touch at one point, which the clipping
        # (exact side tests) can lose to rounding
        d2, x, y = _nearest_midpoint(ha, na, hb, nb)
        if d2 <= tol * tol:
            pa[0, 0], pa[0, 1] = x, y
            k = 1
    if k >= 3:
        k = hull2(pa, k, pb)
        pa[:k] = pb[:k]
    for i in range(k):
        out[i, 0] = mx + pa[i, 0] * ux + pa[i, 1] * wx
        out[i, 1] = my + pa[i, 0] * uy + pa[i, 1] * wy
        out[i, 2] = mz + pa[i, 0] * uz + pa[i, 1] * wz
    return k


@jit
def square_to_edges(body, point, d, tol):
    """The closest-point offset d = (dx, dy, dz) with its part along an edge of `body`
    (`ConvexPolyhedron.arrays`) taken out, when `point` (its closest point, a 3-tuple) lies on
    that edge, within tol of its line and more than DEGENERATE_TOL from either end.

    The offset from a point inside an edge to the other body's closest point is square to the
    edge; GJK's points can slide along an edge by far more than its rounding elsewhere (1e-9 m
    along parallel edges 10 m long), which tilts a plane through them about the edge's
    normal, and lifts the edge's far end out of the band.
    """
    v, edges = body[0], body[2]
    px, py, pz = point
    dx, dy, dz = d
    for e in range(edges.shape[0]):
        i, j = edges[e, 0], edges[e, 1]
        ux, uy, uz = v[j, 0] - v[i, 0], v[j, 1] - v[i, 1], v[j, 2] - v[i, 2]
        length = np.sqrt(ux * ux + uy * uy + uz * uz)
        ux, uy, uz = ux / length, uy / length, uz / length
        rx, ry, rz = px - v[i, 0], py - v[i, 1], pz - v[i, 2]
        t = rx * ux + ry * uy + rz * uz
        if not DEGENERATE_TOL < t < length - DEGENERATE_TOL:
            continue
        ox, oy, oz = rx - t * ux, ry - t * uy, rz - t * uz
        if ox * ox + oy * oy + oz * oz <= tol * tol:
            along = dx * ux + dy * uy + dz * uz
            return dx - along * ux, dy - along * uy, dz - along * uz
    return dx, dy, dz


@jit
def contact_manifold_kernel(a, b, eps, tol, out):
    """`contact_manifold` on prepared arrays: ``(count, nx, ny, nz, depth)`` with the points
    in out[:count] (out (n + m, 3)); count 0 when the bodies are more than eps apart or (when
    they meet) share no point of the manifold.

    A gap along any axis is at most the distance, so the plane search stops at the first axis
    wider than eps; a best gap <= 0 means the bodies meet (the separating axis theorem); only
    a gap in (0, eps] leaves the distance open, and GJK settles it.  Bodies apart by at most
    eps whose near features do not face each other across the plane (two corners or edges
    off to the side of one another: the projected hulls miss) get one point, the midpoint of
    their closest points.

    The axis test's plane is the plane of contact for bodies that meet, and for bodies apart
    when its gap is their distance.  It can lean away from the direction of the closest points
    (edges parallel to each other: the face normals about them are the only axes, and their
    gaps are d cos(lean)), and then features facing each other along that direction miss each
    other in its projection.  The plane is then taken through the midpoint of the closest
    points, square to the line joining them: when the gap falls short of the distance by more
    than LEAN_TOL tolerances (a lean with d (1 - cos(lean)) above that), or when the vertices
    about the axis test's plane give no point.  The lean is judged by d - gap, not by
    d sin(lean): GJK's closest points carry the rounding of the bodies' size, which turns the
    line joining points nanometres apart by as much as 3e-3 rad (a plane through them tilts a
    resting face out of the band), while its distance is within a few tolerances.  For the
    same reason that line is made square to an edge holding either closest point inside it
    (`square_to_edges`): two parallel edges apart then touch along their overlap.
    """
    gap, px, py, pz, nx, ny, nz, _ = plane_through_gap(a, b, tol, eps)
    if gap > eps:
        return 0, 0.0, 0.0, 0.0, 0.0
    depth = max(0.0, -gap)
    band = eps + 0.5 * depth + 1e-12
    if gap <= 0.0:
        count = manifold_kernel(a[0], b[0], (px, py, pz), (nx, ny, nz), band, DEGENERATE_TOL,
                                out)
        return count, nx, ny, nz, depth
    distance, ax, ay, az, bx, by, bz, _ = gjk_kernel(a[0], b[0])
    if distance > eps:
        return 0, 0.0, 0.0, 0.0, 0.0
    count = 0
    if distance - gap <= LEAN_TOL * tol:
        count = manifold_kernel(a[0], b[0], (px, py, pz), (nx, ny, nz), band, DEGENERATE_TOL,
                                out)
    mid_x, mid_y, mid_z = 0.5 * (ax + bx), 0.5 * (ay + by), 0.5 * (az + bz)
    if count == 0 and distance > 0.0:
        dx, dy, dz = square_to_edges(a, (ax, ay, az), (bx - ax, by - ay, bz - az), tol)
        dx, dy, dz = square_to_edges(b, (bx, by, bz), (dx, dy, dz), tol)
        length = np.sqrt(dx * dx + dy * dy + dz * dz)
        nx, ny, nz = dx / length, dy / length, dz / length
        count = manifold_kernel(a[0], b[0], (mid_x, mid_y, mid_z), (nx, ny, nz), band,
                                DEGENERATE_TOL, out)
    if count == 0:
        out[0, 0] = mid_x
        out[0, 1] = mid_y
        out[0, 2] = mid_z
        count = 1
    return count, nx, ny, nz, 0.0
