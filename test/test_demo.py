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
"""The demo's own files are where it looks for them (`make demo` runs the whole scenario),
and a scenario that fails leaves no node behind."""

import subprocess
import sys

import pytest

from collision_monitor.tools import demo
from ros_harness import fresh_domain


def test_the_demo_finds_its_parameter_file():
    assert demo.CONFIG.is_file()


SCRIPT = """
import sys
from collision_monitor.tools import demo, launcher
started = []
def start(*args, **kwargs):
    started.append(launcher.start_node(*args, **kwargs))
    return started[-1]
demo.start_node, demo.READY_LIMIT_S = start, 0.0
try:
    demo.run(__import__('pathlib').Path(sys.argv[1]), int(sys.argv[2]))
except RuntimeError as err:
    print(err)
print('node exit code', started[0].poll())
"""


@pytest.mark.ros
def test_a_scenario_that_fails_stops_the_node(tmp_path):
    """The node not active in time (no time at all here): the demo raises, and the node it
    started has exited, not been left holding the domain (in a process of its own: the
    demo confines DDS for its whole process)."""
    done = subprocess.run([sys.executable, '-c', SCRIPT, str(tmp_path / 'scenario.png'),
                           str(fresh_domain())], capture_output=True, text=True, timeout=120)
    assert 'did not become active' in done.stdout, done.stdout + done.stderr
    assert 'node exit code None' not in done.stdout and 'node exit code' in done.stdout
