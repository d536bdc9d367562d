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
"""Point in polygon against shapely."""

from hypothesis import given, strategies as st
import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from collision_monitor.kernels.geometry2d import point_in_convex_polygon, point_in_polygon
from collision_monitor.kernels.geometry2d.primitives import length_tolerance, polygon_scale
from shapes import simple_polygons, star_polygon, to_shapely


@given(simple_polygons(), st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1,
                                   max_size=30))
def test_point_in_polygon_matches_shapely(poly, pts):
    pts = np.array(pts)
    inside, on_boundary = point_in_polygon(pts, poly)
    shape = to_shapely(poly)
    for p, ins, onb in zip(pts, inside, on_boundary):
        d = shape.exterior.distance(Point(p))
        if d < 1e-9:
            continue
        assert not onb
        assert ins == shape.contains(Point(p))


@given(simple_polygons(convex=True),
       st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1, max_size=30))
def test_point_in_convex_polygon_matches_shapely(poly, pts):
    pts = np.array(pts)
    shape = to_shapely(poly)
    got = point_in_convex_polygon(pts, poly)
    for p, ins in zip(pts, got):
        if shape.exterior.distance(Point(p)) > 1e-9:
            assert ins == shape.contains(Point(p))


@given(simple_polygons())
def test_vertices_and_edge_midpoints_are_on_the_boundary(poly):
    mids = 0.5 * (poly + np.roll(poly, -1, axis=0))
    inside, on_boundary = point_in_polygon(np.vstack([poly, mids]), poly)
    assert inside.all() and on_boundary.all()


def test_point_in_polygon_concave_notch():
    """An L shape: its notch is outside, its arms inside, whatever the winding."""
    ell = np.array([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], float)
    pts = np.array([[2, 2], [0.5, 2], [2, 0.5], [0.5, 0.5], [1, 2], [4, 0.5]])
    for poly in (ell, ell[::-1]):
        inside, on_b = point_in_polygon(pts, poly)
        assert inside.tolist() == [False, True, True, True, True, False]
        assert on_b.tolist() == [False, False, False, False, True, False]


LATTICE = [
    np.array([[0, -2], [2, 0], [0, 2], [-2, 0]], float),                    # diamond
    np.array([[-2, -2], [2, -2], [2, 0], [0, 0], [0, 2], [-2, 2]], float),  # L
    np.array([[-3, 0], [-1, -2], [1, 0], [3, -2], [3, 2], [1, 0.5], [-1, 2]], float),  # zigzag
    np.array([[-2, -1], [2, -1], [0, 2]], float),                           # triangle
]
"""Polygons whose vertices share heights with the query grid: rays through vertices."""


@pytest.mark.parametrize('poly', LATTICE, ids=['diamond', 'ell', 'zigzag', 'triangle'])
@pytest.mark.parametrize('scale', [2.0**-10, 1.0, 2.0**10])
def test_rays_through_vertices_count_them_once(poly, scale):
    """Grid points at every vertex height (and between), exact in binary at every scale,
    against shapely's exact predicates: inside or on (covers) and on the boundary."""
    g = np.arange(-4.0, 4.01, 0.5)
    pts = np.array([(x, y) for x in g for y in g]) * scale
    for p in (poly * scale, poly[::-1] * scale):
        shape = to_shapely(p)
        inside, on_boundary = point_in_polygon(pts, p)
        assert inside.tolist() == [shape.covers(Point(q)) for q in pts]
        assert on_boundary.tolist() == [shape.exterior.intersects(Point(q)) for q in pts]
        if shapely.is_valid(shape) and shape.convex_hull.area == shape.area:
            assert point_in_convex_polygon(pts, p).tolist() == inside.tolist()


@pytest.mark.parametrize('scale', [1e-3, 0.3, 1.0, 40.0])
def test_the_convex_test_holds_for_small_and_large_polygons_of_either_winding(scale):
    rng = np.random.default_rng(int(scale * 1000))
    for _ in range(20):
        poly = star_polygon(np.sort(rng.uniform(0, 2 * np.pi, 5)), np.full(5, scale))
        pts = rng.uniform(-1.2 * scale, 1.2 * scale, (40, 2))
        shape = to_shapely(poly)
        keep = [shape.exterior.distance(Point(q)) > 1e-9 * scale for q in pts]
        want = [shape.contains(Point(q)) for q in pts]
        for p in (poly, poly[::-1]):
            got = point_in_convex_polygon(pts, p)
            assert [g for g, k in zip(got, keep) if k] == [w for w, k in zip(want, keep) if k]


@pytest.mark.parametrize('winding', [1, -1])
def test_points_within_the_length_tolerance_outside_an_edge_are_on_it(winding):
    """The documented tolerance (`length_tolerance` of the polygon's scale): half of it
    outside an edge is inside, four times it is outside; either winding."""
    poly = np.array([[1000.0, 1000.0], [1003.0, 1000.0], [1001.0, 1002.0]])[::winding]
    tol = length_tolerance(polygon_scale(poly))
    a, b = np.array([1000.0, 1000.0]), np.array([1003.0, 1000.0])
    outward = np.array([0.0, -1.0])
    for t in (0.25, 0.5, 0.75):
        on_edge = a + t * (b - a)
        near, far = on_edge + 0.5 * tol * outward, on_edge + 4 * tol * outward
        assert point_in_convex_polygon([near, far], poly).tolist() == [True, False]
        inside, on_boundary = point_in_polygon([near, far], poly)
        assert inside.tolist() == [True, False] and on_boundary.tolist() == [True, False]
