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
"""Vertex kinematics and swept boxes against the rigid motion itself (finite differences)."""

from hypothesis import given, strategies as st
import numpy as np
import pytest
import shapely

from collision_monitor import CollisionWorld
from collision_monitor.kernels.constants import MotionModel
from collision_monitor.kernels.kinematics import reach, vertex_kinematics
from collision_monitor.kernels.toi import first_contact

POINT_MODELS = [MotionModel.CONSTANT_ACCELERATION, MotionModel.CONSTANT_VELOCITY]

finite = st.floats(-3.0, 3.0)
state = st.tuples(finite, finite, finite)


def rigid_vertex(pose, twist, accel, offsets, t):
    """World vertices at time t of the body whose origin and heading follow
    x(t) = x + v t + a t^2 / 2 and phi(t) = phi + w t + alpha t^2 / 2 exactly."""
    x = pose[0] + twist[0] * t + 0.5 * accel[0] * t * t
    y = pose[1] + twist[1] * t + 0.5 * accel[1] * t * t
    phi = pose[2] + twist[2] * t + 0.5 * accel[2] * t * t
    c, s = np.cos(phi), np.sin(phi)
    return np.column_stack([x + c * offsets[:, 0] - s * offsets[:, 1],
                            y + s * offsets[:, 0] + c * offsets[:, 1]])


@given(state, state, state, st.lists(st.tuples(finite, finite), min_size=1, max_size=6))
def test_vertex_kinematics_are_the_derivatives_of_the_rigid_motion(pose, twist, accel, offs):
    """Position, velocity and acceleration at t = 0 against central finite differences of
    the exact rigid motion (step 1e-4: truncation ~1e-8 of the magnitudes involved)."""
    offsets = np.array(offs, dtype=float)
    pos, vel, acc = vertex_kinematics(pose, twist, accel, offsets)
    h = 1e-4
    before, now, after = (rigid_vertex(pose, twist, accel, offsets, t) for t in (-h, 0.0, h))
    assert np.allclose(pos, now, rtol=0, atol=1e-12)
    assert np.allclose(vel, (after - before) / (2 * h), rtol=0, atol=1e-6)
    assert np.allclose(acc, (after - 2 * now + before) / (h * h), rtol=0, atol=1e-3)


def test_a_spinning_vertex_accelerates_towards_the_centre():
    """At constant spin w, a vertex at distance r accelerates by w^2 r towards the origin."""
    _, vel, acc = vertex_kinematics([0, 0, 0], [0, 0, 2.0], [0, 0, 0], [[1.5, 0.0]])
    assert vel.tolist() == [[0.0, 3.0]]
    assert acc.tolist() == [[-6.0, 0.0]]


QUAD = np.array([[-0.6, -0.2], [0.9, -0.3], [0.4, 0.7], [-0.5, 0.4]])
SHELF = np.array([[-3.0, -0.4], [3.0, -0.4], [3.0, 0.4], [-3.0, 0.4]])  # a vertex box


@pytest.mark.parametrize('size', [1.0, 4.0])
@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
@pytest.mark.parametrize('shape', ['quad', 'shelf'])
@given(state, state, state, st.sampled_from(['turning', 'translating', 'starting to turn']))
def test_swept_boxes_hold_every_model_vertex_path(size, predictor, shape, pose, twist, accel,
                                                  turning):
    """The swept box of a body (radius below and above 1 m, with a disc box or the box of
    its vertices; turning, only translating, or at omega = 0 with an angular acceleration)
    holds p + v t (+ a t^2 / 2) of each vertex for t in [0, h], with p, v, a the
    finite-difference derivatives of the rigid motion."""
    offsets = size * (QUAD if shape == 'quad' else SHELF)
    if turning != 'turning':
        twist = (twist[0], twist[1], 0.0)
    if turning == 'translating':
        accel = (accel[0], accel[1], 0.0)
    world = CollisionWorld()
    world.add_body('b', offsets, pose=pose)
    world.set_twists([twist], ['b'])
    world.set_accelerations([accel], ['b'])
    world.predictor = predictor
    horizon = 1.5
    world.predict(horizon)  # fills the swept boxes
    box = world.view().swept_boxes[0]
    dt = 1e-4
    before, now, after = (rigid_vertex(pose, twist, accel, offsets, t) for t in (-dt, 0.0, dt))
    vel = (after - before) / (2 * dt)
    acc = (after - 2 * now + before) / (dt * dt)
    if predictor == 'constant_velocity':
        acc = 0.0 * acc
    t = np.linspace(0.0, horizon, 301)[:, None, None]
    path = now + vel * t + 0.5 * acc * t * t
    slack = 1e-5 * (1.0 + np.abs(path).max())
    assert (path[..., 0] >= box[0] - slack).all() and (path[..., 0] <= box[2] + slack).all()
    assert (path[..., 1] >= box[1] - slack).all() and (path[..., 1] <= box[3] + slack).all()


