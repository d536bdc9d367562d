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
"""Footprint validation: what it refuses and why, what it accepts."""

import re

from hypothesis import assume, example, given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
import shapely

from collision_monitor.kernels.geometry2d import is_convex, validate_footprint
from shapes import simple_polygons, SQUARE, to_shapely


@pytest.mark.parametrize('poly, message', [
    ([[0, 0], [1, 1], [1, 0], [0, 1]], 'it crosses itself \\(edges 0 and 2 meet\\)'),
    ([[0, 0], [1, 0], [1, 0], [0, 1]], 'vertices 1 and 2 coincide \\(zero-length edge\\)'),
    ([[0, 0], [1, 0], [2, 0]], 'it has zero area'),
    ([[0, 0], [1, 0], [0, 0], [1, 0]], 'it has fewer than 3 distinct vertices'),
    ([[0, 0], [2, 0], [1, 0], [1, 1]], 'it crosses itself \\(edges 0 and 2 meet\\)'),
])
def test_validate_footprint_rejects(poly, message):
    with pytest.raises(ValueError, match=f'^footprint is not a simple polygon: {message}$'):
        validate_footprint(poly)


@pytest.mark.parametrize('poly, message', [
    ([[0, 0], [1, 0], [np.nan, 1]], 'non-finite'),
    ([[0, 0], [1, 0]], 'at least 3'),
])
def test_validate_footprint_refuses_bad_arrays(poly, message):
    with pytest.raises(ValueError, match=message):
        validate_footprint(poly)


@given(simple_polygons())
def test_validate_footprint_accepts_simple_polygons(poly):
    assert validate_footprint(poly).shape == poly.shape
    assert validate_footprint(np.vstack([poly, poly[:1]])).shape == poly.shape
    assert is_convex(poly) == (abs(to_shapely(poly).convex_hull.area - to_shapely(poly).area)
                               < 1e-9)


def expected_defect(poly):
    """What a footprint of lattice points is refused for, by shapely and set arithmetic:
    a zero-length edge, fewer than 3 distinct points, or not a valid polygon of positive
    area (crossing, touching itself, folding back, flat); None when accepted."""
    points = [tuple(p) for p in poly.tolist()]
    if len(points) > 3 and points[0] == points[-1]:
        points = points[:-1]  # a closed ring: the repeated vertex is dropped
    if any(points[k] == points[(k + 1) % len(points)] for k in range(len(points))):
        return 'coincide'
    if len(set(points)) < 3:
        return 'fewer than 3 distinct'
    shape = shapely.Polygon(points)
    if not shape.is_valid or shape.area == 0.0:
        return 'crosses itself|zero area'
    return None


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=3, max_size=7))
@example([(0, 0), (1, 0), (0, 0), (1, 0)])
@example([(0, 0), (2, 0), (1, 1), (0, 0), (1, 0)])
def test_validate_footprint_refuses_what_shapely_refuses(points):
    """Small lattice polygons: most are degenerate in some way."""
    poly = np.array(points, float)
    reason = expected_defect(poly)
    if reason is None:
        validate_footprint(poly)
    else:
        with pytest.raises(ValueError, match=reason):
            validate_footprint(poly)


# most lists of lattice points do not make a simple polygon: the filtering is the test's
@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=7))
def test_is_convex_matches_the_hull_on_lattice_polygons(points):
    """Collinear corners, both windings: convex exactly when the hull has the same area."""
    poly = np.array(points, float)
    assume(expected_defect(poly) is None)
    shape = shapely.Polygon(poly)
    assert is_convex(poly) == (shape.convex_hull.area == shape.area)
    assert is_convex(poly[::-1]) == is_convex(poly)


def test_a_closed_ring_is_convex_as_its_open_polygon():
    """The repeated last vertex once hid the reflex turn at the first vertex."""
    poly = np.array([[1.0, 3.0], [2.0, 4.0], [0.0, 0.0], [0.0, 3.0]])
    assert not is_convex(poly) and not is_convex(np.vstack([poly, poly[:1]]))
    assert is_convex(np.vstack([SQUARE, SQUARE[:1]]))


def test_points_and_polygons_are_checked_and_named():
    """One point may be given as a pair; other shapes are refused naming the argument and
    the shape; a triangle given closed keeps its repeated vertex (three is the least)."""
    from collision_monitor.kernels.geometry2d import point_in_polygon
    from collision_monitor.kernels.geometry2d.validation import as_points, as_polygon
    assert as_points([1.0, 2.0]).tolist() == [[1.0, 2.0]]
    inside, _ = point_in_polygon([1.0, 1.0], SQUARE)
    assert inside.tolist() == [True]
    for bad in ([1.0, 2.0, 3.0], [[1.0, 2.0, 3.0]], [[[1.0, 2.0]]], 5.0):
        expected = re.escape(f'points must have shape (m, 2), got {np.shape(bad)}')
        with pytest.raises(ValueError, match=f'^{expected}$'):
            as_points(bad)
    for few in ([[0, 0]], [[0, 0], [1, 0]]):
        with pytest.raises(ValueError, match=f'^polygon needs at least 3 vertices, '
                                             f'got {len(few)}$'):
            as_polygon(few)
    with pytest.raises(ValueError, match='^polygon has non-finite coordinates$'):
        as_polygon([[0, 0], [1, 0], [0, np.inf]])
    assert as_polygon([[0, 0], [1, 0], [0, 0]]).shape == (3, 2)
    assert as_polygon([[0, 0], [1, 0], [0, 1], [0, 0]]).shape == (3, 2)


@given(st.lists(st.tuples(*[st.one_of(st.floats(-1e6, 1e6), st.sampled_from(
    [np.nan, np.inf, -np.inf, -0.0, 1.7e308, -1.7e308]))] * 3), max_size=8))
@example([(1.7e308, 1.7e308, 1.7e308)])  # finite, though their sum is not
def test_rows_finite_extent_is_numpys_check_and_extent(rows):
    """One pass over (k, 3) pose rows: all three columns finite, and the largest |x| or |y|
    (compared when finite) as numpy computes them."""
    from collision_monitor.kernels.geometry2d.validation import rows_finite_extent
    rows = np.array(rows, dtype=float).reshape(-1, 3)
    finite, extent = rows_finite_extent(rows)
    assert finite == bool(np.isfinite(rows).all())
    if finite:
        assert extent == np.abs(rows[:, :2]).max(initial=0.0)
