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
"""The node's output messages written straight to CDR bytes, as rclpy's serialize_message
writes them, without a Python object per field (a publisher sends the bytes as they are).

Encoding (plain CDR, little endian, as rmw_fastrtps_cpp writes ROS 2 messages): a 4-byte
encapsulation header ``00 01 00 00``, then the fields in the order of the .msg file.  A
primitive of n bytes starts at a multiple of n counted from the end of that header, the
padding zero; a string is a uint32 length counting its NUL, its UTF-8 bytes and the NUL; a
sequence is a uint32 count and its elements; a nested message is its fields in place.
"""

from itertools import chain

import numpy as np

from ..kernels.constants import jit, jit_inline

ENCAPSULATION = b'\x00\x01\x00\x00'


class DiagnosticArrayWriter:
    """diagnostic_msgs/DiagnosticArray from statuses (`encode_diagnostics`); keeps its
    output buffer from call to call."""

    def __init__(self):
        self._stream = np.zeros(64)  # float64: 8-byte aligned storage

    def encode(self, stamp_ns, frame_id, statuses):
        """CDR of a DiagnosticArray stamped `stamp_ns` (integer ns) in `frame_id`.

        `statuses`: a sequence of ``(level, name, message, [(key, value), ...])``, the
        hardware_id empty.  The message: header, then ``status[]`` of (uint8 level, string
        name, string message, string hardware_id, KeyValue[] values), KeyValue being
        (string key, string value).
        """
        strings = [frame_id]
        shape = [stamp_ns // 10**9, stamp_ns % 10**9, len(statuses)]
        for level, name, message, values in statuses:
            strings += (name, message, '')
            strings += chain.from_iterable(values)
            shape += (level, len(values))
        table = string_table(strings)
        # a string at most 3 padding bytes, its length, its bytes and NUL; a status 8 more
        need = 16 + 7 * len(strings) + table.shape[0] + 8 * len(statuses)
        if self._stream.shape[0] * 8 < need:
            self._stream = np.zeros(need // 4)
        size = encode_diagnostics(self._stream, table, np.array(shape, np.int64))
        return ENCAPSULATION + self._stream.view(np.uint8)[:size].tobytes()


def string_table(strings):
    """UTF-8 bytes of `strings`, each ended by a NUL, as uint8 (a ROS string holds no NUL:
    ValueError for one that does)."""
    data = ('\0'.join(strings) + '\0').encode()
    if data.count(0) != len(strings):
        raise ValueError(f'a string of a ROS message holds a NUL: {strings!r}')
    return np.frombuffer(data, np.uint8)


def _stamp(stamp_ns):
    """builtin_interfaces/Time of integer ns as (sec, nanosec)."""
    return np.array([stamp_ns // 10**9, stamp_ns % 10**9], np.int64)


# Columns of the marker tables `encode_markers` reads.
NS, ID, TYPE, ACTION, TEXT, FIRST, END, CLOSED = range(8)
"""Integer columns: string indices of ns and text (-1: empty), the marker's id, type and
action, its points as rows FIRST:END of the points table, and CLOSED (1: the first point is
written again at the end, closing a LINE_STRIP)."""
POSE, SCALE, COLOR = slice(0, 7), slice(7, 10), slice(10, 14)
"""Float columns: pose (x, y, z, qx, qy, qz, qw), scale (x, y, z), color (r, g, b, a)."""
INT_COLUMNS, FLOAT_COLUMNS = 8, 14


class MarkerArrayWriter:
    """visualization_msgs/MarkerArray from tables, one row a marker (`encode_markers`);
    keeps its output buffer from call to call."""

    def __init__(self):
        self._stream = np.zeros(512)  # float64: 8-byte aligned storage

    def encode(self, stamp_ns, strings, ints, reals, points):
        """CDR of a MarkerArray: every marker stamped `stamp_ns` (integer ns) in the frame
        ``strings[0]``.

        Parameters
        ----------
        stamp_ns : int
            Every marker's header stamp, ns.
        strings : list of str
            frame_id, then the ns and text strings the integer columns index.
        ints : (m, INT_COLUMNS) int64
            A marker a row: NS, ID, TYPE, ACTION, TEXT, FIRST, END, CLOSED.
        reals : (m, FLOAT_COLUMNS) float64
            A marker a row: POSE, SCALE, COLOR.
        points : (p, 2) float64
            x, y of the points (z is 0).

        """
        table = string_table(strings)
        longest = 4 * max(map(len, strings))  # UTF-8: at most 4 bytes a character
        count = ints.shape[0]
        closing = int(ints[:, CLOSED].sum())
        # per marker at most 224 fixed bytes (padding included) and three strings
        need = 8 + count * (224 + 3 * (longest + 8)) + 24 * (points.shape[0] + closing)
        if self._stream.shape[0] * 8 < need:
            self._stream = np.zeros(need // 4)
        size = encode_markers(self._stream, _stamp(stamp_ns), table,
                              np.ascontiguousarray(ints, np.int64),
                              np.ascontiguousarray(reals, np.float64),
                              np.ascontiguousarray(points, np.float64))
        return ENCAPSULATION + self._stream.view(np.uint8)[:size].tobytes()


@jit_inline
def _aligned(b, pos, n):
    """`pos` moved up to a multiple of n (a power of two), the bytes skipped zeroed."""
    end = (pos + n - 1) & -n
    for k in range(pos, end):
        b[k] = 0
    return end


@jit_inline
def _string_starts(table):
    """Where each string of a `string_table` starts."""
    count = 0
    for k in range(table.shape[0]):
        count += table[k] == 0
    starts = np.empty(count, np.int64)
    starts[0] = 0
    s = 1
    for k in range(table.shape[0] - 1):
        if table[k] == 0:
            starts[s] = k + 1
            s += 1
    return starts


@jit_inline
def _string(b, i32, pos, table, first):
    """The string of the table from index `first` to its NUL (first < 0: the empty string):
    uint32 length with the NUL, the bytes, the NUL.  Returns the position after it and the
    table index after the NUL (where the next string starts)."""
    pos = _aligned(b, pos, 4)
    start = pos + 4
    pos = start
    k = first
    if first >= 0:
        while table[k] != 0:
            b[pos] = table[k]
            pos += 1
            k += 1
    b[pos] = 0
    i32[(start >> 2) - 1] = pos + 1 - start
    return pos + 1, k + 1


@jit_inline
def _indexed_string(b, i32, pos, table, starts, s):
    """String s of the table (s < 0: the empty string), as `_string`; the position after."""
    return _string(b, i32, pos, table, starts[s] if s >= 0 else -1)[0]


@jit_inline
def _int32(b, i32, pos, value):
    pos = _aligned(b, pos, 4)
    i32[pos >> 2] = value
    return pos + 4


@jit_inline
def _float64(b, f64, pos, value):
    pos = _aligned(b, pos, 8)
    f64[pos >> 3] = value
    return pos + 8


@jit
def encode_diagnostics(stream, table, shape):
    """Write a DiagnosticArray after its encapsulation header into `stream` (float64
    storage); return the bytes written.

    Strings of the table in order: frame_id, then of each status its name, message and
    hardware_id and its keys and values alternating.  `shape`: the stamp's sec and nanosec,
    the status count, then of each status its level and its count of values.
    """
    b, i32 = stream.view(np.uint8), stream.view(np.int32)
    i32[0] = shape[0]
    i32[1] = shape[1]  # nanosec < 2^31
    pos, s = _string(b, i32, 8, table, 0)  # s: where the next string starts
    count = shape[2]
    pos = _int32(b, i32, pos, count)
    for k in range(count):
        b[pos] = shape[3 + 2 * k]  # level: one byte, no alignment
        pos += 1
        values = shape[4 + 2 * k]
        for _ in range(3):  # name, message, hardware_id
            pos, s = _string(b, i32, pos, table, s)
        pos = _int32(b, i32, pos, values)
        for _ in range(2 * values):  # key, value
            pos, s = _string(b, i32, pos, table, s)
    return pos


@jit
def encode_markers(stream, stamp, table, ints, reals, points):
    """Write a MarkerArray after its encapsulation header into `stream` (float64 storage,
    so that offsets counted from its start align as CDR counts them); return the bytes
    written.

    Every marker: header (stamp, frame_id = string 0), ns, id, type, action, pose, scale,
    color (float32), lifetime 0, frame_locked false, points (z = 0), colors [],
    texture_resource '', texture (an empty sensor_msgs/CompressedImage), uv_coordinates [],
    text, mesh_resource '', mesh_file (empty), mesh_use_embedded_materials false.
    """
    b, i32, f32 = stream.view(np.uint8), stream.view(np.int32), stream.view(np.float32)
    starts = _string_starts(table)
    count = ints.shape[0]
    i32[0] = count
    pos = 4
    for m in range(count):
        pos = _int32(b, i32, pos, stamp[0])
        pos = _int32(b, i32, pos, stamp[1])  # nanosec < 2^31
        pos = _indexed_string(b, i32, pos, table, starts, 0)
        pos = _indexed_string(b, i32, pos, table, starts, ints[m, NS])
        pos = _int32(b, i32, pos, ints[m, ID])
        pos = _int32(b, i32, pos, ints[m, TYPE])
        pos = _int32(b, i32, pos, ints[m, ACTION])
        for k in range(10):  # pose, scale
            pos = _float64(b, stream, pos, reals[m, k])
        for k in range(10, 14):  # color
            f32[pos >> 2] = reals[m, k]
            pos += 4
        i32[pos >> 2] = 0  # lifetime
        i32[(pos >> 2) + 1] = 0
        b[pos + 8] = 0  # frame_locked
        pos += 9
        first, end = ints[m, FIRST], ints[m, END]
        closed = ints[m, CLOSED] == 1 and end > first
        pos = _int32(b, i32, pos, end - first + closed)
        if end > first:
            pos = _aligned(b, pos, 8)
        for p in range(first, end + closed):
            q = p if p < end else first
            stream[pos >> 3] = points[q, 0]
            stream[(pos >> 3) + 1] = points[q, 1]
            stream[(pos >> 3) + 2] = 0.0
            pos += 24
        pos = _int32(b, i32, pos, 0)  # colors
        pos = _indexed_string(b, i32, pos, table, starts, -1)  # texture_resource
        pos = _int32(b, i32, pos, 0)  # texture.header.stamp
        pos = _int32(b, i32, pos, 0)
        pos = _indexed_string(b, i32, pos, table, starts, -1)  # texture.header.frame_id
        pos = _indexed_string(b, i32, pos, table, starts, -1)  # texture.format
        pos = _int32(b, i32, pos, 0)  # texture.data
        pos = _int32(b, i32, pos, 0)  # uv_coordinates
        pos = _indexed_string(b, i32, pos, table, starts, ints[m, TEXT])
        pos = _indexed_string(b, i32, pos, table, starts, -1)  # mesh_resource
        pos = _indexed_string(b, i32, pos, table, starts, -1)  # mesh_file.filename
        pos = _int32(b, i32, pos, 0)  # mesh_file.data
        b[pos] = 0  # mesh_use_embedded_materials
        pos += 1
    return pos


def warmup():
    """Compile the encoders (the node calls this before it reports ready)."""
    DiagnosticArrayWriter().encode(0, '', [(0, '', '', [('', '')])])
    MarkerArrayWriter().encode(0, [''], np.zeros((1, INT_COLUMNS), np.int64),
                               np.zeros((1, FLOAT_COLUMNS)), np.zeros((0, 2)))
