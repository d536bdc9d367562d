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
"""A test-side rclpy node in a context of its own, and the node under test as a process."""

import gc
import itertools
import math
import os
import time

from geometry_msgs.msg import PoseStamped
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from collision_monitor.tools.launcher import start_node, stop_node

_domains = itertools.count(1)
_names = itertools.count()

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
SENSOR = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)
SQUARE = '"[[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]"'


def pose_stamped(h, x, y, yaw=0.0, frame='map', stamp=None):
    """A PoseStamped at (x, y, yaw), stamped now on the harness's clock unless given."""
    msg = PoseStamped()
    msg.header.frame_id = frame
    msg.header.stamp = stamp or h.now()
    msg.pose.position.x, msg.pose.position.y = float(x), float(y)
    msg.pose.orientation.z, msg.pose.orientation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return msg


def fresh_domain():
    """A ROS_DOMAIN_ID for one test process: 10..99, distinct per call in this run (for up
    to 90 calls, more than a run makes).

    Each node under test needs a domain of its own, not only each run: every node is
    /collision_monitor, and a module's harness stays up through the module.  In one shared
    domain a test's clients reach whichever node answers first: pinned to one domain,
    test_lifecycle_transitions read 'active' from the module harness's node (autostart)
    instead of 'unconfigured' from its own."""
    return 10 + (os.getpid() * 7 + next(_domains)) % 90


_WARM = []


def warm_kernel_cache():
    """Compile the node's kernels into the run's numba cache in this process, once: node
    processes the tests start then load them instead of each compiling from an empty cache
    (a minute on a loaded two-core machine, past the tests' start-up wait)."""
    if not _WARM:
        from collision_monitor.monitor.monitor import warmup
        from collision_monitor.ros.cdr import warmup as cdr_warmup
        warmup()
        cdr_warmup()
        _WARM.append(True)


class Harness:
    """The node under test (a child process) plus a test node talking to it over DDS."""

    def __init__(self, yaml_text, tmp_path, parameters=()):
        warm_kernel_cache()
        self.domain = fresh_domain()
        params = tmp_path / 'params.yaml'
        params.write_text(yaml_text)
        self.log_path = tmp_path / 'node.log'
        self.proc = start_node(params, self.domain, parameters, self.log_path)
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=self.domain)
        # A name of its own and no rosout: two harnesses alive at once in this process
        # (a module's and a test's) would share rcl's process-wide rosout entry for one name.
        self.node = rclpy.create_node(f'harness_{next(_names)}', context=self.context,
                                      enable_rosout=False)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.exit_code = None

    def record(self, msg_type, topic, qos=10):
        """Subscribe and return the list the messages go into, as (monotonic time, msg)."""
        got = []
        self.node.create_subscription(msg_type, topic,
                                      lambda m: got.append((time.monotonic(), m)), qos)
        return got

    def spin_until(self, predicate, timeout, each=None, period=0.02):
        """Spin (calling `each()` every `period`) until predicate() or timeout; return it."""
        end = time.monotonic() + timeout
        next_call = time.monotonic()
        while time.monotonic() < end:
            if each is not None and time.monotonic() >= next_call:
                each()
                next_call += period
            self.executor.spin_once(timeout_sec=0.005)
            if predicate():
                return True
            assert self.proc.poll() is None, f'node died: {self.log()}'
        return predicate()

    def spin_for(self, seconds, each=None, period=0.02):
        """Spin for a while, calling `each()` every `period`."""
        self.spin_until(lambda: False, seconds, each, period)

    def now(self):
        """The test node's clock as a builtin_interfaces/Time."""
        return self.node.get_clock().now().to_msg()

    def log(self):
        """The node's output so far."""
        return self.log_path.read_text() if self.log_path.exists() else ''

    def stop_node(self):
        """SIGINT the node under test and remember its exit code (the test node stays up)."""
        self.exit_code = stop_node(self.proc)

    def close(self):
        """Stop both; remember the node's exit code.  No other thread may be using the test
        node (rclpy does not guard a node destroyed under a publishing thread).

        Everything rclpy made is released here, in order (executor, node, context), and the
        cycles among the Python objects are collected now, not in some later test."""
        self.stop_node()
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)
        gc.collect()


def active_harness(params, tmp_path):
    """Fixture body: a Harness whose node has reported active (its latched state came), closed
    after the tests, which then check the node exited cleanly."""
    from diagnostic_msgs.msg import DiagnosticArray
    h = Harness(params, tmp_path)
    state = h.record(DiagnosticArray, '/collision_monitor/state', LATCHED)
    if not h.spin_until(lambda: state, 60.0):
        h.close()
        raise AssertionError(f'node not active:\n{h.log()}')
    yield h
    h.close()
    assert h.exit_code == 0, h.log()
