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

Imports neither rclpy nor any message package (the replay runs without ROS): inputs are
read from CDR bytes or from any message object with the fields of the ROS type; outputs
are written as CDR bytes (`cdr`) by `OutputWriter`:

* contacts: DiagnosticArray, one ERROR status per contacting pair, name ``"a|b"``;
* warnings: DiagnosticArray, one WARN status per pair predicted to touch within the horizon;
* state: DiagnosticArray of every pair not clear and every stale body (sent on change);
* markers: MarkerArray for rviz, starting with DELETEALL so stale markers go.
"""

import json
from operator import attrgetter
import struct
from typing import Callable, NamedTuple, Optional

import numpy as np

from . import cdr
from ..kernels.geometry2d.contact import ContactKind

ERROR, WARN, STALE = 2, 1, 3
"""diagnostic_msgs/DiagnosticStatus levels (test_messages checks them against the package)."""


class Marker:
    """The visualization_msgs/Marker constants the markers use (checked as the levels are)."""

    ARROW, SPHERE, LINE_STRIP, POINTS, TEXT_VIEW_FACING = 0, 2, 4, 8, 9
    ADD, DELETEALL = 0, 3


class OutputTopic(NamedTuple):
    """One of the node's output topics (``~/<name>``): its type and QoS, reliable and
    keep-last `depth`, transient local when `latched` (REP 2003: late joiners get the
    state)."""

    msgtype: str
    depth: int
    latched: bool


OUTPUT_TOPICS = {
    'contacts': OutputTopic('diagnostic_msgs/msg/DiagnosticArray', 10, False),
    'warnings': OutputTopic('diagnostic_msgs/msg/DiagnosticArray', 10, False),
    'state': OutputTopic('diagnostic_msgs/msg/DiagnosticArray', 1, True),
    'markers': OutputTopic('visualization_msgs/msg/MarkerArray', 10, False),
}
"""What the node publishes and the replay writes to its bag (with these QoS offered, so
that ``ros2 bag play`` publishes them as the node does)."""


class PoseInput(NamedTuple):
    """How one pose message type is read: the geometry_msgs/Pose inside it, and the twist
    inside it (in the child frame), None when the type carries none."""

    pose: Callable
    twist: Optional[Callable]


POSE_INPUTS = {
    'geometry_msgs/PoseStamped': PoseInput(attrgetter('pose'), None),
    'geometry_msgs/PoseWithCovarianceStamped': PoseInput(attrgetter('pose.pose'), None),
    'nav_msgs/Odometry': PoseInput(attrgetter('pose.pose'), attrgetter('twist.twist')),
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

    def nanoseconds(self, seconds):
        """Integer nanoseconds of float seconds from the epoch (rounded to the nanosecond)."""
        return self.epoch_ns + round(seconds * 1e9)

    def text(self, seconds):
        """``sec.nanosec`` of float seconds from the epoch (nine digits after the point)."""
        ns = self.nanoseconds(seconds)
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
    order, stamp_ns, frame, count, pos = _header_and_count(data)
    if count != expected:
        raise ValueError(f'{count} poses for {expected} bodies')
    if count == 0:
        return stamp_ns, frame, np.zeros((0, 7))
    pos = 4 + _align(pos, 8)  # alignment counts from the end of the encapsulation header
    if pos + 56 * count > len(data):
        raise ValueError('truncated message')
    rows = np.frombuffer(data, dtype=order + 'f8', count=7 * count, offset=pos)
    return stamp_ns, frame, rows.reshape(count, 7)


def polygon_from_cdr(data, most):
    """Read a serialized geometry_msgs/PolygonStamped: the header as `pose_array_from_cdr`
    reads it, then the point count (uint32) and the points, 3 float32 each (4-aligned).

    Returns ``(stamp in integer nanoseconds, frame_id, points)`` with points (n, 2) float64
    (z dropped); raises ValueError for a malformed message or more than `most` points,
    before anything proportional to the message is allocated.
    """
    order, stamp_ns, frame, count, pos = _header_and_count(data)
    if count > most:
        raise ValueError(f'{count} vertices, more than max_vertices = {most}')
    if pos + 4 + 12 * count > len(data):
        raise ValueError('truncated message')
    points = np.frombuffer(data, dtype=order + 'f4', count=3 * count, offset=pos + 4)
    return stamp_ns, frame, points.reshape(count, 3)[:, :2].astype(np.float64)


def _header_and_count(data):
    """A CDR message's encapsulation, std_msgs/Header and the count (uint32) of the sequence
    that follows it: ``(byte order, stamp_ns, frame_id, count, offset of the count)``."""
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
    return order, sec * 10**9 + nanosec, frame, count, pos


def number_text(value):
    """The shortest text that reads back as the same float64 (repr), never -0."""
    return repr(float(value) + 0.0)


def _texts(values):
    """Each number of `values` (flattened) as `number_text` writes it, from one list's repr."""
    flat = (np.ravel(values) + 0.0).tolist()
    return repr(flat)[1:-1].split(', ') if flat else []


