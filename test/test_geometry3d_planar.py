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
"""The planar helpers of the manifold (plane_basis_kernel, hull2, clip_convex) against numpy,
scipy and exact areas."""

from fractions import Fraction

from hypothesis import example, given, strategies as st
import numba
import numpy as np
import pytest
from scipy.spatial import ConvexHull
import shapely
from shapely.geometry import MultiPoint
from shapely.geometry.polygon import orient

from collision_monitor.geometry3d.planar import clip_convex, hull2, plane_basis_kernel, SAME_POINT
from shapes import to_shapely


points2 = st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=3, max_size=30)


def bounds_checked(kernel):
    """`kernel` compiled again with bounds checks, so that a write past the buffer sizes its
    docstring promises raises IndexError here (the library's build would corrupt the heap
    instead, and the process abort later at some unrelated free); with the JIT off (numba's
    NUMBA_DISABLE_JIT) the plain function, whose numpy indexing raises past the end already."""
    py_func = getattr(kernel, 'py_func', None)
    return kernel if py_func is None else numba.njit(boundscheck=True)(py_func)


hull2_checked = bounds_checked(hull2)
clip_checked = bounds_checked(clip_convex)

ROUNDING = [0.0, 1e-300, -1e-300, 1e-16, -1e-16, 4e-16, -4e-16]
nearly_collinear = st.builds(
    lambda a, b, ts: np.array([(t, a * t + b + e * w) for t, e, w in ts]),
    st.floats(-2, 2), st.floats(-2, 2),
    st.lists(st.tuples(st.floats(-3, 3), st.sampled_from(ROUNDING), st.floats(0, 1)),
             min_size=3, max_size=25))


LATTICE = [(x, y, z) for x in (-1.0, 0.0, 1.0) for y in (-1.0, 0.0, 1.0) for z in (-1.0, 0.0, 1.0)
           if (x, y, z) != (0.0, 0.0, 0.0)]


def check_plane_basis(n):
    """u, v and n orthonormal with u x v = n (n normalised here)."""
    n = np.array(n) / np.linalg.norm(n)
    u, v = np.reshape(plane_basis_kernel(*n), (2, 3))
    frame = np.array([u, v, n])
    assert np.allclose(frame @ frame.T, np.eye(3), atol=1e-12)
    assert np.allclose(np.cross(u, v), n, atol=1e-12)


@pytest.mark.parametrize('n', LATTICE)
def test_plane_basis_of_the_axes_and_the_diagonals(n):
    """The 26 directions to the faces, edges and corners of a cube: a helper axis along
    one of them would leave u undefined."""
    check_plane_basis(n)


@given(st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)).filter(
    lambda n: np.linalg.norm(n) > 1e-3))
def test_plane_basis_of_random_directions(n):
    check_plane_basis(n)


@given(points2)
@example([(0.0, 0.0), (0.0, 8.4e-13), (1.0, 0.0)])  # a sliver scipy keeps
def test_hull2_matches_scipy(pts):
    pts = np.array(pts)
    out = np.empty((len(pts) + 1, 2))
    k = hull2(pts.copy(), len(pts), out)
    # hull2 merges points within SAME_POINT * (1 + scale) per axis: each merge moves the hull
    # boundary by at most that times sqrt(2), so the area by at most that times the perimeter
    slack = 2 * SAME_POINT * (1 + np.abs(pts).max()) * 2 * np.ptp(pts, axis=0).sum()
    try:
        ref = ConvexHull(pts)
    except Exception:  # all points (nearly) collinear or repeated: a segment or a point
        assert k <= 2 or abs(to_shapely(out[:k]).area) < 1e-9
        return
    if k <= 2:  # what scipy saw as a sliver hull2 merged into a segment
        assert ref.volume <= slack
        return
    hull = out[:k]
    assert to_shapely(hull).area == pytest.approx(ref.volume, rel=1e-9, abs=slack + 1e-12)
    edges = np.roll(hull, -1, axis=0) - hull
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
        edges, -1, axis=0)[:, 0]
    assert (turns > 0).all()  # CCW, no collinear corners


@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=3, max_size=30))
@example([(0, 2), (0, 0), (0, 1), (2, 1)])  # a corner left with ties in x: (0, 2) first
@example([(1, 0), (0, 0), (1, 2), (1, 1), (-1, 1)])  # and last
def test_hull2_of_lattice_points_has_the_corners_of_the_exact_hull(pts):
    """Points of a small integer lattice: many share an x, several lie on one edge, some are
    repeated; every turn of the hull is exact in floating point.  Its corners, CCW from the
    least (x, y), are those of shapely's hull with collinear points dropped (GEOS drops
    them)."""
    pts = np.array(pts, dtype=float)
    out = np.empty((len(pts) + 1, 2))
    k = hull2(pts.copy(), len(pts), out)
    ref = MultiPoint(pts).convex_hull
    if ref.geom_type != 'Polygon':  # a point or a segment: its ends
        assert sorted(map(tuple, out[:k].tolist())) == sorted(set(ref.coords))
        return
    ring = orient(ref, 1.0).exterior.coords[:-1]
    start = min(range(len(ring)), key=lambda i: ring[i])
    assert out[:k].tolist() == [list(ring[(start + i) % len(ring)]) for i in range(len(ring))]


@given(st.one_of(nearly_collinear, points2.map(np.array)))
@example(np.array([[1.28007613, 0.30624557], [-2.9841847, 3.76777709],
                   [-0.56683169, 1.8054807]]))  # pushed 4 points into 4 rows before
@example(np.array([[2.3427440341823997, 2.4115201438249896],
                   [-1.6565874963180296, -1.8723963042057707],
                   [-0.06272897854756465, -0.16512180894619605]]))  # the middle point in
# both chains, as the textbook has it, turns left both ways and is pushed twice: 5 rows
def test_hull2_fits_count_plus_one_rows(pts):
    n = len(pts)
    out = np.empty((n + 1, 2))
    k = hull2_checked(pts.copy(), n, out)
    assert k <= n
    corners = {tuple(c) for c in out[:k].tolist()}
    assert corners <= {tuple(c) for c in pts.tolist()}  # corners are input points


@pytest.mark.parametrize('x0', [0.0, 1e6])
@pytest.mark.parametrize('exact', [1, 2])
def test_hull2_merges_points_within_the_tolerance_of_its_scale(x0, exact):
    """A unit square's corners, each given `exact` times and once off by (j, -j / 2) with
    j = 1e-13 (1 + |x0|), a copy that would stand out of the square as a corner of its own
    (the tolerance is 1e-12 of the coordinates' scale): one point each, 4 corners, whether
    the scale is set by x (the square at x0 = 1e6) or not, and whether the last point kept
    before a copy is its twin or not; no points, no hull."""
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]) + [x0, 0.0]
    jitter = 1e-13 * (1.0 + x0)
    pts = np.vstack([corners] * exact + [corners + [jitter, -jitter / 2]])
    out = np.empty((len(pts) + 1, 2))
    k = hull2(pts.copy(), len(pts), out)
    assert k == 4
    assert np.abs(out[:k, None] - corners[None]).max(axis=2).min(axis=1).max() <= 2 * jitter
    assert hull2(np.empty((0, 2)), 0, out) == 0


def exact_overlap_area(subject, clip):
    """Area of CCW convex subject inside CCW convex clip, by clipping in exact rationals
    (shapely's GEOS fails on subnormal coordinates: a TopologyException, or area 0)."""
    poly = [tuple(map(Fraction, v)) for v in subject.tolist()]
    edges = [tuple(map(Fraction, v)) for v in clip.tolist()]
    for (ax, ay), (bx, by) in zip(edges, edges[1:] + edges[:1]):
        def side(p):
            return (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        kept = []
        for p, q in zip(poly, poly[1:] + poly[:1]):
            sp, sq = side(p), side(q)
            if sp >= 0:
                kept.append(p)
            if (sp >= 0) != (sq >= 0):
                f = sp / (sp - sq)
                kept.append((p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])))
        poly = kept
    twice = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))
    return float(twice / 2)


def polygon_hulls(hull, *point_sets):
    """The hulls of the point sets by `hull` (a build of hull2), or None when one is not a
    polygon (fewer than 3 corners)."""
    hulls = []
    for pts in point_sets:
        out = np.empty((len(pts) + 1, 2))
        k = hull(pts.copy(), len(pts), out)
        if k < 3:
            return None
        hulls.append(out[:k])
    return hulls


