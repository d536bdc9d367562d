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
"""Message conversions: the raw PoseArray reader against rclpy's own serializer."""

import json
import struct

from geometry_msgs.msg import Pose, PoseArray
from hypothesis import given, strategies as st
import numpy as np
import pytest
from rclpy.serialization import serialize_message

from collision_monitor.ros.messages import pose_array_from_cdr


def pose_array(frame, rows, sec=12, nanosec=345):
    msg = PoseArray()
    msg.header.frame_id = frame
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    for r in rows:
        p = Pose()
        (p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y,
         p.orientation.z, p.orientation.w) = map(float, r)
        msg.poses.append(p)
    return msg


@given(st.text(alphabet='abcdefgh_/', max_size=13), st.integers(0, 12), st.integers(0, 2**31 - 1),
       st.integers(0, 999999999))
def test_raw_reader_matches_the_serializer(frame, n, sec, nanosec):
    rows = np.random.default_rng(n).normal(size=(n, 7))
    data = serialize_message(pose_array(frame, rows, sec, nanosec))
    stamp, got_frame, got = pose_array_from_cdr(data, n)
    assert got_frame == frame
    assert stamp == sec * 10**9 + nanosec
    assert np.array_equal(got, rows)


@pytest.mark.parametrize('cut', [3, 10, 20, 40])
def test_truncated_or_mismatched_messages_are_refused(cut):
    data = serialize_message(pose_array('map', np.zeros((3, 7))))
    with pytest.raises(ValueError):
        pose_array_from_cdr(data[:cut], 3)
    with pytest.raises(ValueError) as err:
        pose_array_from_cdr(data, 2)
    assert str(err.value) == '3 poses for 2 bodies'


def test_a_pose_array_cut_inside_its_poses_is_truncated():
    """The header and count whole, the last pose short by a byte, or two poses gone."""
    data = serialize_message(pose_array('map', np.zeros((3, 7))))
    for cut in (1, 57, 112):
        with pytest.raises(ValueError) as err:
            pose_array_from_cdr(data[:-cut], 3)
        assert str(err.value) == 'truncated message', cut


def test_output_topics_are_the_documented_ones():
    """Each output topic's type, depth and durability as docs/interfaces.md states them
    (the heading of its section), and no other."""
    import pathlib
    import re
    from collision_monitor.ros.messages import OUTPUT_TOPICS
    text = (pathlib.Path(__file__).resolve().parents[1] / 'docs' / 'interfaces.md').read_text()
    documented = {}
    for name, package, kind, rest in re.findall(
            r'^### `~/(contacts|warnings|state|markers)`: `(\w+)/(\w+)`, reliable, (.*)$',
            text, flags=re.M):
        depth = int(re.search(r'depth (\d+)', rest).group(1))
        documented[name] = (f'{package}/msg/{kind}', depth, 'transient local' in rest)
    assert {k: tuple(v) for k, v in OUTPUT_TOPICS.items()} == documented
    assert len(documented) == 4


def test_times_of_the_epoch_are_seconds_to_the_nanosecond():
    """6.500000001 s since 1970 on an epoch of 5 s is 1.500000001 s, from integer
    nanoseconds and from a builtin_interfaces/Time alike."""
    from builtin_interfaces.msg import Time
    from collision_monitor.ros.messages import TimeBase
    base = TimeBase(5 * 10**9)
    assert base.seconds(6_500_000_001) == pytest.approx(1.500000001, abs=1e-15)
    assert base.from_msg(Time(sec=6, nanosec=500_000_001)) == base.seconds(6_500_000_001)
    assert base.nanoseconds(base.seconds(6_500_000_001)) == 6_500_000_001


def test_every_pose_type_of_the_configuration_has_a_reader_and_a_class():
    from collision_monitor.monitor.config import POSE_TYPES
    from collision_monitor.ros.messages import POSE_INPUTS
    from collision_monitor.ros.node import POSE_MESSAGES
    assert set(POSE_INPUTS) == set(POSE_TYPES) == set(POSE_MESSAGES)
    for name, reader in POSE_INPUTS.items():
        msg = POSE_MESSAGES[name]()
        assert name.endswith('/' + type(msg).__name__)
        assert type(reader.pose(msg)).__name__ == 'Pose'
        assert reader.twist is None or type(reader.twist(msg)).__name__ == 'Twist'


