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
"""The monitor's decisions without ROS: configuration, inputs, debounce, gate, staleness."""

import array
import math

import numpy as np
import pytest
import transforms3d

from collision_monitor.monitor.config import (build_config, default_values, parse_footprint,
                                              waiting_for)
from collision_monitor.monitor.monitor import (BAD_BULK, BAD_COMMAND, BAD_TWIST, FUTURE_STAMP,
                                               IMPLAUSIBLE_MOTION, Monitor, NON_FINITE,
                                               OUT_OF_ORDER, OUT_OF_RANGE, WRONG_FRAME,
                                               yaw_from_quaternion, ZERO_QUATERNION)

SQUARE = '[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]'


def body(**kw):
    values = {'pose_topic': '', 'pose_type': 'geometry_msgs/PoseStamped', 'footprint': SQUARE,
              'footprint_topic': '', 'static': False, 'pose': [0.0, 0.0, 0.0]}
    values.update(kw)
    return values


def config(bodies, sources=None, **globals_):
    values = default_values()
    values.update(bodies=list(bodies), sources=list(sources or ['']))
    values.update(globals_)
    source_values = {}
    for name, members in (sources or {}).items():
        source_values[name] = {'topic': f'/{name}', 'bodies': members}
    if isinstance(sources, dict):
        values['sources'] = list(sources)
    return build_config(values, bodies, source_values)


def two_movers(**globals_):
    return Monitor(config({'a': body(pose_topic='/a'), 'b': body(pose_topic='/b'),
                           'wall': body(static=True, pose=[10.0, 0.0, 0.0])}, **globals_))


def feed(m, t, poses, frame='map'):
    """Give each named body a pose (x, y, yaw) stamped t."""
    for name, (x, y, yaw) in poses.items():
        pose = (x, y, 0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
        assert m.pose(m.index[name], t, frame, pose, t) is None


def approach(m, t_end, dt=0.02, gap=3.0, speed=1.0):
    """a at rest at 0, b coming from +gap at speed; tick every dt; return reports."""
    reports = []
    for t in np.arange(0.0, t_end, dt):
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (gap - speed * t, 0.0, 0.0)})
        reports.append(m.tick(t))
    return reports


# --- configuration -----------------------------------------------------------------------------
@pytest.mark.parametrize('text', ['[[0,0],[1,0],[0,1]]', ' [ [1e-3, -2.5E2], [3., .5] ,[0,1], ] '])
def test_footprint_strings_parse(text):
    assert parse_footprint(text).shape[1] == 2


@pytest.mark.parametrize('text, message', [
    ('__import__("os").system("true")', 'cannot parse'),
    ('[[0,0],[1,0]]', 'at least 3'),
    ('[[0,0],[1,1],[1,0],[0,1]]', 'crosses itself'),
    ('[[0,0],[1,0],[nan,1]]', 'cannot parse'),
    ('[' + ','.join(['[0,0]'] * 100) + ']', 'max_vertices'),
])
def test_bad_footprint_strings_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        parse_footprint(text, max_vertices=64)


@pytest.mark.parametrize('change, message', [
    ({'horizon': -1.0}, 'horizon'),
    ({'predictor': 'magic'}, 'predictor'),
    ({'ignore_pairs': ['a|nobody']}, 'ignore_pairs'),
    ({'gate.enabled': True, 'gate.body': 'nobody'}, 'gate.body'),
    ({'gate.stop_time': 2.0, 'gate.slowdown_time': 1.0}, 'slowdown_time'),
    ({'engine_threads': 0}, 'engine_threads'),
])
def test_bad_parameters_name_themselves(change, message):
    with pytest.raises(ValueError, match=message):
        config({'a': body(pose_topic='/a')}, **change)


def test_engine_threads_reach_the_world():
    monitor = two_movers(engine_threads=1)
    assert monitor.world.threads == 1


def test_body_needs_exactly_one_pose_source():
    with pytest.raises(ValueError, match='exactly one'):
        config({'a': body()})
    with pytest.raises(ValueError, match='exactly one'):
        config({'a': body(pose_topic='/a', static=True)})


@pytest.mark.parametrize('pose', [[2e9, 0.0, 0.0], [0.0, -1.5e9, 1.0]])
def test_a_static_pose_beyond_the_coordinate_limit_names_itself(pose):
    with pytest.raises(ValueError, match=r'shelf\.pose: expected \|x\| and \|y\| at most 1e\+09'):
        config({'a': body(pose_topic='/a'), 'shelf': body(static=True, pose=pose)})


def test_a_static_pose_set_as_rclpy_hands_over_a_double_array_is_taken():
    """rclpy gives a double array set at run time as array.array('d')."""
    cfg = config({'a': body(pose_topic='/a'),
                  'shelf': body(static=True, pose=array.array('d', [3.0, 4.0, 0.5]))})
    assert cfg.bodies[1].pose == (3.0, 4.0, 0.5)


def test_a_waiting_body_may_lack_its_footprint_and_pose_source_and_stays_inactive():
    """A body added while running (`build_config`'s waiting) may lack both; it takes part in
    no tick until it has them, and says what it lacks.  Two pose sources stay an error."""
    values = default_values()
    values.update(bodies=['a', 'b', 'c'])
    bodies = {'a': body(pose_topic='/a'), 'b': body(pose_topic='/b'),
              'c': body(footprint='')}
    with pytest.raises(ValueError, match='c.footprint'):
        build_config(values, bodies, {})
    cfg = build_config(values, bodies, {}, waiting=['c'])
    assert waiting_for(cfg.bodies[2]) == 'a footprint and a pose source'
    assert waiting_for(cfg.bodies[0]) == ''
    m = Monitor(cfg)
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    report = m.tick(0.0)
    assert report.active.tolist() == [True, True, False]
    assert [tuple(p) for p in report.contacts.pairs.tolist()] == [(0, 1)]
    bodies['c'] = body(footprint='', static=True, pose_topic='/c')
    with pytest.raises(ValueError, match='exactly one'):
        build_config(values, bodies, {}, waiting=['c'])


# --- quaternions -------------------------------------------------------------------------------
@pytest.mark.parametrize('seed', range(5))
def test_yaw_matches_transforms3d(seed):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(50, 4))  # (w, x, y, z), not normalised
    expected = [transforms3d.euler.quat2euler(v / np.linalg.norm(v), 'sxyz')[2] for v in q]
    got = yaw_from_quaternion(q[:, 1], q[:, 2], q[:, 3], q[:, 0])
    assert np.allclose(np.exp(1j * got), np.exp(1j * np.array(expected)))


