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

from fractions import Fraction
import re

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from collision_monitor.geometry3d import (
    convex_polyhedra_intersect, ConvexPolyhedron, gjk_distance, gjk_distance_batch,
    PolyhedronSet)
from collision_monitor.geometry3d.gjk import (closest_tetrahedron, closest_triangle,
                                              hull_tolerance, nearest_edge, on_line_exact,
                                              origin_outside)
from shapes import boxes_tilted_over_slabs, CUBE, CUBE_V, qp_distance, resting_pairs


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


def nearest_on_segment(u, v):
    """The point of segment u-v nearest the origin: the clamped projection."""
    e = v - u
    return u + np.clip(-(u @ e) / (e @ e), 0.0, 1.0) * e


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
    candidates += [nearest_on_segment(u, v) for u, v in ((a, b), (b, c), (c, a))]
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
        weights = np.array(closest_triangle(tri, 0, 1, 2))
        assert weights.min() >= -1e-12 and weights.sum() == pytest.approx(1.0, abs=1e-12)
        want = nearest_to_origin(tri)
        got = weights @ tri
        np.testing.assert_allclose(got, want, atol=1e-9 * (1.0 + np.abs(tri).max()))
        regions.add(int((weights > 1e-12).sum()))
    assert regions == {1, 2, 3}  # vertices, edges and faces all met


def test_the_flat_triangle_step_gives_the_nearest_point_of_the_edges():
    """`nearest_edge` (the step of a triangle flat to rounding) against the nearest of the
    three edges' clamped projections (numpy), on triangles flat or not, the rows taken in
    every order: barycentric weights of the rows it names, each edge the winner."""
    rng = np.random.default_rng(16)
    winners = set()
    for _ in range(600):
        rows = rng.normal(size=(3, 3)) + rng.normal(size=3) * rng.choice([0.0, 1.0, 3.0])
        if rng.random() < 0.5:  # flat: the third point on the line of the first two
            rows[2] = rows[0] + rng.uniform(-2, 2) * (rows[1] - rows[0])
        a, b, c = rng.permutation(3)
        nearest = [nearest_on_segment(rows[u], rows[v]) for u, v in ((a, b), (b, c), (c, a))]
        gaps = np.linalg.norm(nearest, axis=1)
        best = int(np.argmin(gaps))
        weights = np.array(nearest_edge(rows, a, b, c))
        assert weights.min() >= 0.0 and weights.sum() == pytest.approx(1.0, abs=1e-12)
        got = weights @ rows[[a, b, c]]
        assert np.linalg.norm(got) == pytest.approx(gaps[best], rel=1e-12, abs=1e-12)
        if np.sort(gaps)[1] > gaps[best] + 1e-6:  # one nearest edge: its point
            np.testing.assert_allclose(got, nearest[best], atol=1e-9)
            winners.add(best)
    assert winners == {0, 1, 2}


def exact_vectors(points):
    return [[Fraction(x) for x in p] for p in points]


def dot(u, v):
    return sum(x * y for x, y in zip(u, v))


def test_the_triangle_step_with_exact_areas_sees_an_origin_picometres_beside_an_edge():
    """Triangles 10 to 50 m across with the origin's projection up to 1e-11 m inside or
    outside an edge, 0.1 nm to 1 um off the plane: Ericson's areas, differences of products
    of the dot products, round at eps |w|^4 and can put it on the wrong side.  With the
    support points given, the weights are those of the exact projection (rational
    arithmetic on the same doubles), to 1e-12, zero for the far vertex when outside."""
    rng = np.random.default_rng(21)
    sides = set()
    for _ in range(1000):
        p = rng.normal(size=(3, 3)) * 10 ** rng.uniform(1, 1.7)
        ab, ac = p[1] - p[0], p[2] - p[0]
        n = np.cross(ab, ac)
        if np.linalg.norm(n) < 0.1 * np.linalg.norm(ab) * np.linalg.norm(ac):
            continue
        inward = np.cross(n, ab)
        side = rng.choice([-1.0, 1.0]) * 10 ** rng.uniform(-15, -11)
        q = (p[0] + rng.uniform(0.1, 0.9) * ab + side * inward / np.linalg.norm(inward)
             + 10 ** rng.uniform(-10, -6) * n / np.linalg.norm(n))
        w = np.ascontiguousarray(np.roll(p - q, rng.integers(3), axis=0))  # any edge
        supports = (w, np.zeros((1, 3)), np.arange(3), np.zeros(3, np.intp))
        got = closest_triangle(w, 0, 1, 2, supports)
        # barycentric coordinates of the origin's projection on the plane, exactly (the
        # side it falls on is that of the rounded points: rounding q moves it by 1e-14)
        points = exact_vectors(w)
        a, b, c = points
        eb, ec = [y - x for x, y in zip(a, b)], [y - x for x, y in zip(a, c)]
        gram = dot(eb, eb) * dot(ec, ec) - dot(eb, ec) ** 2
        s_ = (-dot(eb, a) * dot(ec, ec) + dot(ec, a) * dot(eb, ec)) / gram
        t_ = (-dot(ec, a) * dot(eb, eb) + dot(eb, a) * dot(eb, ec)) / gram
        want = [1 - s_ - t_, s_, t_]
        sides.add(min(want) > 0)
        if min(want) > 0:
            assert min(got) > 0.0
        else:  # beyond an edge: its point nearest the origin
            far = int(np.argmin(want))
            i, k = (far + 1) % 3, (far + 2) % 3
            e = [y - x for x, y in zip(points[i], points[k])]
            u = -dot(e, points[i]) / dot(e, e)
            want[far], want[i], want[k] = 0, 1 - u, u
            assert got[far] == 0.0
        np.testing.assert_allclose(got, [float(x) for x in want], rtol=0.0, atol=1e-12)
    assert sides == {True, False}


def test_the_exact_line_point_is_the_origins_projection_to_a_few_eps():
    """Segments between support points va[i] - vb[j] of coordinates up to 1 km, the origin
    1 pm to 1 mm off their line: the projection against rational arithmetic on the exact
    differences, to 4 eps of its length (the barycentric sum is off by eps |w|)."""
    rng = np.random.default_rng(22)
    for _ in range(1000):
        offset = rng.uniform(-1e3, 1e3, 3)
        va = rng.normal(size=(2, 3)) + offset
        e = va[1] - va[0]
        off = np.cross(e, rng.normal(size=3))
        foot = va[0] + rng.uniform(-1, 2) * e
        vb = (foot + 10 ** rng.uniform(-12, -3) * off / np.linalg.norm(off))[None]
        ia, ib = np.arange(2), np.zeros(2, np.intp)
        w = va - vb
        got = np.array(on_line_exact(w, (va, vb, ia, ib)))
        w0, w1 = (np.array(exact_vectors(va))[k] - np.array(exact_vectors(vb))[0]
                  for k in (0, 1))
        ex = w1 - w0
        want = w0 - ex * (dot(w0, ex) / dot(ex, ex))
        size = float(dot(want, want)) ** 0.5
        assert np.abs(got - np.array([float(x) for x in want])).max() <= 4 * 2 ** -52 * size


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
        inside, *weights = closest_tetrahedron(w)
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


def test_a_box_tilted_nanometres_over_a_long_slab_is_as_far_as_its_lowest_corner():
    """The Minkowski difference of a long slab and a box nearly parallel to it, nanometres
    apart, is nearly flat for tens of metres.  Rounding of the simplex's closest point turns
    the search direction by eps |w| / |v|, enough to pick supports across the flat stretch
    and stop far from converged (distances up to 1e5 tolerances, 1 um, too long).  The
    distance is the lowest corner's height over the slab, within 16 tolerances."""
    rng = np.random.default_rng(12)
    for g, _, _, slab, box, _ in boxes_tilted_over_slabs(rng, 400):
        for va, vb in ((slab, box), (box, slab)):
            d, pa, pb = gjk_distance(va, vb)
            assert abs(d - g) <= 16 * hull_tolerance(va, vb), (d, g)
            assert np.linalg.norm(pa - pb) == pytest.approx(d, rel=1e-6, abs=1e-12)


def test_a_segment_and_a_point_are_as_far_as_the_clamped_projection():
    """Two points and one: the segment's point nearest the other is its clamped projection
    (numpy), both ways round.  The search starts at the segment's first end or at the point;
    where the next support (the other end) is the answer, the projection falls beyond it,
    which the segment step must clamp."""
    rng = np.random.default_rng(15)
    beyond = 0
    for _ in range(500):
        seg, point = rng.normal(size=(2, 3)), rng.normal(size=(1, 3))
        e = seg[1] - seg[0]
        t = (point[0] - seg[0]) @ e / (e @ e)
        beyond += not 0.0 <= t <= 1.0  # nearest an end
        want = np.linalg.norm(seg[0] + np.clip(t, 0.0, 1.0) * e - point[0])
        for va, vb in ((seg, point), (point, seg[::-1])):
            assert gjk_distance(va, vb)[0] == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert beyond > 150


def test_a_point_beside_a_needle_is_as_far_as_from_its_axis():
    """5 to 12 points on one line (a needle: its hull is a segment) and a point 1 nm to 1 m
    beside it, off its middle.  A triangle of support points on the needle is flat to
    rounding, and the weights of its face divide by its area squared, which is rounding:
    about one search in 80 answered with a point tens of centimetres off.  The distance is
    the point's from the line, within 16 tolerances, either way round."""
    rng = np.random.default_rng(14)
    for _ in range(1000):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        t = rng.uniform(-5, 5, rng.integers(5, 13))
        needle = t[:, None] * d
        off = np.cross(d, rng.normal(size=3))
        h = 10 ** rng.uniform(-9, 0)
        point = (rng.uniform(t.min(), t.max()) * d + h * off / np.linalg.norm(off))[None]
        for va, vb in ((needle, point), (point, needle)):
            assert abs(gjk_distance(va, vb)[0] - h) <= 16 * hull_tolerance(va, vb), h


def test_micro_hulls_a_femtometre_apart_are_apart():
    """Two 1 um cubes 1e-15 m apart at the origin: a tolerance floored at any fixed length
    would call them touching."""
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) * 1e-6
    other = cube + [1e-6 + 1e-15, 0.0, 0.0]
    d, _, _ = gjk_distance(cube, other)
    assert d == pytest.approx(1e-15, rel=1e-3, abs=0.0)
    assert not convex_polyhedra_intersect(cube, other)


def test_origin_outside_is_the_side_test_of_the_face_plane():
    """`origin_outside(w, a, b, c, d)` is False exactly when the origin lies strictly on d's
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
        assert origin_outside(w, 0, 1, 2, 3) == (not origin_side * d_side > 0)
    assert flat > 50


def test_a_parallelogram_of_support_points_is_flat():
    """a1 - b1, a1 - b2, a2 - b1, a2 - b2 lie in one plane (exactly, before rounding): every
    face of that tetrahedron stays a candidate, whichever side rounding puts the fourth point
    on, so the origin beside it is never declared inside."""
    rng = np.random.default_rng(11)
    for _ in range(2000):
        a1, a2, b1, b2 = rng.normal(size=(4, 3))
        w = np.array([a1 - b1, a1 - b2, a2 - b1, a2 - b2])
        assert all(origin_outside(w, *f) for f in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1),
                                                   (1, 2, 3, 0)))
        assert not closest_tetrahedron(w)[0]


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


@pytest.mark.parametrize('gap', [1e-14, 1e-9])
def test_cubes_within_the_tolerance_touch_at_distance_zero_and_farther_do_not(gap):
    """Two unit cubes side by side, `gap` apart along x (the float gap between the faces is
    exact): within the hulls' tolerance (64 eps (2 + 2) = 5.7e-14 m) every distance query
    says 0.0 exactly, as touching; 1 nm apart each says the gap."""
    va = CUBE_V
    vb = CUBE_V + [1.0 + gap, 0.0, 0.0]
    exact = float(vb[:, 0].min() - va[:, 0].max())
    a, b = ConvexPolyhedron(*CUBE), ConvexPolyhedron(vb, CUBE[1])
    answers = [gjk_distance(va, vb)[0], a.distance(b)[0],
               PolyhedronSet([a, b]).distances(np.array([[0, 1]]))[0][0]]
    if gap < 64 * np.finfo(float).eps * (2.0 + 2.0):
        assert answers == [0.0, 0.0, 0.0]
    else:
        assert answers == pytest.approx([exact] * 3, rel=1e-6, abs=0.0)
