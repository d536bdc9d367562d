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
"""Per-tick kernels of the engine: place the bodies, then the narrow phase over candidates.

Bodies are packed: the vertex offsets of body b (its footprint in its own frame, [polygons]'
constant s_i^P) are rows ``vstart[b]:vstart[b + 1]`` of one (V, 2) array.  A pose is
``(x, y, yaw)``: world = R(yaw) offset + (x, y).  World vertices are never stored for all
bodies: `place_bodies` writes only boxes, most of them from the pose and the bounding radius
alone, and the narrow phase places the two bodies of each candidate pair into a small
scratch.
"""

import numba
import numpy as np

from .broadphase import candidate_pairs
from .constants import jit, jit_parallel
from .geometry2d.contact import contact_on_axis, NO_AXIS, polygons_intersect_kernel
from .geometry2d.distance import polygon_distance_kernel
from .geometry2d.primitives import box_padding, length_tolerance, pair_length_tolerance
from .geometry2d.separating_axis import sat_kernel
from .packed import Bodies, ContactRows, Features, Polygon
from .trig import rotate, sincos


def _turned_axes(samples):
    """Rows (2 samples, 2): the x axis of the midpoint-rule yaws theta_k of [0, pi/2), then
    their y axes, so that ``rows @ offsets.T`` holds the turned x, then y, coordinates."""
    theta = (np.arange(samples) + 0.5) * (0.5 * np.pi / samples)
    c, s = np.cos(theta), np.sin(theta)
    return np.concatenate([np.column_stack([c, -s]), np.column_stack([s, c])])


_TURNED_AXES = _turned_axes(32)


def box_fill(offsets):
    """Mean over yaw of the area of the box of the footprint's vertices, over the area of
    its bounding disc's box, (2 rho)^2: in (0, 1) for any polygon.

    The box at yaw theta + pi/2 is the one at theta turned, so the mean is taken over
    [0, pi/2) by the midpoint rule on 32 yaws (a setup-time estimate for `DISC_BOX_FILL`,
    not a bound), in one product and two reductions: about 16 us a footprint.
    """
    turned = _TURNED_AXES @ offsets.T
    extent = turned.max(axis=1) - turned.min(axis=1)
    half = _TURNED_AXES.shape[0] // 2
    rho_squared = np.max(np.einsum('ij,ij->i', offsets, offsets))
    return float(extent[:half] @ extent[half:]) / (half * 4.0 * rho_squared)


@jit
def place_bodies(poses, active, bodies, aabb, placed_at):
    """Write the world AABB of every active body (`packed.Bodies` in, or its plain tuple;
    (N, 4) `aabb` out).

    A body with ``bodies.disc_box`` gets its bounding disc's box, any other the box of its
    world vertices.  Each box is widened by `box_padding`, so that the broad phase keeps
    every pair the narrow phase takes as touching (a gap within `pair_tolerance`).  Serial:
    about 2.4 ns a body at 10,000 bodies, mostly disc boxes.

    `placed_at` (N, 3) holds the pose each vertex box was made at (NaN for none): a body
    whose pose equals it keeps its box, with no sine, cosine or vertex (a shelf placed once,
    a parked cart).  The caller fills it with NaN whenever the footprints change.
    """
    offsets, vstart, _, _, radius, _, disc_box = bodies
    for b in range(poses.shape[0]):
        if not active[b]:
            continue
        x = poses[b, 0]
        y = poses[b, 1]
        yaw = poses[b, 2]
        if disc_box[b]:
            r = radius[b]
            xmin = x - r
            ymin = y - r
            xmax = x + r
            ymax = y + r
        elif x == placed_at[b, 0] and y == placed_at[b, 1] and yaw == placed_at[b, 2]:
            continue
        else:
            placed_at[b, 0] = x
            placed_at[b, 1] = y
            placed_at[b, 2] = yaw
            s, c = sincos(yaw)
            xmin = np.inf
            ymin = np.inf
            xmax = -np.inf
            ymax = -np.inf
            for v in range(vstart[b], vstart[b + 1]):
                rx, ry = rotate(s, c, offsets[v, 0], offsets[v, 1])
                wx = x + rx
                wy = y + ry
                xmin = min(xmin, wx)
                xmax = max(xmax, wx)
                ymin = min(ymin, wy)
                ymax = max(ymax, wy)
        pad = box_padding(xmin, ymin, xmax, ymax)
        aabb[b, 0] = xmin - pad
        aabb[b, 1] = ymin - pad
        aabb[b, 2] = xmax + pad
        aabb[b, 3] = ymax + pad