# --- inputs --------------------------------------------------------------------------------------
def test_bad_poses_are_rejected_with_their_reason_and_others_continue():
    m = two_movers()
    a, b = m.index['a'], m.index['b']
    assert m.pose(a, 0.0, 'odom', (0, 0, 0, 0, 0, 1), 0.0) == WRONG_FRAME
    assert m.pose(a, 0.0, 'map', (math.nan, 0, 0, 0, 0, 1), 0.0) == NON_FINITE
    assert m.pose(a, 0.0, 'map', (0, 0, 0, 0, 0, 0), 0.0) == ZERO_QUATERNION
    assert m.pose(a, 0.0, 'map', (0, 0, 0, 0, 0, 1), 0.0) is None
    assert m.pose(a, -0.1, 'map', (0, 0, 0, 0, 0, 1), 0.0) == OUT_OF_ORDER
    assert m.pose(b, 0.0, 'map', (0.5, 0, 0, 0, 0, 1), 0.0) is None
    report = m.tick(0.0)
    assert report.contacts.pairs.tolist() == [[a, b]]
    assert m.rejections[('a', WRONG_FRAME)] == 1 and m.rejections[('a', OUT_OF_ORDER)] == 1


def test_footprint_update_and_refusal():
    m = Monitor(config({'a': body(pose_topic='/a', footprint='', footprint_topic='/fa'),
                        'wall': body(static=True, pose=[1.5, 0.0, 0.0])}))
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0)})
    assert len(m.tick(0.0).contacts) == 0  # no footprint yet: not monitored
    assert 'crosses itself' in m.footprint(0, [[0, 0], [1, 1], [1, 0], [0, 1]])
    assert 'beyond' in m.footprint(0, [[0, 0], [1e20, 0], [0, 1]])  # refused, not raised
    assert m.footprint(0, [[-1.1, -0.5], [1.1, -0.5], [1.1, 0.5], [-1.1, 0.5]]) is None
    feed(m, 0.02, {'a': (0.0, 0.0, 0.0)})
    assert len(m.tick(0.02).contacts) == 1


def test_bulk_source_maps_poses_to_bodies():
    bodies = {'p': body(), 'q': body(), 'wall': body(static=True, pose=[3.0, 0.0, 0.0])}
    m = Monitor(config(bodies, sources={'tracker': ['p', 'q']}))
    row = [0, 0, 0, 0, 0, 0, 1]
    assert m.bulk('tracker', 0.0, 'map', np.array([row, [2.2, 0, 0, 0, 0, 0, 1]]), 0.0) == []
    report = m.tick(0.0)
    assert report.contacts.name_pairs() == [('q', 'wall')]
    refused = m.bulk('tracker', 0.1, 'map', np.array([row]), 0.1)
    assert refused[0][0] == -1  # one pose for two bodies: the whole message is refused
    refused = m.bulk('tracker', 0.1, 'map', np.array([row, [0, 0, 0, 0, 0, 0, 0]]), 0.1)
    assert refused == [(m.index['q'], ZERO_QUATERNION)]


# --- ticks ---------------------------------------------------------------------------------------
def test_warning_before_contact_with_the_right_time():
    m = two_movers(trigger_ticks=1)
    reports = approach(m, 1.2)
    # b's near face reaches a's at gap - 1 = 2 m at 1 m/s: contact at t = 2.0 s
    warned = [(r.stamp, w) for r in reports for w in r.warnings]
    t, (i, j, fc) = warned[0]
    assert t <= 0.1  # as soon as two poses give a velocity
    later = [(t, w[2].time) for t, w in warned if t > 0.2]
    assert all(abs(t + ttc - 2.0) < 1e-6 for t, ttc in later)


def test_predict_warns_before_detect_finds_the_contacts():
    """A tick in two halves, as the node publishes it: `predict` warns of the pairs that
    meet later (c, coming, with a and b: each warning with its own pair's time and point)
    and not of the pair touching now (a and b), and has no contacts; `detect` then adds the
    touching pair; the two equal `tick`."""
    bodies = {name: body(pose_topic=f'/{name}') for name in 'abc'}
    halves, whole = (Monitor(config(bodies, trigger_ticks=1)) for _ in range(2))
    for t in (0.0, 0.02, 0.04):
        for m in (halves, whole):
            feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (0.8, 0.0, 0.0), 'c': (3.0 - t, 0.0, 0.0)})
    report = halves.predict(0.04)
    assert [w[:2] for w in report.warnings] == [(0, 2), (1, 2)] and not report.contacts
    # c's near face, at 2.46 m coming at 1 m/s, meets a's at 0.5 m and b's at 1.3 m
    for (_, _, w), ttc, face in zip(report.warnings, (1.96, 1.16), (0.5, 1.3)):
        assert abs(w.time - ttc) < 1e-6 and abs(w.point[0] - face) < 1e-6
    halves.detect(report)
    assert report.contacts.pairs.tolist() == [[0, 1]] and report.state_changed
    ticked = whole.tick(0.04)
    assert ticked.contacts.pairs.tolist() == [[0, 1]]
    assert [(i, j, w.time) for i, j, w in ticked.warnings] == [
        (i, j, w.time) for i, j, w in report.warnings]


def test_debounce_trigger_and_release():
    # a 30 ms history window: the velocity is the slope of the last two poses, so predictions
    # stop one tick after b stops and what remains is the debounce itself
    m = two_movers(trigger_ticks=3, release_ticks=4, history_window=0.03)
    reports = approach(m, 0.2)
    first = next(k for k, r in enumerate(reports) if r.warnings)
    assert first == 1 + 2  # predicted from the second pose on, warned on the third prediction
    t = 0.18
    warned = []
    for _ in range(10):
        t += 0.02
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (2.82, 0.0, 0.0)})
        warned.append(bool(m.tick(t).warnings))
    # b was at 2.82 at t = 0.18 already: no prediction from the first stopped tick on; the
    # warning is held for release_ticks - 1 = 3 ticks without a prediction, then cleared
    assert warned == [True] * 3 + [False] * 7


def test_moving_apart_is_not_warned():
    m = two_movers(trigger_ticks=1)
    reports = approach(m, 0.5, speed=-1.0)
    assert not any(r.warnings for r in reports)


def test_ignored_pairs_are_not_reported():
    m = two_movers(trigger_ticks=1, ignore_pairs=['b|a'])
    reports = approach(m, 2.5)
    assert not any(r.warnings or r.contacts for r in reports)


def test_an_ignored_pair_leaves_the_other_pairs_warnings_as_they_are():
    """a and b touch, c comes at 1 m/s (as in the two-halves test below) and c|a is ignored:
    only b and c are warned of, with their own time and point (c's near face meets b's at
    1.3 m in 1.16 s), and a and b still touch."""
    bodies = {name: body(pose_topic=f'/{name}') for name in 'abc'}
    m = Monitor(config(bodies, trigger_ticks=1, ignore_pairs=['c|a']))
    for t in (0.0, 0.02, 0.04):
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (0.8, 0.0, 0.0), 'c': (3.0 - t, 0.0, 0.0)})
    report = m.tick(0.04)
    assert [w[:2] for w in report.warnings] == [(1, 2)]
    warning = report.warnings[0][2]
    assert abs(warning.time - 1.16) < 1e-6 and abs(warning.point[0] - 1.3) < 1e-6
    assert report.contacts.pairs.tolist() == [[0, 1]]


