# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Baraff's separating plane and the contact manifold of two convex polyhedra (seed 004).

`ConvexPolyhedron` checks a mesh once (closed, outward, convex) and keeps what every query
needs (face planes, edges and the faces at each edge); its methods then cost only the
kernels.  The module functions taking raw arrays build one per call.
"""

from typing import NamedTuple

import numpy as np

from .gjk import gjk_kernel
from .manifold import manifold_kernel
from .validation import convex_mesh, mesh_tolerance
from ..constants import jit

DEGENERATE_TOL = 1e-9
"""Slack (m, in the plane) of the manifold's point-in-hull and on-segment tests when one
side's contact set is a vertex or an edge."""


class SeparatingPlane(NamedTuple):
    """The best separating plane: ``normal . x = normal . point``, normal from a to b.

    ``distance`` is the gap between a's farthest point and b's nearest along the normal:
    positive when separated, zero when touching, minus the penetration depth otherwise.
    ``point`` lies on the mid-plane, half the gap beyond a.  ``kind`` says where the plane
    comes from: 'face_a', 'face_b' or 'edge_edge'.
    """

    distance: float
    point: np.ndarray
    normal: np.ndarray
    kind: str


@jit
def _lowest(v, nx, ny, nz, start, limit):
    """``(min over the vertices of n.x, its vertex)``, scanning from vertex `start` on; the
    scan stops at the first value <= limit (then returned), enough to rule the axis out."""
    n = v.shape[0]
    low = np.inf
    at = start
    for k in range(n):
        i = start + k
        if i >= n:
            i -= n
        h = v[i, 0] * nx + v[i, 1] * ny + v[i, 2] * nz
        if h < low:
            low, at = h, i
            if low <= limit:
                break
    return low, at


@jit
def _box(v, pad):
    """Axis-aligned box of the vertices, grown by pad: (xmin, ymin, zmin, xmax, ymax, zmax)."""
    lo0 = lo1 = lo2 = np.inf
    hi0 = hi1 = hi2 = -np.inf
    for i in range(v.shape[0]):
        lo0 = min(lo0, v[i, 0])
        lo1 = min(lo1, v[i, 1])
        lo2 = min(lo2, v[i, 2])
        hi0 = max(hi0, v[i, 0])
        hi1 = max(hi1, v[i, 1])
        hi2 = max(hi2, v[i, 2])
    return lo0 - pad, lo1 - pad, lo2 - pad, hi0 + pad, hi1 + pad, hi2 + pad


@jit
def _segment_meets_box(v, p, q, box):
    """Does the box of segment v[p]-v[q] overlap `box` (a necessary condition for the
    segment to meet it)?"""
    for k in range(3):
        if max(v[p, k], v[q, k]) < box[k] or min(v[p, k], v[q, k]) > box[k + 3]:
            return False
    return True


@jit
def _arc_below(planes, f0, f1, wx, wy, wz, limit):
    """Is n.w < limit for every unit n on the short great-circle arc between the normals of
    faces f0 and f1?  The largest n.w there is at an end, or |w's part in the arc's plane|
    when that direction lies on the arc (computed only when both ends are below)."""
    ax, ay, az = planes[f0, 0], planes[f0, 1], planes[f0, 2]
    bx, by, bz = planes[f1, 0], planes[f1, 1], planes[f1, 2]
    if ax * wx + ay * wy + az * wz >= limit or bx * wx + by * wy + bz * wz >= limit:
        return False
    qx = ay * bz - az * by
    qy = az * bx - ax * bz
    qz = ax * by - ay * bx
    qq = qx * qx + qy * qy + qz * qz
    if qq <= 1e-24:
        return True  # a flat edge: the arc is a point
    k = (wx * qx + wy * qy + wz * qz) / qq
    ux, uy, uz = wx - k * qx, wy - k * qy, wz - k * qz
    # u lies on the arc when (a x u).q >= 0 and (u x b).q >= 0
    s0 = (ay * uz - az * uy) * qx + (az * ux - ax * uz) * qy + (ax * uy - ay * ux) * qz
    s1 = (uy * bz - uz * by) * qx + (uz * bx - ux * bz) * qy + (ux * by - uy * bx) * qz
    if not (s0 >= 0.0 and s1 >= 0.0):
        return True  # the largest value is at an end: both are below
    return limit > 0.0 and ux * ux + uy * uy + uz * uz < limit * limit


