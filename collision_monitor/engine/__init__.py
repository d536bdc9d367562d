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
"""The engine: `CollisionWorld` (named bodies, poses, one tick) and its result types, over the
kernels.  No ROS.
"""

from .world import CollisionWorld, Contacts, Predictions, World, WorldView

__all__ = ['CollisionWorld', 'Contacts', 'Predictions', 'World', 'WorldView']
