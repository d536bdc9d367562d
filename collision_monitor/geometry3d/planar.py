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
"""Planar helpers of the 3D algorithms: an orthonormal basis of a plane, the convex hull of
points in it (monotone chain) and the intersection of two convex polygons
(Sutherland-Hodgman), each writing into caller buffers of a stated size."""

import numpy as np

from ..kernels.constants import jit

SAME_POINT = 1e-12
"""Projected points closer than this (m, per coordinate, relative to the hull's scale) are one
point."""


@jit
def plane_basis_kernel(nx, ny, nz):
    """Unit u, v with (u, v, n) right-handed and orthonormal, n a unit vector."""
    if abs(nx) < 0.9:
        hx, hy, hz = 1.0, 0.0, 0.0
    else:
        hx, hy, hz = 0.0, 1.0, 0.0
    ux = hy * nz - hz * ny
    uy = hz * nx - hx * nz
    uz = hx * ny - hy * nx
    lu = np.sqrt(ux * ux + uy * uy + uz * uz)
    ux /= lu
    uy /= lu
    uz /= lu
    return ux, uy, uz, ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux


@jit
def hull2(pts, count, out):
    """Convex hull (monotone chain, CCW, collinear and repeated points dropped) of the first
    `count` rows of pts (k, 2), which it sorts in place; written to out (>= count + 1 rows,
    not pts), returns its size.

    The points are sorted by (x, y) with an insertion sort: contact sets hold a few dozen
    points, where it beats argsort and its allocations.  Each point between the first and
    the last is a candidate for one chain only, the lower one when it lies right of the
    line first -> last, the upper one when left of it (on it: neither): so the chains push
    at most count + 1 points, even where rounding makes a nearly collinear triple turn left
    both ways (walking all points both ways, as the textbook chain does, may then push
    2 count - 1 and write past out).  The turns are written out on scalars: row views
    passed to a helper cost more than the hull."""
    if count == 0:
        return 0
    scale = 0.0
    for k in range(count):
        scale = max(scale, abs(pts[k, 0]), abs(pts[k, 1]))
    same = SAME_POINT * (1.0 + scale)
    for k in range(1, count):
        x, y = pts[k, 0], pts[k, 1]
        m = k
        while m > 0 and (pts[m - 1, 0] > x or (pts[m - 1, 0] == x and pts[m - 1, 1] > y)):
            pts[m, 0] = pts[m - 1, 0]
            pts[m, 1] = pts[m - 1, 1]
            m -= 1
        pts[m, 0] = x
        pts[m, 1] = y
    # unique points, in place: a point within `same` of a kept one (per axis) is dropped;
    # the kept points within `same` in x are the last ones kept, sorted as they are, though
    # points of other y may lie between a point and its near twin
    nu = 0
    for k in range(count):
        x, y = pts[k, 0], pts[k, 1]
        m = nu - 1
        while m >= 0 and x - pts[m, 0] <= same and abs(y - pts[m, 1]) > same:
            m -= 1
        if m >= 0 and x - pts[m, 0] <= same:
            continue
        pts[nu, 0] = x
        pts[nu, 1] = y
        nu += 1
    if nu <= 2:
        for k in range(nu):
            out[k, 0] = pts[k, 0]
            out[k, 1] = pts[k, 1]
        return nu
    # the lower chain (points in order), then the upper one (back again); a point p pops
    # the last hull point b while o, b, p (o the one before b) do not turn left:
    # (b - o) x (p - o) <= 0
    fx, fy = pts[0, 0], pts[0, 1]
    lx, ly = pts[nu - 1, 0] - fx, pts[nu - 1, 1] - fy
    h = 0
    low = 2
    for k in range(2 * nu - 1):
        if k == nu:
            low = h + 1
        i = k if k < nu else 2 * nu - 2 - k
        px, py = pts[i, 0], pts[i, 1]
        if 0 < i < nu - 1:
            side = lx * (py - fy) - ly * (px - fx)  # > 0: left of first -> last
            if (side < 0.0) != (k < nu) or side == 0.0:
                continue
        while h >= low:
            ox, oy = out[h - 2, 0], out[h - 2, 1]
            if (out[h - 1, 0] - ox) * (py - oy) - (out[h - 1, 1] - oy) * (px - ox) > 0.0:
                break
            h -= 1
        out[h, 0] = px
        out[h, 1] = py
        h += 1
    return h - 1  # the last point repeats the first