def test_contacts_are_listed_by_pair_whatever_order_the_engine_found_them_in(monkeypatch):
    """Five overlapping squares, the engine's contacts handed over in a shuffled order (as
    its candidate pairs come after refits): the report lists every contact once, by pair,
    each with its own depth and points, and without the ignored pair."""
    bodies = {name: body(pose_topic=f'/{name}') for name in 'abcde'}
    m = Monitor(config(bodies, ignore_pairs=['d|b']))
    feed(m, 0.0, {name: (0.3 * k, 0.1 * k, 0.2 * k) for k, name in enumerate('abcde')})
    found = m.world.detect
    shuffled = []

    def detect(stamp=None):
        contacts = found(stamp=stamp)
        order = np.random.default_rng(3).permutation(len(contacts))
        shuffled.append(contacts.take(order))
        return shuffled[-1]
    monkeypatch.setattr(m.world, 'detect', detect)
    listed = m.tick(0.0).contacts
    given = shuffled[0]
    assert given.pairs.tolist() != sorted(given.pairs.tolist())
    expected = sorted(p for p in given.pairs.tolist() if p != [1, 3])
    assert listed.pairs.tolist() == expected and len(expected) == 9
    for c, pair in enumerate(listed.pairs.tolist()):
        g = given.pairs.tolist().index(pair)
        assert listed.depth[c] == given.depth[g]
        np.testing.assert_array_equal(listed[c].points, given[g].points)


def test_two_contacts_found_in_reverse_are_listed_by_pair(monkeypatch):
    """Three squares in a row, each touching the next: the engine's two contacts handed
    over the other way round are listed by pair all the same."""
    m = Monitor(config({name: body(pose_topic=f'/{name}') for name in 'abc'}))
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.9, 0.0, 0.0), 'c': (1.8, 0.0, 0.0)})
    found = m.world.detect
    given = []

    def detect(stamp=None):
        contacts = found(stamp=stamp)
        contacts = contacts.take(np.argsort(-contacts.pairs[:, 0]))
        given.append(contacts.pairs.tolist())
        return contacts
    monkeypatch.setattr(m.world, 'detect', detect)
    listed = m.tick(0.0).contacts.pairs.tolist()
    assert given == [[[1, 2], [0, 1]]] and listed == [[0, 1], [1, 2]]


def test_stale_bodies_leave_the_tick_and_are_reported():
    m = two_movers(pose_timeout=0.1)
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    assert len(m.tick(0.05).contacts) == 1
    feed(m, 0.2, {'a': (0.0, 0.0, 0.0)})
    report = m.tick(0.2)
    assert report.stale == [m.index['b']] and len(report.contacts) == 0
    assert report.state_changed


def test_disabled_monitor_reports_nothing():
    m = two_movers()
    m.enabled = False
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    assert len(m.tick(0.0).contacts) == 0


def test_clock_jump_backwards_resets_histories():
    m = two_movers()
    approach(m, 0.2)
    feed(m, 100.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    m.tick(100.0)
    report = m.tick(1.0)
    assert report.clock_jumped
    assert len(report.contacts) == 0 and report.warnings == []  # nothing fresh after the reset
    assert report.stale == []  # and nothing seen on the new time line, so nothing stale


def test_gate_scales_between_stop_and_slowdown():
    bodies = {'robot': body(pose_topic='/r'), 'box': body(pose_topic='/b')}
    m = Monitor(config(bodies, **{'gate.enabled': True, 'gate.body': 'robot',
                                  'gate.stop_time': 0.5, 'gate.slowdown_time': 1.5,
                                  'trigger_ticks': 1}))
    scales = []
    for t in np.arange(0.0, 2.2, 0.02):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (3.0 - t, 0.0, 0.0)})
        m.tick(t)
        scales.append((t, m.gate_scale(0.0, 0.0, 0.0)))  # the robot commanded to stand
    # contact at t = 2: full speed until TTC = 1.5 (t = 0.5), zero from TTC = 0.5 (t = 1.5)
    for t, s in scales[2:]:
        ttc = 2.0 - t
        expected = 1.0 if ttc >= 1.5 else (0.0 if ttc <= 0.5 else (ttc - 0.5) / 1.0)
        assert s == pytest.approx(expected, abs=1e-6)


def gate_monitor():
    bodies = {'robot': body(pose_topic='/r'), 'box': body(pose_topic='/b')}
    return Monitor(config(bodies, **{'gate.enabled': True, 'gate.body': 'robot',
                                     'gate.stop_time': 0.5, 'gate.slowdown_time': 1.5}))


def test_the_gate_predicts_the_robot_moving_as_commanded():
    """Box 3 m ahead (faces 2 m apart) and still: driving at it at 1 m/s meets it in 2 s
    (full speed), at 2 m/s in 1 s (half speed), at 4 m/s in 0.5 s (stop); backing off or
    turning on the spot passes."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (3.0, 0.0, 0.0)})
        m.tick(t)
    assert m.gate_scale(1.0, 0.0, 0.0) == 1.0
    assert m.gate_scale(2.0, 0.0, 0.0) == pytest.approx(0.5)
    assert m.gate_scale(4.0, 0.0, 0.0) == 0.0
    assert m.gate_scale(-4.0, 0.0, 0.0) == 1.0
    assert m.gate_scale(0.0, 0.0, 1.0) == 1.0


def test_in_contact_a_command_away_passes_and_one_into_it_stops():
    """Robot (yaw pi/2, facing +y) touching a box on its right (+x): its body-frame -y
    (world +x) pushes in, +y (world -x) backs away, forward (world +y) slides along."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, math.pi / 2), 'box': (0.9, 0.0, 0.0)})
        report = m.tick(t)
    assert len(report.contacts) == 1
    assert m.gate_scale(0.0, -0.5, 0.0) == 0.0   # world +x: into the box
    assert m.gate_scale(0.0, 0.5, 0.0) == 1.0    # world -x: away from it
    assert m.gate_scale(0.5, 0.0, 0.0) == 1.0    # world +y: along its face
    m.enabled = False                            # ~/enable false: commands pass
    assert m.gate_scale(0.0, -0.5, 0.0) == 1.0


def settled(m, poses, ticks=(0.0, 0.1, 0.2)):
    """Feed the same poses at each tick time and tick; return the last report."""
    for t in ticks:
        feed(m, t, poses)
        report = m.tick(t)
    return report


