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
"""Hostile input at the monitor's message boundary and at the engine API.

The property: garbage is refused with a reason and counted, nothing raises, and the valid
bodies' contacts and warnings are bit-identical with and without the garbage traffic.
"""

import math

from hypothesis import example, given, HealthCheck, settings, strategies as st
import numpy as np
import pytest

from collision_monitor import CollisionWorld
from collision_monitor.monitor.config import build_config, default_values, parse_footprint
from collision_monitor.monitor.monitor import Monitor

SQUARE = '[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]'
FRAME = 'map'


def make_monitor():
    def body(**kw):
        v = {'pose_topic': '', 'pose_type': 'geometry_msgs/PoseStamped', 'footprint': SQUARE,
             'footprint_topic': '', 'static': False, 'pose': [0.0, 0.0, 0.0]}
        v.update(kw)
        return v
    values = default_values()
    values.update(bodies=['a', 'b', 'c', 'spare', 'p', 'q'], sources=['tracker'],
                  trigger_ticks=1, max_vertices=16)
    bodies = {'a': body(pose_topic='/a'), 'b': body(pose_topic='/b'),
              'c': body(static=True, pose=[3.0, 0.0, 0.0]),
              'spare': body(pose_topic='/s', footprint='', footprint_topic='/fs'),
              'p': body(), 'q': body()}
    sources = {'tracker': {'topic': '/t', 'bodies': ['p', 'q']}}
    return Monitor(build_config(values, bodies, sources))


def valid_stream(ticks=40, dt=0.02):
    """a at rest, b approaching a, p and q in bulk crossing each other."""
    events = []
    for k in range(ticks):
        t = k * dt
        events.append(('pose', 'a', t, 0.0, 0.0, 0.0))
        events.append(('pose', 'b', t, 2.0 - 0.8 * t, 0.3, 0.1 * t))
        events.append(('bulk', t, [(10.0 + t, 0.0), (12.0 - t, 0.2)]))
        events.append(('tick', t))
    return events


def quat(yaw):
    return 0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)


def play(monitor, events):
    """Feed events; return what every tick reported, as exact tuples."""
    out = []
    for e in events:
        if e[0] == 'pose':
            _, name, t, x, y, yaw = e
            monitor.pose(monitor.index[name], t, FRAME, (x, y, *quat(yaw)), t)
        elif e[0] == 'bulk':
            _, t, xys = e
            rows = np.array([[x, y, 0.0, *quat(0.0)] for x, y in xys])
            monitor.bulk('tracker', t, FRAME, rows, t)
        elif e[0] == 'garbage':
            e[1](monitor)
        else:
            r = monitor.tick(e[1])
            out.append((
                tuple((i, j, c.kind, c.depth, tuple(c.normal), c.points.tobytes(), began)
                      for (i, j), (_, _, c), began in zip(r.contacts.pairs.tolist(),
                                                          r.contacts,
                                                          r.contacts.began.tolist())),
                tuple((i, j, w.time, w.vertex_of, w.vertex, w.edge, w.point.tobytes())
                      for i, j, w in r.warnings),
                tuple(r.stale)))
    return out


nasty = st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -1e308, 1e10])


