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
"""Bounding volumes of [slides] and their overlap tests: sphere, AABB, OBB, capsule.

Touching counts as overlapping throughout.
"""

from typing import NamedTuple

import numpy as np

from .distance import segment_distance_kernel
from .validation import as_points3, as_vector
from ..kernels.constants import jit, jit_inline


class Sphere(NamedTuple):
    """Centre (3,) and radius (m)."""

    centre: np.ndarray
    radius: float


class AABB(NamedTuple):
    """Axis-aligned box: lower and upper corners (3,)."""

    lo: np.ndarray
    hi: np.ndarray


class OBB(NamedTuple):
    """Oriented box: centre (3,), axes (3, 3) whose rows are unit axes, half-extents (3,)."""

    centre: np.ndarray
    axes: np.ndarray
    half: np.ndarray


class Capsule(NamedTuple):
    """Swept sphere: segment ends p, q (3,) and radius."""

    p: np.ndarray
    q: np.ndarray
    radius: float


@jit
def _ritter(points):
    """Ritter's sphere: from the extreme pair along x, y or z, grown to hold every point."""
    n = points.shape[0]
    best = -1.0
    bi = 0
    bj = 0
    for axis in range(3):
        lo = 0
        hi = 0
        for k in range(n):
            if points[k, axis] < points[lo, axis]:
                lo = k
            if points[k, axis] > points[hi, axis]:
                hi = k
        d = np.sum((points[hi] - points[lo]) ** 2)
        if d > best:
            best, bi, bj = d, lo, hi
    c = 0.5 * (points[bi] + points[bj])
    r = 0.5 * np.sqrt(best)
    for k in range(n):
        d = np.sqrt(np.sum((points[k] - c) ** 2))
        if d > r:
            grow = 0.5 * (d - r)
            c = c + grow / d * (points[k] - c)
            r = r + grow
    return c, r


def bounding_sphere(points, method='ritter'):
    """A sphere holding every point.

    Parameters
    ----------
    points : (n, 3) array_like
        Metres.
    method : {'ritter', 'centroid', 'box'}
        'centroid' and 'box' centre the sphere on the mean of the points or the centre of
        their AABB ([slides]' choices) with the radius the farthest point; 'ritter' is
        Ritter's near-minimal sphere (within about 5 to 20 % of the smallest).

    """
    pts = as_points3(points)
    if method == 'ritter':
        c, r = _ritter(pts)
        # guard the last ulp: every point inside
        r = max(r, float(np.max(np.linalg.norm(pts - c, axis=1))))
        return Sphere(c, float(r))
    if method == 'centroid':
        c = pts.mean(axis=0)
    elif method == 'box':
        c = 0.5 * (pts.min(axis=0) + pts.max(axis=0))
    else:
        raise ValueError(f"method must be 'ritter', 'centroid' or 'box', got {method!r}")
    return Sphere(c, float(np.max(np.linalg.norm(pts - c, axis=1))))


@jit_inline
def spheres_apart(ca, ra, cb, rb, gap):
    """True when spheres (ca, ra) and (cb, rb) are more than `gap` apart: |ca - cb| > ra + rb
    + gap, compared squared (centres as 3-tuples or arrays, metres)."""
    dx, dy, dz = ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]
    reach = ra + rb + gap
    return dx * dx + dy * dy + dz * dz > reach * reach


def spheres_overlap(a, b):
    """True when ``|c_a - c_b| <= r_a + r_b`` (compared squared, as [slides] advise)."""
    return not spheres_apart(as_vector(a.centre, 'a.centre'), float(a.radius),
                             as_vector(b.centre, 'b.centre'), float(b.radius), 0.0)


