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
"""Replay speed: a recorded fleet (one PoseArray of N bodies at `rate` Hz) through
`collision_monitor_replay`'s code, as bag seconds per second of wall time."""

import math
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np


def pose_array_cdr(stamp_ns, frame_id, rows):
    """CDR of a geometry_msgs/PoseArray (little endian) of (n, 7) rows x, y, z, qx, qy, qz,
    qw: the bytes rclpy's serialize_message writes, built without a Python object a pose."""
    frame = frame_id.encode() + b'\0'
    head = struct.pack('<iII', stamp_ns // 10**9, stamp_ns % 10**9, len(frame)) + frame
    head += b'\0' * (-len(head) % 4) + struct.pack('<I', len(rows))
    if len(rows):  # the first double 8-aligned
        head += b'\0' * (-len(head) % 8)
    return b'\x00\x01\x00\x00' + head + np.ascontiguousarray(rows, '<f8').tobytes()


def write_fleet_bag(directory, n_bodies=100, rate=50.0, seconds=60.0, spacing=10.0, seed=0,
                    marker_rate=10.0):
    """A bag of `n_bodies` 0.6 m x 0.4 m robots driving straight at up to 1 m/s, bouncing
    in a square of side ``sqrt(n) * spacing`` m, and its parameter file (markers at
    `marker_rate` Hz); return both paths."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores
    directory = pathlib.Path(directory)
    names = [f'r{k}' for k in range(n_bodies)]
    footprint = '"[[0.3, 0.2], [-0.3, 0.2], [-0.3, -0.2], [0.3, -0.2]]"'
    params = directory / 'params.yaml'
    params.write_text('\n'.join(
        ['collision_monitor:', '  ros__parameters:', '    tick_rate: 50.0',
         f'    marker_rate: {marker_rate}',
         f'    bodies: [{", ".join(names)}]', '    sources: [fleet]', '    fleet:',
         '      topic: /fleet/poses', f'      bodies: [{", ".join(names)}]']
        + [f'    {b}: {{footprint: {footprint}}}' for b in names]) + '\n')
    rng = np.random.default_rng(seed)
    side = math.sqrt(n_bodies) * spacing
    start, velocity = rng.uniform(0, side, (n_bodies, 2)), rng.uniform(-1, 1, (n_bodies, 2))
    heading = np.arctan2(velocity[:, 1], velocity[:, 0])
    rows = np.zeros((n_bodies, 7))
    rows[:, 5], rows[:, 6] = np.sin(heading / 2), np.cos(heading / 2)
    bag = directory / 'fleet'
    with Writer(bag, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conn = writer.add_connection('/fleet/poses', 'geometry_msgs/msg/PoseArray',
                                     typestore=get_typestore(Stores.ROS2_JAZZY))
        t0 = 1_700_000_000 * 10**9
        for k in range(int(seconds * rate)):
            t = k / rate
            rows[:, :2] = np.abs(np.mod(start + velocity * t, 2 * side) - side)  # bouncing
            ns = t0 + round(t * 1e9)
            data = pose_array_cdr(ns, 'map', rows)
            if k == 0:
                _check(data, ns, rows)
            writer.write(conn, ns, data)
    return bag, params


def _check(data, stamp_ns, rows):
    """`pose_array_cdr`'s bytes read by rclpy hold the stamp and rows they were made of."""
    from geometry_msgs.msg import PoseArray
    from rclpy.serialization import deserialize_message
    msg = deserialize_message(data, PoseArray)
    read = [(p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y,
             p.orientation.z, p.orientation.w) for p in msg.poses]
    stamp = msg.header.stamp.sec * 10**9 + msg.header.stamp.nanosec
    if stamp != stamp_ns or msg.header.frame_id != 'map' or not np.array_equal(read, rows):
        raise AssertionError('pose_array_cdr does not write what rclpy reads')


def run(n_bodies=100, rate=50.0, seconds=300.0, command_seconds=3600.0):
    """``(start-up seconds, rows, command)``.

    The start-up is the whole call on a 1 s bag, the first in the process (numba loading the
    cached kernels, rosbags' type store, matplotlib's import and the report): what a command
    pays once.  The command runs on that bag first, in a process of its own, so that numba's
    cache holds every kernel of a replay.  Rows ``(bag seconds, marker rate in Hz or None for
    no markers, processes, wall seconds, pairs reported)`` follow, each a whole call: in
    blocks on every usable core without markers, with them at the default 10 Hz and at every
    tick, then in one process with markers at 10 Hz.  `command` is ``(bag seconds, wall
    seconds)`` of the ``collision_monitor_replay`` command as a user runs it, a fresh process
    from interpreter start to exit, on a `command_seconds` bag with the default markers and
    jobs.
    """
    from collision_monitor.tools.replay import replay
    cores = len(os.sched_getaffinity(0))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for length, marker_rate, jobs in ((1.0, None, 1), (seconds, None, cores),
                                          (seconds, 10.0, cores), (seconds, rate, cores),
                                          (seconds, 10.0, 1)):
            work = pathlib.Path(tmp) / f'{length}-{marker_rate}-{jobs}'
            work.mkdir()
            bag, params = write_fleet_bag(work, n_bodies, rate, length,
                                          marker_rate=marker_rate or 10.0)
            if not rows:
                _command(bag, params, work / 'filling the cache')
            t = time.perf_counter()
            result = replay(bag, params, work / 'out', markers=marker_rate is not None,
                            progress=False, log=lambda _: None, jobs=jobs)
            rows.append((length, marker_rate, jobs, time.perf_counter() - t,
                         len(result.pairs)))
            shutil.rmtree(work / 'out')  # with markers at 50 Hz, 0.5 GB
        work = pathlib.Path(tmp) / 'command'
        work.mkdir()
        bag, params = write_fleet_bag(work, n_bodies, rate, command_seconds)
        t = time.perf_counter()
        _command(bag, params, work / 'out')
        command = (command_seconds, time.perf_counter() - t)
    return rows[0][3], rows[1:], command


def _command(bag, params, out):
    """``collision_monitor_replay`` as a user runs it, in a fresh process."""
    subprocess.run([sys.executable, '-m', 'collision_monitor.tools.replay', str(bag),
                    '--params-file', str(params), '--output', str(out)],
                   check=True, env=os.environ, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
