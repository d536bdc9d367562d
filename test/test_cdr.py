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
"""The CDR writers against rclpy's serializer, and the markers of a tick against the world.

rclpy leaves padding bytes as they were in its buffer, so the bytes are compared as
messages: ours read back by rclpy's deserializer equal the reference message serialized and
read back by rclpy (which also rounds colors to float32), and both have the same length.
"""

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import Point
from hypothesis import given, strategies as st
import numpy as np
import pytest
from rclpy.serialization import deserialize_message, serialize_message
from std_msgs.msg import Header
from visualization_msgs.msg import Marker, MarkerArray

from collision_monitor import World
from collision_monitor.monitor.monitor import TickReport
from collision_monitor.ros import cdr
from collision_monitor.ros.messages import MARKER_NAMESPACES, marker_table, OutputWriter, \
    TimeBase

TEXT = st.text(st.characters(blacklist_characters='\0', blacklist_categories=('Cs',)),
               max_size=12)
STAMPS = st.integers(0, 2**31 * 10**9 - 1)


def header(stamp_ns, frame_id):
    return Header(frame_id=frame_id, stamp=Time(sec=stamp_ns // 10**9,
                                                nanosec=stamp_ns % 10**9))


DIAGNOSTICS = cdr.DiagnosticArrayWriter()
"""One writer for every example: its buffer is reused and grows (small at first)."""


def same_message(ours, reference, kind):
    """Our bytes and the reference message read back through rclpy are equal."""
    theirs = bytes(serialize_message(reference))
    assert ours[:4] == b'\x00\x01\x00\x00' and len(ours) == len(theirs)
    assert deserialize_message(ours, kind) == deserialize_message(theirs, kind)


@given(STAMPS, TEXT, st.lists(st.tuples(st.integers(0, 3), TEXT, TEXT,
                                        st.lists(st.tuples(TEXT, TEXT), max_size=4)),
                              max_size=12))
def test_diagnostic_arrays_read_back_as_rclpy_writes_them(stamp, frame, statuses):
    ours = DIAGNOSTICS.encode(stamp, frame, statuses)
    same_message(ours, DiagnosticArray(header=header(stamp, frame), status=[
        DiagnosticStatus(level=bytes((level,)), name=name, message=message,
                         values=[KeyValue(key=k, value=v) for k, v in values])
        for level, name, message, values in statuses]), DiagnosticArray)


EDGE_STAMPS = [sec * 10**9 + ns for sec in (0, 1, 1_795_444_844, 2**31 - 1)
               for ns in (0, 1, 999_999_999)]
"""Stamps at either end of a second: a float division would round the last nanosecond of
a late second up into the next."""


@pytest.mark.parametrize('stamp', EDGE_STAMPS)
def test_stamps_at_the_ends_of_a_second_keep_their_second(stamp):
    ours = DIAGNOSTICS.encode(stamp, 'map', [])
    same_message(ours, DiagnosticArray(header=header(stamp, 'map')), DiagnosticArray)
    world = World()
    tables = marker_table(TickReport(stamp=0.0, active=world.active), world, world.names)
    ours = cdr.MarkerArrayWriter().encode(stamp, *tables)
    same_message(ours, reference_markers(stamp, *tables), MarkerArray)


@st.composite
def marker_tables(draw):
    strings = draw(st.lists(TEXT, min_size=1, max_size=5))
    m = draw(st.integers(0, 6))
    p = draw(st.integers(0, 9))
    finite = st.floats(allow_nan=False, width=64)
    ints = np.zeros((m, cdr.INT_COLUMNS), np.int64)
    for row in ints:
        first = draw(st.integers(0, p))
        row[:] = (draw(st.integers(-1, len(strings) - 1)), draw(st.integers(-2**31, 2**31 - 1)),
                  draw(st.integers(0, 12)), draw(st.sampled_from([0, 2, 3])),
                  draw(st.integers(-1, len(strings) - 1)), first, draw(st.integers(first, p)),
                  draw(st.integers(0, 1)))
    reals = np.array(draw(st.lists(st.lists(finite, min_size=14, max_size=14), min_size=m,
                                   max_size=m)), dtype=float).reshape(m, 14)
    points = np.array(draw(st.lists(st.tuples(finite, finite), min_size=p, max_size=p)),
                      dtype=float).reshape(p, 2)
    return strings, ints, reals, points


