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
"""Bounding volumes (spheres, boxes, capsules) against linear programming and sampling."""

import numpy as np
import pytest

from collision_monitor.geometry3d import (
    aabb, aabbs_overlap, bounding_sphere, capsule, capsules_overlap, obb, obbs_overlap,
    segment_distance, sphere_contact, spheres_overlap)
from collision_monitor.geometry3d.bounding import Sphere
from shapes import lp_intersect


@pytest.mark.parametrize('method', ['ritter', 'centroid', 'box'])
def test_bounding_spheres_hold_every_point(method):
    pts = np.random.default_rng(1).normal(size=(200, 3))
    s = bounding_sphere(pts, method)
    assert np.all(np.linalg.norm(pts - s.centre, axis=1) <= s.radius + 1e-12)
    if method == 'ritter':
        assert s.radius <= 1.25 * bounding_sphere(pts, 'centroid').radius


def test_sphere_contact_as_in_the_slides():
    point, normal, pen = sphere_contact(Sphere(np.zeros(3), 1.0),
                                        Sphere(np.array([1.5, 0, 0]), 1.0))
    assert pen == pytest.approx(0.5) and np.allclose(normal, [1, 0, 0])
    assert np.allclose(point, [0.75, 0, 0])
    assert sphere_contact(Sphere(np.zeros(3), 1.0), Sphere(np.array([3.0, 0, 0]), 1.0)) is None
    assert spheres_overlap(Sphere(np.zeros(3), 1.0), Sphere(np.array([2.0, 0, 0]), 1.0))


def _box_corners(box):
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    return box.centre + (signs * box.half) @ box.axes


@pytest.mark.parametrize('seed', range(40))
def test_obb_overlap_matches_linear_programming(seed):
    rng = np.random.default_rng(seed)
    a = obb(rng.normal(size=(10, 3)) * [2, 0.5, 0.3])
    b = obb(rng.normal(size=(10, 3)) * [0.4, 1.5, 0.3] + rng.uniform(-2.5, 2.5, 3))
    ca, cb = _box_corners(a), _box_corners(b)
    assert np.all(np.abs((ca - a.centre) @ a.axes.T) <= a.half + 1e-9)
    assert obbs_overlap(a, b) == lp_intersect(ca, cb)
    assert aabbs_overlap(aabb(ca), aabb(cb)) or not obbs_overlap(a, b)


def test_capsules():
    pts = np.random.default_rng(2).normal(size=(100, 3)) * [3, 0.3, 0.3]
    c = capsule(pts)
    for x in pts:
        assert segment_distance(x, x, c.p, c.q)[0] <= c.radius + 1e-9
    other = c._replace(p=c.p + [0, 2 * c.radius + 0.01, 0], q=c.q + [0, 2 * c.radius + 0.01, 0])
    assert not capsules_overlap(c, other)
    assert capsules_overlap(c, c._replace(p=c.p + [0, c.radius, 0], q=c.q + [0, c.radius, 0]))


def smallest_sphere_radius(pts):
    """Radius of the smallest sphere holding the points: minimise r^2 over (c, r^2) with
    |p - c|^2 <= r^2 for every p (a smooth convex program, scipy's SLSQP)."""
    from scipy.optimize import minimize
    centre = pts.mean(axis=0)
    start = np.append(centre, np.max(np.sum((pts - centre) ** 2, axis=1)))
    cons = {'type': 'ineq', 'fun': lambda x: x[3] - np.sum((pts - x[:3]) ** 2, axis=1),
            'jac': lambda x: np.column_stack([2.0 * (pts - x[:3]), np.ones(len(pts))])}
    res = minimize(lambda x: x[3], start, jac=lambda x: np.array([0.0, 0.0, 0.0, 1.0]),
                   constraints=[cons], method='SLSQP', options={'ftol': 1e-12, 'maxiter': 500})
    return float(np.sqrt(res.x[3]))


@pytest.mark.parametrize('cloud', ['normal', 'cube', 'shell', 'needle', 'two clusters'])
def test_ritters_sphere_is_within_a_fifth_of_the_smallest(cloud):
    """Ritter's sphere is near-minimal, as documented (5 to 20 % above the smallest)."""
    rng = np.random.default_rng(4)
    pts = {'normal': lambda: rng.normal(size=(300, 3)),
           'cube': lambda: rng.uniform(-1.0, 1.0, (300, 3)),
           'shell': lambda: (lambda v: v / np.linalg.norm(v, axis=1)[:, None])(
               rng.normal(size=(300, 3))),
           'needle': lambda: rng.normal(size=(300, 3)) * [10.0, 0.5, 0.2],
           'two clusters': lambda: np.vstack([rng.normal(size=(150, 3)) * 0.1,
                                              rng.normal(size=(150, 3)) * 0.1 + 5.0])}[cloud]()
    smallest = smallest_sphere_radius(pts)
    s = bounding_sphere(pts, 'ritter')
    assert np.all(np.linalg.norm(pts - s.centre, axis=1) <= s.radius)
    assert smallest * (1.0 - 1e-6) <= s.radius <= 1.2 * smallest


@pytest.mark.parametrize('scale', [1e-3, 1.0, 1e3])
def test_ritters_sphere_of_points_on_a_segment_is_the_smallest(scale):
    """Points on a segment (not along an axis): the extreme pair along the axis of widest
    spread is the segment's ends, and their sphere, centred on the midpoint with half the
    length as radius, already holds the rest, at every scale."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        p = rng.normal(size=3) * scale
        d = rng.normal(size=3) * scale
        pts = p + np.outer(np.append(rng.uniform(0.0, 1.0, 30), [0.0, 1.0]), d)
        rng.shuffle(pts)
        s = bounding_sphere(pts, 'ritter')
        assert s.radius == pytest.approx(0.5 * np.linalg.norm(d), rel=1e-12)
        np.testing.assert_allclose(s.centre, p + 0.5 * d, rtol=0, atol=1e-12 * scale)


def test_ritters_sphere_of_one_point_is_the_point():
    s = bounding_sphere([[1.5, -2.0, 0.25]], 'ritter')
    assert s.radius == 0.0 and s.centre.tolist() == [1.5, -2.0, 0.25]
