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
"""The engine on whole scenes: broad phase against brute force, contacts against shapely."""

from hypothesis import given, strategies as st
import numba
import numpy as np
import pytest
import shapely

from collision_monitor import CollisionWorld, ContactKind, MotionModel, World
from collision_monitor.kernels.constants import MAX_COORDINATE
from collision_monitor.kernels.geometry2d import contact, polygons_intersect
from collision_monitor.kernels.geometry2d.primitives import pair_length_tolerance
from collision_monitor.kernels.kinematics import vertex_kinematics
from collision_monitor.kernels.packed import Motion
from collision_monitor.kernels.toi import first_contact, first_contacts
from collision_monitor.kernels.tuning import PARALLEL_WORK
from shapes import build, check_contact_geometry, ELL, random_scene, RECT, sharp_tip, UNIT


def _tolerance(world, a='a', b='b'):
    """The length tolerance of a pair, as every 2D test of it takes it: from its vertices."""
    return pair_length_tolerance(world.world_vertices(a), world.world_vertices(b))


def _answers(world):
    """Whether a and b touch, as each way of asking says: detect, step's contacts and its
    predictions at time 0, predict at time 0, distances (0), and polygons_intersect and
    contact on the placed vertices."""
    pair = [('a', 'b')]
    contacts, predictions = world.step(1.0)
    va, vb = world.world_vertices('a'), world.world_vertices('b')
    return [world.detect().name_pairs() == pair, contacts.name_pairs() == pair,
            [(a, b) for a, b, f in predictions if f.time == 0.0] == pair,
            [(a, b) for a, b, f in world.predict(1.0) if f.time == 0.0] == pair,
            world.distances([('a', 'b')])[0] == 0.0, polygons_intersect(va, vb),
            contact(va, vb) is not None]


@pytest.mark.parametrize('movers, speed', [(400, 1.0), (5, 4.0)])
def test_detect_after_many_ticks_equals_detect_in_a_fresh_world(movers, speed):
    """Every body moving (the kept pairs rebuilt by the grid) or a few fast ones among still
    bodies (refiled one by one): each tick's contacts are those of a fresh world."""
    rng = np.random.default_rng(8)
    shapes, poses = random_scene(rng, 400, 20.0, big=1)
    world = build(shapes, poses)
    velocity = rng.uniform(-speed, speed, (len(shapes), 3))
    velocity[movers:] = 0.0
    for _ in range(50):
        poses = poses + 0.02 * velocity
        world.set_poses(poses)
        kept = world.detect()
        fresh = build(shapes, poses).detect()
        assert sorted(map(tuple, kept.pairs.tolist())) == sorted(map(tuple, fresh.pairs.tolist()))
        assert len(fresh) > 10


@pytest.mark.parametrize('seed, spread', [(10, 40.0), (11, 20.0), (12, 100.0)])
def test_detect_matches_shapely_strtree(seed, spread):
    """Every pair shapely finds intersecting is a contact, and nothing else is."""
    rng = np.random.default_rng(seed)
    shapes, poses = random_scene(rng, 1000, spread, big=2)
    world = build(shapes, poses)
    contacts = world.detect()
    geoms = [shapely.Polygon(world.world_vertices(f'b{k}')) for k in range(len(shapes))]
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate='intersects')
    expected = {(int(i), int(j)) for i, j in zip(left, right) if i < j}
    # pairs whose boundaries are within 1e-9 of touching may go either way
    got = set(map(tuple, contacts.pairs.tolist()))
    for i, j in expected ^ got:
        assert geoms[i].distance(geoms[j]) < 1e-9 and geoms[i].intersection(geoms[j]).area < 1e-9
    assert len(expected) > 20