@jit
def clip_convex(subject, ns, clip, nc, out, scratch):
    """Sutherland-Hodgman: the part of CCW convex polygon subject[:ns] inside CCW convex
    clip[:nc]; written to out, returns its size.  out and scratch (>= ns + nc rows each,
    neither one an input) hold the passes in turn.

    Each pass keeps one run of consecutive vertices on the inside of a clip edge (side >= 0)
    plus the two crossing points at its ends.  A convex polygon has one such run; where
    rounding splits it (vertices within rounding of the line), the run holding the vertex
    farthest inside is kept and the others differ from the line by rounding only (a run
    chosen by length may be one such vertex).  So a pass adds at most one vertex and
    the result fits ns + nc rows whatever the input (emitting every crossing, as the
    textbook pass does, may add one per rounding flip and write past the buffers)."""
    for i in range(ns):
        out[i, 0] = subject[i, 0]
        out[i, 1] = subject[i, 1]
    cur, nxt = out, scratch
    in_out = True  # cur is out
    n = ns
    for k in range(nc):
        ax, ay = clip[k, 0], clip[k, 1]
        ex = clip[(k + 1) % nc, 0] - ax
        ey = clip[(k + 1) % nc, 1] - ay
        # side of each vertex, e x (p - a) (>= 0: inside), parked in nxt's first column
        # until the pass writes its vertices there
        inside = 0
        top = 0
        for i in range(n):
            side = ex * (cur[i, 1] - ay) - ey * (cur[i, 0] - ax)
            nxt[i, 0] = side
            inside += side >= 0.0
            if side > nxt[top, 0]:
                top = i
        if inside == n:
            continue
        if inside == 0:
            return 0
        # the run of inside vertices around the one farthest inside, cyclically (both walks
        # stop: some vertex is outside)
        first, before = top, (top - 1) % n
        while nxt[before, 0] >= 0.0:
            first, before = before, (before - 1 if before else n - 1)
        last, after = top, (top + 1) % n
        while nxt[after, 0] >= 0.0:
            last, after = after, (after + 1 if after < n - 1 else 0)
        s_before, s_first = nxt[before, 0], nxt[first, 0]
        s_last, s_after = nxt[last, 0], nxt[after, 0]
        m = 0
        if s_first > 0.0:  # the crossing on edge before -> first
            f = s_before / (s_before - s_first)
            nxt[m, 0] = cur[before, 0] + f * (cur[first, 0] - cur[before, 0])
            nxt[m, 1] = cur[before, 1] + f * (cur[first, 1] - cur[before, 1])
            m += 1
        i = first
        for _ in range((last - first) % n + 1):
            nxt[m, 0] = cur[i, 0]
            nxt[m, 1] = cur[i, 1]
            m += 1
            i = i + 1 if i < n - 1 else 0
        if s_last > 0.0:  # the crossing on edge last -> after
            f = s_last / (s_last - s_after)
            nxt[m, 0] = cur[last, 0] + f * (cur[after, 0] - cur[last, 0])
            nxt[m, 1] = cur[last, 1] + f * (cur[after, 1] - cur[last, 1])
            m += 1
        cur, nxt = nxt, cur
        in_out = not in_out
        n = m
    if not in_out:
        for i in range(n):
            out[i, 0] = scratch[i, 0]
            out[i, 1] = scratch[i, 1]
    return n
