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
"""Narrow phase of two polygons: the intersection test and the full contact description.

A contact is described by its *features* ([polygons]' classification table and [tutorial]'s
roles):

* a vertex of a inside b (boundary included), with the edge of b that the line from a's
  centroid through the vertex crosses last, and the vertex's projection p_B on that edge;
* a vertex of b inside a, the same way round;
* a proper crossing of an edge of a with an edge of b (crossings at a vertex are that vertex's
  feature already).

Contact points are all feature points.  The normal is a unit vector from a to b: translating b
along it separates the pair.  For two convex polygons it is the minimum translation axis of the
separating axis test and the depth is exact.  Otherwise the deepest vertex feature gives the
normal (its edge's outward normal) and the depth (its distance to that edge's line); when no
vertex is inside (thin bodies crossing) the first crossed edge of b gives the normal and the
spread of the crossing points along it gives the depth.
"""

import enum

import numpy as np

from .point_in_polygon import point_in_convex_kernel, point_in_polygon_kernel
from .primitives import (centroid, closest_on_segment, cross, norm, outward_normal,
                         pair_length_tolerance, point_on_segment, segment_intersection)
from .separating_axis import sat_kernel
from .validation import as_polygon, is_convex, polygon_orientation
from ..constants import FLOAT, INDEX, jit
from ..packed import Features, Polygon

# Contact kinds (kernel codes; see ContactKind)
KIND_NONE = 0
KIND_VERTEX_EDGE = 1
KIND_EDGE_EDGE = 2
KIND_MULTIPLE_VERTEX_EDGE = 3
KIND_MULTIPLE_EDGE_EDGE = 4
KIND_CROSSING = 5
KIND_CONTAINMENT = 6

# Feature kinds
FEATURE_VERTEX_OF_A = 0
FEATURE_VERTEX_OF_B = 1
FEATURE_CROSSING = 2


class ContactKind(enum.IntEnum):
    """Classification of a contact ([polygons]' table, extended to the cases it leaves out).

    With n_a vertices of a in b and n_b vertices of b in a (boundary included):
    VERTEX_EDGE: one side has 0, the other 1; MULTIPLE_VERTEX_EDGE: 0 and >= 2;
    EDGE_EDGE: 1 and 1; MULTIPLE_EDGE_EDGE: both >= 1, one >= 2;
    CROSSING: no vertex inside, the edges cross (thin bodies);
    CONTAINMENT: all vertices of one inside the other and no edges crossing.
    """

    NONE = KIND_NONE
    VERTEX_EDGE = KIND_VERTEX_EDGE
    EDGE_EDGE = KIND_EDGE_EDGE
    MULTIPLE_VERTEX_EDGE = KIND_MULTIPLE_VERTEX_EDGE
    MULTIPLE_EDGE_EDGE = KIND_MULTIPLE_EDGE_EDGE
    CROSSING = KIND_CROSSING
    CONTAINMENT = KIND_CONTAINMENT


@jit
def _point_inside(px, py, poly, orient, convex, tol):
    """p inside `poly` or within tol of its boundary: the distance, as edge crossings
    measure it (`point_on_segment`), not the edge-side test alone, which near a corner of
    angle A reaches tol / sin(A / 2) from it.  A convex polygon holds p when p is on the
    inner side of every edge line; p outside a line by more than tol is out; p outside some
    lines by less is within tol when within tol of one of those edges (a point outside a
    convex polygon is closest to an edge whose line it is outside of)."""
    if not convex:
        return point_in_polygon_kernel(px, py, poly, tol)[0]
    if point_in_convex_kernel(px, py, poly, orient, 0.0):
        return True
    if not point_in_convex_kernel(px, py, poly, orient, tol):
        return False
    n = poly.shape[0]
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        if point_on_segment(poly[k, 0], poly[k, 1], poly[j, 0], poly[j, 1], px, py, tol):
            return True
    return False


@jit
def _a_vertex_within(a, orient_a, b, orient_b, tol):
    """Some vertex of convex polygon a within tol of convex b, or of b within tol of a."""
    for i in range(a.shape[0]):
        if _point_inside(a[i, 0], a[i, 1], b, orient_b, True, tol):
            return True
    for j in range(b.shape[0]):
        if _point_inside(b[j, 0], b[j, 1], a, orient_a, True, tol):
            return True
    return False


