# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The demo's own files are where it looks for them (`make demo` runs the whole scenario)."""

from collision_monitor.tools import demo


def test_the_demo_finds_its_parameter_file():
    assert demo.CONFIG.is_file()
