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
from shapely.geometry import Point

from collision_monitor.kernels.geometry2d import point_in_convex_polygon, point_in_polygon
from shapes import simple_polygons, to_shapely


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
