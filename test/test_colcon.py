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
"""The ROS user's path: colcon build and colcon test of this package in a fresh workspace."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
COLCON = shutil.which('colcon', path=os.path.dirname(sys.executable) + os.pathsep
                      + os.environ.get('PATH', ''))
SKIP = shutil.ignore_patterns('.venv', '.git', 'build', 'install', 'log', '.numba_cache',
                              '__pycache__', '.pytest_cache', '.hypothesis', '*.egg-info')

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(COLCON is None, reason='colcon is not installed')]


def run(args, cwd):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ['PATH'])
    proc = subprocess.run([COLCON, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_colcon_build_installs_where_ros2_run_and_launch_look(tmp_path):
    shutil.copytree(ROOT, tmp_path / 'src' / 'collision_monitor', ignore=SKIP)
    run(['build', '--packages-select', 'collision_monitor'], tmp_path)
    prefix = tmp_path / 'install' / 'collision_monitor'
    exe = prefix / 'lib' / 'collision_monitor' / 'collision_monitor_node'
    assert exe.is_file() and os.access(exe, os.X_OK)  # `ros2 run` looks here
    share = prefix / 'share' / 'collision_monitor'
    for rel in ('package.xml', 'launch/collision_monitor.launch.py',
                'config/collision_monitor.yaml', 'config/collision_monitor.rviz'):
        assert (share / rel).is_file(), rel  # `ros2 launch` and users look here
    assert (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
            / 'collision_monitor').is_file()
    site = next((prefix / 'lib').glob('python3*/site-packages'))
    probe = subprocess.run([sys.executable, '-c', 'import collision_monitor, sys; '
                            'print(collision_monitor.__file__)'],
                           env=dict(os.environ, PYTHONPATH=str(site)), capture_output=True,
                           text=True, cwd=tmp_path)
    assert probe.stdout.startswith(str(site)), probe.stdout + probe.stderr
    out = run(['test', '--packages-select', 'collision_monitor', '--pytest-args', '-q',
               'test/test_geometry2d_segment_intersection.py'], tmp_path)
    assert 'Finished <<< collision_monitor' in out
    result = run(['test-result', '--all'], tmp_path)
    assert '0 errors, 0 failures' in result
