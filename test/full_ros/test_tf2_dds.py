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
"""The node's frames through the real tf2 over DDS (the ros-kit's venv: `make test-full-ros`).

The node (a child process) keeps a real ``tf2_ros.Buffer`` fed by its ``TransformListener``;
transforms come from the C++ ``static_transform_publisher`` of tf2_ros and from a Python
``TransformBroadcaster`` in this process.  The wall stands in map at x = 4.6 (faces at 4.1
and 5.1); a unit square at x = 4.0 in map touches it, at x = 3.0 it does not.
"""

import pathlib
import subprocess

from ament_index_python.packages import get_package_prefix
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import Point32, PolygonStamped, PoseStamped, TransformStamped
import pytest
from rclpy.duration import Duration
from tf2_ros import TransformBroadcaster

from collision_monitor.tools.launcher import node_environment, stop_node
from ros_harness import active_harness, pose_stamped, SENSOR, SQUARE

pytestmark = pytest.mark.ros

PARAMS = f"""
collision_monitor:
  ros__parameters:
    frame_id: map
    tick_rate: 50.0
    pose_timeout: 1.0
    transform_tolerance: 0.3
    bodies: [a, b, c, d, cart, wall]
    a: {{pose_topic: /tf/a, footprint: {SQUARE}}}
    b: {{pose_topic: /tf/b, footprint: {SQUARE}}}
    c: {{pose_topic: /tf/c, footprint: {SQUARE}}}
    d: {{pose_topic: /tf/d, footprint: {SQUARE}, footprint_topic: /tf/d_footprint}}
    cart: {{tf_frame: cart/base_link, footprint: {SQUARE}}}
    wall: {{static: true, pose: [4.6, 0.0, 0.0], footprint: {SQUARE}}}
"""


@pytest.fixture(scope='module')
def harness(tmp_path_factory):
    yield from active_harness(PARAMS, tmp_path_factory.mktemp('tf2'))


