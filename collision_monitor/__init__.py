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
"""collision_monitor: contacts and imminent collisions between moving polygon bodies.

Layers, imports flowing one way: `kernels` (numba) <- `engine` (`CollisionWorld`) <- `monitor`
(configuration, per-tick decisions) <- `ros` (messages, frames, the node); `geometry3d` beside
the engine, over the kernels; `tools` (demo, launcher, replay) on top.  rclpy is imported by
`ros.node` and `tools.demo` alone; everything below `ros` needs only numpy and numba.
"""

from .engine import CollisionWorld, Contacts, World
from .kernels.constants import MotionModel
from .kernels.geometry2d import Contact, ContactKind

__all__ = ['CollisionWorld', 'Contact', 'ContactKind', 'Contacts', 'MotionModel', 'World']
