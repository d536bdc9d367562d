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
"""launch_testing test of frames through tf2 (the ros-kit's venv: `make test-full-ros`).

Starts the launch file and a static transform map -> odom (1 m along x); the cart's poses
are published in odom, and the contact with the shelf (in map) is reported only through
that transform.
"""

import os
import unittest

from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node
import launch_testing.actions
import launch_testing.asserts
import pytest

from contact_probe import contacts_seen

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.mark.launch_test
def generate_test_description():
    """The launch file with the example parameters, and map -> odom through tf2."""
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    launch_file = os.path.join(ROOT, 'launch', 'collision_monitor.launch.py')
    return LaunchDescription([
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['--x', '1.0', '--frame-id', 'map', '--child-frame-id', 'odom']),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(launch_file),
            launch_arguments={'params_file': os.path.join(ROOT, 'config',
                                                          'collision_monitor.yaml')}.items()),
        launch_testing.actions.ReadyToTest(),
    ])


class TestContactThroughTf(unittest.TestCase):
    """The cart at (3.0, 2.5) in odom is at (4.0, 2.5) in map, on the shelf at (4, 2)."""

    def test_contact_reported(self):
        self.assertIn('cart|shelf', contacts_seen('/collision_monitor/contacts', 'odom', 3.0,
                                                  'launch_test_tf_probe'))


@launch_testing.post_shutdown_test()
class TestExit(unittest.TestCase):
    """The node and the transform publisher exit cleanly."""

    def test_exit_code(self, proc_info):
        launch_testing.asserts.assertExitCodes(proc_info)