def reference_markers(stamp, strings, ints, reals, points):
    """The MarkerArray the tables describe, built field by field as rclpy messages."""
    markers = []
    for row, r in zip(ints.tolist(), reals.tolist()):
        ns, mid, kind, action, text, first, end, closed = row
        m = Marker(header=header(stamp, strings[0]), ns=strings[ns] if ns >= 0 else '',
                   id=mid, type=kind, action=action, text=strings[text] if text >= 0 else '')
        position, orientation = m.pose.position, m.pose.orientation
        position.x, position.y, position.z = r[0:3]
        orientation.x, orientation.y, orientation.z, orientation.w = r[3:7]
        m.scale.x, m.scale.y, m.scale.z = r[7:10]
        # rclpy refuses floats beyond float32's range; the CDR float32 of those is +-inf
        with np.errstate(over='ignore'):
            color = [float(np.float32(v)) for v in r[10:14]]
        m.color.r, m.color.g, m.color.b, m.color.a = color
        rows = list(range(first, end)) + ([first] if closed and end > first else [])
        m.points = [Point(x=points[k][0], y=points[k][1]) for k in rows]
        markers.append(m)
    return MarkerArray(markers=markers)


@given(STAMPS, marker_tables())
def test_marker_arrays_read_back_as_rclpy_writes_them(stamp, tables):
    ours = cdr.MarkerArrayWriter().encode(stamp, *tables)
    same_message(ours, reference_markers(stamp, *tables), MarkerArray)


def test_the_writer_grows_its_buffer_and_leaves_no_stale_bytes():
    writer = cdr.MarkerArrayWriter()
    strings = ['map', 'x' * 3000]
    ints = np.array([[1, 0, 4, 0, 1, 0, 500, 1]], np.int64)
    reals = np.ones((1, cdr.FLOAT_COLUMNS))
    points = np.arange(1000.0).reshape(500, 2)
    big = writer.encode(7, strings, ints, reals, points)
    same_message(big, reference_markers(7, strings, ints, reals, points), MarkerArray)
    small = writer.encode(8, ['map'], np.zeros((0, cdr.INT_COLUMNS), np.int64),
                          np.zeros((0, cdr.FLOAT_COLUMNS)), np.zeros((0, 2)))
    same_message(small, MarkerArray(), MarkerArray)


def test_a_new_writer_grows_for_many_markers():
    """150 markers of two short strings each, far more than a new writer's buffer holds: its
    size estimate counts every row."""
    rng = np.random.default_rng(5)
    m = 150
    strings = ['map'] + [f'namespace_{k}' for k in range(10)]
    ints = np.zeros((m, cdr.INT_COLUMNS), np.int64)
    ints[:, cdr.NS] = rng.integers(1, len(strings), m)
    ints[:, cdr.ID] = np.arange(m)
    ints[:, cdr.TYPE] = 4
    ints[:, cdr.TEXT] = rng.integers(-1, len(strings), m)
    ints[:, cdr.FIRST] = np.arange(m) * 3
    ints[:, cdr.END] = np.arange(m) * 3 + 3
    ints[:, cdr.CLOSED] = 1
    reals = rng.uniform(-1.0, 1.0, (m, cdr.FLOAT_COLUMNS))
    points = rng.uniform(-10.0, 10.0, (3 * m, 2))
    ours = cdr.MarkerArrayWriter().encode(9, strings, ints, reals, points)
    assert len(ours) > 8 * 512
    same_message(ours, reference_markers(9, strings, ints, reals, points), MarkerArray)


def test_a_new_writer_grows_for_many_points():
    """One closed line strip of 2,000 points and short strings: the points (and the closing
    one) are most of the message, and the size estimate counts each."""
    strings = ['map', 'ns']
    ints = np.array([[1, 0, 4, 0, -1, 0, 2000, 1]], np.int64)
    reals = np.ones((1, cdr.FLOAT_COLUMNS))
    points = np.random.default_rng(6).uniform(-5.0, 5.0, (2000, 2))
    ours = cdr.MarkerArrayWriter().encode(3, strings, ints, reals, points)
    assert len(ours) > 24 * 2000
    same_message(ours, reference_markers(3, strings, ints, reals, points), MarkerArray)


