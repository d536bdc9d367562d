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
"""Baraff's separating plane of two convex polyhedra ([baraff]): the largest gap over the
face normals of both bodies and the edge-edge axes, with the pruning that keeps it fast.

The kernels take each body as `ConvexPolyhedron.arrays` (module `polyhedron`).
"""

from typing import NamedTuple

import numpy as np

from .gjk import gjk_kernel
from ..kernels.constants import jit


class SeparatingPlane(NamedTuple):
    """The best separating plane: ``normal . x = normal . point``, normal from a to b.

    ``distance`` is the gap between a's farthest point and b's nearest along the normal:
    positive when separated, zero when touching, minus the penetration depth otherwise.
    ``point`` is a's vertex farthest along the normal moved half the gap along it, onto the
    mid-plane.  ``kind`` says where the plane comes from: 'face_a', 'face_b' or 'edge_edge'.
    """

    distance: float
    point: np.ndarray
    normal: np.ndarray
    kind: str


@jit
def face_axes(planes, other, adjacency, sign, state, stop_above, lowest):
    """The face axes of one body against the other body's vertices `other` (with their
    `vertex_adjacency`).

    Along face f's outward normal n (offset d: n.x <= d inside, so the body's extent along n
    is d) the gap is the other body's lowest n.x minus d, whichever body the face is on: a's
    faces (`sign` +1) give the axis n and a's top d, b's faces (`sign` -1) the axis -n and
    a's top -(lowest n.x).  The axis is ruled out as soon as a vertex is at or below
    ``limit = best + d``.  From the last face's lowest vertex the search climbs down to the
    lowest neighbour while that is lower (on a convex body a vertex no neighbour is below is
    the lowest, but a plateau of equal heights can stop the climb early), so a climb that
    ends above the limit is settled by a scan of every vertex; that happens for the faces
    that raise the best gap, a few per pair.  lowest[f] keeps the vertex found.  Returns
    `state` ``(gap, a_max, nx, ny, nz, kind)`` updated, and whether a gap above stop_above
    ended the pass.
    """
    best, bmax, bx, by, bz, kind = state
    at = 0
    for f in range(planes.shape[0]):
        nx, ny, nz, d = planes[f, 0], planes[f, 1], planes[f, 2], planes[f, 3]
        limit = best + d
        low = other[at, 0] * nx + other[at, 1] * ny + other[at, 2] * nz
        while low > limit:
            step = at
            for k in range(adjacency[at], adjacency[at + 1]):
                j = adjacency[k]
                h = other[j, 0] * nx + other[j, 1] * ny + other[j, 2] * nz
                if h < low:
                    low, step = h, j
            if step == at:
                break
            at = step
        if low > limit:
            for i in range(other.shape[0]):
                h = other[i, 0] * nx + other[i, 1] * ny + other[i, 2] * nz
                if h < low:
                    low, at = h, i
        lowest[f] = at
        if low - d > best:
            best, bx, by, bz = low - d, sign * nx, sign * ny, sign * nz
            bmax, kind = (d, 0) if sign > 0.0 else (-low, 1)
            if best > stop_above:
                return (best, bmax, bx, by, bz, kind), True
    return (best, bmax, bx, by, bz, kind), False


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
def _outcodes(v, box, mx, my, mz, floor, codes):
    """Per vertex, bits 0-5: beyond the box's min x, y, z, max x, y, z sides; bit 6: height
    along m below floor.  An edge whose two ends share a bit lies wholly beyond that side."""
    for i in range(v.shape[0]):
        x, y, z = v[i, 0], v[i, 1], v[i, 2]
        c = 0
        if x < box[0]:
            c |= 1
        if y < box[1]:
            c |= 2
        if z < box[2]:
            c |= 4
        if x > box[3]:
            c |= 8
        if y > box[4]:
            c |= 16
        if z > box[5]:
            c |= 32
        if x * mx + y * my + z * mz < floor:
            c |= 64
        codes[i] = c