_KIND_TEXT = {int(kind): kind.name.lower() for kind in ContactKind}


def contact_statuses(report, names, time):
    """One ERROR status per contacting pair, as ``(level, name, message, values)``; `time`
    is the `TimeBase` of the report's times.  The numbers of all contacts are turned into
    text by one list's repr per column; what a status still costs (about 9 us here) is
    mostly the shortest round-trip text of each float."""
    contacts = report.contacts
    if not len(contacts):
        return []
    depth = _texts(contacts.depth)
    normal = _texts(contacts.normal)
    points = (contacts.points + 0.0).tolist()
    start = contacts.point_start.tolist()
    statuses = []
    for c, ((i, j), kind, began) in enumerate(zip(contacts.pairs.tolist(),
                                                  contacts.kind.tolist(),
                                                  contacts.began.tolist())):
        kind = _KIND_TEXT[kind]
        statuses.append((ERROR, f'{names[i]}|{names[j]}', f'contact: {kind}', [
            ('classification', kind),
            ('depth', depth[c]),
            ('normal', f'[{normal[2 * c]}, {normal[2 * c + 1]}]'),
            ('contact_points', repr(points[start[c]:start[c + 1]])),
            ('began', time.text(began)),
        ]))
    return statuses


def warning_statuses(report, names):
    """One WARN status per warned pair: time to collision, point, normal, features."""
    statuses = []
    for i, j, fc in report.warnings:
        vertex_body, edge_body = (names[i], names[j]) if fc.vertex_of == 'a' else (names[j],
                                                                                   names[i])
        px, py = fc.point.tolist()
        nx, ny = fc.normal.tolist()
        statuses.append((WARN, f'{names[i]}|{names[j]}', f'collision in {fc.time:.3f} s', [
            ('time_to_collision', number_text(fc.time)),
            ('point', repr([px + 0.0, py + 0.0])),  # each as `number_text` writes it
            ('normal', repr([nx + 0.0, ny + 0.0])),
            ('vertex_body', vertex_body),
            ('vertex', str(fc.vertex)),
            ('edge_body', edge_body),
            ('edge', str(fc.edge)),
        ]))
    return statuses


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


def state_statuses(report, names):
    """Pairs in contact (ERROR), warned (WARN) and stale bodies (STALE); none when all clear."""
    return ([(ERROR, f'{names[i]}|{names[j]}', 'contact', [])
             for i, j in report.contacts.pairs.tolist()]
            + [(WARN, f'{names[i]}|{names[j]}', f'collision in {fc.time:.3f} s', [])
               for i, j, fc in report.warnings]
            + [(STALE, names[b], 'stale pose', []) for b in report.stale])


MARKER_NAMESPACES = ('footprints', 'contact_points', 'contact_normals', 'predicted_points',
                     'time_to_collision', 'predicted_footprints')
"""The ns of the markers, strings 1 to 6 of a marker table (string 0 is the frame)."""
_NS = {name: k + 1 for k, name in enumerate(MARKER_NAMESPACES)}
_PALETTE = {  # r, g, b, a
    'clear': (0.2, 0.8, 0.2, 0.9), 'warned': (1.0, 0.65, 0.0, 1.0),
    'contact': (0.9, 0.1, 0.1, 1.0), 'ghost': (1.0, 0.65, 0.0, 0.35),
    'white': (1.0, 1.0, 1.0, 1.0)}
_STATE_COLORS = np.array([_PALETTE['clear'], _PALETTE['warned'], _PALETTE['contact']])


def _row(ns, mid, kind, color, scale, first=0, end=0, closed=0, position=(0.0, 0.0, 0.0),
         text=-1):
    """One marker's (ints, reals) rows of a marker table."""
    return ((_NS[ns], mid, kind, Marker.ADD, text, first, end, closed),
            (*position, 0.0, 0.0, 0.0, 1.0, *scale, *_PALETTE[color]))


_DELETEALL = ((-1, 0, 0, Marker.DELETEALL, -1, 0, 0, 0), (0.0,) * 6 + (1.0,) + (0.0,) * 7)
_FOOTPRINT = _row('footprints', 0, Marker.LINE_STRIP, 'clear', (0.03,) * 3, closed=1)


