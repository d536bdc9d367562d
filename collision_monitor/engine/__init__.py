# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The engine: `CollisionWorld` (named bodies, poses, one tick) and its result types, over the
kernels.  No ROS.
"""

from .world import CollisionWorld, Contacts, Predictions, World

__all__ = ['CollisionWorld', 'Contacts', 'Predictions', 'World']