def test_the_gated_robot_listed_after_the_box_it_touches_is_gated_the_same():
    """bodies: [box, robot] (the robot is the pair's second body): pushing into the box it
    touches stops, backing away passes."""
    m = Monitor(config({'box': body(pose_topic='/b'), 'robot': body(pose_topic='/r')},
                       **{'gate.enabled': True, 'gate.body': 'robot'}))
    report = settled(m, {'robot': (0.0, 0.0, 0.0), 'box': (0.9, 0.0, 0.0)})
    assert [tuple(p) for p in report.contacts.pairs.tolist()] == [(0, 1)]
    assert m.gate_scale(0.5, 0.0, 0.0) == 0.0
    assert m.gate_scale(-0.5, 0.0, 0.0) == 1.0


@pytest.mark.parametrize('at', [(0.0, 0.0), (5.0, 3.0)])
def test_turning_a_corner_into_a_box_stops_and_turning_it_away_passes(at):
    """A long box overlaps only the robot's front-right corner, 5 cm deep from below (the
    contact normal -y, from robot to box): turning clockwise drives that corner down into
    it (w x r at (0.5, -0.5) is (-0.5, -0.5) for w = -1), counter-clockwise lifts it off."""
    m = gate_monitor()
    box = '[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]'
    assert m.footprint(m.index['box'], text=box) is None
    x, y = at  # r is measured from the robot's own origin, wherever it stands
    report = settled(m, {'robot': (x, y, 0.0), 'box': (x + 0.8, y - 0.95, 0.0)})
    assert len(report.contacts) == 1
    np.testing.assert_allclose(report.contacts[0].normal, [0.0, -1.0], atol=1e-12)
    assert m.gate_scale(0.0, 0.0, -1.0) == 0.0
    assert m.gate_scale(0.0, 0.0, 1.0) == 1.0


def test_a_fresh_robot_without_its_footprint_yet_is_stopped():
    """Poses arrive but the footprint (from its topic) has not: the robot takes part in no
    tick, so the gate cannot judge a command and stops it."""
    m = Monitor(config({'robot': body(pose_topic='/r', footprint='', footprint_topic='/fp'),
                        'box': body(pose_topic='/b')},
                       **{'gate.enabled': True, 'gate.body': 'robot'}))
    report = settled(m, {'robot': (0.0, 0.0, 0.0), 'box': (30.0, 0.0, 0.0)})
    assert not report.active[m.index['robot']] and report.stale == []
    assert m.gate_scale(0.3, 0.0, 0.0) == 0.0


def test_with_stop_and_slowdown_time_equal_a_meeting_at_that_time_stops():
    """stop_time == slowdown_time (allowed: a hard stop, no slowdown band): a command that
    meets the box exactly then (faces 2 m apart at 2 m/s: 1 s) gives 0; slower passes."""
    bodies = {'robot': body(pose_topic='/r'), 'box': body(pose_topic='/b')}
    m = Monitor(config(bodies, **{'gate.enabled': True, 'gate.body': 'robot',
                                  'gate.stop_time': 1.0, 'gate.slowdown_time': 1.0}))
    settled(m, {'robot': (0.0, 0.0, 0.0), 'box': (3.0, 0.0, 0.0)})
    assert m.gate_scale(2.0, 0.0, 0.0) == 0.0
    assert m.gate_scale(1.9, 0.0, 0.0) == 1.0


def test_two_ticks_at_the_same_clock_reading_are_no_clock_jump():
    """tick_on_source under sim time can tick twice at one reading: no reset, and the
    warning stays."""
    m = two_movers(trigger_ticks=1)
    approach(m, 0.1)
    report = m.tick(0.08)  # the last tick of approach was at 0.08
    assert not report.clock_jumped
    assert [w[:2] for w in report.warnings] == [(0, 1)]


def test_a_pose_exactly_pose_timeout_old_is_not_stale():
    m = two_movers(pose_timeout=0.5)
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    report = m.tick(0.5)
    assert report.stale == [] and report.active[:2].tolist() == [True, True]
    report = m.tick(0.5 + 1e-9)
    assert report.stale == [0, 1]


@pytest.mark.parametrize('bad', [(math.nan, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, math.inf),
                                 (0, 0, math.nan, 0, 0, 0), (2e3, 0, 0, 0, 0, 0),
                                 (0, 0, 0, 0, 0, -2e3)])
