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
"""Start the node as a child process with DDS confined to this machine (demo, tests, bench).

Every process started here runs with ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` and the given
``ROS_DOMAIN_ID``, whatever the caller's shell says.  Call `confine_dds` before importing rclpy
in the calling process too.
"""

import contextlib
import os
import signal
import subprocess
import sys


def confine_dds(domain_id):
    """Keep this process's DDS traffic on loopback, in `domain_id` (0 to 101)."""
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.pop('ROS_LOCALHOST_ONLY', None)  # deprecated; it would override the range
    os.environ['ROS_DOMAIN_ID'] = str(int(domain_id))


def node_environment(domain_id):
    """The environment of a child node: ours, confined to loopback and `domain_id`."""
    env = dict(os.environ)
    env.pop('ROS_LOCALHOST_ONLY', None)
    env.update(ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_DOMAIN_ID=str(int(domain_id)),
               PYTHONUNBUFFERED='1')
    return env


def start_node(params_file, domain_id, parameters=(), log_path=None, namespace=None):
    """Start ``collision_monitor_node`` with a parameter file; return the Popen.

    `parameters` are extra ``name:=value`` overrides.  Output goes to `log_path` (or is
    discarded).  `namespace` pushes the node into a namespace (``-r __ns:=``).
    """
    cmd = [sys.executable, '-m', 'collision_monitor.ros.node', '--ros-args',
           '--params-file', str(params_file)]
    for p in parameters:
        cmd += ['-p', p]
    if namespace:
        cmd += ['-r', f'__ns:={namespace}']
    with contextlib.ExitStack() as files:  # the child keeps a descriptor of its own
        out = files.enter_context(open(log_path, 'w')) if log_path else subprocess.DEVNULL
        return subprocess.Popen(cmd, env=node_environment(domain_id), stdout=out,
                                stderr=subprocess.STDOUT)


def stop_node(proc, timeout=10.0):
    """SIGINT the node, wait, kill if it hangs; return its exit code."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode
