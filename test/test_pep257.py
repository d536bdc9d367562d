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
"""Docstrings (pydocstyle) with ament's convention, less the docstring-form codes of setup.cfg."""

import pytest

from test_flake8 import PATHS

# as in setup.cfg's [flake8]: a summary may run over two lines and end with its sentence
DOCSTRING_FORM = ['D205', 'D209', 'D213', 'D400', 'D401', 'D402', 'D403', 'D415']


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    main = pytest.importorskip('ament_pep257.main')
    assert main.main(argv=['--add-ignore', *DOCSTRING_FORM, '--', *PATHS]) == 0