@jit
def _edge_may_win(own, planes, edges, e, other, lowest, box, limit):
    """Can an axis on the arc of edge e (of the body `own`) give a gap above `limit`?  Not
    when the edge's box misses `box` (the other body's, grown by the depth), nor when
    ``n.(v - own_e) < limit`` all along the arc for one of the other body's vertices v
    found lowest along the edge's two face normals (`lowest`)."""
    if not _segment_meets_box(own, edges[e, 0], edges[e, 1], box):
        return False
    f0 = edges[e, 2]
    f1 = edges[e, 3]
    p = edges[e, 0]
    for v in (lowest[f0], lowest[f1]):
        if _arc_below(planes, f0, f1, other[v, 0] - own[p, 0], other[v, 1] - own[p, 1],
                      other[v, 2] - own[p, 2], limit):
            return False
    return True


@jit
def _edge_axes(va, pa, ea, vb, pb, eb, reach, state, lowest_b, lowest_a, tol, keep_b):
    """The edge-edge axes of `separating_plane_kernel` for the edges whose boxes come within
    `reach` of the other body's box; `state` ``(gap, a_max, nx, ny, nz, kind)`` is the best so
    far and is returned updated.  `keep_b` (edges of b) is scratch.

    An edge i of a is skipped when no axis on its arc can beat the best gap: on its arc
    every gap is at most ``n.(v - a_i)`` for any vertex v of b (b's lowest point along n is
    no higher than v), bounded over the arc by `_arc_below`, with v the vertices of b found
    lowest along the two faces' normals (`lowest_b`, from the face pass).  Edges j of b
    likewise: on b's (negated) arc every gap is at most ``n.(b_j - v)`` for any vertex v of
    a (`lowest_a`: a's vertices found along b's face normals).  Overlapping bodies (gap
    -D <= 0 on the best face axis m): the winning edges pass within D of the other body, so
    an edge of a wholly below b's lowest point along m minus D, or one of b wholly above a's
    highest plus D, is dropped first.
    """
    best, bmax, bx, by, bz, kind = state
    nkeep = 0
    box_a = _box(va, reach)
    box_b = _box(vb, reach)
    # the slab of the best face axis m: a point of a within D of b is no lower than b's
    # lowest along m minus D, one of b within D of a no higher than a's highest plus D
    a_floor = bmax + 2.0 * best - tol if best <= 0.0 else -np.inf
    b_ceiling = bmax - best + tol if best <= 0.0 else np.inf
    for j in range(eb.shape[0]):
        p, q = eb[j, 0], eb[j, 1]
        if min(vb[p, 0] * bx + vb[p, 1] * by + vb[p, 2] * bz,
               vb[q, 0] * bx + vb[q, 1] * by + vb[q, 2] * bz) > b_ceiling:
            continue
        if _edge_may_win(vb, pb, eb, j, va, lowest_a, box_a, best - tol):
            keep_b[nkeep] = j
            nkeep += 1
    for i in range(ea.shape[0]):
        p, q = ea[i, 0], ea[i, 1]
        if max(va[p, 0] * bx + va[p, 1] * by + va[p, 2] * bz,
               va[q, 0] * bx + va[q, 1] * by + va[q, 2] * bz) < a_floor:
            continue
        if not _edge_may_win(va, pa, ea, i, vb, lowest_b, box_b, best - tol):
            continue
        f0 = ea[i, 2]
        f1 = ea[i, 3]
        # b x a for the arc a = normal f0 -> b = normal f1
        px = pa[f1, 1] * pa[f0, 2] - pa[f1, 2] * pa[f0, 1]
        py = pa[f1, 2] * pa[f0, 0] - pa[f1, 0] * pa[f0, 2]
        pz = pa[f1, 0] * pa[f0, 1] - pa[f1, 1] * pa[f0, 0]
        ux = va[ea[i, 1], 0] - va[ea[i, 0], 0]
        uy = va[ea[i, 1], 1] - va[ea[i, 0], 1]
        uz = va[ea[i, 1], 2] - va[ea[i, 0], 2]
        for k in range(nkeep):
            j = keep_b[k]
            g0 = eb[j, 2]
            g1 = eb[j, 3]
            cba = -(pb[g0, 0] * px + pb[g0, 1] * py + pb[g0, 2] * pz)
            dba = -(pb[g1, 0] * px + pb[g1, 1] * py + pb[g1, 2] * pz)
            if not cba * dba < 0.0:
                continue
            # d x c for c = -pb[g0], d = -pb[g1]: equal to pb[g1] x pb[g0]
            qx = pb[g1, 1] * pb[g0, 2] - pb[g1, 2] * pb[g0, 1]
            qy = pb[g1, 2] * pb[g0, 0] - pb[g1, 0] * pb[g0, 2]
            qz = pb[g1, 0] * pb[g0, 1] - pb[g1, 1] * pb[g0, 0]
            adc = pa[f0, 0] * qx + pa[f0, 1] * qy + pa[f0, 2] * qz
            bdc = pa[f1, 0] * qx + pa[f1, 1] * qy + pa[f1, 2] * qz
            if not (adc * bdc < 0.0 and cba * bdc > 0.0):
                continue
            wx = vb[eb[j, 1], 0] - vb[eb[j, 0], 0]
            wy = vb[eb[j, 1], 1] - vb[eb[j, 0], 1]
            wz = vb[eb[j, 1], 2] - vb[eb[j, 0], 2]
            nx = uy * wz - uz * wy
            ny = uz * wx - ux * wz
            nz = ux * wy - uy * wx
            ln = np.sqrt(nx * nx + ny * ny + nz * nz)
            if ln <= 1e-9 * np.sqrt((ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz)):
                continue  # parallel edges: covered by the face normals
            # on a Minkowski face the edges are the supports: orient n out of a at edge i
            # (along the sum of its face normals); then a's extent along n is reached at
            # edge i and b's at edge j, no scan needed
            if nx * (pa[f0, 0] + pa[f1, 0]) + ny * (pa[f0, 1] + pa[f1, 1]) + nz * (
                    pa[f0, 2] + pa[f1, 2]) < 0.0:
                ln = -ln
            nx /= ln
            ny /= ln
            nz /= ln
            amax = va[ea[i, 0], 0] * nx + va[ea[i, 0], 1] * ny + va[ea[i, 0], 2] * nz
            g = vb[eb[j, 0], 0] * nx + vb[eb[j, 0], 1] * ny + vb[eb[j, 0], 2] * nz - amax
            if g > best:
                best, bmax, bx, by, bz, kind = g, amax, nx, ny, nz, 2
    return best, bmax, bx, by, bz, kind