@st.composite
def garbage(draw):
    """A callable that feeds the monitor one piece of input it must refuse."""
    kind = draw(st.sampled_from(['nan_pose', 'zero_q', 'nan_q', 'frame', 'old', 'future',
                                 'bulk_shape', 'bulk_nan', 'bulk_frame', 'footprint',
                                 'footprint_text', 'far']))
    name = draw(st.sampled_from(['a', 'b', 'spare']))
    value = draw(nasty)
    when = draw(st.floats(0.0, 0.8))

    def feed(m):
        b = m.index[name]
        h = m.history
        last = h.hist[b, h.head[b], 0] if h.count[b] else -math.inf  # the newest stamp
        if kind == 'nan_pose':
            m.pose(b, when, FRAME, (value if not math.isfinite(value) else math.nan, 0.0,
                                    *quat(0.0)), when)
        elif kind == 'zero_q':
            m.pose(b, last + 0.001, FRAME, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0), last + 0.001)
        elif kind == 'nan_q':
            m.pose(b, last + 0.001, FRAME, (0.0, 0.0, 0.0, 0.0, math.nan, 1.0), last + 0.001)
        elif kind == 'frame':
            m.pose(b, last + 0.001, draw_frame, (0.0, 0.0, *quat(0.0)), last + 0.001)
        elif kind == 'old' and last > -math.inf:
            m.pose(b, last - 0.5, FRAME, (0.0, 0.0, *quat(0.0)), last)
        elif kind == 'future':
            m.pose(b, when + 100.0, FRAME, (0.0, 0.0, *quat(0.0)), when)
        elif kind == 'bulk_shape':
            m.bulk('tracker', when, FRAME, np.zeros((draw_rows, 7)), when)
        elif kind == 'bulk_nan':
            rows = np.full((2, 7), value)
            m.bulk('tracker', max(when, 10.0) + 100.0, FRAME, rows, when)
        elif kind == 'bulk_frame':
            m.bulk('tracker', when, 'odom', np.zeros((2, 7)), when)
        elif kind == 'footprint':
            m.footprint(m.index['spare'], draw_points)
        elif kind == 'footprint_text':
            m.footprint(m.index['spare'], text=draw_text)
        elif kind == 'far':
            m.pose(b, last + 0.001, FRAME, (2e9, 0.0, *quat(0.0)), last + 0.001)

    draw_frame = draw(st.sampled_from(['', 'odom', 'base_link', 'map ', 'MAP']))
    draw_rows = draw(st.sampled_from([0, 1, 3, 1000]))
    draw_points = draw(st.sampled_from([
        [[0, 0], [1, 1], [1, 0], [0, 1]],                      # self-crossing
        [[0, 0], [1, 0], [2, 0]],                              # collinear
        [[0, 0], [1, 0], [1, 0], [0, 1]],                      # duplicate vertex
        [[math.cos(a), math.sin(a)] for a in np.linspace(0, 6, 40)],  # over max_vertices
        [[0, 0], [math.nan, 1], [1, 0]],
        [[0, 0]],
    ]))
    draw_text = draw(st.text(max_size=60) | st.sampled_from([
        '[[0,0],[1,1],[1,0],[0,1]]', '[[1,2]]', '__import__("os")', '[[1e999, 0], [0, 1]]',
        '[' * 500, '[[0,0],[1,0],[0,1]] extra']))
    return feed, kind


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 159), garbage()), max_size=40))
def test_garbage_is_refused_and_changes_nothing(inserts):
    clean = play(make_monitor(), valid_stream())
    events = valid_stream()
    for position, (feed, _) in sorted(inserts, key=lambda x: -x[0]):
        events.insert(position, ('garbage', feed))
    dirty_monitor = make_monitor()
    dirty = play(dirty_monitor, events)
    assert dirty == clean
    assert not dirty_monitor.has_footprint[dirty_monitor.index['spare']]


def test_the_valid_stream_has_contacts_and_warnings():
    reports = play(make_monitor(), valid_stream())
    assert any(r[0] for r in reports) and any(r[1] for r in reports)


def test_determinism_same_inputs_same_bits():
    assert play(make_monitor(), valid_stream()) == play(make_monitor(), valid_stream())


@given(st.text(max_size=200))
def test_footprint_strings_never_crash_the_parser(text):
    try:
        poly = parse_footprint(text, max_vertices=64)
    except ValueError:
        return
    assert poly.shape[1] == 2 and np.isfinite(poly).all()


coords = st.floats(allow_nan=True, allow_infinity=True, width=64)


@given(st.lists(st.tuples(coords, coords), max_size=12))
@example([(-4.463006409493917e+169, 4.02798689923048e+138), (1.268462713566686e+156, 0.0),
          (0.0, 0.0)])  # once overflowed the bounding radius squared
def test_engine_registration_refuses_with_value_error(points):
    world = CollisionWorld()
    try:
        world.add_body('x', points)
    except ValueError:
        return
    assert world.names == ('x',)


@given(st.lists(st.tuples(coords, coords, coords), min_size=1, max_size=3))
def test_engine_poses_refuse_with_value_error(poses):
    world = CollisionWorld()
    for k in range(len(poses)):
        world.add_body(f'b{k}', [[0, 0], [1, 0], [0, 1]])
    try:
        world.set_poses(poses)
    except ValueError:
        assert not world.active.any()
        return
    world.detect()
    world.set_twists(np.zeros((len(poses), 3)))
    world.predict(1.0)


def test_oversized_footprint_is_refused_not_stored():
    m = make_monitor()
    big = [[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * np.pi, 1000, endpoint=False)]
    assert 'max_vertices' in m.footprint(m.index['spare'], big)
    with pytest.raises(ValueError, match='max_vertices'):
        parse_footprint(str(big), max_vertices=16)
