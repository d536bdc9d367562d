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
"""Launch the collision monitor with a parameter file, and rviz2 on request."""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    """Declare the launch arguments; start the node (and rviz2 with rviz:=true)."""
    share = get_package_share_directory('collision_monitor')
    namespace = LaunchConfiguration('namespace')
    node_name = LaunchConfiguration('node_name')
    return LaunchDescription([
        DeclareLaunchArgument('namespace', default_value='',
                              description='Namespace of the node and its topics.'),
        DeclareLaunchArgument('node_name', default_value='collision_monitor',
                              description='Name of the node (its topics are ~/...).'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config',
                                                         'collision_monitor.yaml'),
                              description='Parameter file of the collision monitor.'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='Use /clock (simulation or bag) time.'),
        DeclareLaunchArgument('log_level', default_value='info',
                              description='Logging level: debug, info, warn, error.'),
        DeclareLaunchArgument('autostart', default_value='true',
                              description='Configure and activate at start; false leaves '
                                          'that to a lifecycle manager.'),
        DeclareLaunchArgument('use_respawn', default_value='false',
                              description='Start the node again when it dies.'),
        DeclareLaunchArgument('rviz', default_value='false',
                              description="Also start rviz2 with the package's display."),
        Node(
            package='collision_monitor',
            executable='collision_monitor_node',
            name=node_name,
            namespace=namespace,
            output='screen',
            emulate_tty=True,
            respawn=LaunchConfiguration('use_respawn'),
            respawn_delay=2.0,
            parameters=[LaunchConfiguration('params_file'),
                        {'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                                        value_type=bool),
                         'autostart': ParameterValue(LaunchConfiguration('autostart'),
                                                     value_type=bool)}],
            arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')],
        ),
        Node(
            package='rviz2',
            executable='rviz2',
            namespace=namespace,
            arguments=['-d', os.path.join(share, 'config', 'collision_monitor.rviz')],
            # the display's topic is relative, collision_monitor/markers: in the namespace,
            # and follows node_name
            remappings=[('collision_monitor/markers', [node_name, '/markers'])],
            parameters=[{'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                                        value_type=bool)}],
            condition=IfCondition(LaunchConfiguration('rviz')),
        ),
    ])
