# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Launch the collision monitor with a parameter file."""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    """Declare params_file, namespace, use_sim_time and log_level; start one node."""
    default_params = os.path.join(get_package_share_directory('collision_monitor'), 'config',
                                  'collision_monitor.yaml')
    return LaunchDescription([
        DeclareLaunchArgument('params_file', default_value=default_params,
                              description='Parameter file of the collision monitor.'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='Namespace of the node and its topics.'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='Use /clock (simulation or bag) time.'),
        DeclareLaunchArgument('log_level', default_value='info',
                              description='Logging level: debug, info, warn, error.'),
        Node(
            package='collision_monitor',
            executable='collision_monitor_node',
            name='collision_monitor',
            namespace=LaunchConfiguration('namespace'),
            output='screen',
            emulate_tty=True,
            parameters=[LaunchConfiguration('params_file'),
                        {'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                                        value_type=bool)}],
            arguments=['--ros-args', '--log-level', LaunchConfiguration('log_level')],
        ),
    ])
