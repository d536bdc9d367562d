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

from decimal import Decimal, localcontext
from fractions import Fraction

from hypothesis import assume, given
import numpy as np
import pytest
import shapely

from collision_monitor.kernels.geometry2d import contact, sat
from collision_monitor.kernels.geometry2d.primitives import pair_length_tolerance
from collision_monitor.kernels.geometry2d.separating_axis import sat_kernel, walked_sat
from collision_monitor.kernels.geometry2d.validation import is_convex, polygon_orientation
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


def _largest_separation_exactly(a, b):
    """The largest edge-normal separation of convex a and b (`edge_separations`), in exact
    rational arithmetic up to one square root per edge taken to 40 digits."""
    best = None
    for p, q in ((a, b), (b, a)):
        p = [(Fraction(x), Fraction(y)) for x, y in p.tolist()]
        q = [(Fraction(x), Fraction(y)) for x, y in q.tolist()]
        area = sum(p[k - 1][0] * p[k][1] - p[k][0] * p[k - 1][1] for k in range(len(p)))
        for k in range(len(p)):
            ex, ey = p[(k + 1) % len(p)][0] - p[k][0], p[(k + 1) % len(p)][1] - p[k][1]
            # (q_j - p_k) x e, positive outside a CCW p: the separation times |e|
            least = min((qx - p[k][0]) * ey - (qy - p[k][1]) * ex for qx, qy in q)
            least = least if area > 0 else -least
            with localcontext() as ctx:
                ctx.prec = 40
                s = (Decimal(least.numerator) / Decimal(least.denominator)
                     / (Decimal((ex * ex + ey * ey).numerator)
                        / Decimal((ex * ex + ey * ey).denominator)).sqrt())
            best = s if best is None else max(best, s)
    return float(best)


@pytest.mark.parametrize('flip', [False, True])
def test_a_walk_stopped_in_a_dent_gives_way_to_the_scan(flip):
    """b: 40 vertices along y = 0, one lifted 2e-13 into the body (a dent within the
    tolerance, so b counts as convex), and an apex; a: a triangle below whose top edge is
    tilted by 3e-14 so that b's bottom falls to the right by less than the dent.  Walked
    along b's bottom, the least vertex stops in the dent, 1e-12 high; the test must then
    give the scan's answer, the true largest separation (exact arithmetic, to 1e-14)."""
    b = np.vstack([np.c_[np.arange(40.0), np.zeros(40)], [[20.0, 6.0]]])
    b[26, 1] = 2e-13
    ang = np.pi / 2 + np.arctan(3e-14) + (np.arange(3) + 0.5) * 2 * np.pi / 3
    a = np.c_[np.cos(ang), np.sin(ang)] * 3 + [5.8, -2.7]
    a, b = (b, a) if flip else (a, b)
    assert is_convex(a) and is_convex(b)
    oa, ob = polygon_orientation(a), polygon_orientation(b)
    tol = pair_length_tolerance(a, b)
    walked = walked_sat(a, oa, b, ob, tol, False)
    assert not walked[3]  # the walk's answer did not hold up: the scan decides
    exact = _largest_separation_exactly(a, b)
    assert abs(walked[0] - exact) > 5e-13
    assert sat_kernel(a, oa, b, ob, tol, False)[0] == pytest.approx(exact, abs=1e-14)


@pytest.mark.parametrize('n, m', [(13, 12), (16, 16), (32, 12), (40, 40)])
def test_the_walk_agrees_with_the_scan_on_strictly_convex_polygons(n, m):
    """Ellipses of n and m vertices, either winding, at 200 placements each (touching,
    overlapping and apart): `sat_kernel` walks them (n m > SAT_SCAN_PAIRS) and its walk is
    the scan's answer, so the scan never runs; the result is the largest edge separation."""
    rng = np.random.default_rng(n * m)
    for _ in range(200):
        polys = []
        for count in (n, m):
            t = np.sort(rng.uniform(0, 2 * np.pi, count))
            if np.diff(t).min() < 1e-3:
                t = np.linspace(0, 2 * np.pi, count, endpoint=False)
            p = np.c_[np.cos(t), rng.uniform(0.2, 1.0) * np.sin(t)] * rng.uniform(0.3, 2.0)
            c, s = np.cos(rng.uniform(0, 2 * np.pi)), np.sin(rng.uniform(0, 2 * np.pi))
            p = p @ np.array([[c, s], [-s, c]]) + rng.uniform(-2, 2, 2)
            polys.append(np.ascontiguousarray(p[::-1] if rng.random() < 0.5 else p))
        a, b = polys
        oa, ob = polygon_orientation(a), polygon_orientation(b)
        tol = pair_length_tolerance(a, b)
        for early_exit in (False, True):
            s, nx, ny, exact = walked_sat(a, oa, b, ob, tol, early_exit)
            assert exact
            assert (s, nx, ny) == sat_kernel(a, oa, b, ob, tol, early_exit)
        best = max(sep for sep, _ in edge_separations(a, b))
        assert sat_kernel(a, oa, b, ob, tol, False)[0] == pytest.approx(best, abs=1e-12)