def test_a_reused_writer_leaves_nothing_of_the_message_before():
    """A writer that just wrote 2,000 random points writes smaller tables over those bytes:
    every field it does not fill from the table (lifetime, frame_locked, each point's z)
    is still written, so the result reads back as rclpy writes it."""
    rng = np.random.default_rng(8)
    writer = cdr.MarkerArrayWriter()
    ints = np.array([[1, 0, 4, 0, -1, 0, 2000, 0]], np.int64)
    writer.encode(1, ['map', 'ns'], ints, rng.uniform(1.0, 2.0, (1, cdr.FLOAT_COLUMNS)),
                  rng.uniform(1.0, 2.0, (2000, 2)))
    for frame in ('m', 'map_frame', 'a' * 37):
        rows = [[1, 0, 4, 0, -1, 0, 30, 1], [-1, 1, 2, 0, 1, 30, 30, 0]] * 20
        tables = ([frame, 'x'], np.array(rows, np.int64),
                  rng.uniform(-1.0, 1.0, (40, cdr.FLOAT_COLUMNS)), rng.uniform(-3, 3, (30, 2)))
        ours = writer.encode(2, *tables)
        same_message(ours, reference_markers(2, *tables), MarkerArray)


def test_a_ticks_markers_show_the_world():
    """Footprints closed at the bodies' vertices and coloured by state, contact points and
    normals, predicted points with their time and both footprints at that time; the
    node's warm-up compiled the kernel for them."""
    cdr.warmup()
    compiled = set(getattr(cdr.encode_markers, 'signatures', ()))  # () as plain Python
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world = World()
    world.add_body('a', square, pose=(0.0, 0.0, 0.3))
    world.add_body('b', square, pose=(0.7, 0.2, -0.2))
    world.add_body('c', [[0, 0], [1, 0], [0, 1]], pose=(4.0, 0.0, 0.0))
    world.add_body('far', square, pose=(40.0, 0.0, 0.0))
    world.set_twists([[-1.0, 0.1, 0.2]], ['c'])
    world.set_active(['far'], False)
    contacts, predictions = world.step(3.0)
    warnings = [(int(np.flatnonzero(np.array(world.names) == a)[0]),
                 int(np.flatnonzero(np.array(world.names) == b)[0]), p)
                for a, b, p in predictions if (a, b) == ('b', 'c')]
    assert len(contacts) == 1 and warnings
    report = TickReport(stamp=0.0, contacts=contacts, warnings=warnings,
                        active=world.active)
    stamp = 1_795_444_844_902_828_378
    data = OutputWriter(TimeBase(0)).markers(report, world, world.names, stamp, 'odom')
    assert set(getattr(cdr.encode_markers, 'signatures', ())) == compiled
    markers = deserialize_message(data, MarkerArray).markers
    assert markers[0].action == Marker.DELETEALL
    assert all(m.header.frame_id == 'odom' and m.header.stamp.sec == stamp // 10**9
               and m.header.stamp.nanosec == stamp % 10**9 for m in markers)
    by_ns = {}
    for m in markers[1:]:
        assert m.ns in MARKER_NAMESPACES and m.action == Marker.ADD
        by_ns.setdefault(m.ns, []).append(m)
    rings = {m.id: m for m in by_ns['footprints']}
    assert sorted(rings) == [0, 1, 2]  # 'far' is inactive
    colors = {k: tuple(np.float32([m.color.r, m.color.g, m.color.b])) for k, m in rings.items()}
    assert colors[0] == colors[1] != colors[2]  # a and b touch; c is warned
    for k, m in rings.items():
        assert m.type == Marker.LINE_STRIP
        got = np.array([[p.x, p.y] for p in m.points])
        expected = world.world_vertices(world.names[k])
        np.testing.assert_allclose(got, np.vstack([expected, expected[:1]]), atol=1e-12)
    (points,) = by_ns['contact_points']
    np.testing.assert_array_equal([[p.x, p.y] for p in points.points], contacts[0].points)
    (arrow,) = by_ns['contact_normals']
    tail, tip = (np.array([p.x, p.y]) for p in arrow.points)
    np.testing.assert_allclose(tip - tail, 0.3 * contacts[0].normal, atol=1e-12)
    fc = warnings[0][2]
    (dot,) = by_ns['predicted_points']
    assert (dot.pose.position.x, dot.pose.position.y) == tuple(fc.point)
    (text,) = by_ns['time_to_collision']
    assert text.text == f'{fc.time:.2f} s' and text.type == Marker.TEXT_VIEW_FACING
    ghosts = sorted(by_ns['predicted_footprints'], key=lambda m: m.id)
    for m, name in zip(ghosts, ('b', 'c')):
        expected = world.world_vertices(name, fc.time)
        np.testing.assert_allclose([[p.x, p.y] for p in m.points],
                                   np.vstack([expected, expected[:1]]), atol=1e-12)


