# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The ROS 2 layer: message conversion (`messages`) and the node (`node`), the only modules
importing message packages and rclpy.
"""
