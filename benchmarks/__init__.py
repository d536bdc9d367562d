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
"""Benchmarks of collision_monitor against its peers (``make bench``; not installed)."""

import pathlib
import sys

# The benchmarks build their scenes with the tests' generators (test/shapes.py), the one home
# of the helpers both use; `test` is not a package (the name is the standard library's).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / 'test'))
