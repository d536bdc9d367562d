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
"""The replay gives the live node's answers: one scenario published to the node over DDS and
written to a bag by the publisher, then replayed; warnings and contacts agree within a tick."""

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PoseStamped
import pytest
from rclpy.serialization import serialize_message

from ros_harness import active_harness, pose_stamped, SENSOR, SQUARE

rosbags = pytest.importorskip('rosbags')

from rosbags.rosbag2 import StoragePlugin, Writer  # noqa: E402, I100
from rosbags.typesys import get_typestore, Stores  # noqa: E402

from collision_monitor.tools.replay import replay  # noqa: E402

pytestmark = pytest.mark.ros

PARAMS = f"""
/**:
  ros__parameters:
    tick_rate: 50.0
    trigger_ticks: 1
    pose_timeout: 0.3
    bodies: [a, b]
    a: {{pose_topic: /r/a, footprint: {SQUARE}}}
    b: {{pose_topic: /r/b, footprint: {SQUARE}}}
"""
TICK = 0.02


def seconds(stamp):
    return stamp.sec + stamp.nanosec * 1e-9


def test_replay_of_what_the_node_saw_gives_its_answers(tmp_path):
    """b closes on a at 1 m/s from 4 m (contact at 3 s); every message published is written
    to a bag at its publish time.  The first warning and the contact's start agree."""
    store = get_typestore(Stores.ROS2_JAZZY)
    params = tmp_path / 'replay.yaml'
    params.write_text(PARAMS)
    for h in active_harness(PARAMS, tmp_path):
        warnings = h.record(DiagnosticArray, '/collision_monitor/warnings')
        contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
        pubs = {t: h.node.create_publisher(PoseStamped, t, SENSOR) for t in ('/r/a', '/r/b')}
        with Writer(tmp_path / 'in', version=9, storage_plugin=StoragePlugin.MCAP) as writer:
            conns = {t: writer.add_connection(t, 'geometry_msgs/msg/PoseStamped',
                                              typestore=store) for t in pubs}
            start = h.node.get_clock().now()

            def publish():
                now = h.node.get_clock().now()
                t = (now - start).nanoseconds * 1e-9
                for topic, x in (('/r/a', 0.0), ('/r/b', 4.0 - t)):
                    msg = pose_stamped(h, x, 0.0, stamp=now.to_msg())
                    pubs[topic].publish(msg)
                    writer.write(conns[topic], now.nanoseconds, serialize_message(msg))

            h.spin_until(lambda: any(s.name == 'a|b' for _, m in contacts for s in m.status),
                         6.0, publish)
            h.spin_for(0.3, publish)
    live_warned = min(seconds(m.header.stamp) for _, m in warnings
                      for s in m.status if s.name == 'a|b')
    live_began = min(float(v.value) for _, m in contacts for s in m.status
                     if s.name == 'a|b' for v in s.values if v.key == 'began')
    run = replay(tmp_path / 'in', params, tmp_path / 'out', progress=False,
                 log=lambda *_: None)
    record = run.pairs[('a', 'b')]
    base = run.time.epoch_ns * 1e-9
    assert base + record.first_warning == pytest.approx(live_warned, abs=TICK + 0.005)
    assert base + record.contact_start == pytest.approx(live_began, abs=TICK)
