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
"""End-to-end latency over DDS: pose publication to warning publication, and tick overruns.

N bodies come from one bulk PoseArray source at 47 Hz (the node ticks at 50 Hz); four pairs of
them close in and part again in turn, so that every tick warns of a collision (`_move`).
Latency is the time from publishing a PoseArray (the driver reads its clock once the poses
are computed, stamps the message with it and publishes) to the node publishing the first
warnings message after it: the source timestamp its DDS writer gives the sample as it is
published (both clocks are this machine's wall clock; that message's header stamp is the
tick's time, when the node took the poses), so it includes the wait for the node's next tick
(up to one period at `tick_rate`) unless `tick_on_source` ticks on arrival.

The driver publishes the message's serialized bytes, the moving poses and the stamp
written into them in place, as a C++ fleet manager's publish costs next to nothing: rclpy's
conversion of a PoseArray from Python objects alone takes 1.3 ms at 1,000 poses on this
machine, time the node cannot save.
"""

import math
import pathlib
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

from collision_monitor.ros.node import make_executor
from collision_monitor.tools.launcher import (confine_dds, node_environment, start_node,
                                              stop_node)


def echo(domain):
    """The floor of the measure: an rclpy node that answers each PoseArray (raw) with an empty
    warnings message stamped on arrival, and nothing else.  The answer is published as
    serialized bytes, as the node publishes its own messages: building and converting a
    message object would add about 0.1 ms here that the node does not spend."""
    confine_dds(domain)
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import PoseArray
    from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                           ReliabilityPolicy)
    from rclpy.serialization import serialize_message
    rclpy.init()
    node = rclpy.create_node('latency_echo')
    pub = node.create_publisher(DiagnosticArray, '/collision_monitor/warnings', 10)
    empty = bytearray(serialize_message(DiagnosticArray()))

    def answer(_):
        pub.publish(_stamped(empty, node.get_clock().now().nanoseconds))
    node.create_subscription(PoseArray, '/lat/poses', answer, qos_profile_sensor_data,
                             raw=True)
    ready = node.create_publisher(
        DiagnosticArray, '/collision_monitor/state',
        QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                   durability=DurabilityPolicy.TRANSIENT_LOCAL))
    ready.publish(DiagnosticArray())
    executor = make_executor()  # the node's executor, spun as the node spins it
    executor.add_node(node)
    try:
        while rclpy.ok():
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, rclpy.executors.ExternalShutdownException):
        pass


def start_echo(params_file, domain, log_path=None):
    """Start `echo` in a process of its own, as `start_node` starts the monitor."""
    return subprocess.Popen([sys.executable, '-m', 'benchmarks.latency', str(domain)],
                            env=node_environment(domain), cwd=pathlib.Path(__file__).parents[1],
                            stderr=subprocess.DEVNULL)


def fleet_params(n_bodies, rate, tick_on_source, work):
    """Write the node's parameter file for n_bodies 0.6 m x 0.4 m bodies from one bulk
    source on /lat/poses into directory `work`; return its path."""
    names = [f'b{k}' for k in range(n_bodies)]
    square = '"[[0.3, 0.2], [-0.3, 0.2], [-0.3, -0.2], [0.3, -0.2]]"'
    text = '\n'.join(['collision_monitor:', '  ros__parameters:', f'    tick_rate: {rate}',
                      '    trigger_ticks: 1', f'    bodies: [{", ".join(names)}]',
                      f'    tick_on_source: {str(tick_on_source).lower()}',
                      '    sources: [fleet]', '    fleet:', '      topic: /lat/poses',
                      f'      bodies: [{", ".join(names)}]']
                     + [f'    {b}: {{footprint: {square}}}' for b in names]) + '\n'
    (work / 'params.yaml').write_text(text)
    return work / 'params.yaml'