def test_distances_match_shapely():
    rng = np.random.default_rng(21)
    shapes, poses = random_scene(rng, 200, 25.0, big=1)
    world = build(shapes, poses)
    pairs = rng.integers(0, len(shapes), (300, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    geoms = [shapely.Polygon(world.world_vertices(f'b{k}')) for k in range(len(shapes))]
    expected = [geoms[i].distance(geoms[j]) for i, j in pairs]
    got = world.distances(pairs)
    assert np.allclose(got, expected, atol=1e-9)
    assert (got == 0.0).sum() == sum(e == 0.0 for e in expected) and (got > 0).sum() > 100
    names = [(f'b{i}', f'b{j}') for i, j in pairs[:5]]
    assert np.array_equal(world.distances(names), got[:5])
    world.set_active(['b0'], False)
    with pytest.raises(ValueError, match='active'):
        world.distances([('b0', 'b1')])


def test_contacts_carry_the_pair_contact():
    world = World()
    world.add_body('robot', RECT)
    world.add_body('cart', ELL)
    world.add_body('far', RECT, pose=(10.0, 0.0, 0.0))
    world.set_poses([[0.0, 0.0, 0.3], [0.5, 0.2, -0.4]], ['robot', 'cart'])
    contacts = world.detect()
    assert contacts.name_pairs() == [('robot', 'cart')]
    (name_a, name_b, c), = list(contacts)
    ref = contact(world.world_vertices('robot'), world.world_vertices('cart'))
    assert c.kind == ref.kind and c.depth == pytest.approx(ref.depth)
    assert np.allclose(c.points, ref.points) and np.allclose(c.normal, ref.normal)


def test_static_pairs_are_not_tested_and_inactive_bodies_are_left_out():
    world = World()
    world.add_body('shelf1', RECT, static=True, pose=(0, 0, 0))
    world.add_body('shelf2', RECT, static=True, pose=(0.5, 0, 0))
    world.add_body('robot', RECT, pose=(0.2, 0.1, 0))
    world.add_body('ghost', RECT)  # never given a pose
    assert sorted(world.detect().name_pairs()) == [('shelf1', 'robot'), ('shelf2', 'robot')]
    world.set_active(['robot'], False)
    assert len(world.detect()) == 0


def test_footprint_change_and_removal():
    world = World()
    world.add_body('a', RECT, pose=(0, 0, 0))
    world.add_body('b', RECT, pose=(1.5, 0, 0))
    world.add_body('c', RECT, pose=(-1.2, 0, 0))
    assert len(world.detect()) == 0
    world.set_footprint('a', RECT * 3.2)
    assert sorted(world.detect().name_pairs()) == [('a', 'b'), ('a', 'c')]
    world.remove_body('b')
    assert world.detect().name_pairs() == [('a', 'c')]
    assert world.names == ('a', 'c')


def test_registration_errors_name_the_body():
    world = World()
    world.add_body('robot', RECT)
    with pytest.raises(ValueError, match="'robot' is already registered"):
        world.add_body('robot', RECT)
    with pytest.raises(ValueError, match="body 'bowtie'.*crosses itself"):
        world.add_body('bowtie', [[0, 0], [1, 1], [1, 0], [0, 1]])
    with pytest.raises(ValueError, match="non-finite poses for bodies \\['robot'\\]"):
        world.set_poses([[np.nan, 0, 0]], ['robot'])
    with pytest.raises(KeyError, match='nobody'):
        world.set_poses([[0, 0, 0]], ['nobody'])


@pytest.mark.parametrize('index', [lambda names: names, lambda names: np.array(
    [{'a': 0, 'b': 1}[n] for n in names], dtype=np.intp)], ids=['names', 'intp'])
def test_set_motion_sets_all_three_or_nothing(index):
    """By name and by an intp index array (one compiled pass): the same rows, the same
    refusals, and nothing written when one value is refused."""
    world = World()
    world.add_body('a', RECT)
    world.add_body('b', RECT)
    world.set_motion([[1.0, 2.0, 0.5]], [[0.1, 0.2, 0.3]], [[1.0, 0.0, -1.0]], index(['b']))
    assert world.poses[1].tolist() == [1.0, 2.0, 0.5] and world.active.tolist() == [False, True]
    assert world.view().twists[1].tolist() == [0.1, 0.2, 0.3]
    assert world.view().accelerations[1].tolist() == [1.0, 0.0, -1.0]
    good = np.full((2, 3), 0.5)  # not zeros: a refusal must not hinge on a zero extent
    for bad, error in ((2, "non-finite poses for bodies \\['b'\\]"),
                       (1, "non-finite twists for bodies \\['b'\\]"),
                       (0, "non-finite accelerations for bodies \\['b'\\]")):
        rows = [good.copy(), good.copy(), good.copy()]
        rows[2 - bad][1, bad] = np.nan
        with pytest.raises(ValueError, match=error):
            world.set_motion(*rows, index(['a', 'b']))
    far = good.copy()
    far[0, 1] = 2 * MAX_COORDINATE
    with pytest.raises(ValueError, match='beyond'):
        world.set_motion(far, good, good, index(['a', 'b']))
    with pytest.raises(ValueError, match='shape'):
        world.set_motion(good[:, :2], good[:, :2], good[:, :2], index(['a', 'b']))
    if not isinstance(index(['a']), list):
        for rows in ([0, 2], [2], [-1]):
            with pytest.raises(KeyError, match=f'no body with index {rows[-1]}'):
                world.set_motion(good[:len(rows)], good[:len(rows)], good[:len(rows)],
                                 np.array(rows, np.intp))
    assert world.poses.tolist() == [[0.0, 0.0, 0.0], [1.0, 2.0, 0.5]]
    assert world.view().twists[0].tolist() == [0.0] * 3 and not world.active[0]


@given(st.floats(-np.pi, np.pi), st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
def test_detect_is_invariant_under_rigid_motion_of_the_scene(angle, tx, ty):
    rng = np.random.default_rng(7)
    shapes, poses = random_scene(rng, 60, 6.0)
    world = build(shapes, poses)
    before = world.detect()
    c, s = np.cos(angle), np.sin(angle)
    moved = np.column_stack([c * poses[:, 0] - s * poses[:, 1] + tx,
                             s * poses[:, 0] + c * poses[:, 1] + ty, poses[:, 2] + angle])
    world.set_poses(moved)
    after = world.detect()
    b_pairs = {tuple(p): k for k, p in enumerate(before.pairs.tolist())}
    a_pairs = {tuple(p): k for k, p in enumerate(after.pairs.tolist())}
    for pair in set(b_pairs) ^ set(a_pairs):  # only borderline touching pairs may differ
        k = b_pairs.get(pair, a_pairs.get(pair))
        res = before if pair in b_pairs else after
        assert res.depth[k] < 1e-9
    for pair in set(b_pairs) & set(a_pairs):
        assert after.depth[a_pairs[pair]] == pytest.approx(before.depth[b_pairs[pair]],
                                                           abs=1e-6)
        assert after.kind[a_pairs[pair]] == before.kind[b_pairs[pair]] or (
            before.depth[b_pairs[pair]] < 1e-9)


def test_contact_kinds_are_enum_values():
    world = World()
    world.add_body('a', RECT, pose=(0, 0, 0))
    world.add_body('b', RECT, pose=(0.8, 0.4, 0))
    (_, _, c), = list(world.detect())
    assert c.kind == ContactKind.EDGE_EDGE


def test_warmup_runs():
    World().warmup()


# --- adversarial cases: scale, tolerance, histories, input checks ---------------------------


@pytest.mark.parametrize('offset, touching', [((1.0, 0.0), True), ((1.0, 1.0), True),
                                              ((1.0 + 1e-9, 0.0), False),
                                              ((1.0, 1.0 + 1e-9), False)])
def test_boxes_touching_exactly_are_contacts(offset, touching):
    """Unit squares side by side or corner to corner, exactly (every coordinate a small
    binary fraction): touching counts; 1 nm apart is far beyond the tolerance at this scale."""
    world = CollisionWorld()
    world.add_body('a', UNIT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', UNIT, pose=(*offset, 0.0))
    expected = [('a', 'b')] if touching else []
    assert world.detect().name_pairs() == expected
    contacts, predictions = world.step(1.0)
    assert contacts.name_pairs() == expected
    assert [(a, b, f.time) for a, b, f in predictions] == [(a, b, 0.0) for a, b in expected]


def _corner_to_corner(yaw, x, y, corner):
    """A world of unit squares a at (x, y) and b at the same yaw with its corner k + 2 on
    corner k of a; and the diagonal, b's position from a's."""
    c, s = np.cos(yaw), np.sin(yaw)
    diagonal = np.array([[c, -s], [s, c]]) @ (UNIT[corner] - UNIT[(corner + 2) % 4])
    world = CollisionWorld()
    world.add_body('a', UNIT, pose=(x, y, yaw))
    world.add_body('b', UNIT, pose=(x + diagonal[0], y + diagonal[1], yaw))
    return world, diagonal


@given(st.floats(-np.pi, np.pi), st.floats(-1e6, 1e6), st.floats(-1e6, 1e6),
       st.integers(0, 3))
def test_corner_contacts_at_large_coordinates_agree_everywhere(yaw, x, y, corner):
    """Two unit squares at one yaw, corner k of a on corner k + 2 of b: in exact arithmetic
    they touch at that point only.  detect, step, predict (time 0) and distances (0) all
    report it."""
    world, _ = _corner_to_corner(yaw, x, y, corner)
    assert world.detect().name_pairs() == [('a', 'b')]
    contacts, predictions = world.step(1.0)
    assert contacts.name_pairs() == [('a', 'b')]
    assert [(a, b, f.time) for a, b, f in world.predict(1.0)] == [('a', 'b', 0.0)]
    assert [(a, b, f.time) for a, b, f in predictions] == [('a', 'b', 0.0)]
    assert world.distances([('a', 'b')]).tolist() == [0.0]


@given(st.floats(-np.pi, np.pi), st.floats(-1e6, 1e6), st.floats(-1e6, 1e6),
       st.integers(0, 3), st.floats(0.0, 3.0))
def test_corners_a_tolerance_apart_get_one_answer_everywhere(yaw, x, y, corner, gap):
    """Two unit squares at one yaw, corner k of a facing corner k + 2 of b across a gap of
    `gap` times the pair's tolerance along the diagonal (the separating axis test sees only
    gap / sqrt 2 on each edge normal): detect, step, predict (time 0) and distances (0)
    agree whether they touch, and apart, distances is the gap (to the coordinates' rounding)."""
    world, diagonal = _corner_to_corner(yaw, x, y, corner)
    tol = _tolerance(world)
    shift = diagonal * (1.0 + gap * tol / np.hypot(*diagonal))
    world.set_poses([[x + shift[0], y + shift[1], yaw]], ['b'])
    touching = world.detect().name_pairs() == [('a', 'b')]
    contacts, predictions = world.step(1.0)
    assert (contacts.name_pairs() == [('a', 'b')]) == touching
    now = [(a, b) for a, b, f in world.predict(1.0) if f.time == 0.0]
    assert (now == [('a', 'b')]) == touching
    assert ([(a, b) for a, b, f in predictions if f.time == 0.0] == [('a', 'b')]) == touching
    distance = world.distances([('a', 'b')])[0]
    assert (distance == 0.0) == touching
    if not touching:
        true_gap = shapely.Polygon(world.world_vertices('a')).distance(
            shapely.Polygon(world.world_vertices('b')))
        assert distance == pytest.approx(true_gap, rel=0.0, abs=0.25 * tol) and distance > 0.0


@pytest.mark.parametrize('seed', range(3))
def test_concave_corners_a_tolerance_apart_get_one_answer_everywhere(seed):
    """Two L shapes (concave: edge crossings and point in polygon decide, not the separating
    axis test) turned at random, corner 0 of b 0.8 to 1.6 tolerances from corner 0 of a in
    any direction, b still or moving: detect, step, predict (time 0) and distances (0)
    agree whether they touch.  Near a corner each end of two edges can lie within the
    tolerance of the other's line while the corners are farther apart than that; and the
    public intersection test and contact agree on the same vertices."""
    rng = np.random.default_rng(seed)
    touching_seen = 0
    for _ in range(120):
        scale_a, scale_b = rng.uniform(0.5, 3.0, 2)
        yaw = rng.uniform(-np.pi, np.pi)
        x, y = rng.choice([0.0, 1e3, 1e5], 2)
        world = CollisionWorld()
        world.add_body('a', (ELL + 0.4) * scale_a, pose=(x, y, 0.0))
        world.add_body('b', (ELL + 0.4) * scale_b, pose=(x, y, yaw))
        world.set_twists([rng.normal(size=3) * rng.choice([0.0, 1.0])], ['b'])
        tol = _tolerance(world)
        r, phi = rng.uniform(0.8, 1.6) * tol, rng.uniform(-np.pi, np.pi)
        world.set_poses([[x + r * np.cos(phi), y + r * np.sin(phi), yaw]], ['b'])
        touching = world.detect().name_pairs() == [('a', 'b')]
        touching_seen += touching
        contacts, predictions = world.step(1.0)
        assert (contacts.name_pairs() == [('a', 'b')]) == touching
        assert ([(a, b) for a, b, f in world.predict(1.0) if f.time == 0.0]
                == [('a', 'b')]) == touching
        assert ([(a, b) for a, b, f in predictions if f.time == 0.0] == [('a', 'b')]) == touching
        assert (world.distances([('a', 'b')])[0] == 0.0) == touching
        vertices, start = world.placed_vertices()
        va, vb = vertices[start[0]:start[1]], vertices[start[1]:start[2]]
        assert polygons_intersect(va, vb) == (contact(va, vb) is not None)
    assert 5 < touching_seen < 115  # both answers, many times


@pytest.mark.parametrize('x', [0.0, 1e3, 1e5])
@pytest.mark.parametrize('gap, offset', [(0.0, 0.0), (0.0, 0.9), (0.9, 0.0), (0.6, 0.6),
                                         (0.6, 0.75), (0.75, 0.75), (0.9, 0.6), (0.9, 0.9),
                                         (0.0, 1.1), (1.1, 0.0)])
def test_axis_aligned_concave_corners_apart_diagonally_get_one_answer_everywhere(
        x, gap, offset):
    """Two L shapes (concave) facing corner to corner, their edges along the axes, b moved
    `gap` tolerances along x and `offset` along y from a: the edges on each axis are
    parallel and within the tolerance of each other's line, and their projections are
    within it of overlapping, yet the corners are sqrt(gap^2 + offset^2) tolerances apart.
    They touch exactly when that is at most 1, in detect, step, predict, distances and the
    public test and contact on the placed vertices."""
    world = CollisionWorld()
    world.add_body('a', ELL + 0.4, pose=(x, x, 0.0))
    world.add_body('b', -(ELL + 0.4), pose=(x, x, 0.0))
    tol = _tolerance(world)
    world.set_poses([[x - gap * tol, x - offset * tol, 0.0]], ['b'])
    assert _answers(world) == [gap ** 2 + offset ** 2 <= 1.0] * 7


@pytest.mark.parametrize('gap', [0.9, 1.1])
@pytest.mark.parametrize('a', ['square', 'ell'])
def test_a_world_and_the_functions_on_vertex_arrays_take_one_tolerance(gap, a):
    """A unit square or L shape at the origin and a half-unit square `gap` tolerances to its
    right: the largest coordinate of the pair (1.5) plus its largest extent (1) would give
    a tolerance 1.25 times that of its vertices (the larger of 1 + 1 and 1.5 + 0.5), and
    the world's answer would differ from that of the functions on the same vertices.  Both
    take the vertices' tolerance: they touch exactly when the gap is within it."""
    shape = UNIT + 0.5 if a == 'square' else ELL + 0.4
    small = (UNIT + 0.5) * 0.5
    world = CollisionWorld()
    world.add_body('a', shape, pose=(0.0, 0.0, 0.0))
    world.add_body('b', small, pose=(1.0, 0.0, 0.0))
    tol = _tolerance(world)
    world.set_poses([[1.0 + gap * tol, 0.0, 0.0]], ['b'])
    assert _answers(world) == [gap <= 1.0] * 7


@pytest.mark.parametrize('seed', range(3))
def test_shapes_vertex_to_vertex_get_one_answer_everywhere(seed):
    """L, U and rectangle shapes, axis-aligned or turned, near the origin or far from it, b
    on the far side of a's farthest vertex along a random direction, its nearest vertex
    moved 0 to 1.5 tolerances in x and y from that one (parallel edges, corners, edges along
    each other): detect, step, predict (time 0), distances (0),
    polygons_intersect and contact on the placed vertices give one answer, and it is
    shapely's distance against the tolerance (rounding decides within 2 % of it)."""
    u_shape = np.array([[0, 0], [1, 0], [1, 1], [0.7, 1], [0.7, 0.3], [0.3, 0.3], [0.3, 1],
                        [0, 1]], float)
    shapes = (ELL + 0.4, u_shape, RECT + 0.5)
    rng = np.random.default_rng(seed)
    touching_seen = checked = 0
    for k in range(150):
        a, b = (shapes[rng.integers(3)] * rng.uniform(0.5, 2.0) for _ in range(2))
        yaws = rng.integers(4, size=2) * np.pi / 2 if k % 2 else rng.uniform(-np.pi, np.pi, 2)
        x = rng.choice([0.0, 1e3, 1e5])
        world = CollisionWorld()
        world.add_body('a', a, pose=(x, x, yaws[0]))
        world.add_body('b', b, pose=(x, x, yaws[1]))
        va, vb = world.world_vertices('a'), world.world_vertices('b')
        u = rng.normal(size=2)  # a's farthest vertex along u meets b's nearest
        d = va[np.argmax(va @ u)] - vb[np.argmin(vb @ u)]
        world.set_poses([[x + d[0], x + d[1], yaws[1]]], ['b'])
        g = rng.uniform(-1.5, 1.5, 2) * _tolerance(world)
        world.set_poses([[x + d[0] + g[0], x + d[1] + g[1], yaws[1]]], ['b'])
        answers = _answers(world)
        touching = answers[0]
        assert answers == [touching] * 7
        va, vb = world.world_vertices('a'), world.world_vertices('b')
        gap = shapely.Polygon(va).distance(shapely.Polygon(vb)) / _tolerance(world)
        if abs(gap - 1.0) > 0.02:
            checked += 1
            assert touching == (gap < 1.0), gap
        touching_seen += touching
    assert checked > 140 and 10 < touching_seen < 140


def _turns_and_gaps(seed, most):
    """Twelve random turns (angle, cos, sin) with gaps of 0.5 to `most` tolerances."""
    rng = np.random.default_rng(seed)
    for _ in range(12):
        turn = rng.uniform(-np.pi, np.pi)
        yield turn, np.cos(turn), np.sin(turn), rng.uniform(0.5, most)


@pytest.mark.parametrize('tip_angle', [0.2, 2.0, 20.0])
def test_a_sharp_convex_tip_near_a_concave_corner_gets_one_answer_in_any_vertex_order(
        tip_angle):
    """A convex triangle whose tip (angle in degrees) points at the corner of an L shape
    (concave) along the tip's axis, 0.5 to 30 tolerances apart, the scene turned at random.
    Near the tip a point can be within the tolerance of both edge lines while far from the
    triangle: the corner touches only within the tolerance of the triangle itself, whichever
    vertex either list starts at, and detect, predict (time 0) and distances agree."""
    tip = sharp_tip(tip_angle)
    ell = ELL + 0.4  # its corner at (0, 0), the body in x, y >= 0
    for turn, c, s, gap in _turns_and_gaps(int(tip_angle * 10), 30.0):
        answers = set()
        for k in range(3):
            for m in range(len(ell)):
                world = CollisionWorld()
                world.add_body('a', np.roll(tip, k, axis=0), pose=(0.0, 0.0, turn))
                # the L turned so that its corner's bisector faces the tip
                world.add_body('b', np.roll(ell, m, axis=0), pose=(0.0, 0.0, turn + 0.75 * np.pi))
                tol = _tolerance(world)
                world.set_poses([[-gap * tol * c, -gap * tol * s, turn + 0.75 * np.pi]], ['b'])
                touching = world.detect().name_pairs() == [('a', 'b')]
                now = [(a, b) for a, b, f in world.predict(1.0) if f.time == 0.0]
                distance = world.distances([('a', 'b')])[0]
                assert (now == [('a', 'b')]) == touching == (distance == 0.0)
                if not touching:
                    assert distance == pytest.approx(gap * tol, rel=1e-3)
                answers.add(touching)
        assert answers == {gap <= 1.0} or abs(gap - 1.0) < 0.01


@pytest.mark.parametrize('tip_angle', [0.5, 5.0, 45.0])
def test_two_sharp_convex_tips_touch_only_within_the_tolerance(tip_angle):
    """Two convex triangles tip to tip along their axis, 0.5 to 60 tolerances apart: every
    edge-normal gap is then the distance times sin(A / 2), within the tolerance far beyond
    it, so the separating axis test alone would call them touching.  detect, step, predict
    (time 0) and distances agree, and apart the distance is the gap."""
    tip = sharp_tip(tip_angle) - [1.0, 0.0]  # its origin inside
    for turn, c, s, gap in _turns_and_gaps(int(tip_angle * 10), 60.0):
        world = CollisionWorld()
        world.add_body('a', tip, pose=(0.0, 0.0, turn))
        world.add_body('b', tip, pose=(-2.0 * c, -2.0 * s, turn + np.pi))
        tol = _tolerance(world)
        reach = 2.0 + gap * tol
        world.set_poses([[-reach * c, -reach * s, turn + np.pi]], ['b'])
        touching = world.detect().name_pairs() == [('a', 'b')]
        contacts, predictions = world.step(1.0)
        assert (contacts.name_pairs() == [('a', 'b')]) == touching
        assert ([(a, b) for a, b, f in world.predict(1.0) if f.time == 0.0]
                == [('a', 'b')]) == touching
        distance = world.distances([('a', 'b')])[0]
        assert (distance == 0.0) == touching
        if abs(gap - 1.0) > 0.01:
            assert touching == (gap <= 1.0)
        if not touching:
            assert distance == pytest.approx(gap * tol, rel=1e-3)
        vertices, start = world.placed_vertices()
        va, vb = vertices[start[0]:start[1]], vertices[start[1]:start[2]]
        assert polygons_intersect(va, vb) == (contact(va, vb) is not None)


def test_a_pair_within_the_axes_tolerance_but_apart_leaves_the_other_contacts():
    """Tips 20 tolerances apart pass the separating axis test and yield no feature; every
    other pair of the tick is still tested: the touching squares beyond them (and before
    them in the candidate order) are found whichever way the bodies are numbered."""
    tip = sharp_tip(2.0) - [1.0, 0.0]
    for order in ([0, 1, 2, 3], [2, 3, 0, 1], [0, 2, 1, 3]):
        world = CollisionWorld()
        bodies = [('tip_a', tip, (0.0, 0.0, 0.0)), ('tip_b', tip, (-2.0, 0.0, np.pi)),
                  ('sq_a', UNIT, (0.0, 5.0, 0.0)), ('sq_b', UNIT, (1.0, 5.0, 0.0))]
        for k in order:
            world.add_body(bodies[k][0], bodies[k][1], pose=bodies[k][2])
        tol = _tolerance(world, 'tip_a', 'tip_b')
        world.set_poses([[-2.0 - 20.0 * tol, 0.0, np.pi]], ['tip_b'])
        assert [set(pair) for pair in world.detect().name_pairs()] == [{'sq_a', 'sq_b'}]


def _touching_pair_world():
    world = CollisionWorld()
    world.add_body('a', UNIT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', UNIT, pose=(0.5, 0.0, 0.0))
    world.add_body('far', UNIT, pose=(100.0, 0.0, 0.0))
    assert list(world.detect(stamp=0.0).began) == [0.0]
    return world


@pytest.mark.parametrize('change', [
    lambda w: w.set_footprint('far', UNIT * 2),
    lambda w: w.add_body('new', UNIT, pose=(-50.0, 0.0, 0.0)),
    lambda w: w.remove_body('far'),
    lambda w: (w.add_body('first', UNIT, pose=(0.0, 50.0, 0.0)), w.remove_body('first')),
    lambda w: w.set_footprint('a', UNIT * 1.2),
])
def test_contact_start_survives_changes_of_other_bodies(change):
    world = _touching_pair_world()
    world.detect(stamp=1.0)
    change(world)
    contacts = world.detect(stamp=2.0)
    assert contacts.name_pairs() == [('a', 'b')]
    assert list(contacts.began) == [0.0]


def test_contact_start_follows_names_when_indices_shift():
    world = CollisionWorld()
    world.add_body('gone', UNIT, pose=(-100.0, 0.0, 0.0))
    world.add_body('a', UNIT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', UNIT, pose=(0.5, 0.0, 0.0))
    world.add_body('c', UNIT, pose=(3.0, 0.0, 0.0))
    world.set_twists([[-1.6, 0.0, 0.0]], ['c'])
    world.detect(stamp=0.0)
    world.remove_body('gone')  # a, b, c move down one index
    world.set_poses([[1.4, 0.0, 0.0]], ['c'])
    contacts = world.detect(stamp=1.0)
    began = dict(zip(contacts.name_pairs(), contacts.began))
    assert began[('a', 'b')] == 0.0
    # traced back with c's state at 0: its left side (x - 0.5) reaches b's right side (1.0)
    # when 3.0 - 1.6 t = 1.5
    assert began[('b', 'c')] == pytest.approx(1.5 / 1.6, abs=1e-12)


@given(st.lists(st.sampled_from(['add', 'remove', 'footprint', 'tick']), max_size=12))
def test_contact_histories_across_body_changes(ops):
    """Whatever happens to other bodies, the a|b contact keeps the stamp it began at."""
    world = _touching_pair_world()
    extra = []
    for t, op in enumerate(ops, start=1):
        if op == 'add':
            extra.append(f'x{t}')
            world.add_body(extra[-1], UNIT, pose=(10.0 * t, 40.0, 0.0))
        elif op == 'remove' and extra:
            world.remove_body(extra.pop(0))
        elif op == 'footprint' and extra:
            world.set_footprint(extra[-1], UNIT * 1.5)
        contacts = world.detect(stamp=float(t))
        assert dict(zip(contacts.name_pairs(), contacts.began)) == {('a', 'b'): 0.0}


@pytest.mark.parametrize('seed', range(4))
def test_began_times_of_a_crowd_across_ticks_and_body_changes(seed):
    """Dozens of contacts at once, bodies removed and added between stamped ticks, stamps
    irregular: each contact's began time equals a reference kept by name in the test: carried
    while the pair stays in contact, else the first contact of the two bodies moved from
    their state at the last tick (`first_contact` on their vertex kinematics) within the
    interval, else the tick's own stamp.  Bodies of 3 to 8 vertices, so that scratch rows
    beyond a body's own are never read."""
    def polygon(rng):
        k = int(rng.integers(3, 9))
        angles = np.sort(rng.uniform(0.0, 2 * np.pi, k))
        return np.column_stack([np.cos(angles), np.sin(angles)]) * rng.uniform(0.3, 0.8)

    rng = np.random.default_rng(seed)
    world = CollisionWorld()
    world.predictor = 'constant_acceleration'  # the model `first_contact` solves
    shapes = {}
    for k in range(60):
        shapes[f'b{k}'] = polygon(rng)
        world.add_body(f'b{k}', shapes[f'b{k}'])
    memory, last, stamp, fresh = {}, None, 0.0, 60
    poses = {}
    for tick in range(16):
        names = world.names
        n = len(names)
        # most bodies drift (contacts last several ticks), a few jump (new ones start)
        for name in names:
            if name not in poses or rng.random() < 0.1:
                poses[name] = np.array([*rng.uniform(0, 9, 2), rng.uniform(-3, 3)])
            poses[name] += rng.normal(0.0, 0.05, 3)
        world.set_poses(np.array([poses[name] for name in names]))
        world.set_twists(rng.uniform(-2, 2, (n, 3)))
        world.set_accelerations(rng.uniform(-2, 2, (n, 3)))
        stamp += rng.uniform(0.05, 0.5)
        view = world.view()
        state = {name: (world.poses[b].copy(), view.twists[b].copy(),
                        view.accelerations[b].copy()) for b, name in enumerate(names)}
        contacts = world.detect(stamp=stamp)
        got = dict(zip(contacts.name_pairs(), contacts.began.tolist()))
        assert len(got) > 10
        expected = {}
        for a, b in got:
            key = frozenset((a, b))
            if key in memory:
                expected[(a, b)] = memory[key]
            elif last is not None and a in last[1] and b in last[1]:
                moving = [vertex_kinematics(*last[1][x], shapes[x]) for x in (a, b)]
                fc = first_contact(*moving[0], *moving[1], stamp - last[0])
                expected[(a, b)] = stamp if fc is None else last[0] + fc.time
            else:
                expected[(a, b)] = stamp
        assert got == pytest.approx(expected, abs=1e-9)
        memory = {frozenset(pair): t for pair, t in got.items()}
        last = (stamp, state)
        if tick % 3:
            continue  # the body set stays
        for name in rng.choice(names, 5, replace=False).tolist():  # removed
            world.remove_body(name)
        for _ in range(5):  # and new ones, which had no state at the last tick
            shapes[f'b{fresh}'] = polygon(rng)
            world.add_body(f'b{fresh}', shapes[f'b{fresh}'])
            fresh += 1


@pytest.mark.parametrize('poses', [np.zeros((3, 2)), np.zeros((1, 6)), np.zeros(3),
                                   np.zeros((1, 3, 1))])
def test_pose_arrays_of_another_shape_are_refused(poses):
    world = CollisionWorld()
    world.add_body('a', UNIT)
    world.add_body('b', UNIT)
    with pytest.raises(ValueError, match='shape'):
        world.set_poses(poses)
    assert not world.active.any()


@pytest.mark.parametrize('bodies', [[1.9], np.array([0.0]), [True], 'a'])
def test_body_indices_are_names_or_integers(bodies):
    world = CollisionWorld()
    world.add_body('a', UNIT)
    world.add_body('b', UNIT)
    with pytest.raises(ValueError, match='bodies'):
        world.set_poses([[0.0, 0.0, 0.0]], bodies)
    assert not world.active.any()


def test_poses_of_every_body_are_checked_before_any_is_set():
    """set_poses without body names (one compiled pass): a refused row names its body, the
    shape must be (N, 3), and nothing is written when any value is refused."""
    world = World()
    world.add_body('a', UNIT)
    world.add_body('b', UNIT, pose=(5.0, 0.0, 0.0))
    for poses, message in (([[0, 0, 0], [1, np.inf, 0]], "non-finite poses for bodies \\['b'\\]"),
                           ([[0, 0, np.nan], [1, 0, 0]], "non-finite poses for bodies \\['a'\\]"),
                           ([[0, 0, 0], [0, -2 * MAX_COORDINATE, 0]], 'beyond'),
                           ([[0, 0, 0]], '1 poses for 2 bodies'),
                           ([[0, 0], [1, 1]], 'shape')):
        with pytest.raises(ValueError, match=message):
            world.set_poses(poses)
    assert world.poses.tolist() == [[0, 0, 0], [5, 0, 0]]
    assert world.active.tolist() == [False, True]
    world.set_poses([[1, 2, 3], [4, 5, 6]])
    assert world.poses.tolist() == [[1, 2, 3], [4, 5, 6]] and world.active.all()


@pytest.mark.parametrize('pose, message', [((np.nan, 0, 0), 'non-finite'),
                                           ((0, 0), 'shape'), ((2e9, 0, 0), 'beyond')])
def test_a_refused_pose_registers_nothing(pose, message):
    world = CollisionWorld()
    with pytest.raises(ValueError, match=message):
        world.add_body('a', UNIT, pose=pose)
    assert world.names == ()
    assert world.add_body('a', UNIT, pose=(0, 0, 0)) == 0
    assert world.active.tolist() == [True]


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
def test_predicted_points_lie_on_the_footprints_placed_at_their_time(predictor):
    """world_vertices(name, t, predictor) places a body as the prediction moves it, so the
    predicted contact point is on both placed boundaries (shapely distance), whichever model;
    the rigid placement with the model's yaw would miss it while the body turns."""
    world = World()
    world.add_body('robot', RECT, pose=(0.0, 0.0, 0.2))
    world.add_body('cart', ELL, pose=(2.5, 0.4, -0.3))
    world.set_twists([[1.0, 0.1, 0.6], [-0.4, 0.0, -0.5]], ['robot', 'cart'])
    world.set_accelerations([[0.5, -0.2, 0.4], [0.0, 0.3, 0.2]], ['robot', 'cart'])
    (a, b, first), = list(world.predict(3.0, predictor))
    assert first.time > 0.1
    point = shapely.Point(first.point)
    for name in (a, b):
        placed = shapely.Polygon(world.world_vertices(name, first.time, predictor))
        assert placed.exterior.distance(point) < 1e-9
    assert np.allclose(world.world_vertices('robot'),
                       [[c * x - s * y, s * x + c * y] for c, s in [(np.cos(0.2), np.sin(0.2))]
                        for x, y in RECT])


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
def test_every_prediction_names_its_vertex_edge_and_normal(predictor):
    """Each first contact `predict` reports in a turning, accelerating scene of convex
    bodies: its point is the named vertex of one body and lies on the named edge of the
    other, both placed at its time by `world_vertices`, and its normal is that edge's unit
    normal from a to b."""
    rng = np.random.default_rng(5)
    world = World()
    n = 60
    for k in range(n):
        world.add_body(f'b{k}', (RECT if k % 2 else UNIT) * rng.uniform(0.5, 1.5))
    world.set_poses(np.column_stack([rng.uniform(0, 12, (n, 2)), rng.uniform(-3, 3, n)]))
    world.set_twists(np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-1, 1, n)]))
    world.set_accelerations(np.column_stack([rng.uniform(-1, 1, (n, 2)),
                                             rng.uniform(-0.5, 0.5, n)]))
    checked = 0
    for a, b, fc in world.predict(2.0, predictor):
        if fc.time > 0.0:
            check_contact_geometry(fc, world.world_vertices(a, fc.time, predictor),
                                   world.world_vertices(b, fc.time, predictor))
            checked += 1
    assert checked > 10


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
def test_pairs_touching_now_are_predicted_at_time_zero_without_features(predictor):
    """predict's rows for pairs already touching (the two left squares overlap; the third
    meets the second at t = 1 s, within the 1.2 s horizon): time 0, side, vertex and edge
    -1, point and normal nan, and their `FirstContact` names no side, as `first_contact`
    documents."""
    world = World()
    for name, x in (('a', 0.0), ('b', 0.5), ('c', 3.0)):
        world.add_body(name, UNIT, pose=(x, 0.0, 0.0))
    world.set_twists([[0, 0, 0], [0, 0, 0], [-1.5, 0, 0]])
    got = world.predict(1.2, predictor)
    now = got.time == 0.0
    assert got.pairs[now].tolist() == [[0, 1]] and got.pairs[~now].tolist() == [[1, 2]]
    assert got.side[now].tolist() == got.vertex[now].tolist() == got.edge[now].tolist() == [-1]
    assert np.isnan(got.point[now]).all() and np.isnan(got.normal[now]).all()
    (touching,) = [fc for _, _, fc in got if fc.time == 0.0]
    assert touching.vertex_of == '' and touching.vertex == touching.edge == -1


def test_rows_are_each_rows_first_contact_and_carry_no_negative_zero():
    """`Predictions.rows` gives, row by row, the `FirstContact` that indexing gives (a pair
    touching now among them), or those of the rows asked for; and where squares close in
    along x and y, no time, point or normal holds a -0.0 (its sign would show in printed
    and serialized results)."""
    world = World()
    for name, pose in (('a', (0.0, 0.0, 0.0)), ('b', (0.5, 0.0, 0.0)), ('c', (3.0, 0.0, 0.0)),
                       ('d', (0.0, -3.0, 0.0)), ('e', (-3.0, 0.0, 0.0))):
        world.add_body(name, UNIT, pose=pose)
    world.set_twists([[0, 0, 0], [0, 0, 0], [-1.5, 0, 0], [0, 1.5, 0], [1.5, 0, 0]])
    got = world.predict(2.0)
    rows = got.rows()
    assert len(rows) == len(got) > 3 and (got.time == 0.0).sum() == 1
    for c, first in enumerate(rows):
        indexed = got[c]
        assert first[:4] == indexed[:4] and type(first.time) is float
        assert type(first.vertex) is int and type(first.edge) is int
        np.testing.assert_array_equal(first.point, indexed.point)
        np.testing.assert_array_equal(first.normal, indexed.normal)
    picked = [3, 0, 3]
    assert [first[:4] for first in got.rows(picked)] == [rows[c][:4] for c in picked]
    for values in (got.time, got.point, got.normal):
        assert not np.any(np.signbit(values[values == 0.0]))
    assert (got.normal == 0.0).sum() >= 3  # axis-aligned normals: zeros to check


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
def test_a_new_contact_is_dated_by_the_predictors_model(predictor):
    """The look-back of detect dates a new contact where predict, from the previous tick's
    state with the same model, puts the first contact (a spinning body: under constant
    velocity no centripetal term)."""
    def scene():
        world = World()
        world.predictor = predictor
        world.add_body('a', RECT, pose=(0.0, 0.0, 0.0))
        world.add_body('b', RECT, pose=(1.6, 0.2, 0.4))
        world.set_twists([[-1.0, 0.0, 1.5]], ['b'])
        world.set_accelerations([[0.2, 0.0, -1.0]], ['b'])
        return world
    (_, _, first), = list(scene().predict(1.0))
    world = scene()
    world.detect(stamp=10.0)
    world.set_poses([[0.5, 0.2, 1.2]], ['b'])  # overlapping a by now
    contacts = world.detect(stamp=11.0)
    assert contacts.name_pairs() == [('a', 'b')]
    assert contacts.began[0] == pytest.approx(10.0 + first.time, abs=1e-9)


def test_motion_models_by_member_or_name():
    world = World()
    world.add_body('a', RECT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', RECT, pose=(3.0, 0.0, 0.0))
    world.set_twists([[-1.0, 0.0, 0.0]], ['b'])
    world.set_accelerations([[-1.0, 0.0, 0.0]], ['b'])
    for model in MotionModel:
        by_member = world.predict(5.0, model).time
        assert by_member.tolist() == world.predict(5.0, model.name.lower()).time.tolist()
    # b's near side closes 2 m at 1 m/s, or with 0.5 t^2 more
    assert world.predict(5.0, MotionModel.CONSTANT_VELOCITY).time == pytest.approx([2.0])
    # a body that does not turn moves alike under the rigid models and constant acceleration
    for model in (MotionModel.CONSTANT_ACCELERATION, MotionModel.ARC, MotionModel.HOLONOMIC):
        assert world.predict(5.0, model).time == pytest.approx([-1.0 + np.sqrt(5.0)])
    for bad in ('Constant_velocity', 'linear', 1):
        with pytest.raises(ValueError, match='predictor must be one of'):
            world.predict(5.0, bad)
        # the default is checked when set, and a refused value leaves it as it was
        with pytest.raises(ValueError, match='predictor must be one of'):
            world.predictor = bad
        assert world.predictor == 'arc'
    world.predictor = MotionModel.CONSTANT_VELOCITY
    assert world.predict(5.0).time == pytest.approx([2.0])


# --- the engine: swept broad phase and look-back -----------------------------------------------
@pytest.mark.parametrize('threads', [1, None])
def test_predict_while_the_kept_candidates_hold_answers_as_a_fresh_world(threads):
    """Ticks of small moves refit the kept swept candidates and larger ones rebuild them
    with the grid: every tick's predictions equal those of a world that predicts for the
    first time (the grid's), and both paths are taken."""
    rng = np.random.default_rng(21)
    n = 80
    shapes = [UNIT * rng.uniform(0.3, 1.2) if k % 2 else ELL - 0.5 for k in range(n)]
    poses = np.column_stack([rng.uniform(0, 20, (n, 2)), rng.uniform(-3, 3, n)])
    twists = np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-0.5, 0.5, n)])
    accels = np.column_stack([rng.uniform(-2, 2, (n, 2)), rng.uniform(-0.3, 0.3, n)])
    held = []
    world = World()
    world.threads = threads
    for k, shape in enumerate(shapes):
        world.add_body(f'b{k}', shape)
    for tick in range(12):
        dt = 3.0 if tick % 4 == 3 else 0.002
        poses = poses + dt * twists
        world.set_motion(poses, twists, accels, np.arange(n))
        world.set_active([5], tick % 5 != 2)
        grids = world.view().grids[1]
        ours = world.predict(1.5)
        held.append(world.view().grids[1] == grids)
        fresh = World()
        for k, shape in enumerate(shapes):
            fresh.add_body(f'b{k}', shape)
        fresh.set_motion(poses, twists, accels, np.arange(n))
        fresh.set_active([5], tick % 5 != 2)
        theirs = fresh.predict(1.5)
        assert len(ours) > 5
        by_pair = [np.lexsort(p.pairs.T[::-1]) for p in (ours, theirs)]
        for field in ('pairs', 'time', 'side', 'vertex', 'edge', 'point', 'normal'):
            np.testing.assert_array_equal(getattr(ours, field)[by_pair[0]],
                                          getattr(theirs, field)[by_pair[1]])
        assert sorted(world.detect().pairs.tolist()) == sorted(fresh.detect().pairs.tolist())
    assert held.count(True) >= 4 and held.count(False) >= 1


@pytest.mark.parametrize('predictor', ['arc', 'constant_acceleration'])
def test_bodies_whose_swept_boxes_never_meet_have_no_prediction(predictor):
    """No swept candidate: predict and step report nothing, tick after tick (the buffers
    of the rows they would fill are never read)."""
    world = World()
    for k in range(4):
        world.add_body(f'b{k}', UNIT, pose=(10.0 * k, 0.0, 0.0))
    world.set_twists([[0.0, 0.5, 0.3]] * 4, [0, 1, 2, 3])
    for tick in range(3):
        assert len(world.predict(1.0, predictor)) == 0
        contacts, predictions = world.step(1.0, predictor, stamp=0.1 * tick)
        assert len(contacts) == 0 and len(predictions) == 0
        world.set_poses(world.poses + [0.0, 0.05, 0.0])


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason='needs a pool of two threads')
def test_a_search_on_other_threads_than_the_sweep_answers_as_one_thread():
    """A few hundred octagons sweep on one thread (fewer bodies than `PARALLEL_WORK`) while
    their candidates, over `PARALLEL_WORK` pair-vertices, want the pool: the search then
    runs in a call of its own.  Its predictions equal those of a world on one thread."""
    rng = np.random.default_rng(4)
    n = 400
    octagon = np.column_stack([np.cos(np.arange(8) * np.pi / 4),
                               np.sin(np.arange(8) * np.pi / 4)]) * 0.5
    poses = np.column_stack([rng.uniform(0, 15, (n, 2)), rng.uniform(-3, 3, n)])
    twists = np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-1, 1, n)])
    answers = []
    for threads in (None, 1):
        world = World()
        world.threads = threads
        for k in range(n):
            world.add_body(f'b{k}', octagon)
        world.set_motion(poses, twists, np.zeros((n, 3)), np.arange(n))
        predictions = world.predict(2.0)
        assert len(world.view().swept_candidates) * 8 >= PARALLEL_WORK > n
        answers.append({tuple(p): t for p, t in zip(predictions.pairs.tolist(),
                                                    predictions.time.tolist())})
    assert len(answers[0]) > 20 and answers[0] == answers[1]


