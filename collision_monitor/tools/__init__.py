# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""Programs beside the package: the demo scenario (`demo`) and the child-process launcher
that keeps DDS on loopback (`launcher`).
"""
