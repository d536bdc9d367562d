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
"""Polygon distance against shapely."""

from hypothesis import given, strategies as st
import numpy as np
import pytest
import shapely

from collision_monitor.kernels.geometry2d import polygon_distance
from shapes import rigid, simple_polygons, to_shapely


@given(simple_polygons(), simple_polygons(), st.floats(-np.pi, np.pi), st.floats(-4, 4),
       st.floats(-4, 4))
def test_polygon_distance_matches_shapely(a, b, angle, tx, ty):
    """Convex and concave pairs at random placements: the distance and both closest points
    against shapely (distance, nearest_points), 0 for overlapping pairs."""
    b = rigid(b, angle, tx, ty)
    sa, sb = to_shapely(a), to_shapely(b)
    d, pa, pb = polygon_distance(a, b)
    expected = sa.distance(sb)
    assert d == pytest.approx(expected, abs=1e-9)
    if expected > 1e-9:
        assert np.linalg.norm(pa - pb) == pytest.approx(d, abs=1e-12)
        assert sa.exterior.distance(shapely.Point(pa)) < 1e-9
        assert sb.exterior.distance(shapely.Point(pb)) < 1e-9


def test_polygon_distance_named_cases():
    """Side by side 1 m apart, corner to corner along the diagonal, one inside the other,
    and a concave notch holding a square without touching it."""
    sq = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    d, pa, pb = polygon_distance(sq, sq + [2.0, 0.0])
    assert d == 1.0 and pa[0] == 1.0 and pb[0] == 2.0
    assert polygon_distance(sq, sq + [2.0, 2.0])[0] == pytest.approx(np.sqrt(2.0))
    d, pa, pb = polygon_distance(sq * 4 - 1, sq)
    assert d == 0.0 and pa.shape == pb.shape == (2,) and np.isnan([pa, pb]).all()
    cup = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 3.0], [2.0, 3.0], [2.0, 1.0], [1.0, 1.0],
                    [1.0, 3.0], [0.0, 3.0]])
    d, pa, pb = polygon_distance(cup, sq * 0.5 + [1.2, 1.5])
    assert d == pytest.approx(0.2) and pa[0] == 1.0 and pb[0] == pytest.approx(1.2)


def test_bad_polygons_are_named():
    sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    with pytest.raises(ValueError, match='^a'):
        polygon_distance([[0.0, 0.0], [1.0, 0.0]], sq)
    with pytest.raises(ValueError, match='^b'):
        polygon_distance(sq, [[0.0, np.nan], [1.0, 0.0], [0.0, 1.0]])