def fleet_message(n_bodies):
    """A PoseArray of the fleet, serialized: ``(bytes, poses)`` with `poses` the (n, 7)
    float64 view of its poses inside the bytes (CDR puts them last, 7 doubles each)."""
    from geometry_msgs.msg import Pose, PoseArray
    from rclpy.serialization import serialize_message
    side = math.sqrt(n_bodies) * 4.0
    xy = np.random.default_rng(1).uniform(0, side, (n_bodies, 2))
    msg = PoseArray()
    msg.header.frame_id = 'map'
    msg.poses = [Pose() for _ in range(n_bodies)]
    for p, (x, y) in zip(msg.poses, xy.tolist()):
        p.position.x, p.position.y = x, y
        p.orientation.w = 1.0
    data = bytearray(serialize_message(msg))
    poses = np.frombuffer(data, '<f8', 7 * n_bodies, len(data) - 56 * n_bodies).reshape(-1, 7)
    return data, poses


CLOSING_PAIRS = 4
"""Pairs of bodies that close in on each other and part again, a quarter period apart."""


def _move(poses, t):
    """Bodies 2k and 2k + 1 (k < `CLOSING_PAIRS`), 5 m apart from the next pair, oscillate
    along x: 0.6 m + 0.45 m sin(1.5 t + k pi / 2) between them (up to 0.68 m/s and
    1.0 m/s^2), each pair a quarter period after the one before, so that every tick at least
    one pair meets within the 2 s horizon (a warning) and none ever touches."""
    for k in range(CLOSING_PAIRS):
        y = -5.0 * (k + 1)
        poses[2 * k, :2] = 0.0, y
        poses[2 * k + 1, :2] = 1.2 + 0.45 * math.sin(1.5 * t + 0.5 * math.pi * k), y