@jit
def _edge_boxes_apart(ax, ay, bx, by, cx, cy, dx, dy, tol):
    return (max(ax, bx) < min(cx, dx) - tol or max(cx, dx) < min(ax, bx) - tol
            or max(ay, by) < min(cy, dy) - tol or max(cy, dy) < min(ay, by) - tol)


@jit
def polygons_intersect_kernel(a, orient_a, convex_a, b, orient_b, convex_b, tol):
    """Return True when two simple polygons share a point (touching counts).

    Convex pairs: the separating axis test with early exit; a pair apart by at most tol on
    every axis touches when a vertex of one lies within tol of the other (two convex
    polygons that do not overlap are closest at a vertex).  Otherwise: any pair of edges
    meeting, or else one polygon holding a vertex of the other (containment).  Both steps are
    needed: a thin body can cross another with no vertex inside, and a body wholly inside
    another has no edge crossing.
    """
    if convex_a and convex_b:
        s = sat_kernel(a, orient_a, b, orient_b, tol, True)[0]
        return s <= 0.0 or (s <= tol and _a_vertex_within(a, orient_a, b, orient_b, tol))
    n = a.shape[0]
    m = b.shape[0]
    for i in range(n):
        i1 = i + 1 if i + 1 < n else 0
        for j in range(m):
            j1 = j + 1 if j + 1 < m else 0
            if _edge_boxes_apart(a[i, 0], a[i, 1], a[i1, 0], a[i1, 1],
                                 b[j, 0], b[j, 1], b[j1, 0], b[j1, 1], tol):
                continue
            if segment_intersection(a[i, 0], a[i, 1], a[i1, 0], a[i1, 1],
                                    b[j, 0], b[j, 1], b[j1, 0], b[j1, 1], tol)[0] > 0:
                return True
    return (_point_inside(a[0, 0], a[0, 1], b, orient_b, convex_b, tol)
            or _point_inside(b[0, 0], b[0, 1], a, orient_a, convex_a, tol))


@jit
def locate_pb(px, py, cx, cy, poly, orient, tol):
    """[tutorial]'s p_B for a vertex p inside `poly`, seen from the centre c of its own body.

    The edge of `poly` is the one the segment c-p crosses nearest to p; when c is inside
    `poly` too (no crossing), the edge nearest to p.  Returns ``(edge, qx, qy, depth)`` with q
    the point of that edge closest to p and depth the distance of p inside the edge's line.
    """
    n = poly.shape[0]
    best_e = -1
    best_s = -1.0
    # an edge with both ends beyond the tolerance on one side of the line c-p is skipped
    # before `segment_intersection`, by the same arithmetic as its own straddle test
    ex = px - cx
    ey = py - cy
    band = tol * norm(ex, ey)
    d0 = dj = cross(ex, ey, poly[0, 0] - cx, poly[0, 1] - cy)
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        dk = dj  # each vertex's side of the line, worked out once
        dj = cross(ex, ey, poly[j, 0] - cx, poly[j, 1] - cy) if j else d0
        if (dk > band and dj > band) or (dk < -band and dj < -band):
            continue
        cnt, x0, y0, s0, t0, x1, y1, s1, t1 = segment_intersection(
            cx, cy, px, py, poly[k, 0], poly[k, 1], poly[j, 0], poly[j, 1], tol)
        if cnt > 0:
            s = s0 if cnt == 1 else max(s0, s1)
            if s > best_s:
                best_s = s
                best_e = k
    if best_e < 0:
        best_d = np.inf
        for k in range(n):
            j = k + 1 if k + 1 < n else 0
            qx, qy, _ = closest_on_segment(poly[k, 0], poly[k, 1], poly[j, 0], poly[j, 1],
                                           px, py)
            d = norm(px - qx, py - qy)
            if d < best_d:
                best_d = d
                best_e = k
    k = best_e
    j = k + 1 if k + 1 < n else 0
    ax, ay, bx, by = poly[k, 0], poly[k, 1], poly[j, 0], poly[j, 1]
    qx, qy, _ = closest_on_segment(ax, ay, bx, by, px, py)
    # inside is left of a CCW polygon's edges (orient +1), right of a CW one's
    depth = max(0.0, orient * cross(bx - ax, by - ay, px - ax, py - ay)
                / norm(bx - ax, by - ay))
    return k, qx, qy, depth


SLAB_MARGIN = 4.0
"""Margin, in length tolerances, of the slab `contact_on_axis` searches: a feature lies within
one tolerance of it, and the projections' rounding is a few ulps of the coordinates, far
below a tolerance (64 ulps of the pair's scale)."""