@given(st.one_of(nearly_collinear, points2.map(np.array)),
       st.one_of(nearly_collinear, points2.map(np.array)))
@example(np.array([(1.0, 0.0), (2.8e-232, 1.0), (-1.0, 1.0), (-1.0, -1.0)]),
         np.array([(0.0, -1.0), (2.8e-232, 1.0), (-1.0, 0.0)]))  # wrote past ns + nc rows
def test_clip_convex_fits_ns_plus_nc_rows(p, q):
    hulls = polygon_hulls(hull2_checked, p, q)
    if hulls is None:
        return
    (ha, hb), size = hulls, len(hulls[0]) + len(hulls[1])
    k = clip_checked(ha, len(ha), hb, len(hb), np.empty((size, 2)), np.empty((size, 2)))
    assert k <= size


@given(points2, points2)
@example([(1.0, 0.0), (2.8e-232, 1.0), (-1.0, 1.0), (-1.0, -1.0)],
         [(0.0, -1.0), (2.8e-232, 1.0), (-1.0, 0.0)])
@example([(3.0, 0.0), (7.8e-234, 1.0), (-1.234756300607399, 1.0)],
         [(0.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (-4.6e-70, -1.5)])  # a one-vertex rounding run
def test_clip_convex_area_matches_exact_clipping(p, q):
    hulls = polygon_hulls(hull2, np.array(p), np.array(q))
    if hulls is None:
        return
    ha, hb = hulls
    size = len(ha) + len(hb)
    out, scratch = np.empty((size, 2)), np.empty((size, 2))
    k = clip_convex(ha, len(ha), hb, len(hb), out, scratch)
    expected = exact_overlap_area(ha, hb)
    got = to_shapely(out[:k]).area if k >= 3 else 0.0
    assert got == pytest.approx(expected, rel=1e-7, abs=1e-9)


def lattice_hull(rng):
    """A CCW convex polygon (shapely's hull of a few points of a small integer lattice, so
    that every side test is exact), its vertices starting at a random one."""
    while True:
        hull = MultiPoint(rng.integers(-3, 4, (rng.integers(3, 7), 2)).astype(float)).convex_hull
        if hull.geom_type == 'Polygon':
            ring = np.array(orient(hull).exterior.coords[:-1])
            return np.roll(ring, rng.integers(0, len(ring)), axis=0), hull


@pytest.mark.parametrize('seed', range(4))
def test_clipping_lattice_polygons_gives_shapelys_intersection_touching_included(seed):
    """Every contact of two lattice polygons: the hull of the clipped points is shapely's
    intersection (within 1e-12 along its boundary, `densify`), a point or a segment where
    they only touch, nothing where they are apart.  A shared edge or corner lies exactly on a
    clip line; starting each polygon at a random vertex puts such runs across index 0."""
    rng = np.random.default_rng(seed)
    kinds = set()
    for _ in range(1500):
        (a, ga), (b, gb) = lattice_hull(rng), lattice_hull(rng)
        size = len(a) + len(b)
        out = np.empty((size, 2))
        k = clip_convex(a, len(a), b, len(b), out, np.empty((size, 2)))
        expected = ga.intersection(gb)
        kinds.add(expected.geom_type)
        if expected.is_empty:
            assert k == 0
            continue
        got = MultiPoint(out[:k]).convex_hull
        assert k > 0 and shapely.hausdorff_distance(got, expected, densify=0.1) < 1e-12, (
            a.tolist(), b.tolist())
    assert kinds >= {'Polygon', 'LineString', 'Point'}


def test_an_edge_shared_across_the_first_vertex_is_the_clipped_part():
    """Squares side by side, the subject's shared edge running from its last vertex to its
    first: the part inside is that edge, both ends."""
    subject = np.array([[0.0, 1.0], [-1.0, 1.0], [-1.0, 0.0], [0.0, 0.0]])
    clip = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    out = np.empty((8, 2))
    k = clip_convex(subject, 4, clip, 4, out, np.empty((8, 2)))
    assert sorted(out[:k].tolist()) == [[0.0, 0.0], [0.0, 1.0]]