@pytest.mark.parametrize('vx, ax, lo, hi', [
    (1.0, -2.0, -2.0, 0.25),   # x = t - t^2 on [0, 2]: turns at 0.5 (0.25), ends at -2
    (-1.0, 1.0, -0.5, 0.0),    # x = -t + t^2 / 2: turns at 1 (-0.5), ends at 0
    (0.5, 0.0, 0.0, 1.0),      # no acceleration: the ends
])
def test_swept_box_is_the_origin_path_widened_by_the_reach(vx, ax, lo, hi):
    """A diamond of radius 0.3 translating along x: the box's x extent is the origin's path
    over [0, 2] (extremes by hand) widened by 0.3, to within the box padding."""
    world = CollisionWorld()
    world.add_body('d', [[0.3, 0.0], [0.0, 0.3], [-0.3, 0.0], [0.0, -0.3]], pose=(0, 0, 0))
    world.set_twists([[vx, 0.0, 0.0]], ['d'])
    world.set_accelerations([[ax, 0.0, 0.0]], ['d'])
    world.predict(2.0, 'constant_acceleration')
    box = world.view().swept_boxes[0]
    assert box[0] == pytest.approx(lo - 0.3, abs=1e-12)
    assert box[2] == pytest.approx(hi + 0.3, abs=1e-12)
    assert box[1] == pytest.approx(-0.3, abs=1e-12) and box[3] == pytest.approx(0.3, abs=1e-12)


@pytest.mark.parametrize('static', [False, True])
def test_a_long_body_that_does_not_turn_sweeps_its_own_box(static):
    """A 6 m x 0.8 m shelf turned by 0.3 rad (the box of its vertices), at rest or sliding
    along x at 1 m/s under 1 m/s^2: its swept box over 2 s is the box of its vertices
    (shapely's bounds) stretched by the origin's path, 0 to 4 m, to within the padding, not
    its bounding disc's (radius 3.05 m)."""
    world = CollisionWorld()
    world.add_body('shelf', SHELF, static=static, pose=(10.0, 5.0, 0.3))
    if not static:
        world.set_twists([[1.0, 0.0, 0.0]], ['shelf'])
        world.set_accelerations([[1.0, 0.0, 0.0]], ['shelf'])
    world.predict(2.0, 'constant_acceleration')
    xmin, ymin, xmax, ymax = shapely.Polygon(world.world_vertices('shelf')).bounds
    reach = 0.0 if static else 4.0
    np.testing.assert_allclose(world.view().swept_boxes[0], [xmin, ymin, xmax + reach, ymax],
                               atol=1e-9)
    assert ymax - ymin < np.hypot(3.0, 0.4)  # half the disc box


@pytest.mark.parametrize('twist, accel, model, rests', [
    ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 'constant_acceleration', True),
    ((0.0, 0.0, 0.0), (0.5, 0.0, 0.0), 'constant_velocity', True),  # the model holds v: 0
    ((0.0, 0.0, 0.0), (0.5, 0.0, 0.0), 'constant_acceleration', False),
    ((0.0, 0.0, 0.0), (0.0, 0.5, 0.0), 'constant_acceleration', False),
    ((0.0, 0.0, 0.0), (0.0, 0.0, 0.2), 'constant_acceleration', False),  # starting to turn
    ((0.3, 0.0, 0.0), (0.0, 0.0, 0.0), 'constant_velocity', False),
    ((0.0, 0.3, 0.0), (0.0, 0.0, 0.0), 'constant_velocity', False),
    ((0.0, 0.0, 0.3), (0.0, 0.0, 0.0), 'constant_velocity', False),  # turning in place
])
def test_a_body_at_rest_under_the_model_sweeps_its_current_box(twist, accel, model, rests):
    """Zero twist (and zero acceleration under constant acceleration): the swept box is the
    current box, bit for bit; any one component of motion the model keeps widens it beyond
    that box."""
    world = CollisionWorld()
    world.add_body('quad', QUAD, pose=(3.0, -2.0, 0.7))
    world.set_twists([twist], ['quad'])
    world.set_accelerations([accel], ['quad'])
    world.predict(2.0, model)
    view = world.view()
    current, swept = view.boxes[0], view.swept_boxes[0]
    if rests:
        assert swept.tolist() == current.tolist()
    else:
        assert (swept[:2] < current[:2]).any() or (swept[2:] > current[2:]).any()


