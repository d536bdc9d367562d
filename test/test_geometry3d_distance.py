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
"""Segment and line distances against brute force."""

from hypothesis import given, strategies as st
import numpy as np
import pytest

from collision_monitor.geometry3d import line_line_closest, line_point_distance, segment_distance


vec3 = st.tuples(*[st.floats(-2, 2)] * 3).map(np.array)


@given(vec3, vec3, vec3, vec3)
def test_segment_distance_matches_brute_force(p1, q1, p2, q2):
    dist, c1, c2 = segment_distance(p1, q1, p2, q2)
    s = np.linspace(0, 1, 201)
    a = p1 + s[:, None] * (q1 - p1)
    b = p2 + s[:, None] * (q2 - p2)
    brute = np.min(np.linalg.norm(a[:, None] - b[None], axis=2))
    assert dist <= brute + 1e-12
    step = 0.005 * (np.linalg.norm(q1 - p1) + np.linalg.norm(q2 - p2))
    assert dist >= brute - step - 1e-12
    assert np.linalg.norm(c1 - c2) == pytest.approx(dist, abs=1e-12)


def test_segment_distance_parallel_and_zero_length():
    d, c1, c2 = segment_distance([0, 0, 0], [2, 0, 0], [1, 1, 0], [3, 1, 0])  # parallel
    assert d == pytest.approx(1.0)
    d, c1, c2 = segment_distance([0, 0, 0], [0, 0, 0], [1, -1, 0], [1, 1, 0])  # a point
    assert d == pytest.approx(1.0) and np.allclose(c2, [1, 0, 0])
    d, *_ = segment_distance([0, 0, 0], [0, 0, 0], [0, 0, 2], [0, 0, 2])  # two points
    assert d == pytest.approx(2.0)


def test_line_helpers():
    assert line_point_distance([0, 0, 0], [2, 0, 0], [5, 3, 4]) == pytest.approx(5.0)
    d, p, q = line_line_closest([0, 0, 0], [1, 0, 0], [0, 1, 3], [0, 1, 0])
    assert d == pytest.approx(3.0) and np.allclose(p, [0, 0, 0]) and np.allclose(q, [0, 0, 3])
