# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""collision_monitor: contacts and imminent collisions between moving polygon bodies.

The engine (`CollisionWorld`, `geometry2d`, `toi`, `geometry3d`) needs only numpy and numba;
the ROS 2 node lives in `collision_monitor.node` and is the only module importing rclpy.
"""

from .geometry2d import Contact, ContactKind
from .world import CollisionWorld, Contacts, World

__all__ = ['CollisionWorld', 'Contact', 'ContactKind', 'Contacts', 'World']
