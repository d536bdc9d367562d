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
"""GJK in batches and on bad input."""

import numpy as np
import pytest

from collision_monitor.geometry3d import (
    convex_polyhedra_intersect, gjk_distance, gjk_distance_batch)


def test_gjk_batch_matches_single_calls():
    rng = np.random.default_rng(11)
    va = rng.normal(size=(50, 12, 3))
    vb = rng.normal(size=(50, 9, 3)) + rng.uniform(-3, 3, (50, 1, 3))
    dist, pa, pb = gjk_distance_batch(va, vb)
    for p in range(50):
        d, a, b = gjk_distance(va[p], vb[p])
        assert dist[p] == d and np.array_equal(pa[p], a) and np.array_equal(pb[p], b)
    with pytest.raises(ValueError, match='must be'):
        gjk_distance_batch(va, vb[:3])


def test_gjk_refuses_non_finite_input():
    pts = np.random.default_rng(1).normal(size=(6, 3))
    bad = pts.copy()
    bad[2, 1] = np.nan
    for fn in (gjk_distance, convex_polyhedra_intersect):
        with pytest.raises(ValueError, match='finite'):
            fn(pts, bad)
    with pytest.raises(ValueError, match='finite'):
        gjk_distance_batch(pts[None], bad[None])
