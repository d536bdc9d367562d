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
"""Poses in other frames, brought into `frame_id` through tf2.

`Frames` puts the lookup behind a small interface: a tf2 buffer where ``tf2_ros`` is
importable (every full ROS install), none otherwise (pip-only installs), where poses in other
frames are refused with a reason that says so.  Tests drive it with a fake buffer.

A pose is ``(x, y, z, qx, qy, qz, qw)`` (metres, unit quaternion); a transform from frame s
into frame t maps a point p of s to ``R(q) p + t``, as geometry_msgs/TransformStamped holds
it.  Times are integer nanoseconds of the ROS clock.
"""

import math

import numpy as np

NO_TF2 = 'wrong frame'
"""The reason for a pose in another frame without tf2_ros (the monitor's wrong frame; the
node says why when it starts and in the log line of each refusal)."""


def quaternion_multiply(a, b):
    """Hamilton product a b of quaternions (x, y, z, w)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def rotate(q, p):
    """The point p rotated by the unit quaternion q (x, y, z, w)."""
    qx, qy, qz, qw = q
    px, py, pz = p
    # t = 2 q_v x p; p' = p + w t + q_v x t
    tx = 2.0 * (qy * pz - qz * py)
    ty = 2.0 * (qz * px - qx * pz)
    tz = 2.0 * (qx * py - qy * px)
    return (px + qw * tx + qy * tz - qz * ty,
            py + qw * ty + qz * tx - qx * tz,
            pz + qw * tz + qx * ty - qy * tx)


def apply_transform(translation, rotation, pose):
    """`pose` (x, y, z, qx, qy, qz, qw) of frame s, expressed in frame t by the transform
    (translation, rotation) from s into t."""
    x, y, z = rotate(rotation, pose[:3])
    tx, ty, tz = translation
    norm = math.sqrt(sum(v * v for v in pose[3:])) or 1.0
    q = quaternion_multiply(rotation, tuple(v / norm for v in pose[3:]))
    return (x + tx, y + ty, z + tz, *q)


class Frames:
    """Transforms into `frame_id` from a tf2 buffer (or none: other frames refused).

    Parameters
    ----------
    buffer : tf2_ros.Buffer-like or None
        ``lookup_transform(target, source, time)`` returning a TransformStamped, raising one
        of `errors` when it cannot.
    frame_id : str
    tolerance_ns : int
        A transform this much older or newer than the pose (`transform_tolerance`) still
        serves, when none is known at the pose's own stamp.
    errors : tuple of exception classes
    time : callable
        Integer nanoseconds -> the buffer's time type (rclpy.time.Time).

    """

    def __init__(self, buffer, frame_id, tolerance_ns, errors=(), time=None):
        self.buffer = buffer
        self.frame_id = frame_id
        self.tolerance_ns = int(tolerance_ns)
        self._errors = tuple(errors)
        self._time = time

    @classmethod
    def for_node(cls, node, frame_id, tolerance_s, time):
        """tf2 through a TransformListener on `node` where tf2_ros is importable; `time`
        makes the buffer's time from integer nanoseconds."""
        try:
            from tf2_ros import Buffer, TransformException, TransformListener
        except ImportError:
            return cls(None, frame_id, 0)
        buffer = Buffer()
        frames = cls(buffer, frame_id, round(tolerance_s * 1e9), (TransformException,), time)
        frames.listener = TransformListener(buffer, node)
        return frames

    @property
    def available(self):
        """Whether other frames can be transformed at all."""
        return self.buffer is not None

    def into_frame_id(self, frame, stamp_ns, pose):
        """``(pose in frame_id, None)``, or ``(None, reason)`` when it cannot be had."""
        if frame == self.frame_id:
            return pose, None
        move, reason = self._mover(frame, stamp_ns)
        return (None, reason) if move is None else (apply_transform(*move, pose), None)

    def rows_into_frame_id(self, frame, stamp_ns, rows):
        """`into_frame_id` for the (n, 7) rows of a PoseArray."""
        if frame == self.frame_id:
            return rows, None
        move, reason = self._mover(frame, stamp_ns)
        return (None, reason) if move is None else (apply_transform_rows(*move, rows), None)

    def _mover(self, frame, stamp_ns):
        """``((translation, rotation), None)`` from `frame` into frame_id, or
        ``(None, reason)``."""
        if self.buffer is None:
            return None, NO_TF2
        transform, reason = self.lookup(frame, stamp_ns)
        if transform is None:
            return None, reason
        t, r = transform.transform.translation, transform.transform.rotation
        return ((t.x, t.y, t.z), (r.x, r.y, r.z, r.w)), None

    def lookup(self, frame, stamp_ns):
        """The transform from `frame` into frame_id at `stamp_ns` (0: the latest), within
        the tolerance; ``(transform, None)`` or ``(None, reason)``."""
        try:
            return self.buffer.lookup_transform(self.frame_id, frame, self._time(stamp_ns)), None
        except self._errors as err:
            if stamp_ns == 0:
                return None, f'no transform from {frame!r} to {self.frame_id!r}: {err}'
        try:
            latest = self.buffer.lookup_transform(self.frame_id, frame, self._time(0))
        except self._errors as err:
            return None, f'no transform from {frame!r} to {self.frame_id!r}: {err}'
        age = abs(stamp_ns - (latest.header.stamp.sec * 10**9 + latest.header.stamp.nanosec))
        if age > self.tolerance_ns:
            return None, (f'no transform from {frame!r} to {self.frame_id!r} within '
                          f'transform_tolerance of the stamp ({age * 1e-9:.3f} s off)')
        return latest, None

    def body_pose(self, child_frame):
        """A body tracked from tf alone: ``(stamp_ns, pose in frame_id, None)`` of the latest
        transform from `child_frame`, or ``(0, None, reason)``."""
        if self.buffer is None:
            return 0, None, NO_TF2
        transform, reason = self.lookup(child_frame, 0)
        if transform is None:
            return 0, None, reason
        t, r = transform.transform.translation, transform.transform.rotation
        stamp = transform.header.stamp
        return stamp.sec * 10**9 + stamp.nanosec, (t.x, t.y, t.z, r.x, r.y, r.z, r.w), None


def apply_transform_rows(translation, rotation, rows):
    """`apply_transform` of every row of an (n, 7) array ``x, y, z, qx, qy, qz, qw``."""
    rows = np.asarray(rows, dtype=float)
    q = np.asarray(rotation, dtype=float)
    p = rows[:, :3]
    t = 2.0 * np.cross(q[:3], p)
    out = np.empty_like(rows)
    out[:, :3] = p + q[3] * t + np.cross(q[:3], t) + np.asarray(translation, dtype=float)
    b = rows[:, 3:7]
    norm = np.sqrt(np.sum(b * b, axis=1))
    b = b / np.where(norm > 0.0, norm, 1.0)[:, None]
    ax, ay, az, aw = q
    bx, by, bz, bw = b.T
    out[:, 3] = aw * bx + ax * bw + ay * bz - az * by
    out[:, 4] = aw * by - ax * bz + ay * bw + az * bx
    out[:, 5] = aw * bz + ax * by - ay * bx + az * bw
    out[:, 6] = aw * bw - ax * bx - ay * by - az * bz
    return out