@pytest.mark.parametrize('slots', [1, 3])
def test_first_contacts_fill_every_row_whatever_the_scratch_slots(slots):
    """The batch search takes one scratch slot per thread: with 1 or 3 slots (fewer or more
    than this machine's threads) it finds the first contacts `predict` reports, and with 3
    it writes the rows of 1, bit for bit."""
    rng = np.random.default_rng(8)
    world = World()
    for k in range(60):
        world.add_body(f'b{k}', UNIT * rng.uniform(0.3, 1.2))
    world.set_poses(np.column_stack([rng.uniform(0, 12, (60, 2)), rng.uniform(-3, 3, 60)]))
    world.set_twists(np.column_stack([rng.uniform(-1, 1, (60, 2)), rng.uniform(-1, 1, 60)]))
    predicted = world.predict(2.0)
    view = world.view()
    pairs, n_pairs = view.swept_candidates, len(view.swept_candidates)
    models = np.array([int(m) for m in world.predictors()])
    most = int(np.diff(view.bodies.vstart).max())
    motion = Motion(world.poses, view.twists, view.accelerations)

    def search(slots):
        found = np.full((n_pairs, 8), -7.0)
        first_contacts((pairs, np.zeros(n_pairs, np.bool_)), n_pairs, motion, view.bodies,
                       (view.boxes, view.swept_boxes), models, 2.0,
                       np.zeros((slots, 2, 4, most, 2)), np.zeros((slots, 2, most)), found)
        return found
    found = search(slots)
    meet = np.isfinite(found[:, 0])
    assert n_pairs > 20 and len(predicted) == meet.sum() > 3
    assert {tuple(p): t for p, t in zip(pairs[meet].tolist(), found[meet, 0].tolist())} == {
        tuple(p): t for p, t in zip(predicted.pairs.tolist(), predicted.time.tolist())}
    np.testing.assert_array_equal(found, search(1))


