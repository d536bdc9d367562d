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
"""package.xml declares what the package imports and launches (rosdep keys)."""

import ast
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYTHON_KEYS = {'numpy': 'python3-numpy', 'numba': 'python3-numba', 'yaml': 'python3-yaml',
               'matplotlib': 'python3-matplotlib'}


def depends(kind):
    return {e.text for e in ElementTree.parse(ROOT / 'package.xml').getroot().iter(kind)}


def import_roots(paths):
    roots = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots |= {alias.name.split('.')[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots.add(node.module.split('.')[0])
    return roots - set(sys.stdlib_module_names) - {'collision_monitor'}


# the replay tool's bag library, installed by pip (the 'replay' extra): no rosdep key
PIP_ONLY = {'rosbags', 'mutmut'}  # mutmut: installed by `make mutants` for its tools


def test_every_import_of_the_package_and_its_launch_file_is_an_exec_depend():
    sources = [*(ROOT / 'collision_monitor').rglob('*.py'), *(ROOT / 'launch').glob('*.py')]
    needed = {PYTHON_KEYS.get(root, root) for root in import_roots(sources)} - PIP_ONLY
    assert needed <= depends('exec_depend'), needed - depends('exec_depend')
    assert {'rviz2', 'launch', 'launch_ros'} <= depends('exec_depend')  # the launch file


def test_every_import_of_the_tests_is_declared():
    needed = {PYTHON_KEYS.get(root, root) for root in import_roots(ROOT.glob('test/*.py'))}
    needed -= {p.stem for p in ROOT.glob('test/*.py')}  # the tests' own modules
    needed -= {'pytest', 'hypothesis', 'scipy', 'shapely', 'transforms3d', 'benchmarks',
               'launch_testing', 'launch_testing_ros'} | PIP_ONLY
    assert needed <= depends('exec_depend') | depends('test_depend'), (
        needed - depends('exec_depend') - depends('test_depend'))