def marker_table(report, world, names):
    """rviz markers of a tick as the tables of `cdr.MarkerArrayWriter` (strings, ints, reals,
    points): a DELETEALL first (so stale markers go), then the footprints of the active
    bodies by state, contact points and normals, predicted points with their time to
    collision and the two footprints placed at that time."""
    active = np.flatnonzero(report.active)
    vertices, vstart = world.placed_vertices()
    state = np.zeros(len(names), np.intp)  # index of _STATE_COLORS
    state[[b for i, j, _ in report.warnings for b in (i, j)]] = 1
    contacts = report.contacts
    state[contacts.pairs.ravel()] = 2
    strings = ['', *MARKER_NAMESPACES]
    rows = [_DELETEALL]
    points = [vertices]
    first = vertices.shape[0]
    for mid in range(len(contacts)):
        at = contacts.points[contacts.point_start[mid]:contacts.point_start[mid + 1]]
        origin = at.mean(axis=0)
        arrow = np.array([origin, origin + 0.3 * contacts.normal[mid]])
        end = first + len(at)
        rows += [_row('contact_points', mid, Marker.POINTS, 'contact', (0.08,) * 3, first, end),
                 _row('contact_normals', mid, Marker.ARROW, 'white', (0.03, 0.06, 0.08), end,
                      end + 2)]
        points += [at, arrow]
        first = end + 2
    ghosts, ghost_starts = world.vertices_ahead(
        [b for i, j, _ in report.warnings for b in (i, j)],
        [fc.time for _, _, fc in report.warnings for _ in (0, 1)])
    ghost_starts += first
    points.append(ghosts)
    for k, (i, j, fc) in enumerate(report.warnings):
        x, y = fc.point
        rows += [_row('predicted_points', k, Marker.SPHERE, 'warned', (0.12,) * 3,
                      position=(x, y, 0.0)),
                 _row('time_to_collision', k, Marker.TEXT_VIEW_FACING, 'white', (0.25,) * 3,
                      position=(x, y, 0.4), text=len(strings))]
        strings.append(f'{fc.time:.2f} s')
        rows += [_row('predicted_footprints', 2 * k + side, Marker.LINE_STRIP, 'ghost',
                      (0.03,) * 3, ghost_starts[2 * k + side], ghost_starts[2 * k + side + 1],
                      1) for side in (0, 1)]
    n = active.size
    ints = np.empty((len(rows) + n, cdr.INT_COLUMNS), np.int64)
    reals = np.empty((len(rows) + n, cdr.FLOAT_COLUMNS))
    ints[0], reals[0] = rows[0]
    ints[1:n + 1], reals[1:n + 1] = _FOOTPRINT
    ints[1:n + 1, cdr.ID] = active
    ints[1:n + 1, cdr.FIRST] = vstart[active]
    ints[1:n + 1, cdr.END] = vstart[active + 1]
    reals[1:n + 1, cdr.COLOR] = _STATE_COLORS[state[active]]
    if len(rows) > 1:
        extra_ints, extra_reals = zip(*rows[1:])
        ints[n + 1:], reals[n + 1:] = extra_ints, extra_reals
    return strings, ints, reals, np.concatenate(points) if len(points) > 1 else vertices


class OutputWriter:
    """The node's output topics of a tick report as CDR bytes (`cdr`), stamped `stamp_ns`
    (integer ns) in `frame_id`; `time` is the `TimeBase` of the report's times."""

    def __init__(self, time):
        self.time = time
        self._markers = cdr.MarkerArrayWriter()
        self._diagnostics = cdr.DiagnosticArrayWriter()

    def contacts(self, report, names, stamp_ns, frame_id):
        """~/contacts: DiagnosticArray of `contact_statuses`."""
        return self._diagnostics.encode(stamp_ns, frame_id,
                                        contact_statuses(report, names, self.time))

    def warnings(self, report, names, stamp_ns, frame_id):
        """~/warnings: DiagnosticArray of `warning_statuses`."""
        return self._diagnostics.encode(stamp_ns, frame_id, warning_statuses(report, names))

    def state(self, report, names, stamp_ns, frame_id):
        """~/state: DiagnosticArray of `state_statuses`."""
        return self._diagnostics.encode(stamp_ns, frame_id, state_statuses(report, names))

    def markers(self, report, world, names, stamp_ns, frame_id):
        """~/markers: MarkerArray of `marker_table`."""
        strings, ints, reals, points = marker_table(report, world, names)
        strings[0] = frame_id
        return self._markers.encode(stamp_ns, strings, ints, reals, points)