def static_transform(h, x, parent, child):
    """The C++ static_transform_publisher of tf2_ros (x metres along x), in h's domain."""
    exe = pathlib.Path(get_package_prefix('tf2_ros')) / 'lib' / 'tf2_ros' / \
        'static_transform_publisher'
    assert exe.read_bytes()[:4] == b'\x7fELF', 'not the C++ tf2_ros'
    return subprocess.Popen([str(exe), '--x', str(x), '--frame-id', parent,
                             '--child-frame-id', child], env=node_environment(h.domain),
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def transform(stamp, x, parent, child):
    msg = TransformStamped()
    msg.header.stamp = stamp
    msg.header.frame_id = parent
    msg.child_frame_id = child
    msg.transform.translation.x = float(x)
    msg.transform.rotation.w = 1.0
    return msg


def pairs(records):
    return {s.name for _, m in records for s in m.status}


def test_a_pose_in_odom_is_brought_into_map_through_a_static_transform(harness):
    """a at x = 3 in odom, odom 1 m along x of map: a is at 4 in map, on the wall."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub = h.node.create_publisher(PoseStamped, '/tf/a', SENSOR)
    tf = static_transform(h, 1.0, 'map', 'odom')
    try:
        assert h.spin_until(lambda: 'a|wall' in pairs(contacts), 60.0,
                            lambda: pub.publish(pose_stamped(h, 3.0, 0.0, frame='odom'))), \
            h.log()
    finally:
        stop_node(tf)


def test_a_missing_transform_is_refused_with_its_reason_then_accepted(harness):
    """b in frame lidar, which no one publishes: refused, the log says which transform is
    missing; once map -> lidar (0.5 m) appears, b at 3.5 in lidar is at 4.0 in map."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub = h.node.create_publisher(PoseStamped, '/tf/b', SENSOR)
    keep_b = lambda: pub.publish(pose_stamped(h, 3.5, 0.0, frame='lidar'))  # noqa: E731
    assert h.spin_until(lambda: "no transform from 'lidar' to 'map'" in h.log(), 30.0, keep_b)
    assert 'b|wall' not in pairs(contacts)
    tf = static_transform(h, 0.5, 'map', 'lidar')
    try:
        assert h.spin_until(lambda: 'b|wall' in pairs(contacts), 60.0, keep_b), h.log()
        assert "pose of 'b' accepted again" in h.log()
    finally:
        stop_node(tf)


def test_transform_tolerance_decides_whether_an_older_transform_serves(harness):
    """c in frame base2, whose only transform (map -> base2, 0.5 m) is 1 s older than c's
    poses: refused, more than transform_tolerance (0.3 s) off; with the transform broadcast
    0.2 s behind the poses, it serves and c touches the wall."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub = h.node.create_publisher(PoseStamped, '/tf/c', SENSOR)
    broadcaster = TransformBroadcaster(h.node)
    lag = [Duration(seconds=1.0)]

    def publish():
        now = h.node.get_clock().now()
        broadcaster.sendTransform(transform((now - lag[0]).to_msg(), 0.5, 'map', 'base2'))
        pub.publish(pose_stamped(h, 3.5, 0.0, frame='base2', stamp=now.to_msg()))

    # refused: logged once per body and reason, with the detail of the first refusal, which
    # is the tolerance's unless the pose reached the node before the transform did
    assert h.spin_until(lambda: "no transform from 'base2' to 'map'" in h.log(), 30.0,
                        publish), h.log()
    contacts.clear()
    assert h.spin_until(lambda: len(contacts) >= 10, 30.0, publish)
    assert 'c|wall' not in pairs(contacts)
    lag[0] = Duration(seconds=0.2)
    assert h.spin_until(lambda: 'c|wall' in pairs(contacts[-1:]), 30.0, publish), h.log()


def test_a_body_tracked_from_tf_follows_its_transform(harness):
    """cart has no pose topic: its pose is the transform map -> cart/base_link, broadcast
    here; at x = 2 it is clear of the wall, at x = 4 it touches it."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    broadcaster = TransformBroadcaster(h.node)
    x = [2.0]

    def publish():
        broadcaster.sendTransform(transform(h.now(), x[0], 'map', 'cart/base_link'))

    assert h.spin_until(lambda: contacts, 30.0, publish)
    contacts.clear()
    assert h.spin_until(lambda: len(contacts) >= 5, 30.0, publish)
    assert 'cart|wall' not in pairs(contacts)
    x[0] = 4.0
    assert h.spin_until(lambda: 'cart|wall' in pairs(contacts), 30.0, publish), h.log()


def test_a_footprint_posed_in_odom_comes_through_tf_and_the_body_pose(harness):
    """As Nav2's local costmap publishes published_footprint: placed at the robot, in odom
    (odom 1 m along x of map).  d stands at x = 2 in map; its footprint, 0.9 to 3.6 in odom,
    is 1.9 to 4.6 in map: in d's frame it reaches 2.6 m ahead, onto the wall."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub = h.node.create_publisher(PoseStamped, '/tf/d', SENSOR)
    pub_fp = h.node.create_publisher(PolygonStamped, '/tf/d_footprint', 10)
    keep_d = lambda: pub.publish(pose_stamped(h, 2.0, 0.0))  # noqa: E731
    tf = static_transform(h, 1.0, 'map', 'odom')
    try:
        assert h.spin_until(lambda: len(contacts) > 5, 30.0, keep_d)
        assert 'd|wall' not in pairs(contacts)
        fp = PolygonStamped()
        fp.header.frame_id = 'odom'
        fp.polygon.points = [Point32(x=x, y=y) for x, y in
                             ((0.9, -0.3), (3.6, -0.3), (3.6, 0.3), (0.9, 0.3))]

        def publish():
            keep_d()
            fp.header.stamp = h.now()
            pub_fp.publish(fp)

        assert h.spin_until(lambda: 'd|wall' in pairs(contacts), 60.0, publish), h.log()
    finally:
        stop_node(tf)