def sphere_contact(a, b):
    """Contact of two overlapping spheres: ``(point, normal, penetration)`` or None.

    [slides]: normal n = unit(c_b - c_a) (from a to b), penetration p = r_a + r_b - |c_b - c_a|,
    point = (c_a + r_a n + c_b - r_b n) / 2, halfway between the two surface points.
    Concentric spheres take n = +z.
    """
    ca, cb = np.asarray(a.centre, float), np.asarray(b.centre, float)
    d = cb - ca
    dist = float(np.linalg.norm(d))
    pen = a.radius + b.radius - dist
    if pen < 0.0:
        return None
    n = d / dist if dist > 0.0 else np.array([0.0, 0.0, 1.0])
    return 0.5 * (ca + a.radius * n + cb - b.radius * n), n, float(pen)


def aabb(points):
    """The axis-aligned bounding box of points."""
    pts = as_points3(points)
    return AABB(pts.min(axis=0), pts.max(axis=0))


def aabbs_overlap(a, b):
    """True when the boxes overlap on x, y and z."""
    return bool(np.all(a.lo <= b.hi) and np.all(b.lo <= a.hi))


def obb(points):
    """An oriented box from the principal axes of the points (covariance eigenvectors)."""
    pts = as_points3(points)
    centred = pts - pts.mean(axis=0)
    _, vecs = np.linalg.eigh(centred.T @ centred)
    axes = np.ascontiguousarray(vecs.T[::-1])
    if np.linalg.det(axes) < 0:
        axes[2] = -axes[2]
    proj = pts @ axes.T
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    return OBB((0.5 * (lo + hi)) @ axes, axes, 0.5 * (hi - lo))


@jit
def obb_overlap_kernel(ca, axa, ha, cb, axb, hb, eps):
    """Gottschalk's separating axis test of two OBBs over 15 axes.

    Axes: the 3 face normals of each box and the 9 cross products of their edges.  Along an
    axis L the boxes are apart when ``|T.L| > sum_i h_a,i |A_i.L| + sum_i h_b,i |B_i.L|``
    (absolute values take the maximum extents, as [slides] say).  Cross products of nearly
    parallel edges are skipped: their axis is covered by the face normals.
    """
    t = cb - ca
    for k in range(15):
        if k < 3:
            axis = axa[k]
        elif k < 6:
            axis = axb[k - 3]
        else:
            axis = np.cross(axa[(k - 6) // 3], axb[(k - 6) % 3])
            length = np.sqrt(np.sum(axis * axis))
            if length < 1e-9:
                continue
            axis = axis / length
        ra = 0.0
        rb = 0.0
        for i in range(3):
            ra += ha[i] * abs(np.sum(axa[i] * axis))
            rb += hb[i] * abs(np.sum(axb[i] * axis))
        if abs(np.sum(t * axis)) > ra + rb + eps:
            return False
    return True


def obbs_overlap(a, b):
    """True when two oriented boxes overlap (15-axis separating axis test)."""
    args = []
    for box in (a, b):
        args += [np.ascontiguousarray(box.centre, float), np.ascontiguousarray(box.axes, float),
                 np.ascontiguousarray(box.half, float)]
    return bool(obb_overlap_kernel(*args, 0.0))


def capsule(points):
    """A capsule from the points' bounding box: its long axis is the segment, the next largest
    half-width the radius ([slides]), grown so that every point is inside."""
    box = obb(points)
    pts = as_points3(points)
    axis = box.axes[int(np.argmax(box.half))]
    radius = float(np.sort(box.half)[1])
    half_len = max(0.0, float(np.max(box.half)) - radius)
    p, q = box.centre - half_len * axis, box.centre + half_len * axis
    need = max(segment_distance_kernel(x, x, p, q)[0] for x in pts)
    return Capsule(p, q, max(radius, float(need)))


def capsules_overlap(a, b):
    """True when the segments' distance is at most the sum of the radii."""
    d = segment_distance_kernel(as_vector(a.p, 'a.p'), as_vector(a.q, 'a.q'),
                                as_vector(b.p, 'b.p'), as_vector(b.q, 'b.q'))[0]
    return bool(d <= a.radius + b.radius)
