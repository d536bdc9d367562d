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
"""Point in polyhedron against the hull half-spaces and a concave L shape."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from collision_monitor.geometry3d import point_in_convex_polyhedron, point_in_polyhedron
from shapes import l_extrusion, random_convex


@pytest.mark.parametrize('seed', range(10))
def test_point_in_convex_matches_hull_halfspaces(seed):
    rng = np.random.default_rng(seed)
    v, f = random_convex(rng, 20)
    eq = ConvexHull(v).equations
    pts = rng.uniform(-1.2, 1.2, (300, 3))
    slack = pts @ eq[:, :3].T + eq[:, 3]
    clear = np.all(slack < -1e-9, axis=1) | np.any(slack > 1e-9, axis=1)
    got = point_in_convex_polyhedron(pts, v, f)
    assert np.array_equal(got[clear], np.all(slack < 0, axis=1)[clear])
    inside, _ = point_in_polyhedron(pts, v, f)
    assert np.array_equal(inside[clear], got[clear])


def test_point_in_concave_polyhedron_l_shape():
    v, f = l_extrusion()
    rng = np.random.default_rng(3)
    pts = rng.uniform(-0.5, 2.5, (2000, 3))
    x, y, z = pts.T
    truth = ((0 < z) & (z < 1) & (((0 < x) & (x < 2) & (0 < y) & (y < 1))
                                  | ((0 < x) & (x < 1) & (0 < y) & (y < 2))))
    inside, on_b = point_in_polyhedron(pts, v, f)
    assert np.array_equal(inside, truth) and not on_b.any()
    # points whose +x ray hits edges and vertices exactly: the re-cast gives the answer
    grid = np.array([[0.5, 0.5, 0.5], [0.5, 1.0, 0.5], [1.5, 1.0, 0.0], [1.0, 1.5, 1.0],
                     [0.5, 1.5, 0.5], [1.5, 1.5, 0.5]])
    inside, on_b = point_in_polyhedron(grid, v, f)
    assert inside.tolist() == [True, True, True, True, True, False]
    assert on_b.tolist() == [False, False, True, True, False, False]
