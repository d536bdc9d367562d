# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmarks of collision_monitor against its peers (``make bench``; not installed)."""