@pytest.mark.parametrize('predictor', ['constant_acceleration', 'constant_velocity'])
def test_predict_finds_every_pair_brute_force_finds(predictor):
    rng = np.random.default_rng(3)
    n = 120
    world = World()
    shapes = []
    for k in range(n):
        shape = UNIT * rng.uniform(0.3, 1.2) if k % 2 else np.array(
            [[0, 0], [1, 0], [1, 0.3], [0.3, 0.3], [0.3, 1], [0, 1]]) - 0.4
        shapes.append(shape)
        world.add_body(f'b{k}', shape)
    poses = np.column_stack([rng.uniform(0, 25, (n, 2)), rng.uniform(-3, 3, n)])
    twists = np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-0.5, 0.5, n)])
    accels = np.column_stack([rng.uniform(-2, 2, (n, 2)), rng.uniform(-0.3, 0.3, n)])
    world.set_poses(poses)
    world.set_twists(twists)
    world.set_accelerations(accels)
    expected = predicted_as_pairwise(world, predictor, shapes, poses, twists, accels)
    assert len(expected) > 10


def predicted_as_pairwise(world, predictor, shapes, poses, twists, accels, static=0):
    """Assert that the world's `predict(2 s)` finds the pairs and times `first_contact`
    finds for each pair alone (the first `static` bodies never paired with one another);
    return those, ``{(i, j): time}``."""
    pred = world.predict(2.0, predictor)
    got = {tuple(p): t for p, t in zip(pred.pairs.tolist(), pred.time)}
    kin = [vertex_kinematics(*state, shape)
           for *state, shape in zip(poses, twists, accels, shapes)]
    model = (lambda k: k[2]) if predictor == 'constant_acceleration' else (lambda k: None)
    expected = {}
    for i, ki in enumerate(kin):
        for j in range(max(i + 1, static), len(kin)):
            kj = kin[j]
            fc = first_contact(ki[0], ki[1], model(ki), kj[0], kj[1], model(kj), 2.0)
            if fc is not None:
                expected[(i, j)] = fc.time
    assert set(got) == set(expected)
    for pair, t in expected.items():
        assert got[pair] == pytest.approx(t, abs=1e-12)
    return expected


