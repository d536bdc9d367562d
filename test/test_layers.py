# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The layering rule: kernels and engine import no ROS."""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / 'collision_monitor'
ROS_MODULES = {'rclpy', 'geometry_msgs', 'nav_msgs', 'visualization_msgs', 'diagnostic_msgs',
               'std_msgs', 'std_srvs', 'rcl_interfaces', 'lifecycle_msgs', 'builtin_interfaces'}
ROS_LAYER = {'node.py', 'messages.py', 'demo.py', 'launcher.py'}


def imported_roots(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split('.')[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split('.')[0]


@pytest.mark.parametrize('path', sorted(p for p in PACKAGE.rglob('*.py')
                                        if p.name not in ROS_LAYER),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_ros_below_the_ros_layer(path):
    assert not set(imported_roots(path)) & ROS_MODULES


def test_only_the_node_and_the_demo_publisher_import_rclpy():
    users = {p.name for p in PACKAGE.rglob('*.py') if 'rclpy' in set(imported_roots(p))}
    assert users == {'node.py', 'demo.py'}
