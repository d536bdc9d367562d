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
"""Soak: the node with many bodies from a bulk source at a high rate, for a set time.

Records the node's resident memory every second (from /proc), its tick-time percentiles and
overruns (from /diagnostics), and the memory growth after warm-up.  Usage:
``python test/soak.py --bodies 200 --rate 100 --seconds 1800`` (``make soak``; its
short form is `test_soak.py`).
"""

import argparse
import json
import math
import os
import pathlib
import sys
import tempfile
import time

import numpy as np

from collision_monitor.tools.launcher import confine_dds, start_node, stop_node


def rss_kib(pid):
    """Resident set size of a process, KiB."""
    for line in pathlib.Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    return 0


def params(n, rate):
    names = [f'b{k}' for k in range(n)]
    lines = ['collision_monitor:', '  ros__parameters:', f'    tick_rate: {float(rate)}',
             '    pose_timeout: 0.5', f'    bodies: [{", ".join(names)}]',
             '    sources: [fleet]', '    fleet:', '      topic: /soak/poses',
             f'      bodies: [{", ".join(names)}]']
    square = '"[[0.3, 0.2], [-0.3, 0.2], [-0.3, -0.2], [0.3, -0.2]]"'
    lines += [f'    {b}: {{footprint: {square}}}' for b in names]
    return '\n'.join(lines) + '\n'


def soak(n_bodies, rate, seconds, warmup, domain):
    """Run the soak; return the figures as a dict."""
    confine_dds(domain)
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import Pose, PoseArray
    from rclpy.qos import qos_profile_sensor_data
    work = pathlib.Path(tempfile.mkdtemp(prefix='soak-'))
    (work / 'params.yaml').write_text(params(n_bodies, rate))
    proc = start_node(work / 'params.yaml', domain, log_path=work / 'node.log')
    rclpy.init()
    node = rclpy.create_node('soak_driver')
    pub = node.create_publisher(PoseArray, '/soak/poses', qos_profile_sensor_data)
    health = []
    node.create_subscription(DiagnosticArray, '/diagnostics',
                             lambda m: health.extend((time.monotonic(), s) for s in m.status
                                                     if s.name.endswith('monitor')), 10)
    rng = np.random.default_rng(0)
    side = math.sqrt(n_bodies) * 4.0  # ~4 m between bodies: a busy floor, not a pile-up
    centres = rng.uniform(0, side, (n_bodies, 2))
    phase = rng.uniform(0, 2 * math.pi, n_bodies)
    msg = PoseArray()
    msg.header.frame_id = 'map'
    msg.poses = [Pose() for _ in range(n_bodies)]
    memory = []
    start = time.monotonic()
    next_pub = start
    next_sample = start + 1.0
    while time.monotonic() - start < seconds:
        now = time.monotonic()
        if now >= next_pub:
            t = now - start
            xy = centres + 0.8 * np.column_stack([np.cos(0.5 * t + phase),
                                                  np.sin(0.7 * t + phase)])
            msg.header.stamp = node.get_clock().now().to_msg()
            for p, (x, y), a in zip(msg.poses, xy.tolist(), (0.3 * t + phase).tolist()):
                p.position.x, p.position.y = x, y
                p.orientation.z, p.orientation.w = math.sin(a / 2), math.cos(a / 2)
            pub.publish(msg)
            next_pub += 1.0 / rate
        if now >= next_sample:
            memory.append((now - start, rss_kib(proc.pid)))
            next_sample += 1.0
        rclpy.spin_once(node, timeout_sec=max(0.0, min(next_pub, next_sample)
                                              - time.monotonic()))
        if proc.poll() is not None:
            raise RuntimeError(f'the node died; see {work / "node.log"}')
    node.destroy_node()
    rclpy.shutdown()
    code = stop_node(proc)
    after = [kib for t, kib in memory if t >= warmup]
    kv = [{k.key: k.value for k in s.values} for _, s in health]
    # ticks per second while the node was up (its start-up, seconds on a loaded host, is
    # not the node failing to tick)
    span = health[-1][0] - health[0][0] if len(health) > 1 else 0.0
    tick_rate = (int(kv[-1]['ticks']) - int(kv[0]['ticks'])) / span if span > 0 else 0.0
    p99 = [float(v['tick_ms_p99']) for v in kv]
    return {
        'bodies': n_bodies, 'rate_hz': rate, 'seconds': seconds, 'exit_code': code,
        'rss_kib_start': after[0] if after else None, 'rss_kib_end': after[-1] if after else None,
        'rss_growth_pct': 100.0 * (after[-1] - after[0]) / after[0] if len(after) > 1 else None,
        'rss_kib_after_warmup': after,  # one sample a second: a step or a slope
        # growth over each half of those samples, % of the first: a leak grows in both, a
        # one-off step (an allocator's arena, a DDS history filling) in one
        'rss_growth_pct_halves': _halves(after),
        'ticks': int(kv[-1]['ticks']) if kv else 0,
        'tick_rate_hz': tick_rate,
        'overruns': int(kv[-1]['overruns']) if kv else 0,
        'tick_ms_p50_median': float(np.median([float(v['tick_ms_p50']) for v in kv]))
        if kv else None,
        'tick_ms_p99_max': max(p99) if p99 else None,
        'rejected_total': int(kv[-1]['rejected_total']) if kv else 0,
        'log': str(work / 'node.log'),
    }


def _halves(samples):
    """Growth over the first and the second half of `samples`, % of the first sample."""
    if len(samples) < 3:
        return None
    first, mid, last = samples[0], samples[len(samples) // 2], samples[-1]
    return 100.0 * (mid - first) / first, 100.0 * (last - mid) / first


def main(argv=None):
    """Run and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--bodies', type=int, default=200)
    parser.add_argument('--rate', type=float, default=100.0, help='Hz, poses and ticks')
    parser.add_argument('--seconds', type=float, default=1800.0)
    parser.add_argument('--warmup', type=float, default=10.0, help='s before memory counts')
    parser.add_argument('--domain-id', type=int, default=60 + os.getpid() % 30)
    args = parser.parse_args(argv)
    print(json.dumps(soak(args.bodies, args.rate, args.seconds, args.warmup, args.domain_id),
                     indent=2))


if __name__ == '__main__':
    sys.exit(main())