def test_the_constants_written_without_the_message_packages_are_theirs():
    from diagnostic_msgs.msg import DiagnosticStatus
    from visualization_msgs.msg import Marker
    from collision_monitor.ros import messages
    assert (messages.ERROR, messages.WARN, messages.STALE) == tuple(
        ord(level) for level in (DiagnosticStatus.ERROR, DiagnosticStatus.WARN,
                                 DiagnosticStatus.STALE))
    for name in ('ARROW', 'SPHERE', 'LINE_STRIP', 'POINTS', 'TEXT_VIEW_FACING', 'ADD',
                 'DELETEALL'):
        assert getattr(messages.Marker, name) == getattr(Marker, name), name


@pytest.mark.parametrize('origin', [(0.0, 0.0), (12345.678, -0.001), (512345.678, 5000000.1)])
def test_contacts_and_warnings_read_back_exactly(origin):
    """Every number of ~/contacts and ~/warnings reads back as the same float64, times as the
    same nanosecond, at the origin and at UTM-like coordinates."""
    from collision_monitor import World
    from collision_monitor.monitor.monitor import TickReport
    from collision_monitor.ros.messages import (OutputWriter, read_contacts, read_warnings,
                                                TimeBase)
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.serialization import deserialize_message
    x, y = origin
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world = World()
    world.add_body('a', square, pose=(x, y, 0.3))
    world.add_body('b', square, pose=(x + 0.7, y + 0.2, -0.2))
    world.add_body('c', square, pose=(x + 3.0, y, 0.0))
    world.set_twists([[-1.0, 0.1, 0.2]], ['c'])
    began = 123.456789123  # the first stamped tick: a contact begins at its stamp
    contacts, predictions = world.step(3.0, stamp=began)
    epoch = 1_795_444_844_902_828_378
    time = TimeBase(epoch)
    out = OutputWriter(time)
    assert len(contacts) == 1 and contacts.began[0] == began
    report = TickReport(stamp=0.0, contacts=contacts,
                        warnings=[(1, 2, p) for _, _, p in predictions if p.time > 0][:1])
    assert report.warnings
    (got,) = read_contacts(deserialize_message(out.contacts(report, world.names, epoch, 'map'),
                                               DiagnosticArray))
    c = contacts[0]
    assert (got.a, got.b, got.classification) == ('a', 'b', c.kind.name.lower())
    assert got.depth == c.depth
    assert np.array_equal(got.normal, c.normal) and np.array_equal(got.points, c.points)
    ns = epoch + round(began * 1e9)
    assert got.began == (ns // 10**9, ns % 10**9)
    (warned,) = read_warnings(deserialize_message(out.warnings(report, world.names, epoch, 'm'),
                                                  DiagnosticArray))
    fc = report.warnings[0][2]
    assert warned.time_to_collision == fc.time
    assert np.array_equal(warned.point, fc.point) and np.array_equal(warned.normal, fc.normal)
    assert (warned.vertex, warned.edge) == (fc.vertex, fc.edge)
    # each body in its field: the named vertex of vertex_body, moved as the world's default
    # predictor moves it (arc: the twist held in the body frame, the origin on the circle
    # c0 + v (e^(i w t) - 1) / (i w), the heading yaw + w t; b at rest), is the point, and
    # the point is on edge_body's named edge
    poses = {'b': (x + 0.7, y + 0.2, -0.2, 0.0, 0.0, 0.0), 'c': (x + 3.0, y, 0.0, -1.0, 0.1, 0.2)}

    def vertex_at(body, k, t):
        px, py, yaw, vx, vy, w = poses[body]
        origin = complex(px, py) + (complex(vx, vy) * (np.exp(1j * w * t) - 1) / (1j * w)
                                    if w else 0.0)
        z = origin + complex(*square[k]) * np.exp(1j * (yaw + w * t))
        return np.array([z.real, z.imag])

    t = warned.time_to_collision
    np.testing.assert_allclose(vertex_at(warned.vertex_body, warned.vertex, t), warned.point,
                               atol=1e-9)
    p, q = (vertex_at(warned.edge_body, (warned.edge + k) % 4, t) for k in (0, 1))
    assert abs(np.cross(q - p, warned.point - p)) < 1e-9 and warned.vertex_body != warned.edge_body


def test_times_are_written_with_nine_nanosecond_digits():
    """sec.nanosec with the nanoseconds zero-padded: 1.234 us after 5 s is 5.000001234."""
    from collision_monitor.ros.messages import TimeBase
    assert TimeBase(5 * 10**9).text(1.234e-6) == '5.000001234'
    assert TimeBase(0).text(7.5) == '7.500000000'


def test_numbers_have_no_negative_zero():
    from collision_monitor.ros.messages import number_text
    assert number_text(-0.0) == '0.0' and number_text(np.float64(-0.0)) == '0.0'
    assert float(number_text(0.1 + 0.2)) == 0.1 + 0.2


def test_a_contacts_numbers_are_written_without_negative_zero():
    """A contact whose depth, normal and point hold -0.0 (as arithmetic can leave them)
    is written with 0.0 in each value."""
    from types import SimpleNamespace
    from collision_monitor.ros.messages import contact_statuses, TimeBase
    contacts = SimpleNamespace(
        pairs=np.array([[0, 1]]), kind=np.array([1], np.int8), began=np.array([0.0]),
        depth=np.array([-0.0]), normal=np.array([[-0.0, 1.0]]),
        points=np.array([[-0.0, 0.5]]), point_start=np.array([0, 1]))
    (status,) = contact_statuses(SimpleNamespace(contacts=_Sized(contacts)), ['a', 'b'],
                                 TimeBase(0))
    values = dict(status[3])
    assert (values['depth'], values['normal'], values['contact_points']) == (
        '0.0', '[0.0, 1.0]', '[[0.0, 0.5]]')


class _Sized:
    """A duck-typed `Contacts`: its arrays, and its length."""

    def __init__(self, fields):
        self.__dict__.update(vars(fields))

    def __len__(self):
        return len(self.pairs)


def _cdr(order, frame, count, sec=7, nanosec=9, rows=()):
    """A PoseArray as CDR bytes in byte `order` ('<' or '>'), written here field by field:
    encapsulation, stamp, frame_id (length with its NUL), the count, the poses."""
    head = bytes([0, 1 if order == '<' else 0, 0, 0])
    body = struct.pack(order + 'iII', sec, nanosec, len(frame) + 1) + frame + b'\0'
    body += bytes(-len(body) % 4) + struct.pack(order + 'I', count)
    body += bytes(-len(body) % 8)
    return head + body + b''.join(struct.pack(order + '7d', *r) for r in rows)


@pytest.mark.parametrize('order', ['<', '>'])
def test_pose_arrays_of_either_byte_order_are_read(order):
    rows = np.arange(14.0).reshape(2, 7) - 3.5
    stamp, frame, got = pose_array_from_cdr(_cdr(order, b'map', 2, rows=rows), 2)
    assert (stamp, frame) == (7 * 10**9 + 9, 'map') and got.tolist() == rows.tolist()


@pytest.mark.parametrize('data, reason', [
    (b'\x00\x02' + _cdr('<', b'map', 0)[2:], 'not a CDR-encoded message'),
    (_cdr('<', b'map', 0)[:15], 'not a CDR-encoded message'),
    (_cdr('<', b'map', 0)[:16], 'malformed frame_id'),  # the header whole, no frame_id
    (_cdr('<', b'', 0)[:8] + struct.pack('<I', 0) + bytes(8), 'malformed frame_id'),
    (_cdr('<', b'x' * 1024, 0), 'malformed frame_id'),
    (_cdr('<', b'map', 0)[:19], 'malformed frame_id'),
    (_cdr('<', b'map', 0)[:20], 'truncated message'),
])
def test_a_malformed_header_is_refused_with_its_reason(data, reason):
    with pytest.raises(ValueError) as err:
        pose_array_from_cdr(data, 0)
    assert str(err.value) == reason


def test_the_longest_frame_id_and_one_not_utf8_are_read():
    """A frame_id of 1,023 characters (1,024 bytes with its NUL) is the longest taken; bytes
    that are not UTF-8 read as the replacement character."""
    assert pose_array_from_cdr(_cdr('<', b'x' * 1023, 0), 0)[1] == 'x' * 1023
    assert pose_array_from_cdr(_cdr('<', b'm\xffp', 0), 0)[1] == 'm\ufffdp'


@given(st.lists(st.tuples(st.floats(-1e3, 1e3, width=32), st.floats(-1e3, 1e3, width=32)),
                max_size=40), st.from_regex(r'[a-z_/0-9]{0,12}', fullmatch=True),
       st.integers(0, 2**31 - 1),
       st.integers(0, 10**9 - 1))
def test_the_raw_polygon_reader_matches_the_serializer(points, frame, sec, nanosec):
    """rclpy's own serialization of a PolygonStamped reads back as its x, y (float32 as
    written), frame and stamp."""
    from geometry_msgs.msg import Point32, PolygonStamped
    from collision_monitor.ros.messages import polygon_from_cdr
    msg = PolygonStamped()
    msg.header.frame_id = frame
    msg.header.stamp.sec, msg.header.stamp.nanosec = sec, nanosec
    msg.polygon.points = [Point32(x=x, y=y, z=1.5) for x, y in points]
    stamp, got_frame, got = polygon_from_cdr(serialize_message(msg), 64)
    assert stamp == sec * 10**9 + nanosec and got_frame == frame
    assert got.shape == (len(points), 2) and got.dtype == np.float64
    assert got.tolist() == [[float(np.float32(x)), float(np.float32(y))] for x, y in points]


def test_a_polygon_over_the_limit_or_cut_short_is_refused_unread():
    from geometry_msgs.msg import Point32, PolygonStamped
    from collision_monitor.ros.messages import polygon_from_cdr
    msg = PolygonStamped()
    msg.header.frame_id = 'map'
    msg.polygon.points = [Point32(x=float(k), y=0.0) for k in range(10)]
    data = serialize_message(msg)
    with pytest.raises(ValueError) as err:
        polygon_from_cdr(data, 9)
    assert str(err.value) == '10 vertices, more than max_vertices = 9'
    assert len(polygon_from_cdr(data, 10)[2]) == 10  # exactly the limit is taken
    with pytest.raises(ValueError) as err:
        polygon_from_cdr(data[:-1], 64)
    assert str(err.value) == 'truncated message'
    with pytest.raises(ValueError, match='CDR'):
        polygon_from_cdr(b'\x01\x02' + data[2:], 64)


def test_each_status_names_its_pair_and_says_what_it_is():
    """Two contacts and two warnings (the vertex on either body): each status has its pair's
    name, its message and its own numbers, in order; the state lists them and the stale
    body.  Everything is compared with the engine's own objects."""
    from collision_monitor import World
    from collision_monitor.kernels.toi import FirstContact
    from collision_monitor.monitor.monitor import TickReport
    from collision_monitor.ros.messages import (contact_statuses, ERROR, STALE, state_statuses,
                                                TimeBase, WARN, warning_statuses)
    square = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]
    world = World()
    for name, pose in (('a', (0.0, 0.0, 0.3)), ('b', (0.8, 0.1, 0.0)), ('c', (1.6, 0.5, 0.7))):
        world.add_body(name, square, pose=pose)
    contacts = world.detect(stamp=2.0)
    assert contacts.pairs.tolist() == [[0, 1], [1, 2]]
    # -0.0 where arithmetic can leave it: written as 0.0
    warned = [(0, 2, FirstContact(1.25, 'a', 3, 1, np.array([-0.0, -0.0]), np.array([1.0, -0.0]))),
              (1, 2, FirstContact(0.5, 'b', 2, 0, np.array([2.0, 1.0]), np.array([-0.0, -1.0])))]
    report = TickReport(stamp=2.0, contacts=contacts, warnings=warned, stale=[2])
    names = world.names
    got = contact_statuses(report, names, TimeBase(0))
    assert [(s[0], s[1], s[2]) for s in got] == [
        (ERROR, 'a|b', f'contact: {contacts[0].kind.name.lower()}'),
        (ERROR, 'b|c', f'contact: {contacts[1].kind.name.lower()}')]
    for k, status in enumerate(got):
        values, c = dict(status[3]), contacts[k]
        assert np.array_equal(json.loads(values['normal']), c.normal)
        assert np.array_equal(json.loads(values['contact_points']), c.points)
    got = warning_statuses(report, names)
    assert [(s[0], s[1], s[2]) for s in got] == [
        (WARN, 'a|c', 'collision in 1.250 s'), (WARN, 'b|c', 'collision in 0.500 s')]
    assert [dict(s[3]) for s in got] == [
        {'time_to_collision': '1.25', 'point': '[0.0, 0.0]', 'normal': '[1.0, 0.0]',
         'vertex_body': 'a', 'vertex': '3', 'edge_body': 'c', 'edge': '1'},
        {'time_to_collision': '0.5', 'point': '[2.0, 1.0]', 'normal': '[0.0, -1.0]',
         'vertex_body': 'c', 'vertex': '2', 'edge_body': 'b', 'edge': '0'}]
    assert state_statuses(report, names) == [
        (ERROR, 'a|b', 'contact', []), (ERROR, 'b|c', 'contact', []),
        (WARN, 'a|c', 'collision in 1.250 s', []), (WARN, 'b|c', 'collision in 0.500 s', []),
        (STALE, 'c', 'stale pose', [])]