@jit
def _near(px, py, qx, qy, tol):
    return abs(px - qx) <= tol and abs(py - qy) <= tol


@jit
def contact_kernel(poly_a, poly_b, tol, features, f0):
    """Find every contact feature of polygons a and b and write them from row `f0` on.

    Parameters: the two `packed.Polygon` (world coordinates, orientation +1 CCW or -1 CW,
    convexity, centroid); the length tolerance; the `packed.Features` rows: point, p_B (the
    point itself for crossings), feature kind, indices (vertex of a, edge of b) | (edge of
    a, vertex of b) | (edge of a, edge of b).

    Returns ``(count, kind, nx, ny, depth)``; `count` is the number of features, 0 when
    the polygons are apart.  Rows past the buffers' end are counted, not written: the
    features are complete when ``f0 + count`` is at most the buffers' length.
    """
    axis = NO_AXIS
    if poly_a.convex and poly_b.convex:
        axis = sat_kernel(poly_a.vertices, poly_a.orient, poly_b.vertices, poly_b.orient, tol,
                          False)
    return contact_on_axis(poly_a, poly_b, tol, features, f0, axis)


NO_AXIS = (np.nan, 0.0, 0.0)
"""The `axis` of `contact_on_axis` for a pair that is not convex."""


@jit
def contact_on_axis(poly_a, poly_b, tol, features, f0, axis):
    """`contact_kernel` given the pair's separating axis test: for two convex polygons
    `axis` is ``sat_kernel(...)``, ``(s, nx, ny)`` (the narrow phase has it from the
    intersection test), else `NO_AXIS`.

    Only the vertices and edges that reach the slab where the two overlap are tested: along a
    unit direction n from a to b (the separating axis of a convex pair, else the line between
    the centroids), a lies below top_a = max n.a_i and b above low_b = min n.b_j, and every
    feature, within tol of both, is within tol of ``low_b <= n.x <= top_a`` (`SLAB_MARGIN`).
    In the benchmark's scene of octagons 7 of the 16 vertex tests and 20 of the 64 edge pairs
    are left.
    """
    a, orient_a, convex_a, cax, cay = poly_a
    b, orient_b, convex_b, cbx, cby = poly_b
    fxy, fpb, fkind, fidx = features
    cap = fxy.shape[0]
    n = a.shape[0]
    m = b.shape[0]
    nf = 0
    n_a = 0
    n_b = 0
    n_x = 0
    best = -1.0
    bnx = 0.0
    bny = 0.0
    # the slab: along a unit direction n, a lies at n.x <= top_a and b at n.x >= low_b, and a
    # feature, within tol of both, within tol of low_b <= n.x <= top_a
    if convex_a and convex_b:
        nx, ny = axis[1], axis[2]
    else:
        nx, ny = cbx - cax, cby - cay
        length = norm(nx, ny)
        # coinciding centroids: n = 0 puts every vertex and edge in the slab
        nx, ny = (nx / length, ny / length) if length > 0.0 else (0.0, 0.0)
    top_a = -np.inf
    for i in range(n):
        top_a = max(top_a, a[i, 0] * nx + a[i, 1] * ny)
    low_b = np.inf
    for j in range(m):
        low_b = min(low_b, b[j, 0] * nx + b[j, 1] * ny)
    top_a += SLAB_MARGIN * tol
    low_b -= SLAB_MARGIN * tol
    # vertices of a in b, then of b in a; the normal (a to b) comes from the deepest one
    for side in range(2):
        own, cx, cy = (a, cax, cay) if side == 0 else (b, cbx, cby)
        if side == 0:
            other, orient_o, convex_o = b, orient_b, convex_b
        else:
            other, orient_o, convex_o = a, orient_a, convex_a
        for i in range(own.shape[0]):
            px = own[i, 0]
            py = own[i, 1]
            h = px * nx + py * ny
            if h < low_b if side == 0 else h > top_a:
                continue
            if not _point_inside(px, py, other, orient_o, convex_o, tol):
                continue
            e, qx, qy, d = locate_pb(px, py, cx, cy, other, orient_o, tol)
            r = f0 + nf
            if r < cap:
                # + 0.0: a -0.0 becomes 0.0 (results carry no negative zero)
                fxy[r, 0], fxy[r, 1], fpb[r, 0], fpb[r, 1] = px + 0.0, py + 0.0, qx + 0.0, qy + 0.0
                fkind[r] = FEATURE_VERTEX_OF_A if side == 0 else FEATURE_VERTEX_OF_B
                fidx[r, side], fidx[r, 1 - side] = i, e
            nf += 1
            if side == 0:
                n_a += 1
            else:
                n_b += 1
            if d > best:
                best = d
                ux, uy = outward_normal(other, orient_o, e)
                # the other body's outward normal points from it to this vertex's body
                bnx, bny = (-ux, -uy) if side == 0 else (ux, uy)
    first_x = f0 + nf
    for i in range(n):
        i1 = i + 1 if i + 1 < n else 0
        ax, ay, bx, by = a[i, 0], a[i, 1], a[i1, 0], a[i1, 1]
        if max(ax * nx + ay * ny, bx * nx + by * ny) < low_b:
            continue
        for j in range(m):
            j1 = j + 1 if j + 1 < m else 0
            cx, cy, dx, dy = b[j, 0], b[j, 1], b[j1, 0], b[j1, 1]
            if min(cx * nx + cy * ny, dx * nx + dy * ny) > top_a:
                continue
            if _edge_boxes_apart(ax, ay, bx, by, cx, cy, dx, dy, tol):
                continue
            cnt, x0, y0, s0, t0, x1, y1, s1, t1 = segment_intersection(
                ax, ay, bx, by, cx, cy, dx, dy, tol)
            if cnt != 1:
                continue  # collinear overlaps end at vertices, which are vertex features
            if (_near(x0, y0, ax, ay, tol) or _near(x0, y0, bx, by, tol)
                    or _near(x0, y0, cx, cy, tol) or _near(x0, y0, dx, dy, tol)):
                continue
            r = f0 + nf
            if r < cap:
                # no -0.0 to clear: a proper crossing is p1 + s (p2 - p1) with 0 < s < 1,
                # and a sum is -0.0 only when both terms are
                fxy[r, 0], fxy[r, 1], fpb[r, 0], fpb[r, 1] = x0, y0, x0, y0
                fkind[r] = FEATURE_CROSSING
                fidx[r, 0], fidx[r, 1] = i, j
            nf += 1
            n_x += 1
    if nf == 0:
        return 0, KIND_NONE, 0.0, 0.0, 0.0
    if n_x == 0 and (n_a == n or n_b == m):
        kind = KIND_CONTAINMENT
    elif n_a == 0 and n_b == 0:
        kind = KIND_CROSSING
    elif n_a == 0 or n_b == 0:
        kind = KIND_VERTEX_EDGE if n_a + n_b == 1 else KIND_MULTIPLE_VERTEX_EDGE
    else:
        kind = KIND_EDGE_EDGE if n_a == 1 and n_b == 1 else KIND_MULTIPLE_EDGE_EDGE
    if convex_a and convex_b:
        s, bnx, bny = axis
        depth = max(0.0, -s)
    elif n_a + n_b > 0:
        depth = best
    else:
        r = first_x
        ux, uy = outward_normal(b, orient_b, fidx[r, 1]) if r < cap else (0.0, 0.0)
        bnx, bny = -ux, -uy
        lo = np.inf
        hi = -np.inf
        for r in range(first_x, min(f0 + nf, cap)):
            h = (fxy[r, 0] - fxy[first_x, 0]) * bnx + (fxy[r, 1] - fxy[first_x, 1]) * bny
            lo = min(lo, h)
            hi = max(hi, h)
        depth = hi - lo
    return nf, kind, bnx, bny, depth


