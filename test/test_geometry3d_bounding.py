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
from collision_monitor.geometry3d.bounding import Capsule, OBB, Sphere
from shapes import lp_intersect, random_rotation


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
    pts = pts + [100.0, -50.0, 20.0]  # away from the origin (the result moves with the points)
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


@pytest.mark.parametrize('method', ['centroid', 'box'])
def test_centred_spheres_are_centred_where_documented(method):
    """'centroid': the mean of the points; 'box': the centre of their AABB; each with the
    farthest point's distance as radius (numpy's own formulas)."""
    pts = np.random.default_rng(2).normal(size=(100, 3)) * [3.0, 1.0, 0.2] + [5.0, -2.0, 1.0]
    centre = pts.mean(axis=0) if method == 'centroid' else 0.5 * (pts.min(0) + pts.max(0))
    s = bounding_sphere(pts, method)
    np.testing.assert_allclose(s.centre, centre, rtol=0, atol=1e-12)
    assert s.radius == pytest.approx(np.max(np.linalg.norm(pts - centre, axis=1)), rel=1e-12)


def test_an_unknown_sphere_method_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^method must be 'ritter', 'centroid' or 'box', "
                                         r"got 'minimal'$"):
        bounding_sphere(np.eye(3), 'minimal')


@pytest.mark.parametrize('seed', range(5))
def test_spheres_overlap_when_their_centres_are_within_the_sum_of_radii(seed):
    """Centres apart along every axis at once: overlap exactly when |c_a - c_b| <= r_a + r_b
    (numpy's norm; pairs within 1e-9 of the limit left out)."""
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(400):
        a = Sphere(rng.uniform(-5, 5, 3), rng.uniform(0.1, 3.0))
        b = Sphere(rng.uniform(-5, 5, 3), rng.uniform(0.1, 3.0))
        gap = np.linalg.norm(a.centre - b.centre) - a.radius - b.radius
        if abs(gap) < 1e-9:
            continue
        assert spheres_overlap(a, b) == (gap < 0.0) == spheres_overlap(b, a)
        seen.add(gap < 0.0)
    assert seen == {True, False}


