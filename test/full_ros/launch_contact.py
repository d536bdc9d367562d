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
"""launch_testing test of the launch file (the ros-kit's venv: `make test-full-ros`).

Starts ``collision_monitor.launch.py`` with the example parameters, as is and in a namespace
under another node name, publishes two poses that overlap, and waits for the contact on the
node's own topic; after shutdown, checks the exit code.
"""

import os
import unittest

from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
import launch_testing.actions
import launch_testing.asserts
import pytest

from contact_probe import contacts_seen

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.mark.launch_test
@launch_testing.parametrize('namespace, node_name', [('', 'collision_monitor'),
                                                     ('fleet', 'monitor')])
def generate_test_description(namespace, node_name):
    """The package's launch file with its example parameters (keyed /**, so they load under
    any namespace and node name)."""
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    launch_file = os.path.join(ROOT, 'launch', 'collision_monitor.launch.py')
    return LaunchDescription([
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file),
            launch_arguments={'params_file': os.path.join(ROOT, 'config',
                                                          'collision_monitor.yaml'),
                              'namespace': namespace, 'node_name': node_name}.items()),
        launch_testing.actions.ReadyToTest(),
    ])


class TestContact(unittest.TestCase):
    """The robot placed on the shelf is reported in contact."""

    def test_contact_reported(self, namespace, node_name):
        topic = '/'.join(['', namespace, node_name, 'contacts']).replace('//', '/')
        self.assertIn('cart|shelf', contacts_seen(topic, 'map', 4.0, 'launch_test_probe'))


@launch_testing.post_shutdown_test()
class TestExit(unittest.TestCase):
    """The node exits cleanly."""

    def test_exit_code(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