def test_a_command_not_finite_or_absurd_gives_zero_and_is_counted(bad):
    """A NaN, infinite or absurd command in any of its six values: all zeros out, the
    refusal counted for the gated body; the next good command passes again."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (30.0, 0.0, 0.0)})
        m.tick(t)
    command, reason = m.gate_command(bad)
    assert command == (0.0,) * 6 and reason == BAD_COMMAND
    assert m.health()[2] == {BAD_COMMAND: 1}
    assert m.gate_command((0.3, 0.0, 0.0, 0.0, 0.0, 0.1)) == ((0.3, 0.0, 0.0, 0.0, 0.0, 0.1),
                                                              None)


def test_a_stopped_command_is_all_positive_zeros():
    """The gate stops a command (pushing into a box it touches): every value is +0.0, none
    -0.0 (which a controller's sign test could read as a direction)."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (0.9, 0.0, 0.0)})
        m.tick(t)
    command, reason = m.gate_command((0.5, -0.1, 0.0, 0.0, 0.0, -0.2))
    assert reason is None and command == (0.0,) * 6
    assert all(math.copysign(1.0, v) == 1.0 for v in command)


def test_a_stale_robot_is_stopped():
    m = gate_monitor()
    feed(m, 0.0, {'robot': (0.0, 0.0, 0.0), 'box': (3.0, 0.0, 0.0)})
    m.tick(0.0)
    m.tick(5.0)  # no pose since: stale
    assert m.gate_scale(-1.0, 0.0, 0.0) == 0.0


# --- one bad message stops nothing ----------------------------------------------------------
def test_a_twist_beyond_the_limits_is_refused_and_others_go_on():
    m = two_movers()
    feed(m, 0.0, {'a': (10.0, 0.0, 0.0), 'b': (10.5, 0.0, 0.0)})
    assert m.twist(m.index['a'], 1e12, 0.0, 0.0) == BAD_TWIST
    assert m.twist(m.index['a'], 1.0, 0.0, 0.0) is None
    assert m.rejections[('a', BAD_TWIST)] == 1
    assert m.tick(0.0).contacts.name_pairs() == [
        ('a', 'b'), ('a', 'wall'), ('b', 'wall')]


def test_a_pose_jump_leaves_its_body_out_and_the_tick_runs():
    """x = 100 then 3e8 one millisecond later: 3e11 m/s, carried to the tick far beyond any
    map.  That body is refused for the tick (and stale until fresh poses), the others are
    monitored as before."""
    m = two_movers()
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    assert m.tick(0.0).contacts
    feed(m, 0.100, {'a': (100.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    feed(m, 0.101, {'a': (3e8, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    report = m.tick(0.11)
    a, b = m.index['a'], m.index['b']
    assert report.refused == [(a, IMPLAUSIBLE_MOTION)]
    assert not report.active[a] and report.active[b] and a in report.stale
    feed(m, 0.2, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    report = m.tick(0.2)
    assert report.active[a] and report.contacts.pairs.tolist() == [[a, b]]


def test_a_rebuilt_monitor_keeps_each_bodys_state_by_name():
    """b leaves, c joins: a keeps its pose history (moving, not stale, at its velocity) and the
    footprint it received on its topic; c starts unseen."""
    m = Monitor(config({'a': body(pose_topic='/a', footprint_topic='/fa'),
                        'b': body(pose_topic='/b')}))
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'a': (t, 0.0, 0.0), 'b': (5.0, 0.0, 0.0)})
    assert m.footprint(m.index['a'], [[-1, -1], [1, -1], [1, 1], [-1, 1]]) is None
    m.tick(0.2)
    new = m.rebuilt(config({'c': body(pose_topic='/c'),
                            'a': body(pose_topic='/a', footprint_topic='/fa')}))
    assert new.names == ('c', 'a')
    assert new.world.footprint('a').tolist() == [[-1, -1], [1, -1], [1, 1], [-1, 1]]
    report = new.tick(0.25)
    a, c = new.index['a'], new.index['c']
    # a is fresh; c, never posed, is inactive without being stale (as a body once seen is)
    assert report.active[a] and not report.active[c] and report.stale == []
    assert new.world.view().twists[a, 0] == pytest.approx(1.0)


@pytest.mark.parametrize('tick_rate, marker_rate, every', [(50.0, 10.0, 5), (50.0, 25.0, 2),
                                                           (20.0, 50.0, 1), (30.0, 30.0, 1)])
def test_markers_come_at_their_rate_on_a_jittery_clock(tick_rate, marker_rate, every):
    """Markers at the first tick, then every tick_rate / marker_rate ticks (at least one)
    whatever the clock's jitter up to a fifth of a period; anew after the clock jumps back."""
    m = Monitor(config({'a': body(pose_topic='/a')}, tick_rate=tick_rate,
                       marker_rate=marker_rate))
    jitter = np.random.default_rng(0).uniform(-0.2, 0.2, 200) / tick_rate
    times = np.arange(200) / tick_rate + jitter
    due = [k for k, t in enumerate(times) if m.markers_due(t)]
    assert due == list(range(0, 200, every))
    m.tick(times[-1])
    m.tick(0.0)  # the clock jumped back
    assert m.markers_due(0.0)


def test_a_pair_in_contact_is_never_also_warned_of():
    """Warnings are for pairs not touching: once b reaches a, the pair is in the contacts and
    out of the warnings on the same tick, the release hold notwithstanding; warned before."""
    m = two_movers(trigger_ticks=1, release_ticks=5)
    reports = approach(m, 3.0)
    touching = [r for r in reports if len(r.contacts)]
    assert touching and any(r.warnings for r in reports[:len(reports) - len(touching)])
    for r in touching:
        assert [tuple(p) for p in r.contacts.pairs.tolist()] == [(0, 1)]
        assert r.warnings == []


def test_a_footprint_posed_in_the_world_is_brought_into_the_body_frame_at_its_stamp():
    """Nav2's published_footprint is the footprint placed at the robot's pose, in the global
    frame: taken at its stamp through the body's pose there (linear between the samples
    around it), it is the footprint in the body frame again."""
    m = two_movers()
    body_frame = np.array([[0.6, 0.3], [-0.4, 0.3], [-0.4, -0.3], [0.6, -0.3]])
    for t, x, yaw in ((0.0, 1.0, 0.2), (0.1, 2.0, 0.4)):  # at 0.05: (1.5, -1.5, 0.3)
        feed(m, t, {'a': (x, -x, yaw)})
    c, s = math.cos(0.3), math.sin(0.3)
    posed = body_frame @ np.array([[c, s], [-s, c]]) + [1.5, -1.5]
    assert m.footprint_in(m.index['a'], 0.05, 'map', posed, 0.1) is None
    np.testing.assert_allclose(m.world.footprint('a'), body_frame, atol=1e-12)
    # in another frame it is the body frame already
    assert m.footprint_in(m.index['a'], 0.05, 'base_link', posed, 0.1) is None
    np.testing.assert_allclose(m.world.footprint('a'), posed, atol=1e-12)
    # stamped before the history: no pose to bring it in with
    assert 'no pose' in m.footprint_in(m.index['a'], -1.0, 'map', posed, 0.1)


def test_a_body_pose_at_a_time_comes_from_its_history():
    m = two_movers(pose_timeout=0.5)
    feed(m, 0.0, {'a': (0.0, 0.0, 3.0)})
    feed(m, 1.0, {'a': (2.0, 4.0, -3.0)})  # yaw unwrapped: -3 is 2 pi - 3 beyond 3
    x, y, yaw = m.pose_at(m.index['a'], 0.25)
    assert (x, y) == pytest.approx((0.5, 1.0))
    assert yaw == pytest.approx(3.0 + (2 * math.pi - 6) / 4)
    assert m.pose_at(m.index['a'], 1.5) == pytest.approx((2.0, 4.0, 2 * math.pi - 3.0))
    assert m.pose_at(m.index['a'], 1.6) is None and m.pose_at(m.index['a'], -0.1) is None
    assert m.pose_at(m.index['wall'], 123.0) == (10.0, 0.0, 0.0)
    for k in range(25):  # past the ring's length (16): it wraps round
        feed(m, k / 2, {'b': (k, 2.0 * k, 0.0)})
    assert m.pose_at(m.index['b'], 11.75) == pytest.approx((23.5, 47.0, 0.0))


def test_a_body_joining_keeps_the_contacts_and_warnings_of_the_others():
    """a and b touch since t = 0.5 (b crossing a at 1 m/s), c and d are warned of (d coming
    at c): e joins the set, and on the next tick a|b's contact still began at 0.5 and c|d is
    still warned of (one warnings message without it drops a warning a robot acts on)."""
    bodies = {n: body(pose_topic=f'/{n}') for n in 'abcd'}
    m = Monitor(config(bodies, trigger_ticks=2, release_ticks=5))
    for t in np.arange(0.0, 0.82, 0.02):
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (1.5 - t, 0.0, 0.0),
                    'c': (20.0, 0.0, 0.0), 'd': (23.5 - t, 0.0, 0.0)})
        report = m.tick(t)
    names = lambda r: {(m.names[i], m.names[j]) for i, j in r.contacts.pairs.tolist()}  # noqa
    assert names(report) == {('a', 'b')}
    began = report.contacts.began[0]
    assert began == pytest.approx(0.5, abs=1e-9)
    assert [(m.names[i], m.names[j]) for i, j, _ in report.warnings] == [('c', 'd')]
    bodies['e'] = body(pose_topic='/e')
    m = m.rebuilt(config(bodies, trigger_ticks=2, release_ticks=5))
    t = 0.82
    feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (1.5 - t, 0.0, 0.0), 'c': (20.0, 0.0, 0.0),
                'd': (23.5 - t, 0.0, 0.0), 'e': (50.0, 0.0, 0.0)})
    report = m.tick(t)
    assert names(report) == {('a', 'b')} and report.contacts.began[0] == began
    assert [(m.names[i], m.names[j]) for i, j, _ in report.warnings] == [('c', 'd')]


def test_each_documented_limit_refuses_just_beyond_it_and_takes_just_within():
    """docs/interfaces.md: a stamp more than 0.5 s in the future, a twist beyond 1e3 m/s or
    1e3 rad/s, a motion estimate beyond 1e5 m/s^2 are refused; just within, taken."""
    m = two_movers()
    a, b = m.index['a'], m.index['b']
    assert m.pose(a, 10.49, 'map', (0, 0, 0, 0, 0, 1), 10.0) is None
    assert m.pose(a, 10.5, 'map', (0, 0, 0, 0, 0, 1), 10.0) is None  # "more than" 0.5 s
    assert m.pose(a, 10.51, 'map', (0, 0, 0, 0, 0, 1), 10.0) == FUTURE_STAMP
    assert m.twist(a, 999.0, 0.0, 0.0) is None and m.twist(a, 0.0, 999.0, 999.0) is None
    assert m.twist(a, 1000.0, 0.0, 1000.0) is None
    assert m.twist(a, 0.0, 1001.0, 0.0) == BAD_TWIST
    assert m.twist(a, 0.0, 0.0, -1001.0) == BAD_TWIST
    for accel, refused in ((0.9e5, False), (1.1e5, True)):
        m = two_movers()
        for t in (0.0, 0.001, 0.002):  # x = a t^2 / 2: the fit's acceleration is a
            feed(m, t, {'a': (0.5 * accel * t * t, 0.0, 0.0), 'b': (50.0, 0.0, 0.0)})
        report = m.tick(0.002)
        assert (report.refused == [(a, IMPLAUSIBLE_MOTION)]) == refused, (accel, report.refused)
        assert report.active[b]


def test_a_rebuilt_monitor_keeps_counts_schedule_stale_bodies_and_topic_footprints():
    """Across a change of the body set: the refusal counts, the marker schedule, a body seen
    once and now stale (still reported stale), a footprint received on a topic (the body
    active with it), a body whose topic footprint has not come (inactive, not posed with the
    placeholder)."""
    bodies = {'a': body(pose_topic='/a', footprint='', footprint_topic='/fa'),
              'b': body(pose_topic='/b'),
              'c': body(pose_topic='/c', footprint='', footprint_topic='/fc')}
    m = Monitor(config(bodies, pose_timeout=0.5))
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (5.0, 0.0, 0.0), 'c': (9.0, 0.0, 0.0)})
    assert m.footprint(m.index['a'], [[-1, -1], [1, -1], [1, 1], [-1, 1]]) is None
    assert m.pose(m.index['b'], 0.0, 'odom', (0, 0, 0, 0, 0, 1), 0.0) == WRONG_FRAME
    assert m.pose(m.index['b'], 0.0, 'odom', (0, 0, 0, 0, 0, 1), 0.0) == WRONG_FRAME
    m.tick(1.0)  # every pose 1 s old: all stale
    assert m.markers_due(1.0)
    bodies['d'] = body(pose_topic='/d')
    m = m.rebuilt(config(bodies, pose_timeout=0.5))
    assert m.health()[2] == {WRONG_FRAME: 2}
    assert not m.markers_due(1.05)  # 0.1 s after the last markers at marker_rate 10 Hz
    feed(m, 1.1, {'a': (0.0, 0.0, 0.0), 'c': (9.0, 0.0, 0.0)})
    report = m.tick(1.1)
    assert report.stale == [m.index['b']]
    assert report.active[m.index['a']] and not report.active[m.index['c']]
    assert m.health()[:2] == (1, 1)  # a active; b stale (c and d never seen: not stale)