def _stamped(data, stamp_ns):
    """The message's bytes with its header stamp set (int32 sec, uint32 nanosec after the
    4-byte encapsulation header): what is published."""
    struct.pack_into('<iI', data, 4, stamp_ns // 10**9, stamp_ns % 10**9)
    return bytes(data)


GAPS = (1e-4, 1e-3, 2e-3, 5e-3)
"""Idle gaps (s) before a call, besides none and the gap between messages, at which
`callback_breakdown` times the callback and the engine's predict: how fast the caches go
cold."""


def callback_breakdown(n_bodies, domain, idle=1.0 / 47.0, calls=400, gaps=GAPS):
    """Where the node's time goes on one bulk message: the node built in this process, its
    PoseArray callback called directly with the serialized message (no DDS), `calls` times
    back to back, then `calls` times after each idle gap of `gaps` and of `idle` (the gap
    between messages at 47 Hz), the gap a sleep before each call.

    Returns two dicts of medians per call, us.  First ``{part: (back to back, after idle)}``
    for the whole callback; taking the poses (parse and `Monitor.bulk`); `Monitor.predict`,
    and of it the engine's `predict`; the warnings message (built and published);
    `Monitor.detect`; the contacts message.  The warnings message is stamped after
    `Monitor.predict`: what precedes the stamp is what the DDS latency above adds to the
    floor.  Second ``{gap: (whole callback, engine predict)}`` for no gap, each of `gaps`
    and `idle`: how soon the caches the callback needs go cold."""
    confine_dds(domain)
    import rclpy
    from collision_monitor.ros.node import CollisionMonitorNode
    work = pathlib.Path(tempfile.mkdtemp(prefix='breakdown-'))
    params = fleet_params(n_bodies, 50.0, True, work)
    rclpy.init(args=['--ros-args', '--params-file', str(params), '-p', 'autostart:=false'])
    node = CollisionMonitorNode()
    node.trigger_configure()
    node.trigger_activate()
    timing = {}

    def timed(obj, name, part):
        method = getattr(obj, name)

        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            out = method(*args, **kwargs)
            timing[part] = timing.get(part, 0.0) + time.perf_counter() - t0
            return out
        setattr(obj, name, wrapper)
    monitor, out = node.monitor, node._out
    timed(monitor, 'bulk', 'poses')
    timed(monitor, 'predict', 'predict')
    timed(monitor.world, 'predict', 'engine predict')
    timed(monitor, 'detect', 'detect')
    timed(out, 'warnings', 'warnings')
    timed(node._pub_warnings, 'publish', 'warnings')
    timed(out, 'contacts', 'contacts')
    timed(node._pub_contacts, 'publish', 'contacts')
    callback = node._bulk_callback('fleet')
    data, poses = fleet_message(n_bodies)
    rows = {}
    try:
        for gap in (0.0, 0.0, *gaps, idle):  # the first round warms up
            samples = []
            for k in range(calls):
                if gap:
                    time.sleep(gap)
                _move(poses, time.time())  # moving as fast as in `measure`
                message = _stamped(data, node.get_clock().now().nanoseconds)
                timing.clear()
                t0 = time.perf_counter()
                callback(message)
                timing['callback'] = time.perf_counter() - t0
                samples.append(dict(timing))
            rows[gap] = {part: np.median([s[part] for s in samples]) * 1e6
                         for part in samples[0]}
    finally:
        node.destroy_node()
        rclpy.shutdown()
    # the poses part is the whole callback before the tick, parse included
    for r in rows.values():
        r['poses'] = (r['callback'] - r['predict'] - r['warnings'] - r['detect']
                      - r['contacts'])
    parts = {part: (rows[0.0][part], rows[idle][part]) for part in rows[0.0]}
    return parts, {gap: (r['callback'], r['engine predict']) for gap, r in rows.items()}


def measure(n_bodies, rate=50.0, seconds=10.0, domain=70, publish_rate=47.0,
            tick_on_source=False, floor=False):
    """Return (p50 ms, p99 ms, overrun fraction, samples, share of samples whose warnings
    message warned of at least one pair).

    Poses go out at `publish_rate`, off the node's `rate`, so that the wait for the next tick
    sweeps the whole period instead of locking to one phase.  With `floor`, `echo` answers
    instead of the monitor.
    """
    confine_dds(domain)
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import PoseArray
    from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                           ReliabilityPolicy)
    work = pathlib.Path(tempfile.mkdtemp(prefix='latency-'))
    params = fleet_params(n_bodies, rate, tick_on_source, work)
    proc = (start_echo if floor else start_node)(params, domain,
                                                 log_path=work / 'node.log')
    rclpy.init()
    node = rclpy.create_node('latency_driver')
    pub = node.create_publisher(PoseArray, '/lat/poses', qos_profile_sensor_data)
    received = []
    health = []
    # the node's own publication time (its DDS writer's source timestamp, the same wall
    # clock as ours): the driver's receipt can be delayed by its own work, this cannot
    node.create_subscription(
        DiagnosticArray, '/collision_monitor/warnings',
        lambda m, info: received.append((info['source_timestamp'] * 1e-9, len(m.status))), 10)
    node.create_subscription(DiagnosticArray, '/diagnostics',
                             lambda m: health.extend(s for s in m.status
                                                     if s.name.endswith('monitor')), 10)
    ready = []
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    node.create_subscription(DiagnosticArray, '/collision_monitor/state',
                             lambda m: ready.append(True), latched)
    deadline = time.monotonic() + 60.0
    while not ready and time.monotonic() < deadline:
        rclpy.spin_once(node, timeout_sec=0.05)
    data, poses = fleet_message(n_bodies)
    published = []
    start = time.monotonic()
    next_pub = start
    warm = 2.0  # after the node is active: discovery of the driver's topics settles
    while time.monotonic() - start < seconds + warm:
        now = time.monotonic()
        if now >= next_pub:
            t = now - start
            _move(poses, t)
            stamp = node.get_clock().now().nanoseconds  # publication begins
            pub.publish(_stamped(data, stamp))
            if t > warm:
                published.append(stamp * 1e-9)
            next_pub += 1.0 / publish_rate
        rclpy.spin_once(node, timeout_sec=max(0.0, next_pub - time.monotonic()))
    end = time.monotonic() + 0.2
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.01)
    node.destroy_node()
    rclpy.shutdown()
    stop_node(proc)
    received.sort()
    recv = np.array([stamp for stamp, _ in received])
    lat = []
    warned = 0
    for p in published:
        k = np.searchsorted(recv, p)
        if k < len(recv):
            lat.append(recv[k] - p)
            warned += received[k][1] > 0
    kv = [{k.key: k.value for k in s.values} for s in health]
    overrun = int(kv[-1]['overruns']) / max(1, int(kv[-1]['ticks'])) if kv else math.nan
    lat = np.array(lat) * 1e3
    return (float(np.percentile(lat, 50)), float(np.percentile(lat, 99)), overrun, len(lat),
            warned / max(1, len(lat)))


if __name__ == '__main__':
    echo(int(sys.argv[1]))