@pytest.mark.parametrize('model', POINT_MODELS)
@pytest.mark.parametrize('horizon', [0.05, 1.0, 5.0])
def test_the_reach_holds_every_vertex_path_of_the_model(model, horizon):
    """`reach` against the model's vertex offsets from the origin's path, written from the
    rigid formulas (r + (w x r) t, plus (alpha x r - w^2 r) t^2 / 2 under constant
    acceleration), sampled over [0, horizon] for spins and spin-ups from slow to fast, of
    either sign each; the bound is met within 1e-6 somewhere (it is tight)."""
    rng = np.random.default_rng(4)
    t = np.linspace(0.0, horizon, 501)[:, None]
    closest = np.inf
    for _ in range(300):
        w, alpha = rng.normal(0.0, 2.0, 2) * rng.choice([0.01, 1.0, 10.0], 2)
        r = rng.normal(size=(5, 2))
        rho = np.linalg.norm(r, axis=1).max()
        twists, accels = np.array([[0.0, 0.0, w]]), np.array([[0.0, 0.0, alpha]])
        r0, r1, r2 = reach(0, twists, accels, np.array([rho]), int(model), horizon)
        bound = (r0 + (r1 + r2 * t) * t)[:, :, None]
        turn = np.column_stack([-r[:, 1], r[:, 0]])
        offset = r + w * turn * t[:, :, None]
        if model == MotionModel.CONSTANT_ACCELERATION:
            offset = offset + 0.5 * (alpha * turn - w * w * r) * (t * t)[:, :, None]
        length = np.linalg.norm(offset, axis=2)[:, :, None]
        assert np.all(length <= bound * (1 + 1e-12))
        closest = min(closest, float(np.min(bound - length) / rho))
    assert closest < 1e-6


def test_the_reach_is_never_looser_than_the_horizon_free_bound():
    """Against rho (1 + (w^2 + |alpha|) t^2 / 2), which holds at every t (constant
    acceleration), and rho (1 + |w| t) (constant velocity): never wider anywhere, and well
    inside it where a slow spin meets a long horizon.  At the horizon the growth is at most
    half of ``|lambda(H)|^2 - 1``, lambda the model's turn-and-scale of a vertex offset
    (written here from the rigid formulas), which is (|lambda(H)| + 1) / 2 times the least
    growth there: wider only by about q^2 / 8 for small q."""
    rng = np.random.default_rng(7)
    for _ in range(2000):
        w, alpha = rng.normal(0.0, 2.0, 2) * rng.choice([0.1, 1.0])
        horizon = rng.choice([0.1, 1.0, 10.0])
        twists, accels, rho = np.array([[0.0, 0.0, w]]), np.array([[0.0, 0.0, alpha]]), 0.7
        cv = reach(0, twists, accels, np.array([rho]), int(MotionModel.CONSTANT_VELOCITY),
                   horizon)
        ca = reach(0, twists, accels, np.array([rho]),
                   int(MotionModel.CONSTANT_ACCELERATION), horizon)
        assert cv[0] == ca[0] == rho and cv[2] == ca[1] == 0.0
        assert cv[1] <= rho * abs(w) * (1 + 1e-15)
        assert ca[2] <= 0.5 * rho * (w * w + abs(alpha)) * (1 + 1e-15)
        turn = 1.0 + 1j * w * horizon
        for growth, lam in ((cv[1] * horizon, turn),
                            (ca[2] * horizon ** 2,
                             turn + 0.5 * (1j * alpha - w * w) * horizon ** 2)):
            half_q = 0.5 * max(abs(lam) ** 2 - 1.0, 0.0)
            assert growth <= rho * half_q * (1 + 1e-12) + 1e-15
    spin = np.array([[0.0, 0.0, 0.5]])
    ca = reach(0, spin, np.zeros((1, 3)), np.array([1.0]),
               int(MotionModel.CONSTANT_ACCELERATION), 2.0)
    # |lambda(2)|^2 = |1 + i - 0.25 * 2|^2 = 1.25: q(H) / (2 H^2) = 0.25 / 8, against
    # 0.125 without the horizon
    assert ca[2] == pytest.approx(0.25 / 8.0, rel=1e-12)
    # spinning at 1 rad/s and braking at 0.5 rad/s^2: |lambda|^2 = 1 - t^3 / 2 + 5 t^4 / 16
    # stays at most 1 up to t = 1.6, so over 1 s no vertex leaves the bounding radius
    braking = reach(0, np.array([[0.0, 0.0, 1.0]]), np.array([[0.0, 0.0, -0.5]]),
                    np.array([1.0]), int(MotionModel.CONSTANT_ACCELERATION), 1.0)
    assert braking == (1.0, 0.0, 0.0)


