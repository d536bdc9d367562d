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
"""Test-wide settings: one numba cache, DDS on loopback with a domain of our own, hypothesis,
and test/full_ros left to the venv that has tf2_ros."""

import importlib.util
import os
import pathlib

from hypothesis import HealthCheck, settings
from source_hash import source_hash

# Before anything imports numba or rclpy (hypothesis imports neither): the numba cache the
# Makefile names
ROOT = pathlib.Path(__file__).resolve().parents[1]
os.environ.setdefault('NUMBA_CACHE_DIR', str(ROOT / '.numba_cache' / source_hash(ROOT)))
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ.pop('ROS_LOCALHOST_ONLY', None)  # deprecated; would override the range
os.environ.setdefault('ROS_DOMAIN_ID', str(20 + os.getpid() % 80))

# test/full_ros needs tf2_ros and launch_testing: it runs in the ros-kit's venv
# (`make test-full-ros`, part of `make test`), not in the main one
collect_ignore = [] if importlib.util.find_spec('tf2_ros') else ['full_ros']

settings.register_profile(
    'default', max_examples=150, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile('quick', max_examples=25, deadline=None,
                          suppress_health_check=list(HealthCheck))
settings.register_profile('thorough', max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'default'))
