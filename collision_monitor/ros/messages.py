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
"""Message conversions at the edge: ROS messages to numbers, tick reports to messages.

Imports message packages, never rclpy.  Outputs:

* contacts: DiagnosticArray, one ERROR status per contacting pair, name ``"a|b"``;
* warnings: DiagnosticArray, one WARN status per pair predicted to touch within the horizon;
* state: DiagnosticArray of every pair not clear and every stale body (sent on change);
* markers: MarkerArray for rviz, starting with DELETEALL so stale markers go.
"""

import json
from operator import attrgetter
import struct
from typing import Callable, NamedTuple, Optional

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import Point, PoseStamped, PoseWithCovarianceStamped, Vector3
from nav_msgs.msg import Odometry
import numpy as np
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

CLEAR = ColorRGBA(r=0.2, g=0.8, b=0.2, a=0.9)
WARNED = ColorRGBA(r=1.0, g=0.65, b=0.0, a=1.0)
CONTACT = ColorRGBA(r=0.9, g=0.1, b=0.1, a=1.0)
GHOST = ColorRGBA(r=1.0, g=0.65, b=0.0, a=0.35)
WHITE = ColorRGBA(r=1.0, g=1.0, b=1.0, a=1.0)


class PoseInput(NamedTuple):
    """How one pose message type is read: its class, the geometry_msgs/Pose inside it, and
    the twist inside it (in the child frame), None when the type carries none."""

    message: type
    pose: Callable
    twist: Optional[Callable]


POSE_INPUTS = {
    'geometry_msgs/PoseStamped': PoseInput(PoseStamped, attrgetter('pose'), None),
    'geometry_msgs/PoseWithCovarianceStamped': PoseInput(PoseWithCovarianceStamped,
                                                         attrgetter('pose.pose'), None),
    'nav_msgs/Odometry': PoseInput(Odometry, attrgetter('pose.pose'),
                                   attrgetter('twist.twist')),
}
"""The `<body>.pose_type` values (`monitor.config.POSE_TYPES`) and how each is read."""


class TimeBase:
    """ROS times as float seconds from an epoch (the node's start), and back to exact text.

    float64 seconds since 1970 resolve only about 0.24 us; counted from an epoch near now they
    keep nanoseconds for months, so a time that goes into the engine as seconds comes back out
    as the same ``sec.nanosec`` (rounded to the nanosecond).
    """

    def __init__(self, epoch_ns):
        self.epoch_ns = int(epoch_ns)

    def seconds(self, nanoseconds):
        """Float seconds from the epoch of a time in integer nanoseconds."""
        return (int(nanoseconds) - self.epoch_ns) * 1e-9

    def from_msg(self, stamp):
        """Float seconds from the epoch of a builtin_interfaces/Time."""
        return self.seconds(stamp.sec * 10**9 + stamp.nanosec)

    def text(self, seconds):
        """``sec.nanosec`` of float seconds from the epoch (nine digits after the point)."""
        ns = self.epoch_ns + round(seconds * 1e9)
        return f'{ns // 10**9}.{ns % 10**9:09d}'


def _align(offset, n):
    return (offset + n - 1) // n * n


def pose_array_from_cdr(data, expected):
    """Read a serialized geometry_msgs/PoseArray without building a Python object per pose.

    Parameters
    ----------
    data : bytes
        The message as a raw subscription delivers it: a 4-byte CDR encapsulation header
        (``00 01``: little endian, ``00 00``: big endian), then std_msgs/Header (stamp sec
        int32, nanosec uint32, frame_id string: uint32 length with the NUL, bytes), then the
        pose count (uint32, 4-aligned) and the poses, 7 float64 each (8-aligned; alignment
        counts from the end of the encapsulation header).
    expected : int
        Number of poses the source has bodies for.

    Returns
    -------
    (stamp in integer nanoseconds, frame_id, rows) with rows a read-only (k, 7) view ``x, y,
    z, qx, qy, qz, qw``; or raises ValueError (malformed, or not `expected` poses: refused
    before anything proportional to the message is allocated).

    """
    if len(data) < 16 or data[0] != 0 or data[1] not in (0, 1):
        raise ValueError('not a CDR-encoded message')
    order = '<' if data[1] == 1 else '>'
    base = 4
    sec, nanosec, length = struct.unpack_from(order + 'iII', data, base)
    pos = base + 12
    if length == 0 or pos + length > len(data) or length > 1024:
        raise ValueError('malformed frame_id')
    frame = bytes(data[pos:pos + length - 1]).decode('utf-8', 'replace')
    pos = base + _align(pos + length - base, 4)
    if pos + 4 > len(data):
        raise ValueError('truncated message')
    (count,) = struct.unpack_from(order + 'I', data, pos)
    if count != expected:
        raise ValueError(f'{count} poses for {expected} bodies')
    if count == 0:
        return sec * 10**9 + nanosec, frame, np.zeros((0, 7))
    pos = base + _align(pos + 4 - base, 8)
    if pos + 56 * count > len(data):
        raise ValueError('truncated message')
    rows = np.frombuffer(data, dtype=order + 'f8', count=7 * count, offset=pos)
    return sec * 10**9 + nanosec, frame, rows.reshape(count, 7)


