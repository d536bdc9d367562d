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
"""Code style (flake8) with ament's configuration plus the project's in setup.cfg."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PATHS = [str(ROOT / p) for p in ('collision_monitor', 'test', 'launch', 'benchmarks',
                                 'setup.py')]


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    main = pytest.importorskip('ament_flake8.main')
    rc, errors = main.main_with_errors(argv=['--config', str(ROOT / 'setup.cfg'), *PATHS])
    assert rc == 0, f'{len(errors)} code style errors:\n' + '\n'.join(errors)