class Contact:
    """Geometry of one contact between polygon a and polygon b (world frame, metres).

    A read-only view over the contact's feature rows; the derived arrays are built when read.

    Attributes
    ----------
    kind : ContactKind
    normal : (2,) float64
        Unit vector from a to b; translating b by ``depth * normal`` separates the pair.  Of
        equally deep axes any one may be returned (not part of the contract).
    depth : float
        Penetration depth, 0 for touching (see the module notes for concave pairs).
    points : (k, 2) float64
        Contact points: vertices inside the other polygon, then edge crossings.
    a_in_b, b_in_a : (.,) intp
        Indices of the vertices of a inside b, of b inside a (boundary included).
    intersections : (x, 2) float64
        Proper crossings of the boundaries, and ``intersection_edges`` (x, 2) intp the edge of
        a and the edge of b crossing there.
    p_a, p_b : (v, 2) float64
        [tutorial]'s pairs: each penetrating vertex p_A and its projection p_B on the edge of the
        other body that the line from its own body's centroid through it crosses.
    p_a_body : (v,) intp
        0 when that p_A is a vertex of a (body A of [tutorial] is a), 1 when of b.
    p_b_edge : (v,) intp
        The edge of the other body holding p_B.

    """

    __slots__ = ('kind', 'normal', 'depth', 'points', '_fpb', '_fkind', '_fidx')

    def __init__(self, kind, nx, ny, depth, fxy, fpb, fkind, fidx):
        self.kind = ContactKind(int(kind))
        self.normal = np.array([nx, ny])
        self.depth = float(depth)
        self.points = fxy
        self._fpb = fpb
        self._fkind = fkind
        self._fidx = fidx

    @property
    def a_in_b(self):
        return self._fidx[self._fkind == FEATURE_VERTEX_OF_A, 0]

    @property
    def b_in_a(self):
        return self._fidx[self._fkind == FEATURE_VERTEX_OF_B, 1]

    @property
    def intersections(self):
        return self.points[self._fkind == FEATURE_CROSSING]

    @property
    def intersection_edges(self):
        return self._fidx[self._fkind == FEATURE_CROSSING]

    @property
    def p_a(self):
        return self.points[self._fkind != FEATURE_CROSSING]

    @property
    def p_b(self):
        return self._fpb[self._fkind != FEATURE_CROSSING]

    @property
    def p_a_body(self):
        vertex = self._fkind != FEATURE_CROSSING
        return (self._fkind[vertex] == FEATURE_VERTEX_OF_B).astype(INDEX)

    @property
    def p_b_edge(self):
        vertex = self._fkind != FEATURE_CROSSING
        return np.where(self._fkind == FEATURE_VERTEX_OF_A, self._fidx[:, 1],
                        self._fidx[:, 0])[vertex]

    def __repr__(self):
        return (f'Contact(kind={self.kind.name}, depth={self.depth:.6g}, '
                f'normal={self.normal.tolist()}, points={self.points.tolist()})')