@jit
def separating_plane_kernel(va, pa, ea, vb, pb, eb, tol, stop_above):
    """Largest gap over the face normals of a, of b (negated) and the edge-edge normals.

    ``pa``/``pb`` (m, 4) are the face planes, outward unit normal and offset (n.x <= d inside:
    along its own face normal a body's extent is its offset, so a face axis scans only the
    other body), ``ea``/``eb`` (E, 4) the edges: two vertex indices, then the two faces
    sharing the edge; `tol` the length tolerance.  Returns ``(gap, a_max, nx, ny, nz, kind)``
    with kind 0 face of a, 1 face of b, 2 edge-edge; as soon as an axis has a gap above
    `stop_above` (inf for the best plane) that axis is returned: the bodies are at least that
    far apart.

    Edge pairs that do not span a face of the Minkowski difference are skipped (Gregorius,
    "The Separating Axis Test between Convex Polyhedra", GDC 2013): only when the Gauss-map
    arcs a-b (the normals of the faces at an edge of A) and c-d (those at an edge of B,
    negated) cross, ``c.(b x a)`` and ``d.(b x a)`` of opposite signs, ``a.(d x c)`` and
    ``b.(d x c)`` too, and ``c.(b x a)``, ``b.(d x c)`` of one sign.  Before any pair is
    tested, edges of either body whose arc cannot beat the face axes' best gap are dropped
    (`_edge_axes`).  The sign of the result (separated or not) and, for
    intersecting bodies, its value (minus the penetration depth) are those of the full
    candidate set; a flat edge (a = b, between coplanar triangles) spans nothing.

    Overlapping bodies: with D the depth the face axes leave (minus their best gap), an edge
    pair can only win when translating b by its depth d <= D along its axis makes the two
    edges touch (the nearest face of the Minkowski difference holds the foot of the
    perpendicular from the origin), so each edge passes within D of the other body: edges
    whose boxes stay farther than D (plus the tolerance) from the other body's box are
    skipped.  Shallow contacts keep only the few edges around the overlap.
    """
    best = -np.inf
    bx = by = bz = 0.0
    bmax = 0.0
    kind = -1
    # a face axis n of either body: the gap is the other body's lowest n.x minus the face's
    # offset; each scan starts at the last face's lowest vertex and stops once the axis
    # cannot beat the best so far
    at = 0
    lowest_b = np.empty(pa.shape[0], np.intp)
    for f in range(pa.shape[0]):
        amax = pa[f, 3]
        low, at = _lowest(vb, pa[f, 0], pa[f, 1], pa[f, 2], at, best + amax)
        lowest_b[f] = at
        g = low - amax
        if g > best:
            best, bmax, bx, by, bz, kind = g, amax, pa[f, 0], pa[f, 1], pa[f, 2], 0
            if best > stop_above:
                return best, bmax, bx, by, bz, kind
    at = 0
    lowest_a = np.empty(pb.shape[0], np.intp)
    for f in range(pb.shape[0]):
        low, at = _lowest(va, pb[f, 0], pb[f, 1], pb[f, 2], at, best + pb[f, 3])
        lowest_a[f] = at
        amax = -low
        g = low - pb[f, 3]
        if g > best:
            best, bmax, bx, by, bz, kind = g, amax, -pb[f, 0], -pb[f, 1], -pb[f, 2], 1
            if best > stop_above:
                return best, bmax, bx, by, bz, kind
    keep_b = np.empty(eb.shape[0], np.intp)
    reach = -best + tol if best <= 0.0 else np.inf
    return _edge_axes(va, pa, ea, vb, pb, eb, reach, (best, bmax, bx, by, bz, kind), lowest_b,
                      lowest_a, tol, keep_b)