def test_marker_table_of_an_empty_tick_is_the_deleteall_alone():
    world = World()
    strings, ints, reals, points = marker_table(TickReport(stamp=0.0, active=world.active),
                                                world, world.names)
    assert ints.shape == (1, cdr.INT_COLUMNS) and ints[0, cdr.ACTION] == Marker.DELETEALL


def test_a_string_holding_a_nul_is_refused():
    refusal = r'^a string of a ROS message holds a NUL: '
    with pytest.raises(ValueError, match=refusal + r"\[.*'a\\x00b'.*\]$"):
        DIAGNOSTICS.encode(0, 'map', [(0, 'a\0b', '', [])])
    with pytest.raises(ValueError, match=refusal):
        cdr.MarkerArrayWriter().encode(0, ['map\0'], np.zeros((0, cdr.INT_COLUMNS), np.int64),
                                       np.zeros((0, cdr.FLOAT_COLUMNS)), np.zeros((0, 2)))


def test_every_marker_is_drawable_and_each_contact_shows_its_own_points():
    """Three squares in a row (two contacts), two turning triangles warned of and a square
    far off (clear): the DELETEALL
    clears every namespace (ns '', id 0, nothing drawn); every other marker has an (ns, id)
    of its own, colours within [0, 1], the identity orientation, sizes of at most half a
    metre and lies on the ground (the time text floats under a metre above its point); each
    contact's points, and each warning's footprints at its time, are its own."""
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world = World()
    for name, x in (('a', 0.0), ('b', 0.9), ('c', 1.8)):
        world.add_body(name, square, pose=(x, 0.0, 0.0))
    world.add_body('t', [[0, 0], [1, 0], [0, 1]], pose=(5.0, 0.0, 0.0))
    world.add_body('u', [[0, 0], [1, 0], [0, 1]], pose=(-3.0, -0.2, 0.0))
    world.add_body('clear', square, pose=(30.0, 0.0, 0.0))
    world.set_twists([[-1.0, 0.0, 0.3], [1.0, 0.0, 0.05]], ['t', 'u'])
    contacts, predictions = world.step(3.0)
    names = list(world.names)
    warnings = [(names.index(a), names.index(b), p) for a, b, p in predictions if p.time > 0]
    assert contacts.pairs.tolist() == [[0, 1], [1, 2]] and len(warnings) >= 2
    report = TickReport(stamp=0.0, contacts=contacts, warnings=warnings, active=world.active)
    data = OutputWriter(TimeBase(0)).markers(report, world, world.names, 0, 'map')
    clear, *markers = deserialize_message(data, MarkerArray).markers
    assert (clear.action, clear.ns, clear.id, clear.text, len(clear.points)) == (
        Marker.DELETEALL, '', 0, '', 0)
    assert len({(m.ns, m.id) for m in markers}) == len(markers)
    for m in markers:
        color = [m.color.r, m.color.g, m.color.b, m.color.a]
        assert all(0.0 <= v <= 1.0 for v in color) and m.color.a > 0.0, (m.ns, color)
        o = m.pose.orientation
        assert (o.x, o.y, o.z, o.w) == (0.0, 0.0, 0.0, 1.0), m.ns
        assert all(0.0 < s <= 0.5 for s in (m.scale.x, m.scale.y, m.scale.z)), m.ns
        lift = m.pose.position.z
        assert (0.0 < lift < 1.0) if m.ns == 'time_to_collision' else lift == 0.0, m.ns
        assert bool(m.text) == (m.type == Marker.TEXT_VIEW_FACING), m.ns
        if m.type in (Marker.SPHERE, Marker.TEXT_VIEW_FACING):
            assert not m.points, m.ns
        else:  # drawn from its points, in the frame itself
            assert m.points and (m.pose.position.x, m.pose.position.y) == (0.0, 0.0), m.ns
    shown = {m.id: [[p.x, p.y] for p in m.points] for m in markers if m.ns == 'contact_points'}
    assert shown == {k: contacts[k].points.tolist() for k in range(2)}
    ghosts = sorted((m for m in markers if m.ns == 'predicted_footprints'), key=lambda m: m.id)
    expected = [world.world_vertices(names[b], fc.time) for i, j, fc in warnings for b in (i, j)]
    assert len(ghosts) == len(expected) == 2 * len(warnings)
    for m, ring in zip(ghosts, expected):
        np.testing.assert_allclose([[p.x, p.y] for p in m.points], np.vstack([ring, ring[:1]]),
                                   atol=1e-12)