class _PolygonInfo:
    """A validated polygon with the per-shape constants the kernels take."""

    def __init__(self, polygon, name):
        self.poly = as_polygon(polygon, name)
        self.orient = polygon_orientation(self.poly)
        self.convex = is_convex(self.poly)
        self.cx, self.cy = centroid(self.poly)


def polygons_intersect(a, b):
    """Return True when two simple polygons overlap or touch.

    Parameters
    ----------
    a, b : (n, 2) array_like of float
        Simple polygons (not self-crossing, no holes), any winding, convex or concave.

    Notes
    -----
    Convex pairs use the separating axis test; other pairs test every edge pair for a common
    point and then one vertex of each for containment in the other.  Touching within the
    length tolerance of `collision_monitor.kernels.constants` counts as intersecting.

    """
    pa = _PolygonInfo(a, 'a')
    pb = _PolygonInfo(b, 'b')
    return bool(polygons_intersect_kernel(pa.poly, pa.orient, pa.convex, pb.poly, pb.orient,
                                          pb.convex,
                                          pair_length_tolerance(pa.poly, pb.poly)))


def contact(a, b):
    """Describe the contact between two simple polygons, or return None when they are apart.

    Parameters
    ----------
    a, b : (n, 2) array_like of float
        Simple polygons in the same frame, any winding, convex or concave.

    Returns
    -------
    Contact or None

    """
    pa = _PolygonInfo(a, 'a')
    pb = _PolygonInfo(b, 'b')
    cap = pa.poly.shape[0] + pb.poly.shape[0] + pa.poly.shape[0] * pb.poly.shape[0]
    fxy = np.empty((cap, 2), FLOAT)
    fpb = np.empty((cap, 2), FLOAT)
    fkind = np.empty(cap, np.int8)
    fidx = np.empty((cap, 2), INDEX)
    count, kind, nx, ny, depth = contact_kernel(
        Polygon(pa.poly, pa.orient, pa.convex, pa.cx, pa.cy),
        Polygon(pb.poly, pb.orient, pb.convex, pb.cx, pb.cy),
        pair_length_tolerance(pa.poly, pb.poly), Features(fxy, fpb, fkind, fidx), 0)
    if count == 0:
        return None
    return Contact(kind, nx, ny, depth, fxy[:count], fpb[:count], fkind[:count], fidx[:count])