def polygon_points(msg):
    """geometry_msgs/PolygonStamped to an (n, 2) array (z dropped)."""
    return np.array([[p.x, p.y] for p in msg.polygon.points], dtype=float).reshape(-1, 2)


def number_text(value):
    """The shortest text that reads back as the same float64 (repr), never -0."""
    return repr(float(value) + 0.0)


def _fmt(values):
    return '[' + ', '.join(number_text(v) for v in np.ravel(values)) + ']'


def _points(values):
    return '[' + ', '.join(_fmt(p) for p in np.asarray(values).reshape(-1, 2)) + ']'


def _status(level, name, message, values):
    return DiagnosticStatus(level=level, name=name, message=message, hardware_id='',
                            values=[KeyValue(key=k, value=v) for k, v in values])


def contacts_array(report, names, header, time):
    """One ERROR status per contacting pair; `time` is the `TimeBase` of the report's times."""
    statuses = []
    for i, j, contact, began in report.contacts:
        statuses.append(_status(DiagnosticStatus.ERROR, f'{names[i]}|{names[j]}',
                                f'contact: {contact.kind.name.lower()}', [
                                    ('classification', contact.kind.name.lower()),
                                    ('depth', number_text(contact.depth)),
                                    ('normal', _fmt(contact.normal)),
                                    ('contact_points', _points(contact.points)),
                                    ('began', time.text(began)),
                                ]))
    return DiagnosticArray(header=header, status=statuses)


def warnings_array(report, names, header):
    """One WARN status per warned pair: time to collision, point, normal, features."""
    statuses = []
    for i, j, fc in report.warnings:
        vertex_body, edge_body = (names[i], names[j]) if fc.vertex_of == 'a' else (names[j],
                                                                                   names[i])
        statuses.append(_status(DiagnosticStatus.WARN, f'{names[i]}|{names[j]}',
                                f'collision in {fc.time:.3f} s', [
                                    ('time_to_collision', number_text(fc.time)),
                                    ('point', _fmt(fc.point)),
                                    ('normal', _fmt(fc.normal)),
                                    ('vertex_body', vertex_body),
                                    ('vertex', str(fc.vertex)),
                                    ('edge_body', edge_body),
                                    ('edge', str(fc.edge)),
                                ]))
    return DiagnosticArray(header=header, status=statuses)


class ContactReport(NamedTuple):
    """One status of ``~/contacts`` read back (`read_contacts`)."""

    a: str                 # the pair is a|b; the normal points from a to b
    b: str
    classification: str    # vertex_edge, edge_edge, ... (ContactKind names, lower case)
    depth: float           # m
    normal: np.ndarray     # (2,) unit
    points: np.ndarray     # (k, 2) m, frame_id
    began: tuple           # (sec, nanosec) of the node's clock


class WarningReport(NamedTuple):
    """One status of ``~/warnings`` read back (`read_warnings`)."""

    a: str
    b: str
    time_to_collision: float  # s from the message's stamp
    point: np.ndarray         # (2,) m, frame_id
    normal: np.ndarray        # (2,) unit, from a to b
    vertex_body: str          # the body whose vertex meets the other's edge
    vertex: int
    edge_body: str
    edge: int


def _pair(status):
    a, _, b = status.name.partition('|')
    return a, b, {kv.key: kv.value for kv in status.values}


