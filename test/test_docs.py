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
"""Every example in the README, the docs and the docstrings runs and prints what it shows."""

import doctest
import importlib
import pathlib
import pkgutil
import re

import pytest

import collision_monitor

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
ROS_PACKAGES = ('collision_monitor.ros', 'collision_monitor.tools')
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def engine_modules():
    for info in pkgutil.walk_packages(collision_monitor.__path__, 'collision_monitor.'):
        if not info.name.startswith(ROS_PACKAGES):
            yield info.name


def run_markdown_examples(path):
    """Run the ``>>>`` examples of a Markdown file's python code blocks as one doctest."""
    text = path.read_text()
    blocks = re.findall(r'^```python\n(.*?)^```', text, flags=re.M | re.S)
    test = doctest.DocTestParser().get_doctest('\n'.join(blocks), {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize('path', DOCUMENTS, ids=lambda p: p.name)
def test_document_examples(path):
    assert run_markdown_examples(path).failed == 0


def test_readme_has_examples():
    assert run_markdown_examples(ROOT / 'README.md').attempted >= 10


@pytest.mark.parametrize('name', list(engine_modules()))
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0
