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
"""Faults over real DDS: publishers dying, the monitor restarting, bursts, sim-time jumps."""

import threading
import time

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import Point32, PolygonStamped, PoseStamped, Twist, Vector3
import pytest
from rclpy.duration import Duration
from rosgraph_msgs.msg import Clock

from collision_monitor.tools.launcher import start_node, stop_node
from ros_harness import active_harness, Harness, LATCHED, pose_stamped, SENSOR, SQUARE

pytestmark = pytest.mark.ros

PARAMS = f"""
collision_monitor:
  ros__parameters:
    pose_timeout: 0.3
    bodies: [a, b, wall]
    a: {{pose_topic: /f/a, footprint: {SQUARE}, footprint_topic: /f/a_footprint}}
    b: {{pose_topic: /f/b, footprint: {SQUARE}}}
    wall: {{static: true, pose: [0.0, -1.2, 0.0], footprint: {SQUARE}}}
"""


def names(records):
    return {s.name for _, m in records for s in m.status}


@pytest.fixture
def harness(tmp_path):
    yield from active_harness(PARAMS, tmp_path)


def test_publisher_dies_and_comes_back(harness):
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    state = h.record(DiagnosticArray, '/collision_monitor/state', LATCHED)
    pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
    pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)

    def both():
        pub_a.publish(pose_stamped(h, 0.0, 0.0))
        pub_b.publish(pose_stamped(h, 0.5, 0.0))

    assert h.spin_until(lambda: 'a|b' in names(contacts), 3.0, both)
    h.node.destroy_publisher(pub_b)  # b's publisher dies
    assert h.spin_until(lambda: any(s.name == 'b' and s.level == s.STALE
                                    for _, m in state for s in m.status), 3.0,
                        lambda: pub_a.publish(pose_stamped(h, 0.0, 0.0)))
    contacts.clear()
    h.spin_for(0.3, lambda: pub_a.publish(pose_stamped(h, 0.0, 0.0)))
    assert 'a|b' not in names(contacts)  # never from a stale pose
    pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)  # and comes back
    assert h.spin_until(lambda: 'a|b' in names(contacts), 5.0, both)


def test_footprint_change_mid_collision(harness):
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
    pub_fp = h.node.create_publisher(PolygonStamped, '/f/a_footprint', LATCHED)
    assert h.spin_until(lambda: 'a|wall' in names(contacts), 3.0,
                        lambda: pub_a.publish(pose_stamped(h, 0.0, -0.4)))
    small = PolygonStamped()
    small.polygon.points = [Point32(x=x, y=y) for x, y in
                            ((-0.2, -0.2), (0.2, -0.2), (0.2, 0.2), (-0.2, 0.2))]
    pub_fp.publish(small)
    contacts.clear()
    assert h.spin_until(lambda: contacts and 'a|wall' not in names(contacts[-1:]), 30.0,
                        lambda: pub_a.publish(pose_stamped(h, 0.0, -0.4))), h.log()


def test_bursts_of_ten_times_the_rate(harness):
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    health = h.record(DiagnosticArray, '/diagnostics')
    pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
    pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)
    sent = [0]

    def burst():  # 10 poses per body every 20 ms: 500 Hz each
        for _ in range(10):
            pub_a.publish(pose_stamped(h, 0.0, 0.0))
            pub_b.publish(pose_stamped(h, 0.6, 0.0))
            sent[0] += 2
    assert h.spin_until(lambda: sent[0] > 1000 and 'a|b' in names(contacts), 30.0, burst)
    assert h.spin_until(lambda: health, 10.0)
    last = [s for _, m in health for s in m.status if s.name.endswith('monitor')][-1]
    kv = {k.key: k.value for k in last.values}
    assert int(kv['overruns']) <= 0.1 * int(kv['ticks'])


def test_monitor_restarts_while_publishers_run(tmp_path):
    h = Harness(PARAMS, tmp_path)
    try:
        contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
        pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
        pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)

        def both():
            pub_a.publish(pose_stamped(h, 0.0, 0.0))
            pub_b.publish(pose_stamped(h, 0.5, 0.0))

        assert h.spin_until(lambda: contacts, 60.0, both), h.log()
        assert stop_node(h.proc) == 0
        h.proc = start_node(tmp_path / 'params.yaml', h.domain, (), tmp_path / 'node2.log')
        contacts.clear()
        started = time.monotonic()
        assert h.spin_until(lambda: contacts, 30.0, both)
        assert time.monotonic() - started < 15.0
    finally:
        h.close()


def test_sim_time_clock_jumping_backwards(tmp_path):
    """The bag loops: histories reset, contacts again on the new time line, and the gate's
    last command (from the old time line, whose age would be negative for 80 s) is zeroed
    at once instead of being held."""
    h = Harness(PARAMS, tmp_path, parameters=['use_sim_time:=true', 'gate.enabled:=true',
                                              'gate.body:=a'])
    try:
        contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
        out = h.record(Twist, '/collision_monitor/cmd_vel_out')
        clock = h.node.create_publisher(Clock, '/clock', 10)
        cmd = h.node.create_publisher(Twist, '/collision_monitor/cmd_vel_in', 10)
        pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
        pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)
        sim = [100.0]
        commanding = [True]

        def step():
            sim[0] += 0.02
            stamp = Time(sec=int(sim[0]), nanosec=int((sim[0] % 1) * 1e9))
            clock.publish(Clock(clock=stamp))
            pub_a.publish(pose_stamped(h, 0.0, 0.0, stamp=stamp))
            pub_b.publish(pose_stamped(h, 0.5, 0.0, stamp=stamp))
            if commanding[0]:
                cmd.publish(Twist(linear=Vector3(x=-0.3)))  # backing away from b passes

        assert h.spin_until(lambda: contacts and out and out[-1][1].linear.x == -0.3, 60.0,
                            step), h.log()
        commanding[0] = False
        sim[0] = 20.0  # the bag loops: time goes back 80 s
        assert h.spin_until(lambda: 'clock jumped backwards' in h.log(), 15.0, step), h.log()
        assert h.spin_until(lambda: out[-1][1].linear.x == 0.0, 15.0, step), h.log()
        # contacts again, stamped on the new time line (messages from before the jump may
        # still be arriving)
        assert h.spin_until(lambda: any(m.header.stamp.sec < 50 for _, m in contacts), 15.0,
                            step), h.log()
        assert 'Traceback' not in h.log()
    finally:
        h.close()
    assert h.exit_code == 0


