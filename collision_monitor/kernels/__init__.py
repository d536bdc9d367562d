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
"""Numba kernels and their checked wrappers: numpy and numba only.

Planar geometry (`geometry2d`), the broad phase (`broadphase`), the per-tick placement and
narrow phase (`narrowphase`), rigid-body vertex kinematics and swept boxes (`kinematics`),
pose histories (`motion`), polynomial roots (`polyroots`), time of collision (`toi`), when
contacts began (`lookback`) and double-double arithmetic (`double_double`), with
the types, tolerances and JIT policy of all of them in `constants`.  Nothing here imports
anything above it.
"""
