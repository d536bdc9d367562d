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
"""polyxpoly (the seed's polyline intersection) against the seed example and edge cases."""

import numpy as np
import pytest
import shapely
from shapely.geometry import Point

from collision_monitor.kernels.geometry2d import polyxpoly


def test_polyxpoly_reproduces_the_seed_example():
    """[polygons]' t_polyxpoly, whose printed table is 1-based: subtract 1."""
    xbox = [3, 3, 13, 13, 3]
    ybox = [2, 8, 8, 2, 2]
    nan = np.nan
    xline = [0, 6, 4, 8, 8, 10, 14, 10, 14, nan, 4, 4, 6, 9, 15]
    yline = [4, 6, 10, 11, 7, 6, 10, 10, 6, nan, 0, 3, 4, 3, 6]
    printed = [(1, 1), (2, 2), (4, 2), (6, 2), (8, 2), (8, 3), (14, 3), (11, 4)]
    xi, yi, ii = polyxpoly(xline, yline, xbox, ybox)
    assert [tuple(r) for r in ii + 1] == printed
    for (x, y), (e, f) in zip(zip(xi, yi), ii):
        seg1 = shapely.LineString([(xline[e], yline[e]), (xline[e + 1], yline[e + 1])])
        seg2 = shapely.LineString([(xbox[f], ybox[f]), (xbox[f + 1], ybox[f + 1])])
        assert seg1.distance(Point(x, y)) < 1e-12 and seg2.distance(Point(x, y)) < 1e-12


def test_polyxpoly_collinear_overlap_gives_both_ends():
    xi, yi, ii = polyxpoly([0, 4], [0, 0], [1, 6], [0, 0])
    assert sorted(zip(xi, yi)) == [(1.0, 0.0), (4.0, 0.0)]
    assert ii.tolist() == [[0, 0], [0, 0]]


def test_polyxpoly_rejects_mismatched_nans():
    with pytest.raises(ValueError, match='NaN'):
        polyxpoly([0, np.nan, 1], [0, 1, 1], [0, 1], [1, 0])