def test_the_constant_velocity_predictor_ignores_accelerations():
    """b closes a 2 m gap at 1 m/s while accelerating: constant velocity says 2 s, constant
    acceleration (0.5 m/s^2 towards a) solves 2 = t + t^2 / 4."""
    world = CollisionWorld()
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world.add_body('a', square, pose=(0.0, 0.0, 0.0))
    world.add_body('b', square, pose=(3.0, 0.0, 0.0))
    world.set_twists([[-1.0, 0.0, 0.0]], ['b'])
    world.set_accelerations([[-0.5, 0.0, 0.0]], ['b'])
    (_, _, cv), = list(world.predict(5.0, 'constant_velocity'))
    (_, _, ca), = list(world.predict(5.0, 'constant_acceleration'))
    assert cv.time == pytest.approx(2.0, abs=1e-12)
    assert ca.time == pytest.approx(-2.0 + np.sqrt(12.0), abs=1e-12)


@pytest.mark.parametrize('direction', [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_diamonds_touching_tip_to_tip_are_predicted_at_time_zero(direction):
    """The swept box of a diamond at rest is its origin +- its radius, exactly its tips.  A
    big diamond (radius 100, large padding) and a small one (radius 1) touching tip to tip
    touch; the boxes must keep them, each side widened by its own padding, from any side."""
    dx, dy = direction
    world = CollisionWorld()
    diamond = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    world.add_body('big', 100 * diamond, pose=(-100.0 * dx, -100.0 * dy, 0.0))
    world.add_body('small', diamond, pose=(1.0 * dx, 1.0 * dy, 0.0))
    assert [(a, b, f.time) for a, b, f in world.predict(1.0)] == [('big', 'small', 0.0)]


def test_an_inactive_body_before_the_others_leaves_their_boxes_alone():
    """A body left out (set_active False) registered first: the swept boxes of the bodies
    after it are computed anew each call, so b moved next to a is predicted to meet it (2 m
    gap closed at 1 m/s) although their boxes of the call before were far apart."""
    world = CollisionWorld()
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world.add_body('ghost', square, pose=(100.0, 100.0, 0.0))
    world.add_body('a', square, pose=(0.0, 0.0, 0.0))
    world.add_body('b', square, pose=(30.0, 0.0, 0.0))
    assert len(world.predict(5.0)) == 0
    world.set_active(['ghost'], False)
    world.set_poses([[3.0, 0.0, 0.0]], ['b'])
    world.set_twists([[-1.0, 0.0, 0.0]], ['b'])
    (a, b, first), = list(world.predict(5.0))
    assert (a, b) == ('a', 'b') and first.time == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize('predictor', ['constant_velocity', 'constant_acceleration'])
@given(st.lists(st.tuples(state, state, state), min_size=2, max_size=3),
       st.lists(st.tuples(st.integers(0, 2), st.floats(0.0, 3.0)), max_size=6))
def test_vertices_ahead_move_each_vertex_with_its_model(predictor, states, requests):
    """`vertices_ahead` of any bodies (repeats, any order) at their own times: each vertex at
    p + v t (+ a t^2 / 2), p, v, a the finite-difference derivatives of the rigid motion."""
    shapes = [[[-0.6, -0.2], [0.9, -0.3], [0.4, 0.7]],
              [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]],
              [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 0.2], [0.0, 1.0]]]
    world = CollisionWorld()
    world.predictor = predictor
    for k, (pose, twist, accel) in enumerate(states):
        world.add_body(f'b{k}', shapes[k], pose=pose)
        world.set_twists([twist], [k])
        world.set_accelerations([accel], [k])
    requests = [(b % len(states), t) for b, t in requests]
    vertices, starts = world.vertices_ahead([f'b{b}' for b, _ in requests],
                                            [t for _, t in requests])
    assert starts.tolist() == np.cumsum([0] + [len(shapes[b]) for b, _ in requests]).tolist()
    h = 1e-4
    for k, (b, t) in enumerate(requests):
        motion = states[b]
        before, now, after = (rigid_vertex(*motion, np.array(shapes[b], float), s)
                              for s in (-h, 0.0, h))
        vel = (after - before) / (2 * h)
        acc = ((after - 2 * now + before) / (h * h) if predictor == 'constant_acceleration'
               else 0.0)
        assert np.allclose(vertices[starts[k]:starts[k + 1]], now + (vel + 0.5 * acc * t) * t,
                           rtol=0, atol=1e-2 * (1 + t * t))