@pytest.mark.parametrize('offset', [(1.0, 2.0, 2.0), (2.0, -1.0, 2.0), (-2.0, 2.0, -1.0)])
def test_spheres_touching_exactly_overlap(offset):
    """Centres 3 apart (integer offsets, exact) with radii 1 and 2: touching counts; a
    radius 1e-9 short of touching does not."""
    a = Sphere(np.array([1.0, -1.0, 0.5]), 1.0)
    b = Sphere(a.centre + offset, 2.0)
    assert spheres_overlap(a, b) and spheres_overlap(b, a)
    assert not spheres_overlap(a, Sphere(b.centre, 2.0 - 1e-9))
    point, normal, pen = sphere_contact(a, b)
    assert pen == 0.0
    np.testing.assert_allclose(point, a.centre + np.array(offset) / 3.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize('seed', range(5))
def test_sphere_contact_lies_between_the_surfaces_along_the_centre_line(seed):
    """Overlapping spheres in general position: the normal is the unit vector from a's centre
    to b's, the penetration is r_a + r_b - |c_b - c_a|, and the point lies on the centre line
    halfway into the overlap: r_a - pen / 2 from c_a and r_b - pen / 2 from c_b."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        a = Sphere(rng.uniform(-5, 5, 3), rng.uniform(0.5, 3.0))
        rb = rng.uniform(0.5, 3.0)
        u = rng.normal(size=3)
        b = Sphere(a.centre + u / np.linalg.norm(u) * rng.uniform(0.01, 0.99) * (a.radius + rb),
                   rb)
        d = b.centre - a.centre
        point, normal, pen = sphere_contact(a, b)
        np.testing.assert_allclose(normal, d / np.linalg.norm(d), rtol=0, atol=1e-12)
        assert pen == pytest.approx(a.radius + b.radius - np.linalg.norm(d), abs=1e-12)
        np.testing.assert_allclose(point, a.centre + (a.radius - pen / 2) * normal, atol=1e-12)
        np.testing.assert_allclose(point, b.centre - (b.radius - pen / 2) * normal, atol=1e-12)
        far = Sphere(a.centre + 1.01 * (a.radius + b.radius) * normal, b.radius)
        assert sphere_contact(a, far) is None


def test_concentric_spheres_touch_along_z():
    point, normal, pen = sphere_contact(Sphere(np.ones(3), 1.0), Sphere(np.ones(3), 0.5))
    assert normal.tolist() == [0.0, 0.0, 1.0] and pen == 1.5
    np.testing.assert_allclose(point, [1.0, 1.0, 1.25])


def test_an_obb_holds_its_points_on_right_handed_principal_axes():
    """Orthonormal right-handed rows, the axis of most spread first (numpy's covariance
    eigenvalues, descending), every point inside, and each face touched by a point."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        turn = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        pts = (rng.normal(size=(50, 3)) * [3.0, 1.0, 0.3]) @ turn + rng.uniform(-5, 5, 3)
        box = obb(pts)
        np.testing.assert_allclose(box.axes @ box.axes.T, np.eye(3), atol=1e-12)
        assert np.linalg.det(box.axes) == pytest.approx(1.0)
        spread = np.var((pts - pts.mean(axis=0)) @ box.axes.T, axis=0)
        np.testing.assert_allclose(spread, np.sort(np.linalg.eigvalsh(np.cov(pts.T, bias=True)))
                                   [::-1], rtol=1e-9)
        local = (pts - box.centre) @ box.axes.T
        assert np.all(np.abs(local) <= box.half + 1e-9)
        np.testing.assert_allclose(local.max(axis=0), box.half, rtol=1e-9)
        np.testing.assert_allclose(local.min(axis=0), -box.half, rtol=1e-9)


def test_obbs_apart_along_an_edge_edge_axis_alone():
    """Boxes turned at random, placed a small gap apart along the cross product of an edge
    of each, where no face normal separates them (checked with numpy): apart, as linear
    programming says; moved in by twice the gap, as it says again."""
    rng = np.random.default_rng(3)
    kept = 0
    for _ in range(400):
        axa, axb = random_rotation(rng), random_rotation(rng)
        ha, hb = rng.uniform(0.2, 1.5, 3), rng.uniform(0.2, 1.5, 3)
        n = np.cross(axa[rng.integers(3)], axb[rng.integers(3)])
        if np.linalg.norm(n) < 0.2:
            continue
        n /= np.linalg.norm(n)
        reach = ha @ np.abs(axa @ n) + hb @ np.abs(axb @ n)
        gap = rng.uniform(0.01, 0.1) * reach
        ca = rng.uniform(-3, 3, 3)
        cb = ca + (reach + gap) * n
        faces = np.vstack([axa, axb])
        face_reach = np.abs(faces @ axa.T) @ ha + np.abs(faces @ axb.T) @ hb
        if np.any(np.abs(faces @ (cb - ca)) > face_reach):
            continue  # a face normal separates them: not this case
        a, b = OBB(ca, axa, ha), OBB(cb, axb, hb)
        assert not lp_intersect(_box_corners(a), _box_corners(b))
        assert not obbs_overlap(a, b) and not obbs_overlap(b, a)
        closer = OBB(ca + (reach - gap) * n, axb, hb)
        meet = lp_intersect(_box_corners(a), _box_corners(closer))
        assert obbs_overlap(a, closer) == meet == obbs_overlap(closer, a)
        kept += 1
    assert kept > 40


def test_aabbs_overlap_on_every_axis_at_once_touching_included():
    """Integer boxes (exact): overlap exactly when the intervals meet on x, y and z, faces,
    edges or corners touching included; apart on any one axis is apart.  The 15-axis test
    gives the same answers for them."""
    rng = np.random.default_rng(6)
    seen = set()
    for _ in range(500):
        lo_a, lo_b = rng.integers(-3, 3, 3), rng.integers(-3, 3, 3)
        a = aabb(np.vstack([lo_a, lo_a + rng.integers(0, 3, 3)]).astype(float))
        b = aabb(np.vstack([lo_b, lo_b + rng.integers(0, 3, 3)]).astype(float))
        meet = all(max(a.lo[k], b.lo[k]) <= min(a.hi[k], b.hi[k]) for k in range(3))
        assert aabbs_overlap(a, b) == meet == aabbs_overlap(b, a)
        oa, ob = (OBB(0.5 * (box.lo + box.hi), np.eye(3), 0.5 * (box.hi - box.lo))
                  for box in (a, b))
        assert obbs_overlap(oa, ob) == meet  # the same boxes as OBBs
        touching = meet and any(max(a.lo[k], b.lo[k]) == min(a.hi[k], b.hi[k])
                                for k in range(3))
        seen.add((meet, touching))
    assert seen == {(False, False), (True, False), (True, True)}


def _segment_distances(pts, p, q):
    """Distance of each point to segment p-q (numpy projection, clamped)."""
    d = q - p
    t = np.clip((pts - p) @ d / (d @ d), 0.0, 1.0) if d @ d > 0 else np.zeros(len(pts))
    return np.linalg.norm(pts - (p + t[:, None] * d), axis=1)


@pytest.mark.parametrize('half', [(3.0, 1.0, 0.5), (0.4, 2.5, 0.6), (1.0, 1.0, 0.2)])
def test_a_capsule_runs_along_the_long_axis_of_its_box(half):
    """The corners of a turned box of half-extents h: the segment lies on the long axis
    through the centre, of half-length h_max - h_mid (the middle half-width is the radius
    before growing), and the radius is the farthest corner's distance to it."""
    rng = np.random.default_rng(8)
    turn = random_rotation(rng)
    centre = rng.uniform(-5, 5, 3)
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    pts = centre + (signs * half) @ turn
    c = capsule(pts)
    h = np.sort(half)
    long_axis = turn[int(np.argmax(half))]
    np.testing.assert_allclose(0.5 * (c.p + c.q), centre, atol=1e-9)
    assert np.linalg.norm(c.q - c.p) == pytest.approx(2 * (h[2] - h[1]), abs=1e-9)
    if h[2] > h[1]:
        assert abs((c.q - c.p) @ long_axis) == pytest.approx(2 * (h[2] - h[1]), rel=1e-9)
    assert c.radius == pytest.approx(_segment_distances(pts, c.p, c.q).max(), rel=1e-12)


@pytest.mark.parametrize('apart', [0.0, 1e-9])
def test_capsules_touching_exactly_overlap(apart):
    """Parallel and crossing capsules whose segments are exactly the sum of the radii apart
    (binary fractions, exact) touch; a nanometre more is apart."""
    a = Capsule(np.array([0.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0]), 0.25)
    for p, q in (([0.5, 0.75 + apart, 0.0], [3.0, 0.75 + apart, 0.0]),
                 ([1.0, -1.0, 0.75 + apart], [1.0, 1.0, 0.75 + apart])):
        b = Capsule(np.array(p), np.array(q), 0.5)
        assert capsules_overlap(a, b) == (apart == 0.0) == capsules_overlap(b, a)


@pytest.mark.parametrize('field', ['p', 'q'])
def test_a_capsule_end_that_is_not_three_numbers_is_refused_by_name(field):
    good = Capsule(np.zeros(3), np.ones(3), 1.0)
    bad = good._replace(**{field: np.zeros(2)})
    with pytest.raises(ValueError, match=rf'^a\.{field} must be 3 finite numbers$'):
        capsules_overlap(bad, good)
    with pytest.raises(ValueError, match=rf'^b\.{field} must be 3 finite numbers$'):
        capsules_overlap(good, bad)


@pytest.mark.parametrize('which', ['a', 'b'])
def test_a_sphere_centre_that_is_not_three_numbers_is_refused_by_name(which):
    good, bad = Sphere(np.zeros(3), 1.0), Sphere(np.zeros(2), 1.0)
    pair = (bad, good) if which == 'a' else (good, bad)
    with pytest.raises(ValueError, match=rf'^{which}\.centre must be 3 finite numbers$'):
        spheres_overlap(*pair)