def test_the_debounce_of_a_pair_whose_body_left_goes_to_no_other_pair():
    """a|b and a|d warned (a first in the list); b leaves and e joins: on the next tick a|d
    is still warned of, and nothing else (b's pair must not land on a|c, now indices 0, 1)."""
    def at(t):  # b and d close on a from either side, c far off
        return {'a': (0.0, 0.0, 0.0), 'b': (2.5 - t, 0.0, 0.0), 'c': (20.0, 0.0, 0.0),
                'd': (-3.0 + t, 0.0, 0.0)}

    bodies = {n: body(pose_topic=f'/{n}') for n in 'abcd'}
    m = Monitor(config(bodies, trigger_ticks=2, release_ticks=5))
    for t in (0.0, 0.02, 0.04, 0.06):
        feed(m, t, at(t))
        report = m.tick(t)
    assert {(m.names[i], m.names[j]) for i, j, _ in report.warnings} == {('a', 'b'), ('a', 'd')}
    del bodies['b']
    bodies['e'] = body(pose_topic='/e')
    m = m.rebuilt(config(bodies, trigger_ticks=2, release_ticks=5))
    place = {k: v for k, v in at(0.08).items() if k != 'b'}
    feed(m, 0.08, {**place, 'e': (60.0, 0.0, 0.0)})
    report = m.tick(0.08)
    assert [(m.names[i], m.names[j]) for i, j, _ in report.warnings] == [('a', 'd')]


def test_refusals_count_up_and_a_pose_out_of_range_on_one_axis_is_refused():
    m = two_movers()
    a = m.index['a']
    for pose in ((2e9, 0, 0, 0, 0, 1), (0, -2e9, 0, 0, 0, 1), (2e9, 2e9, 0, 0, 0, 1)):
        assert m.pose(a, 0.0, 'map', pose, 0.0) == OUT_OF_RANGE
    assert m.health()[2] == {OUT_OF_RANGE: 3}
    assert m.pose(m.index['b'], 0.0, 'map', (2e9, 0, 0, 0, 0, 1), 0.0) == OUT_OF_RANGE
    assert m.health()[2] == {OUT_OF_RANGE: 4}  # summed over the bodies