@jit
def placed_polygon(b, poses, bodies, out):
    """Body b placed at its pose, as a `packed.Polygon` whose vertices are rows 0, 1, ...
    of `out` (a view)."""
    offsets, vstart = bodies.offsets, bodies.vstart
    x = poses[b, 0]
    y = poses[b, 1]
    s, c = sincos(poses[b, 2])
    k = 0
    for v in range(vstart[b], vstart[b + 1]):
        rx, ry = rotate(s, c, offsets[v, 0], offsets[v, 1])
        out[k, 0] = x + rx
        out[k, 1] = y + ry
        k += 1
    cx, cy = rotate(s, c, bodies.centroid_offsets[b, 0], bodies.centroid_offsets[b, 1])
    return Polygon(out[:k], bodies.orient[b], bodies.convex[b], x + cx, y + cy)


@jit
def place_vertices(poses, bodies, out):
    """Every body's vertices in the world frame, ``R(yaw) s + (x, y)``, into `out` (V, 2),
    rows ``vstart[b]:vstart[b + 1]`` body b's (the placement of `placed_polygon`)."""
    offsets, vstart = bodies.offsets, bodies.vstart
    for b in range(poses.shape[0]):
        x = poses[b, 0]
        y = poses[b, 1]
        s, c = sincos(poses[b, 2])
        for v in range(vstart[b], vstart[b + 1]):
            rx, ry = rotate(s, c, offsets[v, 0], offsets[v, 1])
            out[v, 0] = x + rx
            out[v, 1] = y + ry


@jit
def pair_tolerance(aabb, i, j):
    """A bound on the length tolerance of a pair from its boxes, which hold its vertices
    (largest |coordinate| plus extent): at least `pair_length_tolerance` of its placed
    vertices, for the tests that run before they are placed (bounding circles, boxes)."""
    big = 0.0
    ext = 0.0
    for b in (i, j):
        big = max(big, abs(aabb[b, 0]), abs(aabb[b, 1]), abs(aabb[b, 2]), abs(aabb[b, 3]))
        ext = max(ext, aabb[b, 2] - aabb[b, 0], aabb[b, 3] - aabb[b, 1])
    return length_tolerance(big + ext)


