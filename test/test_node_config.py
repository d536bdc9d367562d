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
"""The node as an integrator configures it: every bad parameter is one ERROR line and a
non-zero exit, values YAML writes naturally are accepted, typos are named, namespaces work."""

import pathlib
import re
import time

import pytest

from collision_monitor.tools.launcher import start_node, stop_node
from ros_harness import fresh_domain, SQUARE, warm_kernel_cache

pytestmark = pytest.mark.ros

ROOT = pathlib.Path(__file__).resolve().parents[1]


def params(globals_='', a='', b=''):
    return f"""
/**:
  ros__parameters:
    bodies: [a, b]
    a: {{pose_topic: /a, footprint: {SQUARE}{a}}}
    b: {{static: true, pose: [1.0, 2.0, 0.0], footprint: {SQUARE}{b}}}
{''.join(f'    {line}' + chr(10) for line in globals_.split(';') if line)}"""


def run(tmp_path, text, namespace=None, seconds=30.0):
    """Start the node on `text`; wait until it is active or exits; return (exit code or
    None while running, log)."""
    warm_kernel_cache()
    path = tmp_path / 'params.yaml'
    path.write_text(text)
    log = tmp_path / 'node.log'
    proc = start_node(path, fresh_domain(), (), log, namespace=namespace)
    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None and 'active:' not in log.read_text():
        time.sleep(0.1)
    code = proc.poll()
    stop_node(proc)
    return code, log.read_text()


def errors(log):
    """The node's own error lines (rcl adds one of its own when it cannot parse a file)."""
    return [line for line in log.splitlines()
            if '[ERROR]' in line and '[collision_monitor]' in line]


@pytest.mark.parametrize('globals_, a, b, named', [
    ('horizon: 1000.0', '', '', 'horizon: expected a number from 0.01 to 60.0 s, got 1000.0'),
    ('tick_rate: fast', '', '', "tick_rate: expected a number from 1.0 to 1000.0 Hz, got 'fast'"),
    ('trigger_ticks: 2.5', '', '', 'trigger_ticks: expected an integer from 1 to 1000, got 2.5'),
    ('predictor: psychic', '', '', 'predictor: expected one of arc, holonomic'),
    ('executor: multi', '', '', "executor: expected one of events, single_threaded, got 'multi'"),
    ('ignore_pairs: ["a|nobody"]', '', '', "ignore_pairs: 'a|nobody' names unknown bodies"),
    ('', '', ', static: "yes"', "b.static: expected true or false, got 'yes'"),
    ('', '', ', pose: [1, 2]', 'b.pose: expected a list of 3 numbers, got [1, 2]'),
    ('', '', ', pose: [1, x, 0]', 'Sequence should be of same type'),  # rcl's own parser
    ('', ', pose_type: geometry_msgs/Twist', '', 'a.pose_type'),
    ('', '', ', pose: [2.0e9, 0.0, 0.0]', 'b.pose: expected |x| and |y| at most 1e+09 m'),
    # a footprint as YAML writes a list of lists: rcl's parser names no parameter
    ('', ', footprint_topic: /a_fp, footprint: [[0.5, 0.5], [-0.5, 0.5], [0.0, -0.5]]', '',
     'a footprint is a string, quoted as Nav2 writes it'),
])
def test_a_bad_parameter_is_one_error_line_and_a_failed_start(tmp_path, globals_, a, b, named):
    code, log = run(tmp_path, params(globals_, a, b))
    assert code == 1, log
    assert len(errors(log)) == 1 and named in errors(log)[0], log
    assert 'Traceback' not in log


def test_no_bodies_is_an_error(tmp_path):
    code, log = run(tmp_path, '/**:\n  ros__parameters:\n    bodies: []\n')
    assert code == 1 and 'bodies: no bodies to monitor' in errors(log)[0], log


def test_values_as_yaml_writes_them_are_accepted(tmp_path):
    """Integers for doubles and double arrays, empty lists, an empty sources list."""
    code, log = run(tmp_path, params('horizon: 2;ignore_pairs: [];sources: [];tick_rate: 100',
                                     '', ', pose: [1, 2, 0]'))
    assert code is None and 'active:' in log and not errors(log), log


def test_the_single_threaded_executor_runs_the_node(tmp_path):
    """`executor: single_threaded` spins rclpy's SingleThreadedExecutor: its timer starts the
    node (autostart configures and activates from a timer callback)."""
    code, log = run(tmp_path, params('executor: single_threaded', '', ''))
    assert code is None and 'active:' in log and not errors(log), log


def test_unknown_parameters_are_named(tmp_path):
    code, log = run(tmp_path, params('horizn: 3.0', ', pose_topik: /x'))
    assert code is None and 'active:' in log, log
    assert "unknown parameter 'horizn'" in log and "unknown parameter 'a.pose_topik'" in log


def test_the_example_configuration_loads_in_a_namespace(tmp_path):
    code, log = run(tmp_path, (ROOT / 'config' / 'collision_monitor.yaml').read_text(),
                    namespace='/fleet')
    assert code is None and '4 bodies' in log and 'active:' in log and not errors(log), log
    # every body's and the bulk source's parameters are known: not one unknown named
    assert 'unknown parameter' not in log, log


def test_the_readmes_minimal_configuration_starts_the_node(tmp_path):
    """The README's YAML example as a user pastes it: active, no error, nothing unknown."""
    (text,) = re.findall(r'^```yaml\n(.*?)^```', (ROOT / 'README.md').read_text(),
                         flags=re.M | re.S)
    code, log = run(tmp_path, text)
    assert code is None and '2 bodies' in log and 'active:' in log and not errors(log), log
    assert 'unknown parameter' not in log and 'WARN' not in log, log


def test_a_configured_node_keeps_its_start_up_out_of_the_collector(tmp_path):
    """Configuring ends with the objects of start-up frozen (a full collection no longer
    scans them during ticks); cleanup hands them back, so the dropped monitor is freed."""
    import gc
    import weakref

    import rclpy
    from collision_monitor.ros.node import CollisionMonitorNode
    warm_kernel_cache()
    path = tmp_path / 'params.yaml'
    path.write_text(params('autostart: false'))
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=fresh_domain(),
               args=['--ros-args', '--params-file', str(path)])
    try:
        node = CollisionMonitorNode(context=context, enable_rosout=False)
        gc.unfreeze()
        node.trigger_configure()
        assert gc.get_freeze_count() > 0 and gc.get_count()[0] < 10
        monitor = weakref.ref(node.monitor)
        node.trigger_cleanup()
        assert gc.get_freeze_count() == 0
        gc.collect()
        assert monitor() is None
        node.destroy_node()
    finally:
        gc.unfreeze()
        rclpy.shutdown(context=context)