def test_vertices_ahead_refuse_times_that_do_not_match():
    world = CollisionWorld()
    world.add_body('a', [[0, 0], [1, 0], [0, 1]], pose=(0, 0, 0))
    for times in ([0.0, 1.0], [np.nan], []):
        with pytest.raises(ValueError, match='finite numbers'):
            world.vertices_ahead(['a'], times)
    with pytest.raises(KeyError):
        world.vertices_ahead(['b'], [0.0])


UNIT = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


@pytest.mark.parametrize('model', ['constant_velocity', 'constant_acceleration'])
@pytest.mark.parametrize('common', ['moving', 'at rest'])
@pytest.mark.parametrize('side', [0, 1])
@pytest.mark.parametrize('component', range(6))
def test_a_pair_moving_alike_but_for_one_component_is_searched(model, common, side, component):
    """Two unit squares 0.2 m apart with one motion (moving, or at rest), but for one
    component (vx, vy, omega, ax, ay, alpha) of one of them, which closes the gap within
    the 2 s horizon (a turn swings a corner out; accelerations only under constant
    acceleration): predict meets them as `first_contact` does, so `move_as_one` let no
    such pair through unsearched."""
    motion = (np.array([[0.3, -0.2, 0.0], [0.1, 0.2, 0.0]]) if common == 'moving'
              else np.zeros((2, 3)))
    rows = [motion.copy(), motion.copy()]  # (twist, accel) of each body
    rows[side][component // 3, component % 3] += 0.5 * (1 if side == 0 else -1)
    world = CollisionWorld()
    # along x for the x components and turns, along y for the y components
    offset = (0.0, 1.2) if component % 3 == 1 else (1.2, 0.0)
    world.add_body('a', UNIT, pose=(0.0, 0.0, 0.0))
    world.add_body('b', UNIT, pose=(*offset, 0.0))
    world.set_twists([rows[0][0], rows[1][0]])
    world.set_accelerations([rows[0][1], rows[1][1]])
    got = world.predict(2.0, model)
    ca = model == 'constant_acceleration'
    kin = [vertex_kinematics(p, r[0], r[1], UNIT)
           for p, r in zip([(0.0, 0.0, 0.0), (*offset, 0.0)], rows)]
    expected = first_contact(kin[0][0], kin[0][1], kin[0][2] if ca else None,
                             kin[1][0], kin[1][1], kin[1][2] if ca else None, 2.0)
    assert (expected is not None) == (component < 3 or ca)
    assert [t > 0.0 for t in got.time] == ([] if expected is None else [True])
    if expected is not None:
        assert got.time[0] == pytest.approx(expected.time, abs=1e-12)