@jit
def plane_through_gap(va, pa, ea, vb, pb, eb, tol, stop_above):
    """`separating_plane_kernel` and a point on the mid-plane: a's support plane moved half
    the gap towards b.  Returns ``(gap, px, py, pz, nx, ny, nz, kind)``."""
    gap, amax, nx, ny, nz, kind = separating_plane_kernel(va, pa, ea, vb, pb, eb, tol,
                                                          stop_above)
    top = -np.inf
    ax = ay = az = 0.0
    for i in range(va.shape[0]):
        h = va[i, 0] * nx + va[i, 1] * ny + va[i, 2] * nz
        if h > top:
            top, ax, ay, az = h, va[i, 0], va[i, 1], va[i, 2]
    shift = amax + 0.5 * gap - top
    return gap, ax + shift * nx, ay + shift * ny, az + shift * nz, nx, ny, nz, kind


@jit
def contact_manifold_kernel(va, pa, ea, vb, pb, eb, eps, tol, out):
    """`contact_manifold` on prepared arrays: ``(count, nx, ny, nz, depth)`` with the points
    in out[:count] (out (n + m, 3)); count 0 when the bodies are more than eps apart or share
    no point of the manifold.

    A gap along any axis is at most the distance, so the plane search stops at the first axis
    wider than eps; a best gap <= 0 means the bodies meet (the separating axis theorem); only
    a gap in (0, eps] leaves the distance open, and GJK settles it.
    """
    gap, px, py, pz, nx, ny, nz, _ = plane_through_gap(va, pa, ea, vb, pb, eb, tol, eps)
    if gap > eps:
        return 0, 0.0, 0.0, 0.0, 0.0
    if gap > 0.0 and gjk_kernel(va, vb)[0] > eps:
        return 0, 0.0, 0.0, 0.0, 0.0
    depth = max(0.0, -gap)
    count = manifold_kernel(va, vb, px, py, pz, nx, ny, nz, eps + 0.5 * depth + 1e-12,
                            DEGENERATE_TOL, out)
    return count, nx, ny, nz, depth


