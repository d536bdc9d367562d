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
"""Triangle and facet intersection against linear programming."""

import numpy as np
import pytest

from collision_monitor.geometry3d import facet_intersection, triangle_intersection
from shapes import lp_intersect


def lp_triangles_meet(t1, t2):
    return lp_intersect(np.asarray(t1, float), np.asarray(t2, float))


@pytest.mark.parametrize('seed', range(60))
def test_triangle_intersection_matches_linear_programming(seed):
    rng = np.random.default_rng(seed)
    t1 = rng.uniform(-1, 1, (3, 3))
    t2 = rng.uniform(-1, 1, (3, 3)) + rng.uniform(-0.5, 0.5, 3)
    seg = triangle_intersection(t1, t2)
    assert (seg is not None) == lp_triangles_meet(t1, t2)
    if seg is not None:
        for p in seg:  # every returned point lies in both triangles
            for t in (t1, t2):
                assert lp_intersect(np.array([p]), t) or np.min(
                    np.linalg.norm(t - p, axis=1)) < 1e-9


def test_coplanar_triangles():
    t1 = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], float)
    overlap = triangle_intersection(t1, t1 + [0.5, 0.5, 0])
    assert overlap is not None and len(overlap) == 3  # a smaller triangle
    assert triangle_intersection(t1, t1 + [3, 3, 0]) is None
    touching = triangle_intersection(t1, np.array([[2, 0, 0], [3, 0, 0], [3, 1, 0]], float))
    assert touching is not None and np.allclose(touching, [[2, 0, 0]])


def test_triangles_touching_at_a_vertex_and_crossing():
    t1 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    t2 = np.array([[0.2, 0.2, 0], [0.2, 0.2, 1], [1, 1, 1]], float)  # vertex on t1's face
    assert np.allclose(triangle_intersection(t1, t2), [[0.2, 0.2, 0]])
    t3 = np.array([[0.2, 0.2, -1], [0.2, 0.2, 1], [-1, -1, 0]], float)  # pierces t1
    seg = triangle_intersection(t1, t3)
    assert seg.shape == (2, 3) and np.allclose(sorted(seg[:, 0]), [0.0, 0.2])


def test_facet_intersection_of_squares():
    sq = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    upright = np.array([[0.5, -1, -0.5], [0.5, 2, -0.5], [0.5, 2, 0.5], [0.5, -1, 0.5]], float)
    pts = facet_intersection(sq, upright)
    assert len(pts) == 2 and np.allclose(sorted(pts[:, 1]), [0, 1])
    assert np.allclose(pts[:, 0], 0.5) and np.allclose(pts[:, 2], 0)
    assert len(facet_intersection(sq, upright + [2, 0, 0])) == 0


@pytest.mark.parametrize('offset', [(0.0, 0.0, 0.0), (1000.0, 0.0, 0.0), (0.0, -3e-6, 2e-6)])
@pytest.mark.parametrize('length', [1e-6, 10.0])
def test_a_triangle_is_degenerate_below_the_tolerance_times_its_extent(offset, length):
    """A sliver along z of length L and height h (|n| = L h): refused (naming it) when
    |n| <= 64 eps (max |coordinate| + extent) * extent, with numpy's extent, accepted from
    twice that; micro and far triangles alike."""
    a = np.array(offset)
    base = np.array([a, a + [0.0, 0.0, length], a + [0.0, 0.0, length / 2]])
    extent = length
    limit = 64 * np.finfo(float).eps * (np.abs(base).max() + extent) * extent
    other = a + length * np.array([[5.0, 0.0, 0.0], [5.0, 1.0, 0.0], [5.0, 0.0, 1.0]])
    for factor, refused in ((0.5, True), (2.0, False)):
        tri = base.copy()
        tri[2, 1] += factor * limit / length
        if refused:
            with pytest.raises(ValueError, match=r'^t1 is degenerate \(zero area\)$'):
                triangle_intersection(tri, other)
            with pytest.raises(ValueError, match=r'^t2 is degenerate \(zero area\)$'):
                triangle_intersection(other, tri)
        else:
            triangle_intersection(tri, other)


def test_a_triangle_of_the_wrong_shape_is_named():
    with pytest.raises(ValueError, match=r'^t2 must be 3 vertices \(3, 3\)$'):
        triangle_intersection(np.eye(3), np.eye(4)[:, :3])
