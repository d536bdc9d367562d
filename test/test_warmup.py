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
"""Nothing compiles after the warm-up: a monitor scenario that reaches every kind of tick
adds no signature to any kernel, and a node started on an empty cache reports its first
contact on time."""

import importlib
import math
import pkgutil

from numba.core.registry import CPUDispatcher
import numpy as np
import pytest

import collision_monitor
from collision_monitor.monitor.monitor import Monitor, warmup
from test_monitor import body, config

NOTCH = '[[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [0.0, 0.0], [-0.5, 0.5]]'


def dispatchers():
    """Every numba dispatcher of the package below the ROS layer, by qualified name."""
    found = {}
    for info in pkgutil.walk_packages(collision_monitor.__path__, 'collision_monitor.'):
        if info.name.startswith(('collision_monitor.ros', 'collision_monitor.tools')):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher):
                found[f'{value.py_func.__module__}.{name}'] = value
    return found


def signatures():
    return {name: set(map(str, d.signatures)) for name, d in dispatchers().items()}


def feed(m, t, poses):
    for name, (x, y, yaw) in poses.items():
        m.pose(m.index[name], t, 'map', (x, y, 0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)),
               t)


def test_a_scenario_after_the_warmup_compiles_nothing():
    warmup()
    before = signatures()
    for predictor in ('constant_acceleration', 'constant_velocity'):
        m = Monitor(config({'robot': body(pose_topic='/r'),
                            'cart': body(pose_topic='/c', footprint=NOTCH,
                                         footprint_topic='/cf'),
                            'walker': body(pose_topic='/w'),
                            'shelf': body(static=True, pose=[6.0, 0.0, 0.0])},
                           predictor=predictor, trigger_ticks=1,
                           **{'gate.enabled': True, 'gate.body': 'robot'}))
        for k, t in enumerate(np.arange(0.0, 4.0, 0.05)):
            poses = {'robot': (t, 0.0, 0.1 * t), 'cart': (4.0 - t, 0.3, -0.2 * t)}
            if t < 2.0:
                poses['walker'] = (2.0, -3.0 + t, 0.0)  # then stale
            feed(m, t, poses)
            if k == 30:
                m.footprint(m.index['cart'], [[-0.6, -0.4], [0.6, -0.4], [0.6, 0.4],
                                              [0.0, 0.1], [-0.6, 0.4]])
            m.tick(t)
            m.gate_scale(0.5, 0.0, 0.1)
    after = signatures()
    grown = {name: after[name] - before.get(name, set()) for name in after
             if after[name] - before.get(name, set())}
    assert not grown, grown


@pytest.mark.ros
@pytest.mark.slow
def test_a_node_on_an_empty_cache_reports_a_contact_within_two_ticks(tmp_path, monkeypatch):
    """The node compiles every kernel before it reports active: on an empty numba cache (a
    fresh install) its first contact is still reported within two ticks of when it began
    (a kernel compiled at the first contact held that tick for a quarter of a second)."""
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import PoseStamped
    from ros_harness import Harness, LATCHED, pose_stamped, SENSOR, SQUARE
    rate = 20.0
    params = f"""
collision_monitor:
  ros__parameters:
    tick_rate: {rate}
    bodies: [robot, box]
    robot: {{pose_topic: /e/robot, footprint: {SQUARE}}}
    box: {{static: true, pose: [3.0, 0.2, 0.0], footprint: {SQUARE}}}
"""
    monkeypatch.setenv('NUMBA_CACHE_DIR', str(tmp_path / 'empty_cache'))
    h = Harness(params, tmp_path)
    try:
        state = h.record(DiagnosticArray, '/collision_monitor/state', LATCHED)
        assert h.spin_until(lambda: state, 300.0), f'node not active:\n{h.log()}'
        contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
        pub = h.node.create_publisher(PoseStamped, '/e/robot', SENSOR)
        origin = h.node.get_clock().now()

        def publish():  # 1 m/s along x: the faces meet 1 s after the origin
            now = h.node.get_clock().now()
            t = (now - origin).nanoseconds * 1e-9
            pub.publish(pose_stamped(h, t + 1.0, 0.0, stamp=now.to_msg()))

        def reported():
            return [m for _, m in contacts if any(s.name == 'robot|box' for s in m.status)]

        assert h.spin_until(reported, 10.0, publish), h.log()
        first = reported()[0]
        began = float({kv.key: kv.value for s in first.status for kv in s.values}['began'])
        stamp = first.header.stamp.sec + first.header.stamp.nanosec * 1e-9
        assert began - origin.nanoseconds * 1e-9 == pytest.approx(1.0, abs=0.05)
        assert stamp - began <= 2.0 / rate
    finally:
        h.close()
    assert h.exit_code == 0, h.log()