@jit
def narrow_phase(pairs, n_pairs, poses, bodies, aabb, scratch, rows, features):
    """Test candidate pairs and describe every contact (`packed.ContactRows` and
    `packed.Features` out).

    For each candidate (i, j): the current boxes `aabb` (candidates come from fat boxes,
    `broadphase.PairCache`; boxes apart hold bodies farther apart than the pair's
    tolerance, `box_padding`) and the bounding circles of [polygons] (radius about the body
    origin, fixed at registration) reject far pairs, then the separating axis test (convex
    pairs) or `polygons_intersect_kernel`, then `contact_on_axis` writes the pair's features.
    Contact c owns feature rows ``fstart[c]:fstart[c + 1]``.  `scratch` (2, M, 2), M the
    largest vertex count, holds the world vertices of the pair under test.

    Returns ``(contacts, features_needed)``; when features_needed exceeds the feature rows
    they are incomplete and the caller grows the buffers and calls again.  `bodies`, `rows`
    and `features` may be plain tuples (`packed`).
    """
    bodies, features = Bodies(*bodies), Features(*features)
    radius = bodies.radius
    out_pairs, out_kind, out_normal, out_depth, fstart = rows
    nc = 0
    nf = 0
    fstart[0] = 0
    for p in range(n_pairs):
        i = pairs[p, 0]
        j = pairs[p, 1]
        if (aabb[i, 0] > aabb[j, 2] or aabb[j, 0] > aabb[i, 2]
                or aabb[i, 1] > aabb[j, 3] or aabb[j, 1] > aabb[i, 3]):
            continue
        dx = poses[j, 0] - poses[i, 0]
        dy = poses[j, 1] - poses[i, 1]
        reach = radius[i] + radius[j] + pair_tolerance(aabb, i, j)
        if dx * dx + dy * dy > reach * reach:
            continue
        a = placed_polygon(i, poses, bodies, scratch[0])
        b = placed_polygon(j, poses, bodies, scratch[1])
        tol = pair_length_tolerance(a.vertices, b.vertices)
        if a.convex and b.convex:
            # the test's axes, computed in full for a pair that is not separated, serve the
            # contact's normal and depth
            axis = sat_kernel(a.vertices, a.orient, b.vertices, b.orient, tol, True)
            if axis[0] > tol:
                continue
        elif polygons_intersect_kernel(a.vertices, a.orient, a.convex, b.vertices, b.orient,
                                       b.convex, tol):
            axis = NO_AXIS
        else:
            continue
        cnt, kind, nx, ny, depth = contact_on_axis(a, b, tol, features, nf, axis)
        if cnt == 0:
            continue  # touching within the test's tolerance but no feature: not a contact
        nf += cnt
        out_pairs[nc, 0] = i
        out_pairs[nc, 1] = j
        out_kind[nc] = kind
        out_normal[nc, 0] = nx + 0.0  # a -0.0 (sign flips) becomes 0.0
        out_normal[nc, 1] = ny + 0.0
        out_depth[nc] = depth + 0.0
        nc += 1
        fstart[nc] = nf
    return nc, nf


@jit_parallel
def narrow_phase_slots(pairs, n_pairs, poses, bodies, aabb, slots, rows, features):
    """`narrow_phase` in k slots, k at most S and `threads`: the same contacts in the same
    order, bit for bit.

    `slots` is ``(threads, scratch, fstart, counts)``: `threads` those numba runs this call
    on (a kernel that asks numba cannot be cached), scratch (S, 2, M, 2) a `narrow_phase`
    scratch per slot, fstart (P + S,) intp with P at least n_pairs, and counts (S, 2) intp.
    With k slots, slot s takes the s-th of k runs of consecutive candidates: it writes its
    contacts over the contact rows of its own candidates (it has at most as many), its
    `ContactRows.fstart` to ``fstart[lo + s:]`` (lo its first candidate; it ends by
    ``fstart[hi + s]``, hi its run's end) and its features to the s-th of k equal parts of
    the feature rows; then one serial pass moves them to the front, in order (each moves
    towards the front, so nothing is overwritten before it is read).  Returns
    ``(contacts, features_needed)`` as `narrow_phase`; when a slot's features overflow its
    part, no contact and k times that slot's need.
    """
    threads, scratch, slot_fstart, counts = slots
    k = min(threads, scratch.shape[0], max(n_pairs, 1))
    if k == 1:
        return narrow_phase(pairs, n_pairs, poses, bodies, aabb, scratch[0], rows, features)
    out_pairs, out_kind, out_normal, out_depth, fstart = rows
    fxy, fpb, fkind, fidx = features
    run = (n_pairs + k - 1) // k
    part = fxy.shape[0] // k
    for s in numba.prange(k):
        lo = min(s * run, n_pairs)
        hi = min(lo + run, n_pairs)
        f0 = s * part
        counts[s, 0], counts[s, 1] = narrow_phase(
            pairs[lo:hi], hi - lo, poses, bodies, aabb, scratch[s],
            (out_pairs[lo:], out_kind[lo:], out_normal[lo:], out_depth[lo:],
             slot_fstart[lo + s:]),
            (fxy[f0:f0 + part], fpb[f0:f0 + part], fkind[f0:f0 + part], fidx[f0:f0 + part]))
    return _gather_slots(k, run, part, n_pairs, counts, slot_fstart, rows, features)


