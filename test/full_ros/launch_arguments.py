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
"""launch_testing test of every launch argument (the ros-kit's venv: `make test-full-ros`).

The launch file with namespace ``ns1``, node_name ``guard``, a params_file of its own,
``use_sim_time:=true``, ``log_level:=debug``, ``autostart:=false`` and
``use_respawn:=true``.  The test finds the node unconfigured, its debug output on, brings it
up through its lifecycle services, sees a contact stamped on the simulated clock, kills the
node and finds it started again (unconfigured: a new process).  Every wait is for a
condition, with deadlines that allow a cold numba compile.
"""

import os
import signal
import subprocess
import tempfile
import time
import unittest

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import PoseStamped
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
import launch_testing.actions
import launch_testing.asserts
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState
import pytest
import rclpy
from rclpy.time import Time
from rosgraph_msgs.msg import Clock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIM_START = 1000  # s, the simulated clock's start: far from the wall clock
SQUARE = '"[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]"'
PARAMS = f"""
/**:
  ros__parameters:
    frame_id: map
    pose_timeout: 5.0
    bodies: [rover, wall]
    rover: {{pose_topic: /rover/pose, footprint: {SQUARE}}}
    wall: {{static: true, pose: [0.6, 0.0, 0.0], footprint: {SQUARE}}}
"""


@pytest.mark.launch_test
def generate_test_description():
    """The package's launch file with every argument given."""
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    params = tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False)
    params.write(PARAMS)
    params.close()
    launch_file = os.path.join(ROOT, 'launch', 'collision_monitor.launch.py')
    return LaunchDescription([
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file),
            launch_arguments={'params_file': params.name, 'namespace': 'ns1',
                              'node_name': 'guard', 'use_sim_time': 'true',
                              'log_level': 'debug', 'autostart': 'false',
                              'use_respawn': 'true'}.items()),
        launch_testing.actions.ReadyToTest(),
    ])


class Probe:
    """A test node: the guard's lifecycle services, a clock publisher and the contacts."""

    def __init__(self):
        rclpy.init()
        self.node = rclpy.create_node('launch_arguments_probe')
        self.get = self.node.create_client(GetState, '/ns1/guard/get_state')
        self.change = self.node.create_client(ChangeState, '/ns1/guard/change_state')
        self.clock = self.node.create_publisher(Clock, '/clock', 10)
        self.pose = self.node.create_publisher(PoseStamped, '/rover/pose', 10)
        self.contacts = []
        self.node.create_subscription(DiagnosticArray, '/ns1/guard/contacts',
                                      self.contacts.append, 10)
        self.sim = float(SIM_START)

    def close(self):
        self.node.destroy_node()
        rclpy.shutdown()

    def until(self, predicate, timeout, each=None):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if each is not None:
                each()
            rclpy.spin_once(self.node, timeout_sec=0.02)
            if predicate():
                return True
        return predicate()

    def call(self, client, request, timeout):
        """The service's response, or None when none came within `timeout` s."""
        if not client.wait_for_service(timeout_sec=timeout):
            return None
        future = client.call_async(request)
        return future.result() if self.until(future.done, timeout) else None

    def state(self, timeout=60.0):
        response = self.call(self.get, GetState.Request(), timeout)
        return None if response is None else response.current_state.label

    def transition(self, tid):
        request = ChangeState.Request(transition=Transition(id=tid))
        response = self.call(self.change, request, 120.0)  # configuring compiles
        return response is not None and response.success

    def tick(self):
        """The simulated clock 20 ms on, and the rover on the wall at that time."""
        self.sim += 0.02
        stamp = Time(nanoseconds=int(self.sim * 1e9)).to_msg()
        self.clock.publish(Clock(clock=stamp))
        msg = PoseStamped()
        msg.header.frame_id = 'map'
        msg.header.stamp = stamp
        msg.pose.orientation.w = 1.0
        self.pose.publish(msg)


def guard_pids():
    """Process ids of the node under test (its command line names the node guard)."""
    out = subprocess.run(['pgrep', '-f', 'collision_monitor_node.*__node:=guard'],
                         capture_output=True, text=True).stdout
    return {int(p) for p in out.split()}


class TestLaunchArguments(unittest.TestCase):

    def test_every_argument_takes_effect(self, proc_output):
        probe = Probe()
        try:
            # autostart:=false and the namespace and name: an unconfigured ns1/guard
            self.assertEqual(probe.state(), 'unconfigured')
            # log_level:=debug: rcl's debug lines come out of the node
            proc_output.assertWaitFor('[DEBUG]', timeout=60)
            self.assertTrue(probe.transition(Transition.TRANSITION_CONFIGURE))
            self.assertTrue(probe.transition(Transition.TRANSITION_ACTIVATE))
            self.assertEqual(probe.state(), 'active')
            # use_sim_time:=true: the contact is stamped on the simulated clock
            self.assertTrue(probe.until(lambda: any(m.status for m in probe.contacts), 120.0,
                                        probe.tick))
            stamp = next(m.header.stamp for m in probe.contacts if m.status)
            self.assertGreaterEqual(stamp.sec, SIM_START)
            self.assertLess(stamp.sec, SIM_START + 600)
            # use_respawn:=true: killed, the node is started again (a new process, back to
            # unconfigured)
            (pid,) = guard_pids()
            os.kill(pid, signal.SIGKILL)
            self.assertTrue(probe.until(lambda: guard_pids() - {pid}, 60.0))
            # (a request to the killed node's service gets no answer: ask again)
            self.assertTrue(probe.until(lambda: probe.state(5.0) == 'unconfigured', 120.0))
        finally:
            probe.close()


@launch_testing.post_shutdown_test()
class TestExit(unittest.TestCase):
    """The respawned node exits cleanly; the killed one by its signal."""

    def test_exit_codes(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info, allowable_exit_codes=[0, -9])
