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

from hypothesis import given, strategies as st
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


def test_polyxpoly_rejects_mismatched_nans_and_infinities_naming_the_line():
    with pytest.raises(ValueError, match='^x1/y1: NaN separators must appear in x and y'):
        polyxpoly([0, np.nan, 1], [0, 1, 1], [0, 1], [1, 0])
    for x2, y2 in (([0, np.inf], [1, 0]), ([0, 1], [-np.inf, 0])):
        with pytest.raises(ValueError, match='^x2/y2: infinite coordinates$'):
            polyxpoly([0, 1], [0, 1], x2, y2)


def reference_points(x1, y1, x2, y2):
    """{(e, f): sorted points} of every pair of segments that meet, by shapely's
    intersection of the two segments (a crossing or touching point, or the ends of a
    collinear overlap); segments with a NaN end are not segments, a zero-length one is
    its point."""
    out = {}
    for e in range(len(x1) - 1):
        for f in range(len(x2) - 1):
            ends = (x1[e], y1[e], x1[e + 1], y1[e + 1], x2[f], y2[f], x2[f + 1], y2[f + 1])
            if np.isnan(ends).any():
                continue
            shared = _segment(ends[0:4]).intersection(_segment(ends[4:8]))
            if shared.is_empty:
                continue
            coords = shapely.get_coordinates(shared)
            out[(e, f)] = sorted({tuple(c) for c in coords.tolist()})
    return out


def _segment(ends):
    """A segment as shapely has it: a point when its two ends coincide."""
    a, b = ends[0:2], ends[2:4]
    return shapely.Point(a) if a == b else shapely.LineString([a, b])


def found_points(x1, y1, x2, y2):
    xi, yi, ii = polyxpoly(x1, y1, x2, y2)
    out = {}
    for x, y, (e, f) in zip(xi.tolist(), yi.tolist(), ii.tolist()):
        out.setdefault((e, f), []).append((x, y))
    return {k: sorted(v) for k, v in out.items()}


lattice_lines = st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2,
                         max_size=12).flatmap(lambda pts: st.tuples(
                             st.just(pts), st.sets(st.integers(1, len(pts) - 2), max_size=2)
                             if len(pts) > 2 else st.just(set())))


def _with_nans(line):
    """x and y of lattice points with NaN separators at the chosen vertices."""
    pts, gaps = line
    x = np.array([np.nan if k in gaps else p[0] for k, p in enumerate(pts)], float)
    y = np.array([np.nan if k in gaps else p[1] for k, p in enumerate(pts)], float)
    return x, y


@given(lattice_lines, lattice_lines)
def test_polyxpoly_finds_what_shapely_finds_segment_by_segment(line1, line2):
    """Lattice polylines (endpoints touching, collinear overlaps, crossings, NaN parts)."""
    x1, y1 = _with_nans(line1)
    x2, y2 = _with_nans(line2)
    want = reference_points(x1, y1, x2, y2)
    got = found_points(x1, y1, x2, y2)
    assert got.keys() == want.keys()
    for key, points in want.items():
        np.testing.assert_allclose(got[key], points, atol=1e-12)


@pytest.mark.parametrize('dx, dy', [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_segments_touching_end_to_end_meet_in_every_direction(dx, dy):
    """Line 2 starts where line 1 ends and leaves it to the right, left, up or down."""
    xi, yi, ii = polyxpoly([0, 1], [0, 0.5], [1, 1 + dx], [0.5, 0.5 + dy])
    assert list(zip(xi, yi)) == [(1.0, 0.5)] and ii.tolist() == [[0, 0]]
    xi, yi, ii = polyxpoly([1, 1 + dx], [0.5, 0.5 + dy], [0, 1], [0, 0.5])
    assert list(zip(xi, yi)) == [(1.0, 0.5)] and ii.tolist() == [[0, 0]]


def test_many_crossings_all_come_back():
    """A zigzag crossing a line 40 times (the output buffer grows past its first size)."""
    x = np.arange(41.0)
    y = np.where(np.arange(41) % 2 == 0, -1.0, 1.0)
    xi, yi, ii = polyxpoly(x, y, [-1.0, 42.0], [0.0, 0.0])
    assert len(xi) == 40
    np.testing.assert_allclose(xi, np.arange(40) + 0.5, atol=1e-12)
    assert ii[:, 0].tolist() == list(range(40)) and not yi.any()


def test_many_collinear_overlaps_all_come_back():
    """A segment touching the line at one point, then twenty lying on it (two ends each):
    41 points, an odd count before each pair, past the first buffer."""
    x2 = np.r_[-0.5, np.arange(21.0)]
    y2 = np.r_[-1.0, np.zeros(21)]
    xi, yi, ii = polyxpoly([-1.0, 30.0], [0.0, 0.0], x2, y2)
    assert len(xi) == 41 and not yi.any()
    ends = np.r_[0.0, np.arange(20.0), np.arange(1.0, 21.0)]
    assert sorted(xi.tolist()) == sorted(ends.tolist())
    assert sorted(ii[:, 1].tolist()) == [0] + sorted(list(range(1, 21)) * 2)


@pytest.mark.parametrize('which', [1, 2])
def test_bad_lines_are_named(which):
    good, bad = ([0.0, 1.0], [0.0, 1.0]), ([0.0, 1.0], [0.0])
    args = (*bad, *good) if which == 1 else (*good, *bad)
    with pytest.raises(ValueError, match=f'x{which}/y{which}: x and y differ in length'):
        polyxpoly(*args)
