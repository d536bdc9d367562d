# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The monitor: the parameter table and `Config` (`config`), and the per-tick decisions over
the engine (`monitor`: inputs, staleness, debounce, gate).  No ROS.
"""