@jit
def edges_that_may_win(own, planes, edges, arcs, codes, other, lowest, limit, keep):
    """The edges of one body (`own`) that can give an edge-edge gap above `limit`, written to
    keep; returns how many.

    Dropped: a flat edge, its faces' normals within 1e-12 rad (its arc a point: the edge
    spans no face of the Minkowski difference, and the pair test's signs, zero for it, are
    left to rounding); an edge whose two ends share an outcode bit (`_outcodes`); an edge with
    ``n.w < limit`` for every unit n on its Gauss-map arc, ``w = v - own_p`` from its first
    vertex p to a vertex v of the other body found lowest along one of its two face normals
    (`lowest`): along n the other body's lowest point is no higher than v, so the gap is at
    most n.w.  The largest n.w on the arc (from normal a of face f0 to normal b of f1;
    `edge_arcs` gives q = a x b and the end tangents t0 = q x a, t1 = b x q) is at an end,
    unless w's part u in the arc's plane points into it (w.t0 >= 0 and w.t1 >= 0), where it
    is |u|, with |u|^2 = |w|^2 - (w.q)^2 / |q|^2.  With both ends below a limit <= 0, u
    cannot point into the arc (an arc is shorter than pi, so n.w = |u| cos(angle) > 0 at one
    end at least): the edge is dropped on its ends.  The arithmetic is written out here: a
    helper taking arrays, called per edge, is not inlined by numba and cost most of the pass.
    """
    count = 0
    for e in range(edges.shape[0]):
        p = edges[e, 0]
        qx, qy, qz = arcs[e, 0], arcs[e, 1], arcs[e, 2]
        qq = qx * qx + qy * qy + qz * qz
        if qq <= 1e-24 or codes[p] & codes[edges[e, 1]]:
            continue
        f0 = edges[e, 2]
        f1 = edges[e, 3]
        may_win = True
        for end in range(2):
            v = lowest[f0]
            if end == 1:
                if lowest[f1] == v:
                    break
                v = lowest[f1]
            wx = other[v, 0] - own[p, 0]
            wy = other[v, 1] - own[p, 1]
            wz = other[v, 2] - own[p, 2]
            if (planes[f0, 0] * wx + planes[f0, 1] * wy + planes[f0, 2] * wz >= limit
                    or planes[f1, 0] * wx + planes[f1, 1] * wy + planes[f1, 2] * wz >= limit):
                continue
            if (limit <= 0.0 or arcs[e, 3] * wx + arcs[e, 4] * wy + arcs[e, 5] * wz < 0.0
                    or arcs[e, 6] * wx + arcs[e, 7] * wy + arcs[e, 8] * wz < 0.0):
                may_win = False  # the largest n.w is at an end: below
                break
            wq = wx * qx + wy * qy + wz * qz
            if wx * wx + wy * wy + wz * wz - wq * wq / qq < limit * limit:
                may_win = False  # |u| below
                break
        if may_win:
            keep[count] = e
            count += 1
    return count