@pytest.mark.parametrize('body_twist', [(1.0, 0.0), (0.0, 1.0), (0.6, -0.8)])
def test_an_odometry_twist_is_turned_into_the_world_by_the_body_yaw(body_twist):
    """a at yaw 0.6 rad with a measured body-frame twist: its world velocity is the twist
    turned by the yaw.  A box 3 m off that way is warned of, boxes the other three ways are
    not (the measured twist replaces the fitted one: a single pose, nothing fitted)."""
    yaw = 0.6
    c, s = math.cos(yaw), math.sin(yaw)
    d = np.array([c * body_twist[0] - s * body_twist[1], s * body_twist[0] + c * body_twist[1]])
    ways = {'ahead': d, 'left': np.array([-d[1], d[0]]), 'behind': -d,
            'right': np.array([d[1], -d[0]])}
    boxes = {name: body(pose_topic=f'/{name}') for name in ways}
    m = Monitor(config({'a': body(pose_topic='/a', pose_type='nav_msgs/Odometry'), **boxes},
                       trigger_ticks=1))
    feed(m, 0.0, {'a': (0.0, 0.0, yaw), **{n: (*(3.0 * w), 0.0) for n, w in ways.items()}})
    assert m.twist(m.index['a'], *body_twist, 0.0) is None
    report = m.tick(0.0)
    assert [(m.names[i], m.names[j]) for i, j, _ in report.warnings] == [('a', 'ahead')]


@pytest.mark.parametrize('model', ['arc', 'constant_acceleration'])
def test_a_pose_jump_of_an_odometry_robot_leaves_its_acceleration_to_its_twists(model):
    """An odometry robot driving at 1 m/s while turning at 0.4 rad/s, posed at 50 Hz,
    relocalised 0.1 m sideways at t = 1 s (a map -> odom correction): the twists it
    measures go on as before, so the acceleration the monitor holds stays the twist's own
    (centripetal in world axes, none along the path under ``arc``), on every tick of the
    window after the jump, and the robot stays in the tick (no implausible motion)."""
    v, w = 1.0, 0.4
    m = Monitor(config({'a': body(pose_topic='/a', pose_type='nav_msgs/Odometry')},
                       predictor=model))
    a = m.index['a']
    for t in np.arange(0.0, 1.6, 0.02):
        yaw = w * t
        x, y = v / w * math.sin(yaw), v / w * (1.0 - math.cos(yaw))
        if t >= 1.0:
            x, y = x - 0.1 * math.sin(yaw), y + 0.1 * math.cos(yaw)
        feed(m, t, {'a': (x, y, yaw)})
        assert m.twist(a, v, 0.0, w) is None
        report = m.tick(t)
        assert not report.refused
        view = m.world.view()
        held = [0.0, 0.0] if model == 'arc' else [-w * v * math.sin(yaw), w * v * math.cos(yaw)]
        assert view.accelerations[a, :2] == pytest.approx(held, abs=1e-6), t
        assert view.accelerations[a, 2] == pytest.approx(0.0, abs=1e-6), t
        assert view.twists[a] == pytest.approx([v * math.cos(yaw), v * math.sin(yaw), w],
                                               abs=1e-6), t


def test_a_whole_bulk_message_refused_is_index_minus_one_and_seen_flags_follow_poses():
    """A bulk message refused whole (wrong frame, non-finite or future stamp) is reported
    with index -1 (no body); of a message with one bad pose, the bodies whose poses were
    taken are seen (stale once the source goes quiet), the refused one is not."""
    m = Monitor(config({'p': body(), 'q': body(), 'r': body()},
                       sources={'tracker': ['p', 'q', 'r']}, pose_timeout=0.5))
    rows = np.array([[0.0, 0, 0, 0, 0, 0, 1], [5.0, 0, 0, 0, 0, 0, 1], [9.0, 0, 0, 0, 0, 0, 1]])
    assert m.bulk('tracker', 0.0, 'odom', rows, 0.0) == [(-1, WRONG_FRAME)]
    assert m.bulk('tracker', math.nan, 'map', rows, 0.0) == [(-1, NON_FINITE)]
    assert m.bulk('tracker', 0.51, 'map', rows, 0.0) == [(-1, FUTURE_STAMP)]
    assert m.bulk('tracker', 0.5, 'map', rows[:0], 0.0) == [(-1, BAD_BULK)]
    bad = rows.copy()
    bad[1, 0] = math.nan
    # exactly the future tolerance ahead is taken
    assert m.bulk('tracker', 0.5, 'map', bad, 0.0) == [(m.index['q'], NON_FINITE)]
    assert m.tick(1.1).stale == [m.index['p'], m.index['r']]
    assert m.bulk('tracker', 0.6, 'map', rows, 1.1) == []  # every pose taken
    assert m.tick(1.2).stale == [m.index['p'], m.index['q'], m.index['r']]


@pytest.mark.parametrize('n, taken', [(8, True), (9, False)])
def test_footprint_points_up_to_max_vertices_are_taken(n, taken):
    m = Monitor(config({'a': body(pose_topic='/a')}, max_vertices=8))
    angles = np.arange(n) * 2 * np.pi / n
    error = m.footprint(0, np.column_stack([np.cos(angles), np.sin(angles)]))
    assert (error is None) == taken, error


def test_a_collision_under_a_second_away_is_warned_of_with_its_time():
    """b closing on a's face at 2 m/s: warned 1.25 s ahead, then 0.65 s ahead (not taken
    for touching)."""
    m = two_movers(trigger_ticks=1)
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (3.5 - 2.0 * (t - 0.2), 0.0, 0.0)})
        report = m.tick(t)
    assert [(i, j) for i, j, _ in report.warnings] == [(0, 1)]
    assert report.warnings[0][2].time == pytest.approx(1.25, abs=1e-9)
    for t in (0.5, 0.8):
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (3.5 - 2.0 * (t - 0.2), 0.0, 0.0)})
    report = m.tick(0.8)
    assert report.warnings[0][2].time == pytest.approx(0.65, abs=1e-9)


def test_the_state_changes_only_when_it_does_and_a_warning_survives_a_missing_tick():
    """Two ticks alike: the state changed on the first only.  A warned pair not predicted
    for one tick (monitoring disabled for it) and predicted again stays warned."""
    m = two_movers(trigger_ticks=1, release_ticks=3)
    feed(m, 0.0, {'a': (0.0, 0.0, 0.0), 'b': (0.5, 0.0, 0.0)})
    assert m.tick(0.0).state_changed and not m.tick(0.01).state_changed
    m = two_movers(trigger_ticks=1, release_ticks=3)
    for t in (0.0, 0.1, 0.2):  # warned from the second pose (a velocity) on
        feed(m, t, {'a': (0.0, 0.0, 0.0), 'b': (2.5 - t, 0.0, 0.0)})
        assert [w[:2] for w in m.tick(t).warnings] == ([(0, 1)] if t else [])
    m.enabled = False  # nothing predicted for one tick
    feed(m, 0.3, {'a': (0.0, 0.0, 0.0), 'b': (2.2, 0.0, 0.0)})
    m.tick(0.3)
    m.enabled = True
    feed(m, 0.4, {'a': (0.0, 0.0, 0.0), 'b': (2.1, 0.0, 0.0)})
    assert [w[:2] for w in m.tick(0.4).warnings] == [(0, 1)]


