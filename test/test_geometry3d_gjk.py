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
"""GJK in batches, on bad input, and its triangle step against plain geometry."""

import re

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from collision_monitor.geometry3d import (
    convex_polyhedra_intersect, gjk_distance, gjk_distance_batch)
from collision_monitor.geometry3d.gjk import (_closest_tetrahedron, _closest_triangle,
                                              _origin_outside, hull_tolerance)
from shapes import qp_distance, resting_pairs


def test_gjk_batch_matches_single_calls():
    rng = np.random.default_rng(11)
    va = rng.normal(size=(50, 12, 3))
    vb = rng.normal(size=(50, 9, 3)) + rng.uniform(-3, 3, (50, 1, 3))
    dist, pa, pb = gjk_distance_batch(va, vb)
    for p in range(50):
        d, a, b = gjk_distance(va[p], vb[p])
        assert dist[p] == d and np.array_equal(pa[p], a) and np.array_equal(pb[p], b)
    # pairs of another count, sets of no points, 2D points, a single pair (no pair axis)
    for a, b in ((va, vb[:3]), (va[:, :0], vb), (va, vb[:, :0]), (va[..., :2], vb),
                 (va, vb[..., :2]), (va[0], vb[0])):
        text = f'va and vb must be (p, n, 3) and (p, m, 3), got {a.shape} and {b.shape}'
        with pytest.raises(ValueError, match=f'^{re.escape(text)}$'):
            gjk_distance_batch(a, b)


def test_gjk_refuses_non_finite_input_and_names_a_wrong_shape():
    """A nan in either point set, or a set of 2D points, each text whole."""
    pts = np.random.default_rng(1).normal(size=(6, 3))
    bad = pts.copy()
    bad[2, 1] = np.nan
    for fn in (gjk_distance, convex_polyhedra_intersect):
        for va, vb in ((pts, bad), (bad, pts)):
            with pytest.raises(ValueError, match=r'^va and vb must be finite$'):
                fn(va, vb)
        with pytest.raises(ValueError, match=r'^va must have shape \(n, 3\), got \(6, 2\)$'):
            fn(pts[:, :2], pts)
        with pytest.raises(ValueError, match=r'^vb must have shape \(n, 3\), got \(6, 2\)$'):
            fn(pts, pts[:, :2])
    with pytest.raises(ValueError, match=r'^va and vb must be finite$'):
        gjk_distance_batch(pts[None], bad[None])


def nearest_to_origin(tri):
    """The triangle's point nearest the origin, by plain geometry: the origin's projection
    on the plane when it falls inside, else the nearest of the three edges' clamped
    projections."""
    a, b, c = tri
    n = np.cross(b - a, c - a)
    p = (a @ n) / (n @ n) * n
    # barycentric coordinates of p from the two edge vectors (least squares, exact here)
    st = np.linalg.lstsq(np.column_stack([b - a, c - a]), p - a, rcond=None)[0]
    candidates = [p] if st.min() >= 0.0 and st.sum() <= 1.0 else []
    for u, v in ((a, b), (b, c), (c, a)):
        t = np.clip(-(u @ (v - u)) / ((v - u) @ (v - u)), 0.0, 1.0)
        candidates.append(u + t * (v - u))
    return min(candidates, key=np.linalg.norm)


def test_the_triangle_step_finds_the_nearest_point_of_every_region():
    """GJK's triangle sub-step (Ericson's Voronoi-region walk) against `nearest_to_origin`,
    on triangles placed so that the origin faces each vertex, each edge and the face; the
    weights are barycentric (non-negative, summing to 1)."""
    rng = np.random.default_rng(5)
    regions = set()
    for _ in range(3000):
        tri = rng.normal(size=(3, 3)) + rng.normal(size=3) * rng.choice([0.0, 1.0, 3.0])
        if np.linalg.norm(np.cross(tri[1] - tri[0], tri[2] - tri[0])) < 1e-3:
            continue
        weights = np.array(_closest_triangle(tri, 0, 1, 2))
        assert weights.min() >= -1e-12 and weights.sum() == pytest.approx(1.0, abs=1e-12)
        want = nearest_to_origin(tri)
        got = weights @ tri
        np.testing.assert_allclose(got, want, atol=1e-9 * (1.0 + np.abs(tri).max()))
        regions.add(int((weights > 1e-12).sum()))
    assert regions == {1, 2, 3}  # vertices, edges and faces all met


def test_the_tetrahedron_step_finds_the_nearest_point_or_the_inside():
    """GJK's tetrahedron sub-step against plain geometry: the origin is inside when its
    barycentric coordinates (numpy's solve) are all positive, else the nearest point is the
    nearest of the four faces' (`nearest_to_origin`)."""
    rng = np.random.default_rng(6)
    seen = set()
    for _ in range(2000):
        w = rng.normal(size=(4, 3)) + rng.normal(size=3) * rng.choice([0.0, 0.5, 2.0])
        edges = (w[1:] - w[0]).T
        if abs(np.linalg.det(edges)) < 1e-2:
            continue
        coords = np.linalg.solve(edges, -w[0])
        bary = np.append(1.0 - coords.sum(), coords)
        inside, *weights = _closest_tetrahedron(w)
        if np.abs(bary).min() < 1e-9:
            continue  # on a face: inside or not is rounding's call
        assert inside == (bary.min() > 0.0)
        seen.add(inside)
        if inside:
            continue
        weights = np.array(weights)
        assert weights.min() >= -1e-12 and weights.sum() == pytest.approx(1.0, abs=1e-12)
        faces = [w[list(f)] for f in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))]
        want = min((nearest_to_origin(f) for f in faces), key=np.linalg.norm)
        np.testing.assert_allclose(weights @ w, want, atol=1e-9 * (1.0 + np.abs(w).max()))
    assert seen == {True, False}