def _edges(faces):
    """Undirected edges of a closed triangle mesh: (E, 4) two vertex indices, then the two
    faces sharing the edge."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    owner = np.tile(np.arange(len(faces)), 3)
    key = np.sort(directed, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, owner = key[order], owner[order]
    # a closed, consistently wound mesh has every edge exactly twice, adjacent after sorting
    return np.ascontiguousarray(np.column_stack([key[0::2], owner[0::2], owner[1::2]]))


class ConvexPolyhedron:
    """A convex polyhedron checked once, for repeated queries.

    Parameters
    ----------
    vertices : (n, 3) array_like
        Metres.
    faces : (m, 3) array_like of int
        Triangles, CCW seen from outside.
    name : str
        Used in error messages.

    Raises ValueError for open, inconsistently wound, degenerate or non-convex input.

    Attributes
    ----------
    vertices, faces : the checked arrays (C-contiguous float64, intp).
    planes : (m, 4) outward unit face normals and offsets, n.x <= d inside (`normals` and
        `offsets` are views of it).
    edge_data : (E, 4) the undirected edges: two vertex indices, then the two faces at each.
    tolerance : length tolerance of the mesh (`validation.mesh_tolerance`).
    """

    __slots__ = ('vertices', 'faces', 'planes', 'edge_data', 'tolerance')

    def __init__(self, vertices, faces, name='polyhedron'):
        self.vertices, self.faces, normals, offsets = convex_mesh(vertices, faces, name)
        self.planes = np.ascontiguousarray(np.column_stack([normals, offsets]))
        self.edge_data = _edges(self.faces)
        self.tolerance = mesh_tolerance(self.vertices)

    @property
    def normals(self):
        return self.planes[:, :3]

    @property
    def offsets(self):
        return self.planes[:, 3]

    def moved(self, rotation, translation):
        """The same body under the rigid motion x -> R x + t, without checking it again.

        `rotation` is a (3, 3) proper rotation matrix (orthonormal to 1e-9, determinant +1),
        `translation` a (3,) vector in metres.
        """
        r = np.asarray(rotation, dtype=np.float64)
        t = np.asarray(translation, dtype=np.float64).reshape(-1)
        if (r.shape != (3, 3) or t.shape != (3,) or not np.isfinite(r).all()
                or not np.isfinite(t).all()):
            raise ValueError('rotation must be a finite (3, 3) matrix, translation (3,)')
        if not np.allclose(r @ r.T, np.eye(3), atol=1e-9) or np.linalg.det(r) < 0.0:
            raise ValueError('rotation must be a proper rotation matrix')
        out = object.__new__(ConvexPolyhedron)
        out.vertices = np.ascontiguousarray(self.vertices @ r.T + t)
        out.faces, out.edge_data = self.faces, self.edge_data
        normals = self.normals @ r.T
        out.planes = np.ascontiguousarray(np.column_stack([normals,
                                                           self.offsets + normals @ t]))
        out.tolerance = mesh_tolerance(out.vertices)
        return out

    def intersects(self, other):
        """True when the two bodies share a point (GJK, as `convex_polyhedra_intersect`)."""
        return bool(gjk_kernel(self.vertices, other.vertices)[7])

    def distance(self, other):
        """Distance and closest points ``(d, pa, pb)``, as `gjk_distance` (0.0 when they
        intersect)."""
        d, pax, pay, paz, pbx, pby, pbz, hit = gjk_kernel(self.vertices, other.vertices)
        return (0.0 if hit else float(d)), np.array((pax, pay, paz)), np.array((pbx, pby, pbz))

    def separating_plane(self, other):
        """Baraff's separating plane between this body (a) and `other` (b): see the module
        function `separating_plane`."""
        gap, px, py, pz, nx, ny, nz, kind = plane_through_gap(
            self.vertices, self.planes, self.edge_data, other.vertices, other.planes,
            other.edge_data, max(self.tolerance, other.tolerance), np.inf)
        return SeparatingPlane(float(gap), np.array([px, py, pz]), np.array([nx, ny, nz]),
                               ('face_a', 'face_b', 'edge_edge')[kind])

    def contact_manifold(self, other, eps):
        """Contact points between this body (a) and `other` (b): see the module function
        `contact_manifold`."""
        if not eps >= 0.0:
            raise ValueError(f'eps must be >= 0, got {eps}')
        out = np.empty((self.vertices.shape[0] + other.vertices.shape[0], 3))
        count, nx, ny, nz, depth = contact_manifold_kernel(
            self.vertices, self.planes, self.edge_data, other.vertices, other.planes,
            other.edge_data, float(eps), max(self.tolerance, other.tolerance), out)
        if count == 0:
            return None
        return out[:count], np.array([nx, ny, nz]), depth


def separating_plane(va, fa, vb, fb):
    """Baraff's separating plane of two convex polyhedra.

    Parameters
    ----------
    va, vb : (n, 3) array_like
        Vertices.
    fa, fb : (m, 3) array_like of int
        Triangles, CCW seen from outside.

    Returns
    -------
    SeparatingPlane
        Of all planes through a face of either body or spanned by an edge of a and an edge of
        b, the one with the largest gap; the bodies are in contact when its distance is zero or
        negative.  For intersecting bodies -distance is the penetration depth (the minimum
        translation, by the separating axis theorem for polyhedra).

    Raises ValueError for open, inconsistently wound, degenerate or non-convex input.  For
    repeated queries on the same bodies, build `ConvexPolyhedron` objects once and call their
    `separating_plane` method.
    """
    return ConvexPolyhedron(va, fa, 'a').separating_plane(ConvexPolyhedron(vb, fb, 'b'))


def contact_manifold(va, fa, vb, fb, eps):
    """Contact points of two convex polyhedra in contact (seed 004), or None.

    Parameters
    ----------
    va, fa, vb, fb
        As for `separating_plane`.
    eps : float
        Distance (m) from the mid-plane within which vertices count as in contact (on top of
        half the penetration depth).

    Returns
    -------
    None when the bodies are more than `eps` apart; otherwise ``(points, normal, depth)``:
    the contact points (k, 3) on the mid-plane, the unit normal from a to b and the
    penetration depth (>= 0).

    Notes
    -----
    The vertices of a and of b within ``eps + depth / 2`` of the mid-plane are projected onto
    it (basis u, v orthogonal to the normal); the convex hull of each set is taken, the two
    hulls are intersected (Sutherland-Hodgman), and the corners of the intersection, mapped
    back to 3D, are the contact points.  Degenerate hulls (a vertex or an edge touching) give
    the points of the one inside the other.  For repeated queries on the same bodies, build
    `ConvexPolyhedron` objects once and call their `contact_manifold` method.
    """
    return ConvexPolyhedron(va, fa, 'a').contact_manifold(ConvexPolyhedron(vb, fb, 'b'), eps)
