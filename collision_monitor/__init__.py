# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""collision_monitor: contacts and imminent collisions between moving polygon bodies.

Layers, imports flowing one way: `kernels` (numba) <- `engine` (`CollisionWorld`) <- `monitor`
(configuration, per-tick decisions) <- `ros` (the node, the only rclpy user); `geometry3d`
beside the engine, over the kernels; `tools` (demo, launcher) on top.  Everything below `ros`
needs only numpy and numba.
"""

from .engine import CollisionWorld, Contacts, World
from .kernels.constants import MotionModel
from .kernels.geometry2d import Contact, ContactKind

__all__ = ['CollisionWorld', 'Contact', 'ContactKind', 'Contacts', 'MotionModel', 'World']
