# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Numba kernels and their checked wrappers: numpy and numba only.

Planar geometry (`geometry2d`), the broad phase (`broadphase`), the per-tick placement and
narrow phase (`narrowphase`), rigid-body vertex kinematics and swept boxes (`kinematics`),
pose histories (`motion`), polynomial roots (`polyroots`) and time of collision (`toi`), with
the types, tolerances and JIT policy of all of them in `constants`.  Nothing here imports
anything above it.
"""
