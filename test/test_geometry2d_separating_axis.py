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
"""The separating axis test against shapely: separation, minimum translation."""

from hypothesis import assume, given
import numpy as np
import pytest
import shapely

from collision_monitor.kernels.geometry2d import contact, sat
from shapes import pose, rigid, simple_polygons, SQUARE, to_shapely


@given(simple_polygons(convex=True), simple_polygons(convex=True), pose)
def test_sat_minimum_translation_separates_and_is_minimal(a, b, p):
    b = rigid(b, p[2], p[0], p[1])
    sa = to_shapely(a)
    res = sat(a, b)
    sb = to_shapely(b)
    assume(sa.distance(sb) > 1e-7 or sa.intersection(sb).area > 1e-7)
    assert res.separated == (not sa.intersects(sb))
    assert np.linalg.norm(res.normal) == pytest.approx(1.0)
    if res.separated:
        return
    moved = shapely.affinity.translate(sb, *(res.normal * (res.depth + 1e-7)))
    assert not sa.intersects(moved)
    if res.depth > 1e-5:
        short = shapely.affinity.translate(sb, *(res.normal * (res.depth - 1e-6)))
        assert sa.intersects(short)
    # minimal: along 64 other directions, separating b takes at least `depth`
    for ang in np.linspace(0, 2 * np.pi, 64, endpoint=False):
        d = np.array([np.cos(ang), np.sin(ang)])
        need = max(0.0, (a @ d).max() - (b @ d).min())  # support distance along d
        assert need >= res.depth - 1e-9


def test_sat_rejects_concave():
    with pytest.raises(ValueError, match='convex'):
        sat(np.array([[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]), SQUARE)


@pytest.mark.parametrize('offset', [(0.5, 0.5), (-0.5, 0.5), (0.25, -0.25), (-0.7, -0.7)])
def test_equally_deep_axes_give_the_depth_and_a_separating_normal(offset):
    """Two unit squares overlapping equally along x and y: the depth is unique, the chosen
    axis is not (the contract): translating b by depth * normal leaves them touching."""
    a = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    b = a + np.array(offset)
    overlap = 1.0 - abs(offset[0])
    for result in (sat(a, b), contact(a, b)):
        assert result.depth == pytest.approx(overlap, abs=1e-12)
        assert np.abs(result.normal).tolist() in ([1.0, 0.0], [0.0, 1.0])
        moved = to_shapely(b + result.depth * result.normal)
        assert moved.intersection(to_shapely(a)).area < 1e-12
        assert moved.distance(to_shapely(a)) < 1e-12


def edge_separations(a, b):
    """Every edge-normal separation of convex polygons a and b (numpy): along each outward
    unit normal n of an edge of a through p, ``min_j (b_j - p) . n``, and likewise for the
    edges of b with a's vertices, the normal negated (from a to b); with the normals."""
    out = []
    for p, q, sign in ((a, b, 1.0), (b, a, -1.0)):
        ccw = to_shapely(p).exterior.is_ccw
        for k in range(len(p)):
            e = p[(k + 1) % len(p)] - p[k]
            n = np.array([e[1], -e[0]]) if ccw else np.array([-e[1], e[0]])
            n /= np.linalg.norm(n)
            out.append((((q - p[k]) @ n).min(), sign * n))
    return out


@given(simple_polygons(convex=True), simple_polygons(convex=True), pose)
def test_sat_of_separated_pairs_is_the_largest_edge_separation(a, b, p):
    """Apart: depth is minus the largest separation over every edge normal of either polygon,
    along the returned normal (a lower bound of shapely's distance)."""
    b = rigid(b, p[2], p[0], p[1])
    best = max(s for s, _ in edge_separations(a, b))
    assume(best > 1e-6)
    res = sat(a, b)
    assert res.separated and res.depth == pytest.approx(-best, abs=1e-12)
    assert ((b @ res.normal).min() - (a @ res.normal).max()) == pytest.approx(best, abs=1e-9)
    assert to_shapely(a).distance(to_shapely(b)) >= best - 1e-9


@given(simple_polygons(convex=True), simple_polygons(convex=True), pose)
def test_the_narrow_phase_depth_of_convex_pairs_is_sats(a, b, p):
    """The narrow phase runs the test with its early exit; for a pair in contact it must
    still take the best axis of all: the world's depth is `sat`'s (no early exit)."""
    from collision_monitor import CollisionWorld
    b = rigid(b, p[2], p[0], p[1])
    res = sat(a, b)
    assume(not res.separated and res.depth > 1e-6)
    world = CollisionWorld()
    world.add_body('a', a, pose=(0.0, 0.0, 0.0))
    world.add_body('b', b, pose=(0.0, 0.0, 0.0))
    (_, _, got), = list(world.detect())
    assert got.depth == pytest.approx(res.depth, abs=1e-9)


def test_bad_polygons_are_named():
    concave = np.array([[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]])
    with pytest.raises(ValueError, match='^sat needs convex polygons: a is not convex$'):
        sat(concave, SQUARE)
    with pytest.raises(ValueError, match='^sat needs convex polygons: b is not convex$'):
        sat(SQUARE, concave)
    with pytest.raises(ValueError, match='^a'):
        sat(SQUARE[:2], SQUARE)
    with pytest.raises(ValueError, match='^b'):
        sat(SQUARE, SQUARE[:2])