def read_contacts(msg):
    """The contacts of a ``~/contacts`` DiagnosticArray as `ContactReport` (values parsed as
    JSON numbers and lists, never evaluated)."""
    out = []
    for status in msg.status:
        a, b, v = _pair(status)
        sec, _, nanosec = v['began'].partition('.')
        out.append(ContactReport(a, b, v['classification'], float(v['depth']),
                                 np.array(json.loads(v['normal']), dtype=float),
                                 np.array(json.loads(v['contact_points']),
                                          dtype=float).reshape(-1, 2),
                                 (int(sec), int(nanosec))))
    return out


def read_warnings(msg):
    """The warnings of a ``~/warnings`` DiagnosticArray as `WarningReport`."""
    out = []
    for status in msg.status:
        a, b, v = _pair(status)
        out.append(WarningReport(a, b, float(v['time_to_collision']),
                                 np.array(json.loads(v['point']), dtype=float),
                                 np.array(json.loads(v['normal']), dtype=float),
                                 v['vertex_body'], int(v['vertex']), v['edge_body'],
                                 int(v['edge'])))
    return out


def state_array(report, names, header):
    """Pairs in contact (ERROR), warned (WARN) and stale bodies (STALE); empty when all clear."""
    statuses = [_status(DiagnosticStatus.ERROR, f'{names[i]}|{names[j]}', 'contact', [])
                for i, j, _, _ in report.contacts]
    statuses += [_status(DiagnosticStatus.WARN, f'{names[i]}|{names[j]}',
                         f'collision in {fc.time:.3f} s', [])
                 for i, j, fc in report.warnings]
    statuses += [_status(DiagnosticStatus.STALE, names[b], 'stale pose', [])
                 for b in report.stale]
    return DiagnosticArray(header=header, status=statuses)


def _marker(header, ns, mid, kind, color, scale=0.03):
    m = Marker(header=header, ns=ns, id=mid, type=kind, action=Marker.ADD, color=color)
    m.pose.orientation.w = 1.0
    m.scale = Vector3(x=scale, y=scale, z=scale)
    return m


def _ring(points):
    return [Point(x=float(x), y=float(y), z=0.0) for x, y in np.vstack([points, points[:1]])]


def markers_array(report, world, names, header):
    """rviz markers: footprints by state, contacts, normals, predictions and their footprints."""
    out = [Marker(header=header, action=Marker.DELETEALL)]
    touching = {b for i, j, _, _ in report.contacts for b in (i, j)}
    warned = {b for i, j, _ in report.warnings for b in (i, j)}
    for b in np.nonzero(report.active)[0]:
        color = CONTACT if b in touching else (WARNED if b in warned else CLEAR)
        m = _marker(header, 'footprints', int(b), Marker.LINE_STRIP, color)
        m.points = _ring(world.world_vertices(names[b]))
        out.append(m)
    mid = 0
    for i, j, contact, _ in report.contacts:
        m = _marker(header, 'contact_points', mid, Marker.POINTS, CONTACT, 0.08)
        m.points = [Point(x=float(x), y=float(y)) for x, y in contact.points]
        out.append(m)
        arrow = _marker(header, 'contact_normals', mid, Marker.ARROW, WHITE, 0.03)
        origin = contact.points.mean(axis=0)
        tip = origin + 0.3 * contact.normal
        arrow.scale = Vector3(x=0.03, y=0.06, z=0.08)
        arrow.points = [Point(x=float(origin[0]), y=float(origin[1])),
                        Point(x=float(tip[0]), y=float(tip[1]))]
        out.append(arrow)
        mid += 1
    for k, (i, j, fc) in enumerate(report.warnings):
        dot = _marker(header, 'predicted_points', k, Marker.SPHERE, WARNED, 0.12)
        dot.pose.position = Point(x=float(fc.point[0]), y=float(fc.point[1]))
        text = _marker(header, 'time_to_collision', k, Marker.TEXT_VIEW_FACING, WHITE, 0.25)
        text.pose.position = Point(x=float(fc.point[0]), y=float(fc.point[1]), z=0.4)
        text.text = f'{fc.time:.2f} s'
        out += [dot, text]
        for b in (i, j):
            ghost = _marker(header, 'predicted_footprints', 2 * k + (b == j), Marker.LINE_STRIP,
                            GHOST)
            ghost.points = _ring(world.world_vertices(names[b], fc.time))
            out.append(ghost)
    return MarkerArray(markers=out)


def health_status(name, stats):
    """The node's /diagnostics status from a dict of figures (level chosen by the caller)."""
    level = stats.pop('level')
    message = stats.pop('message')
    return _status(level, name, message, [(k, str(v)) for k, v in stats.items()])