@pytest.mark.parametrize('size, offset', [(1e-6, 0.0), (1e-6, 1e3), (1.0, 0.0), (2.0, -1e6)])
def test_hull_tolerance_is_64_eps_of_the_largest_coordinate_plus_extent(size, offset):
    """numpy's formula: 64 eps (max |coordinate| of both sets + the largest extent of either
    set along an axis); micro hulls keep a micro tolerance, far ones a large one."""
    rng = np.random.default_rng(int(size * 1e6) + int(offset))
    for _ in range(50):
        va = rng.normal(offset, size, (int(rng.integers(1, 9)), 3))
        vb = rng.normal(offset, size * rng.uniform(0.1, 3.0), (int(rng.integers(1, 9)), 3))
        big = max(np.abs(va).max(), np.abs(vb).max())
        ext = max(np.ptp(va, axis=0).max(), np.ptp(vb, axis=0).max())
        expected = 64 * np.finfo(float).eps * (big + ext)
        assert hull_tolerance(va, vb) == pytest.approx(expected, rel=1e-12, abs=0.0)
    va[0, 2] = np.inf
    assert np.isnan(hull_tolerance(va, vb))


def test_micro_hulls_a_femtometre_apart_are_apart():
    """Two 1 um cubes 1e-15 m apart at the origin: a tolerance floored at any fixed length
    would call them touching."""
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) * 1e-6
    other = cube + [1e-6 + 1e-15, 0.0, 0.0]
    d, _, _ = gjk_distance(cube, other)
    assert d == pytest.approx(1e-15, rel=1e-3, abs=0.0)
    assert not convex_polyhedra_intersect(cube, other)


def test_origin_outside_is_the_side_test_of_the_face_plane():
    """`_origin_outside(w, a, b, c, d)` is False exactly when the origin lies strictly on d's
    side of the plane of a, b, c (exact on integer points); a flat tetrahedron (d in that
    plane) leaves every face a candidate."""
    rng = np.random.default_rng(5)
    flat = 0
    for _ in range(500):
        w = rng.integers(-4, 5, (4, 3)).astype(float)
        if rng.random() < 0.3:  # d in the plane of a, b, c
            s, t = rng.integers(-2, 3, 2)
            w[3] = w[0] + s * (w[1] - w[0]) + t * (w[2] - w[0])
        n = np.cross(w[1] - w[0], w[2] - w[0])
        origin_side = np.sign(n @ (-w[0]))
        d_side = np.sign(n @ (w[3] - w[0]))
        flat += d_side == 0
        assert _origin_outside(w, 0, 1, 2, 3) == (not origin_side * d_side > 0)
    assert flat > 50


def test_a_parallelogram_of_support_points_is_flat():
    """a1 - b1, a1 - b2, a2 - b1, a2 - b2 lie in one plane (exactly, before rounding): every
    face of that tetrahedron stays a candidate, whichever side rounding puts the fourth point
    on, so the origin beside it is never declared inside."""
    rng = np.random.default_rng(11)
    for _ in range(2000):
        a1, a2, b1, b2 = rng.normal(size=(4, 3))
        w = np.array([a1 - b1, a1 - b2, a2 - b1, a2 - b2])
        assert all(_origin_outside(w, *f) for f in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1),
                                                    (1, 2, 3, 0)))
        assert not _closest_tetrahedron(w)[0]


def _cso_gap(va, vb):
    """Signed distance of the origin beyond the farthest face plane of the Minkowski
    difference's hull (scipy's Qhull): > 0 apart (a lower bound on the distance), < 0
    inside."""
    return ConvexHull((va[:, None, :] - vb[None, :, :]).reshape(-1, 3)).equations[:, 3].max()


@pytest.mark.parametrize('n', [4, 6, 8, 16])
def test_nearly_touching_hulls_against_the_minkowski_hull_and_the_qp_distance(n):
    """Hulls slid to touch along a random direction, then 1 um or 1 nm in or out: GJK meets
    them exactly when the Minkowski difference's hull holds the origin; apart, its distance
    lies between the origin's distance beyond that hull's farthest face plane (a lower
    bound) and the quadratic program's (the distance of two points of the hulls, an upper
    bound)."""
    rng = np.random.default_rng(30 + n)
    for depth in (1e-6, 1e-9, 0.0, -1e-9, -1e-6):
        for (va, _), (vb, _) in resting_pairs(n, 30, rng, depth=depth):
            gap = _cso_gap(va, vb)
            d = gjk_distance(va, vb)[0]
            if gap < -1e-12:
                assert d == 0.0
            elif gap > 1e-12:
                assert gap - 1e-12 <= d <= qp_distance(va, vb) + 1e-12