def test_sigint_during_a_flood_of_messages_exits_cleanly(tmp_path):
    """SIGINT lands while the node is taking messages: it stops between callbacks, publishes
    the zero command and exits 0 (an exception raised from the signal handler came out of
    rclpy's message conversion as a RuntimeError, exit code 1).  The flooding thread stops
    before the test node is destroyed."""
    for attempt in range(3):
        work = tmp_path / str(attempt)
        work.mkdir()
        h = Harness(PARAMS, work)
        state = h.record(DiagnosticArray, '/collision_monitor/state', LATCHED)
        pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
        pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)
        assert h.spin_until(lambda: state, 60.0), h.log()
        done = threading.Event()

        def flood():
            while not done.is_set():
                pub_a.publish(pose_stamped(h, 0.0, 0.0))
                pub_b.publish(pose_stamped(h, 3.0, 0.0))

        thread = threading.Thread(target=flood)
        thread.start()
        try:
            time.sleep(0.5)
            h.stop_node()
        finally:
            done.set()
            thread.join()
            h.close()
        assert h.exit_code == 0, h.log()
        assert 'Traceback' not in h.log()


def test_a_pose_jump_stops_nothing_else(harness):
    """a jumps from x = 100 to 3e8 in a millisecond (3e11 m/s): a is refused and logged, and
    b touching the wall goes on being reported by a node that stays up."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
    pub_b = h.node.create_publisher(PoseStamped, '/f/b', SENSOR)
    keep_b = lambda: pub_b.publish(pose_stamped(h, 0.0, -0.8))  # noqa: E731
    assert h.spin_until(lambda: 'b|wall' in names(contacts), 3.0, keep_b)
    stamp = h.node.get_clock().now()
    pub_a.publish(pose_stamped(h, 100.0, 5.0, stamp=stamp.to_msg()))
    pub_a.publish(pose_stamped(h, 3e8, 5.0, stamp=(stamp + Duration(seconds=0.001)).to_msg()))
    assert h.spin_until(lambda: 'estimated motion out of range' in h.log(), 3.0, keep_b)
    contacts.clear()
    h.spin_for(0.5, keep_b)
    assert 'b|wall' in names(contacts) and h.proc.poll() is None


def _set(h, **values):
    """Set parameters on the node (one request each, in order); return their results."""
    from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
    from rcl_interfaces.srv import SetParameters
    client = h.node.create_client(SetParameters, '/collision_monitor/set_parameters')
    assert client.wait_for_service(5.0)
    results = []
    for name, value in values.items():
        if isinstance(value, list):
            v = ParameterValue(type=ParameterType.PARAMETER_STRING_ARRAY, string_array_value=value)
        else:
            v = ParameterValue(type=ParameterType.PARAMETER_STRING, string_value=value)
        future = client.call_async(SetParameters.Request(
            parameters=[Parameter(name=name.replace('__', '.'), value=v)]))
        assert h.spin_until(future.done, 5.0)
        results.append(future.result().results[0].successful)
    return results


def test_bodies_added_and_removed_while_running(harness):
    """c joins (bodies, then its footprint and pose topic: inactive, and said so, until it
    has them) and touches a; then the wall leaves and a|wall is no more."""
    h = harness
    contacts = h.record(DiagnosticArray, '/collision_monitor/contacts')
    pub_a = h.node.create_publisher(PoseStamped, '/f/a', SENSOR)
    pub_c = h.node.create_publisher(PoseStamped, '/f/c', SENSOR)

    def publish():
        pub_a.publish(pose_stamped(h, 0.0, -0.8))   # touching the wall at y = -1.2
        pub_c.publish(pose_stamped(h, 0.5, -0.6))

    assert h.spin_until(lambda: 'a|wall' in names(contacts), 3.0, publish)
    assert _set(h, bodies=['a', 'b', 'wall', 'c']) == [True]
    waiting = "body 'c' is inactive until it has a footprint and a pose source"
    assert h.spin_until(lambda: waiting in h.log(), 3.0, publish)
    assert 'a|wall' in names(contacts)
    assert _set(h, c__footprint=SQUARE.strip('"'), c__pose_topic='/f/c') == [True, True]
    contacts.clear()
    assert h.spin_until(lambda: 'a|c' in names(contacts), 3.0, publish)
    assert 'a|wall' in names(contacts)
    assert _set(h, bodies=['a', 'b', 'c']) == [True]
    contacts.clear()
    assert h.spin_until(lambda: contacts and 'a|c' in names(contacts[-1:])
                        and not any('wall' in n for n in names(contacts[-1:])), 30.0, publish)
    assert _set(h, bodies=['a', 'a']) == [False]  # duplicate names are refused