@pytest.mark.parametrize('predictor', ['constant_acceleration', 'constant_velocity'])
def test_robots_driving_along_shelves_are_predicted_as_the_pairwise_search_predicts(predictor):
    """Static 6 m x 0.8 m shelves in rows and robots driving along the aisles close to
    them, half not turning (where a line beside a shelf or a robot can settle a pair, as
    `toi.beside_throughout` does), half turning a little: every pair's first contact within
    2 s is the one `first_contact` finds for the two bodies alone."""
    rng = np.random.default_rng(8)
    shelf = np.array([[-3.0, -0.4], [3.0, -0.4], [3.0, 0.4], [-3.0, 0.4]])
    world = World()
    shapes, poses, twists, accels = [], [], [], []
    for k in range(12):
        shapes.append(shelf)
        poses.append([(k % 4) * 7.0, (k // 4) * 3.0, 0.0])
        twists.append([0.0, 0.0, 0.0])
        accels.append([0.0, 0.0, 0.0])
    for k in range(40):
        turning = k % 2
        shapes.append(UNIT * [0.9, 0.6])
        poses.append([rng.uniform(-3, 24), rng.integers(0, 2) * 3.0 + 1.5
                      + rng.uniform(-1.05, 1.05), rng.uniform(-0.2, 0.2)])
        twists.append([rng.uniform(-1.5, 1.5), rng.uniform(-0.1, 0.1),
                       turning * rng.uniform(-0.3, 0.3)])
        accels.append([rng.uniform(-1, 1), rng.uniform(-0.2, 0.2),
                       turning * rng.uniform(-0.3, 0.3)])
    for k, shape in enumerate(shapes):
        world.add_body(f'b{k}', shape, static=k < 12)
    poses, twists, accels = (np.array(x, dtype=float) for x in (poses, twists, accels))
    world.set_poses(poses)
    world.set_twists(twists)
    world.set_accelerations(accels)
    expected = predicted_as_pairwise(world, predictor, shapes, poses, twists, accels, 12)
    shelf_pairs = [p for p in expected if p[0] < 12]
    assert len(shelf_pairs) > 5 and any(expected[p] > 0 for p in shelf_pairs)


@pytest.mark.parametrize('predictor', ['constant_acceleration', 'constant_velocity'])
def test_bodies_moving_as_one_meet_when_touching_now_and_their_near_twins_when_they_do(
        predictor):
    """Convoys of crowded bodies sharing one translation (velocity and acceleration, no
    turning; one convoy at rest) keep their relative placement: pairs of a convoy touch at
    time 0 or never.  Near twins (one convoy's motion but turning a little, or a velocity or
    acceleration a little off) are searched: predict agrees with `first_contact` on every
    pair, and some of them meet a convoy member later."""
    rng = np.random.default_rng(11)
    n, shapes = 120, []
    world = World()
    for k in range(n):
        shapes.append(RECT * rng.uniform(0.5, 1.2) if k % 3 else ELL)
        world.add_body(f'b{k}', shapes[-1])
    poses = np.column_stack([rng.uniform(0, 10, (n, 2)), rng.uniform(-3, 3, n)])
    convoys = [(np.zeros(3), np.zeros(3))] + [
        (np.array([*rng.uniform(-1, 1, 2), 0.0]), np.array([*rng.uniform(-2, 2, 2), 0.0]))
        for _ in range(2)]
    group = np.arange(n) % 4  # 3: a near twin of convoy k % 3
    twists, accels = np.zeros((n, 3)), np.zeros((n, 3))
    for k in range(n):
        twists[k], accels[k] = convoys[k % 3]
        if group[k] == 3:
            (twists if k // 4 % 2 else accels)[k, k // 8 % 3] += rng.choice([-0.6, 0.6])
    world.set_poses(poses)
    world.set_twists(twists)
    world.set_accelerations(accels)
    pred = world.predict(2.0, predictor)
    got = dict(zip(map(tuple, pred.pairs.tolist()), pred.time.tolist()))
    expected = {}
    kin = [vertex_kinematics(poses[k], twists[k], accels[k], shapes[k]) for k in range(n)]
    ca = predictor == 'constant_acceleration'
    for i in range(n):
        for j in range(i + 1, n):
            fc = first_contact(kin[i][0], kin[i][1], kin[i][2] if ca else None,
                               kin[j][0], kin[j][1], kin[j][2] if ca else None, 2.0)
            if fc is not None:
                expected[(i, j)] = fc.time
    assert set(got) == set(expected)
    for pair, t in expected.items():
        assert got[pair] == pytest.approx(t, abs=1e-12)
    as_one = [(i, j) for i in range(n) for j in range(i + 1, n)
              if group[i] < 3 and group[j] < 3 and i % 3 == j % 3]
    near = [(i, j) for i, j in as_one
            if 0.0 < shapely.distance(*(shapely.Polygon(kin[k][0]) for k in (i, j))) < 0.5]
    assert all(expected.get(pair, 0.0) == 0.0 for pair in as_one)
    assert len(near) > 5 and sum(t == 0.0 for t in expected.values()) > 5
    assert sum(t > 0.0 and 3 in group[list(pair)] for pair, t in expected.items()) > 3


@pytest.mark.parametrize('change', ['poses', 'motion', 'active', 'footprint'])
def test_detect_after_predict_sees_what_changed_in_between(change):
    """detect right after predict takes predict's swept candidates; a change of poses,
    activity or footprints in between (here one that makes b touch c, far from where it
    was) is detected."""
    world = World()
    for name, x in (('a', 0.0), ('b', 0.6), ('c', 9.0)):
        world.add_body(name, UNIT, pose=(x, 0.0, 0.0))
    world.set_active(['c'], change != 'active')
    world.predict(0.5)
    if change == 'poses':
        world.set_poses([[8.5, 0.2, 0.1]], ['b'])
    elif change == 'motion':
        world.set_motion(np.array([[8.5, 0.2, 0.1]]), np.zeros((1, 3)), np.zeros((1, 3)),
                         np.array([1]))
    elif change == 'active':
        world.set_active(['c'], True)
        world.set_poses([[8.5, 0.2, 0.1]], ['b'])
        world.predict(0.5)
        world.set_active(['a'], False)
    else:
        world.set_footprint('c', UNIT * 20.0)
    expected = ([('a', 'b'), ('a', 'c'), ('b', 'c')] if change == 'footprint'
                else [('b', 'c')])
    assert world.detect().name_pairs() == expected


@pytest.mark.parametrize('predictor', ['constant_acceleration', 'constant_velocity'])
def test_step_equals_detect_then_predict(predictor):
    """step's contacts and first contacts are those of detect and predict alone, its search
    taking the contacts as time 0 without a test of its own."""
    rng = np.random.default_rng(5)
    n = 150
    world = World()
    for k in range(n):
        world.add_body(f'b{k}', UNIT * rng.uniform(0.3, 1.5))
    world.set_poses(np.column_stack([rng.uniform(0, 20, (n, 2)), rng.uniform(-3, 3, n)]))
    world.set_twists(np.column_stack([rng.uniform(-1, 1, (n, 2)), rng.uniform(-1, 1, n)]))
    world.set_accelerations(rng.uniform(-2, 2, (n, 3)))
    contacts, predictions = world.step(2.0, predictor)
    alone_c, alone_p = world.detect(), world.predict(2.0, predictor)
    assert len(alone_c) > 5 and len(alone_p) > 10

    def by_pair(result, *fields):
        return {tuple(p): tuple(np.nan_to_num(getattr(result, f)[c], nan=-1e300).tolist()
                                for f in fields)
                for c, p in enumerate(result.pairs.tolist())}

    fields = ('kind', 'normal', 'depth')
    assert by_pair(contacts, *fields) == by_pair(alone_c, *fields)
    assert by_pair(predictions, 'time', 'side', 'vertex', 'edge', 'point') == by_pair(
        alone_p, 'time', 'side', 'vertex', 'edge', 'point')


def test_look_back_interpolates_when_the_contact_began():
    world = World()
    world.add_body('a', UNIT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', UNIT, pose=(3.0, 0.2, 0.0))
    world.set_twists([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    assert len(world.detect(stamp=10.0)) == 0
    world.set_poses([[1.2, 0.0, 0.0], [1.8, 0.2, 0.0]])
    contacts = world.detect(stamp=11.2)
    assert contacts.began.tolist() == pytest.approx([11.0])
    world.set_poses([[1.3, 0.0, 0.0], [1.7, 0.2, 0.0]])
    assert world.detect(stamp=11.3).began.tolist() == pytest.approx([11.0])  # carried
    assert np.isnan(world.detect().began).all()


def test_contacts_taken_by_rows_are_those_contacts():
    """`Contacts.take` keeps each chosen contact whole (its features and time), in the order
    asked, whatever the feature counts of the contacts around it."""
    w = CollisionWorld()
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    for k, (x, yaw) in enumerate([(0.0, 0.0), (0.8, 0.4), (1.7, 0.0), (2.5, 0.7), (3.3, 0.1)]):
        w.add_body(f'b{k}', square, pose=(x, 0.1 * k, yaw))
    contacts = w.detect(stamp=1.5)
    assert len(contacts) == 4
    rows = [3, 1, 1]
    taken = contacts.take(rows)
    assert len(taken) == 3 and taken.name_pairs() == [contacts.name_pairs()[r] for r in rows]
    for k, r in enumerate(rows):
        got, want = taken[k], contacts[r]
        assert got.kind == want.kind and got.depth == want.depth
        assert taken.began[k] == contacts.began[r]
        for name in ('normal', 'points', 'a_in_b', 'b_in_a', 'p_a', 'p_b', 'intersections'):
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert len(contacts.take([])) == 0


def test_contacts_carry_no_negative_zero():
    """Axis-aligned and turned squares touching along an axis give normals with a zero
    component; every zero of a contact's normal, depth and points is +0.0 (a -0.0 from a
    sign flip would print as -0.0 in the node's messages)."""
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    for x, y, yaw in [(0.9, 0.0, 0.0), (-0.9, 0.0, 0.0), (0.9, 0.0, np.pi / 2),
                      (-0.9, 0.0, np.pi), (0.7, 0.7, 0.0), (0.0, -0.9, -np.pi)]:
        w = CollisionWorld()
        w.add_body('a', square, pose=(0.0, 0.0, 0.0))
        w.add_body('b', square, pose=(x, y, yaw))
        contacts = w.detect()
        assert len(contacts) == 1
        for values in (contacts.normal, contacts.depth, contacts.points, contacts[0].p_b):
            assert not np.any((values == 0.0) & np.signbit(values)), (x, y, yaw)


def _contact_arrays(contacts):
    return [contacts.pairs, contacts.kind, contacts.normal, contacts.depth, contacts.points,
            contacts.point_start, contacts.began]


def _by_pair(contacts):
    """{pair: (kind, normal, depth, points)} of every contact, whatever their order."""
    start = contacts.point_start
    return {tuple(contacts.pairs[c].tolist()): (
        int(contacts.kind[c]), contacts.normal[c].tolist(), float(contacts.depth[c]),
        contacts.points[start[c]:start[c + 1]].tolist()) for c in range(len(contacts))}


def test_predictions_kept_across_ticks_keep_their_values():
    """Predictions of a tick, kept while later ticks (predict and step) write the world's
    buffers, each still equals what a fresh world predicts from its poses, and owns its
    arrays."""
    rng = np.random.default_rng(32)
    shapes, poses = random_scene(rng, 80, 8.0, big=1)
    world = build(shapes, poses)
    twists = rng.uniform(-1.0, 1.0, (len(shapes), 3))
    world.set_twists(twists)
    kept = []
    for tick in range(6):
        poses = poses + 0.05 * twists
        world.set_poses(poses)
        kept.append((poses, world.step(1.0)[1] if tick % 2 else world.predict(1.0)))
    for poses, predictions in kept:
        fresh = build(shapes, poses)
        fresh.set_twists(twists)
        expected = fresh.predict(1.0)
        assert len(predictions) == len(expected) > 3
        assert _predicted_by_pair(predictions) == _predicted_by_pair(expected)
    arrays = [a for _, predictions in kept for a in _prediction_arrays(predictions)]
    for k, a in enumerate(arrays):
        assert not any(np.shares_memory(a, b) for b in arrays[k + 1:])


def _predicted_by_pair(predictions):
    """``{pair: (time, side, vertex, edge, point, normal)}``, nan written as None."""
    rows = zip(*(a.tolist() for a in _prediction_arrays(predictions)))
    return {tuple(pair): tuple(np.where(np.isnan(x), None, x).tolist()
                               if isinstance(x, list) else x for x in rest)
            for pair, *rest in rows}


def _prediction_arrays(predictions):
    return (predictions.pairs, predictions.time, predictions.side, predictions.vertex,
            predictions.edge, predictions.point, predictions.normal)


def test_the_last_contacts_held_unread_through_a_tick_keep_their_values():
    """The world writes two sets of contact buffers in turn: the contacts of the last tick,
    held unread while the next tick runs, then read what a fresh world says of their
    poses."""
    rng = np.random.default_rng(37)
    shapes, poses = random_scene(rng, 120, 8.0, big=1)
    world = build(shapes, poses)
    velocity = rng.uniform(-1.0, 1.0, (len(shapes), 3))
    last = world.detect()
    for tick in range(4):
        moved = poses + 0.01 * (tick + 1) * velocity
        world.set_poses(moved)
        contacts = world.detect()
        assert _by_pair(last) == _by_pair(build(shapes, poses).detect())
        last, poses = contacts, moved


def test_contacts_kept_across_ticks_keep_their_values():
    """Contacts of a tick read from the world's buffers until first use; kept while later
    ticks (detect and step) write those buffers, read partly, wholly or not at all before,
    each still equals what a fresh world says of its poses, and owns its arrays.  Small
    moves keep the candidate pairs (detect's one-call path), large ones rebuild them."""
    rng = np.random.default_rng(31)
    shapes, poses = random_scene(rng, 120, 8.0, big=1)
    world = build(shapes, poses)
    velocity = rng.uniform(-1.0, 1.0, (len(shapes), 3))
    kept = []
    for tick in range(12):
        poses = poses + (0.05 if tick % 2 else 0.002) * velocity
        world.set_poses(poses)
        contacts = (world.step(0.5, stamp=0.1 * tick)[0] if tick % 3 == 2
                    else world.detect(stamp=0.1 * tick))
        if tick % 4 == 1:
            contacts.pairs
        elif tick % 4 == 2:
            list(contacts)
        kept.append((poses, contacts))
    for poses, contacts in kept:
        fresh = build(shapes, poses).detect()
        assert len(contacts) == len(fresh) > 3
        assert _by_pair(contacts) == _by_pair(fresh)
        assert contacts.point_start[-1] == contacts.points.shape[0]
        assert np.isfinite(contacts.began).all()
    arrays = [a for _, contacts in kept for a in _contact_arrays(contacts)]
    for k, a in enumerate(arrays):
        assert not any(np.shares_memory(a, b) for b in arrays[k + 1:])


def test_bodies_added_and_removed_at_random_keep_their_own_state():
    """Three hundred random registrations (with a pose or without), removals, pose and
    twist writes and activity changes, the world's per-body state checked after each
    against a dict of what each body was given: rows grown into spare capacity start with
    no pose, zero twist and active, whatever was there before."""
    rng = np.random.default_rng(4)
    world, model, count = CollisionWorld(), {}, 0
    for _ in range(300):
        op = rng.choice(5, p=[0.4, 0.15, 0.2, 0.1, 0.15]) if model else 0
        names = list(model)
        if op == 0:
            name, count = f'b{count}', count + 1
            pose = tuple(rng.uniform(-9, 9, 3)) if rng.random() < 0.5 else None
            world.add_body(name, UNIT, pose=pose)
            model[name] = {'pose': pose, 'twist': (0.0, 0.0, 0.0), 'active': True}
        elif op == 1:
            name = names[rng.integers(len(names))]
            world.remove_body(name)
            del model[name]
        elif op == 2:
            name = names[rng.integers(len(names))]
            model[name]['pose'] = tuple(rng.uniform(-9, 9, 3))
            world.set_poses([model[name]['pose']], [name])
        elif op == 3:
            name = names[rng.integers(len(names))]
            model[name]['twist'] = tuple(rng.uniform(-1, 1, 3))
            world.set_twists([model[name]['twist']], [name])
        else:
            name = names[rng.integers(len(names))]
            model[name]['active'] = not model[name]['active']
            world.set_active([name], model[name]['active'])
        assert list(world.names) == list(model)
        for k, (name, state) in enumerate(model.items()):
            if state['pose'] is not None:
                assert tuple(world.poses[k]) == state['pose']
            assert tuple(world.view().twists[k]) == state['twist']
            assert world.active[k] == (state['active'] and state['pose'] is not None)
    assert count > 100 and len(model) > 40  # past three growths of 16, 32 and 64 rows


def test_a_view_is_read_only_and_follows_the_world():
    """`view` hands out read-only views: writing through one fails, the world's own arrays
    stay writable, and the views show the next tick's boxes."""
    world = build([UNIT, UNIT], np.array([[0.0, 0.0, 0.0], [0.8, 0.0, 0.0]]))
    world.detect()
    view = world.view()
    assert view.candidates.tolist() == [[0, 1]] and view.movable.all()
    for a in (*view[:-2], *view.bodies):
        assert not a.flags.writeable
    with pytest.raises(ValueError):
        view.boxes[0, 0] = 1.0
    world.set_poses([[5.0, 0.0, 0.0]], ['b1'])
    assert len(world.detect()) == 0 and view.boxes[1, 0] > 4.0
