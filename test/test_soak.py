# Copyright 2026 The collision_monitor authors
# SPDX-License-Identifier: Apache-2.0
"""The short soak: 200 bodies from a bulk source at 100 Hz for 20 s, memory flat."""

import pytest

from benchmarks.soak import soak
from ros_harness import fresh_domain

pytestmark = [pytest.mark.ros, pytest.mark.slow]


def test_short_soak_keeps_memory_flat():
    figures = soak(200, 100.0, 20.0, 8.0, fresh_domain())
    assert figures['exit_code'] == 0
    assert figures['tick_rate_hz'] > 50.0, figures  # at least half the 100 Hz asked for
    assert figures['rss_growth_pct'] < 1.0, figures
    assert figures['rejected_total'] == 0