@jit
def _edge_axes(a, b, state, lowest_b, lowest_a, tol, overlapping):
    """The edge-edge axes of `separating_plane_kernel`; `state` ``(gap, a_max, nx, ny, nz,
    kind)`` is the best of the face axes and is returned updated.  `overlapping` says that
    the bodies are known to share a point (within tol).

    Each body's edges go through `edges_that_may_win` first: for a's edges, with the
    vertices of b found lowest along a's face normals (`lowest_b`, from the face pass); for
    b's, whose arcs enter the Minkowski difference negated, the same bound over b's own arc
    with ``w = v - b_p`` for the vertices v of a found along b's normals (`lowest_a`).
    Overlapping bodies (gap -D <= 0 on the best face axis m): the winning edges pass within D
    of the other body, so edges outside the other body's box grown by D, edges of a wholly
    below b's lowest point along m minus D, and edges of b wholly above a's highest plus D
    are dropped by their outcodes.  That holds only when the bodies do overlap: bodies apart
    along an edge-edge axis also leave every face axis negative, and their winning edges
    can be farther than D from each other.
    """
    va, pa, ea, ra = a[0], a[1], a[2], a[3]
    vb, pb, eb, rb = b[0], b[1], b[2], b[3]
    best, bmax, bx, by, bz, kind = state
    prune = overlapping and best <= 0.0
    reach = -best + tol if prune else np.inf
    a_floor = bmax + 2.0 * best - tol if prune else -np.inf
    b_ceiling = bmax - best + tol if prune else np.inf
    codes = np.empty(max(va.shape[0], vb.shape[0]), np.int8)
    keep_a = np.empty(ea.shape[0], np.intp)
    keep_b = np.empty(eb.shape[0], np.intp)
    _outcodes(va, _box(vb, reach), bx, by, bz, a_floor, codes)
    na = edges_that_may_win(va, pa, ea, ra, codes, vb, lowest_b, best - tol, keep_a)
    if na == 0:
        return best, bmax, bx, by, bz, kind
    _outcodes(vb, _box(va, reach), -bx, -by, -bz, -b_ceiling, codes)
    nb = edges_that_may_win(vb, pb, eb, rb, codes, va, lowest_a, best - tol, keep_b)
    for s in range(na):
        i = keep_a[s]
        f0 = ea[i, 2]
        f1 = ea[i, 3]
        ux = va[ea[i, 1], 0] - va[ea[i, 0], 0]
        uy = va[ea[i, 1], 1] - va[ea[i, 0], 1]
        uz = va[ea[i, 1], 2] - va[ea[i, 0], 2]
        for k in range(nb):
            j = keep_b[k]
            # the arcs cross (Gregorius's test with q = n0 x n1 of each edge): the ends of
            # b's arc on opposite sides of a's great circle, a's ends on opposite sides of
            # b's, and the crossing on the short arcs
            g0 = eb[j, 2]
            g1 = eb[j, 3]
            c = pb[g0, 0] * ra[i, 0] + pb[g0, 1] * ra[i, 1] + pb[g0, 2] * ra[i, 2]
            d = pb[g1, 0] * ra[i, 0] + pb[g1, 1] * ra[i, 1] + pb[g1, 2] * ra[i, 2]
            if not c * d < 0.0:
                continue
            e0 = pa[f0, 0] * rb[j, 0] + pa[f0, 1] * rb[j, 1] + pa[f0, 2] * rb[j, 2]
            e1 = pa[f1, 0] * rb[j, 0] + pa[f1, 1] * rb[j, 1] + pa[f1, 2] * rb[j, 2]
            if not (e0 * e1 < 0.0 and c * e1 < 0.0):
                continue
            wx = vb[eb[j, 1], 0] - vb[eb[j, 0], 0]
            wy = vb[eb[j, 1], 1] - vb[eb[j, 0], 1]
            wz = vb[eb[j, 1], 2] - vb[eb[j, 0], 2]
            nx = uy * wz - uz * wy
            ny = uz * wx - ux * wz
            nz = ux * wy - uy * wx
            ln = np.sqrt(nx * nx + ny * ny + nz * nz)
            uu = ux * ux + uy * uy + uz * uz
            if ln <= 1e-9 * np.sqrt(uu * (wx * wx + wy * wy + wz * wz)):
                continue  # parallel edges: covered by the face normals
            # n's rounding error, relative to |u| |w| sin(angle), tilts it along the edges
            # when they are nearly parallel, and the gap below reads one end of each: taking
            # u's component out of n leaves both edges square to it, to rounding
            along = (nx * ux + ny * uy + nz * uz) / uu
            nx -= along * ux
            ny -= along * uy
            nz -= along * uz
            ln = np.sqrt(nx * nx + ny * ny + nz * nz)
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
def separating_plane_kernel(a, b, tol, stop_above):
    """Largest gap over the face normals of a, of b (negated) and the edge-edge normals.

    Each body is the tuple `ConvexPolyhedron.arrays`: vertices (n, 3); face planes (m, 4),
    outward unit normal and offset (n.x <= d inside: along its own face normal a body's
    extent is its offset, so a face axis scans only the other body); edges (E, 4), two vertex
    indices, then the two faces sharing the edge; the edges' Gauss-map arcs (E, 9)
    (`edge_arcs`); the vertex adjacency (`vertex_adjacency`).  `tol` is the length
    tolerance.  Returns ``(gap, a_max, nx, ny, nz, kind)`` with kind 0 face of a, 1 face of
    b, 2 edge-edge; as soon as an axis has a gap above
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
    candidate set.  A flat edge (a = b, between coplanar triangles) spans nothing and is
    dropped before the pairs: its signs are zero, left to rounding.

    Overlapping bodies (every face axis at or below zero, and GJK finds a shared point: face
    axes alone cannot tell overlap from a gap along an edge-edge axis): with D the depth the
    face axes leave (minus their best gap), an edge pair can only win when translating b by
    its depth d <= D along its axis makes the two edges touch (the nearest face of the
    Minkowski difference holds the foot of the perpendicular from the origin), so each edge
    passes within D of the other body: edges whose boxes stay farther than D (plus the
    tolerance) from the other body's box are skipped.  Shallow contacts keep only the few
    edges around the overlap.
    """
    lowest_b = np.empty(a[1].shape[0], np.intp)
    state, done = face_axes(a[1], b[0], b[4], 1.0, (-np.inf, 0.0, 0.0, 0.0, 0.0, -1),
                            stop_above, lowest_b)
    if done:
        return state
    lowest_a = np.empty(b[1].shape[0], np.intp)
    state, done = face_axes(b[1], a[0], a[4], -1.0, state, stop_above, lowest_a)
    if done:
        return state
    overlapping = state[0] <= 0.0 and gjk_kernel(a[0], b[0])[7]
    return _edge_axes(a, b, state, lowest_b, lowest_a, tol, overlapping)


@jit
def plane_through_gap(a, b, tol, stop_above):
    """`separating_plane_kernel` and a point on the mid-plane: a's vertex farthest along the
    normal moved half the gap towards b.  Returns ``(gap, px, py, pz, nx, ny, nz, kind)``."""
    gap, amax, nx, ny, nz, kind = separating_plane_kernel(a, b, tol, stop_above)
    va = a[0]
    top = -np.inf
    ax = ay = az = 0.0
    for i in range(va.shape[0]):
        h = va[i, 0] * nx + va[i, 1] * ny + va[i, 2] * nz
        if h > top:
            top, ax, ay, az = h, va[i, 0], va[i, 1], va[i, 2]
    shift = amax + 0.5 * gap - top
    return gap, ax + shift * nx, ay + shift * ny, az + shift * nz, nx, ny, nz, kind