@pytest.mark.parametrize('command, passed', [
    ((0, 0, 0, 2e3, 0, 0), False), ((0, 0, 0, 0, 2e3, 0), False),
    ((1000, 0, 0, 0, 0, 1000), True), ((999, 0, 0, 999, 0, 0), True)])
def test_each_value_of_a_command_is_held_to_its_own_limit(command, passed):
    """Speed (m/s) from the three linear values, turn rate (rad/s) from the three angular
    ones, each at most 1e3; any of the six beyond refuses the command."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (3000.0, 0.0, 0.0)})
        m.tick(t)
    out, reason = m.gate_command(command)
    assert (reason is None) == passed and (out == tuple(float(v) for v in command)) == passed


def test_the_gated_command_sideways_into_a_box_stops():
    """The robot touches a box on its right (-y): a command sideways into it (vy < 0)
    gives zeros, away (vy > 0) passes whole."""
    m = gate_monitor()
    for t in (0.0, 0.1, 0.2):
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': (0.0, -0.9, 0.0)})
        m.tick(t)
    assert m.gate_command((0.0, -0.3, 0.0, 0.0, 0.0, 0.0)) == ((0.0,) * 6, None)
    away = (0.0, 0.3, 0.0, 0.0, 0.0, 0.0)
    assert m.gate_command(away) == (away, None)


def test_the_gate_slows_linearly_over_a_band_of_any_width():
    """stop 0.5 s, slowdown 2.5 s (a band 2 s wide): meeting the box in 1.5 s gives half."""
    bodies = {'robot': body(pose_topic='/r'), 'box': body(pose_topic='/b')}
    m = Monitor(config(bodies, **{'gate.enabled': True, 'gate.body': 'robot',
                                  'gate.stop_time': 0.5, 'gate.slowdown_time': 2.5}))
    settled(m, {'robot': (0.0, 0.0, 0.0), 'box': (4.0, 0.0, 0.0)})
    assert m.gate_scale(2.0, 0.0, 0.0) == pytest.approx(0.5)  # 3 m at 2 m/s


@pytest.mark.parametrize('axis', [0, 1])
def test_backing_away_slower_than_a_box_closes_in_still_pushes_into_it(axis):
    """The box (listed first) touches the robot ahead (x) or on its left (y) and comes on at
    0.5 m/s: backing off at 0.3 m/s still closes on it, so the gate stops it; at 0.8 m/s it
    gets away."""
    m = Monitor(config({'box': body(pose_topic='/b'), 'robot': body(pose_topic='/r')},
                       **{'gate.enabled': True, 'gate.body': 'robot'}))
    for t in (0.0, 0.1, 0.2):
        box = [0.0, 0.0, 0.0]
        box[axis] = 0.9 - 0.5 * t
        feed(m, t, {'robot': (0.0, 0.0, 0.0), 'box': tuple(box)})
        m.tick(t)
    for speed, scale in ((0.3, 0.0), (0.8, 1.0)):
        command = [0.0, 0.0, 0.0]
        command[axis] = -speed
        assert m.gate_scale(*command) == scale


@pytest.mark.parametrize('box, normal, command', [
    # a long box under the front-right corner: driving away (+y) outruns turning in
    ((0.8, -0.95), (0.0, -1.0), (0.0, 0.3, -0.5)),
    # a tall box beside the front-right corner: backing (-x) outruns turning in
    ((0.95, -0.15), (1.0, 0.0), (-0.3, 0.0, -0.8))])
def test_a_corner_turning_in_while_the_robot_drives_away_faster_passes(box, normal, command):
    """The robot at (5, 3): each contact point's velocity is v + w x (p - robot origin);
    here the drive away outweighs the turn in at every point of the contact, so the command
    passes, though turning alone would push in."""
    m = gate_monitor()
    shape = ('[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]' if normal[0] == 0.0 else
             '[[0.5, 0.35], [-0.5, 0.35], [-0.5, -0.35], [0.5, -0.35]]')
    assert m.footprint(m.index['box'], text=shape) is None
    report = settled(m, {'robot': (5.0, 3.0, 0.0), 'box': (5.0 + box[0], 3.0 + box[1], 0.0)})
    np.testing.assert_allclose(report.contacts[0].normal, normal, atol=1e-12)
    assert m.gate_scale(*command) == 1.0
    assert m.gate_scale(0.0, 0.0, command[2]) == 0.0


@pytest.mark.parametrize('w', [1.0, 1.5, -1.0])
def test_the_gate_lets_a_robot_turn_in_place_beside_a_shelf_and_stops_one_turning_into_it(w):
    """A 1 x 1 m robot beside a shelf (static, 5, 20 or 40 cm beyond the circle its corners
    sweep) turns in place freely, at any rate: the command is moved as the robot would move
    under it, turning about its origin.  With the shelf 10 cm inside that circle, the turn
    meets it within stop_time: 0."""
    r = math.sqrt(0.5)
    for spare, expected in ((0.05, 1.0), (0.2, 1.0), (0.4, 1.0), (-0.1, 0.0)):
        shelf = '[[0.0, -2.0], [0.5, -2.0], [0.5, 2.0], [0.0, 2.0]]'
        m = Monitor(config({'robot': body(pose_topic='/r'),
                            'shelf': body(static=True, footprint=shelf,
                                          pose=[r + spare, 0.0, 0.0])},
                           **{'gate.enabled': True, 'gate.body': 'robot',
                              'gate.stop_time': 0.5, 'gate.slowdown_time': 1.5}))
        settled(m, {'robot': (0.0, 0.0, 0.0)})
        assert m.gate_scale(0.0, 0.0, w) == expected, spare


@pytest.mark.parametrize('predictor, warned', [('arc', False), ('constant_acceleration', True)])
def test_a_robot_seen_turning_in_place_from_its_poses_alone_is_not_warned_of_a_shelf(
        predictor, warned):
    """Poses only (no twist message) of a 1 x 1 m robot turning in place at 1.2 rad/s, a
    shelf 0.3 m beyond the circle its corners sweep: the estimate (turn rate from the poses,
    the centripetal acceleration of its corners) predicts no collision under arc over 2 s
    of ticks, where the seed's point model warns."""
    r = math.sqrt(0.5)
    shelf = '[[0.0, -2.0], [0.5, -2.0], [0.5, 2.0], [0.0, 2.0]]'
    m = Monitor(config({'robot': body(pose_topic='/r'),
                        'shelf': body(static=True, footprint=shelf, pose=[r + 0.3, 0.0, 0.0])},
                       predictor=predictor))
    reports = []
    for t in np.arange(0.0, 2.0, 0.02):
        feed(m, t, {'robot': (0.0, 0.0, 1.2 * t)})
        reports.append(m.tick(t))
    assert any(r.warnings for r in reports) == warned
