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
"""The launch tests' probe: the example configuration's cart put on its shelf."""

import time

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PoseStamped
import rclpy


def contacts_seen(topic, frame, x, name, timeout=120.0):
    """Publish the cart's pose ``(x, 2.5)`` in `frame` on /cart/pose, from a node called
    `name`, until `topic` reports cart|shelf or `timeout` s pass (a cold numba cache compiles
    for tens of seconds); return the names of the statuses seen."""
    rclpy.init()
    node = rclpy.create_node(name)
    got = []
    node.create_subscription(DiagnosticArray, topic,
                             lambda m: got.extend(s.name for s in m.status), 10)
    pub = node.create_publisher(PoseStamped, '/cart/pose', 10)
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end and 'cart|shelf' not in got:
            msg = PoseStamped()
            msg.header.frame_id = frame
            msg.header.stamp = node.get_clock().now().to_msg()
            msg.pose.position.x, msg.pose.position.y = x, 2.5
            msg.pose.orientation.w = 1.0
            pub.publish(msg)
            rclpy.spin_once(node, timeout_sec=0.05)
    finally:
        node.destroy_node()
        rclpy.shutdown()
    return got