@jit
def _gather_slots(k, run, part, n_pairs, counts, slot_fstart, rows, features):
    """`narrow_phase_slots`' serial pass: the contacts and features of its k slots moved to
    the front, in slot order; ``(contacts, features_needed)``.  A function of its own: in
    the function of a prange, numba 0.68 drops a store made after the prange and after a
    loop to an array unpacked from a tuple argument (here the closing ``fstart[nc]``)."""
    out_pairs, out_kind, out_normal, out_depth, fstart = rows
    fxy, fpb, fkind, fidx = features
    need = 0
    for s in range(k):
        if counts[s, 1] > part:
            need = max(need, k * counts[s, 1])
    if need:
        return 0, need
    nc = 0
    nf = 0
    for s in range(k):
        lo = min(s * run, n_pairs)
        for c in range(counts[s, 0]):
            src = lo + c
            out_pairs[nc, 0] = out_pairs[src, 0]
            out_pairs[nc, 1] = out_pairs[src, 1]
            out_kind[nc] = out_kind[src]
            out_normal[nc, 0] = out_normal[src, 0]
            out_normal[nc, 1] = out_normal[src, 1]
            out_depth[nc] = out_depth[src]
            fstart[nc] = nf + slot_fstart[lo + s + c]
            nc += 1
        for f in range(counts[s, 1]):
            src = s * part + f
            dst = nf + f
            fxy[dst, 0] = fxy[src, 0]
            fxy[dst, 1] = fxy[src, 1]
            fpb[dst, 0] = fpb[src, 0]
            fpb[dst, 1] = fpb[src, 1]
            fkind[dst] = fkind[src]
            fidx[dst, 0] = fidx[src, 0]
            fidx[dst, 1] = fidx[src, 1]
        nf += counts[s, 1]
    fstart[nc] = nf
    return nc, nf


@jit
def pair_distances(pairs, poses, bodies, aabb, scratch, out):
    """Least distance (m) between the boundaries of each pair (rows of `pairs`) at their
    poses, written to `out`: 0 for a pair that `narrow_phase` takes as a contact (the same
    test, so that both give one answer within the pair's tolerance).  `aabb` are the boxes
    of `place_bodies` for these poses."""
    rows = ContactRows(np.empty((1, 2), np.intp), np.empty(1, np.int8), np.empty((1, 2)),
                       np.empty(1), np.empty(2, np.intp))
    no_rows = Features(np.empty((0, 2)), np.empty((0, 2)), np.empty(0, np.int8),
                       np.empty((0, 2), np.intp))  # features counted, not written
    for p in range(pairs.shape[0]):
        if narrow_phase(pairs[p:p + 1], 1, poses, bodies, aabb, scratch, rows, no_rows)[0]:
            out[p] = 0.0
        else:
            a = placed_polygon(pairs[p, 0], poses, bodies, scratch[0])
            b = placed_polygon(pairs[p, 1], poses, bodies, scratch[1])
            out[p] = polygon_distance_kernel(a.vertices, b.vertices)[0]


@jit
def place_and_pair(poses, active, movable, bodies, placement, candidates):
    """The first part of a `detect` tick in one call: `place_bodies` unless placed, then the
    candidate pairs of `candidates` (`broadphase.candidate_pairs`); returns their count.

    `placement` is ``(aabb, placed_at, placed)``: `place_bodies`' boxes and poses and whether
    they are current; `candidates` ``(boxes, cache)``: the boxes the pairs are for and the
    `broadphase.PairCache.arrays()`.  A count above the pairs array's rows means they did
    not fit: the caller grows it and calls again.  `bodies` is a plain tuple (`packed`).
    The narrow phase is a call of its own, on the threads the count asks for: its twenty
    arrays cost a tick without candidates more than the call they would save.
    """
    aabb, placed_at, placed = placement
    boxes, cache = candidates
    if not placed:
        place_bodies(poses, active, bodies, aabb, placed_at)
    return candidate_pairs(boxes, active, movable, cache)
