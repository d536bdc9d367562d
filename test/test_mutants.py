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
"""`make mutants`' driver: what it mutates, what it runs, what it drops from the cache."""

import argparse
import os
import pathlib
import signal
import sqlite3
import subprocess

import mutants
from numba.core.caching import _CacheLocator
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / 'collision_monitor'


def test_every_module_with_kernels_is_mutated_against_tests_that_exist():
    jitted = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob('*.py')
              if '@jit' in p.read_text()}
    assert jitted <= set(mutants.TARGETS)
    for module, tests in mutants.TARGETS.items():
        assert (PACKAGE / module).is_file(), module
        assert tests and all((ROOT / t).is_file() for t in tests), module
    for module, left_out in mutants.LEFT_OUT.items():
        for test in left_out:
            path, name = test.split('::')
            assert f'def {name}(' in (ROOT / path).read_text(), test


def test_the_modules_calling_a_mutated_kernel_are_stale():
    """narrowphase and toi call broadphase's kernels (their imports say so); no 3D module
    does."""
    stale = {p.relative_to(PACKAGE).as_posix()
             for p in mutants.importers(PACKAGE / 'kernels' / 'broadphase.py')}
    assert {'kernels/broadphase.py', 'kernels/narrowphase.py', 'kernels/toi.py'} <= stale
    assert not any(m.startswith('geometry3d/') for m in stale)


def test_a_module_whose_kernels_no_kernel_calls_leaves_only_its_own_cache_stale():
    """The 3D modules take validation's plain Python checks alone, so a mutant of its mesh
    kernels changes only its own cache entries, while they still run validation's tests
    and their own; gjk's kernels are called by separating_plane's and manifold's."""
    validation = PACKAGE / 'geometry3d' / 'validation.py'
    assert mutants.importers(validation, kernels_only=True) == [validation]
    assert len(mutants.TARGETS['geometry3d/validation.py']) == 10
    stale = {p.stem for p in mutants.importers(PACKAGE / 'geometry3d' / 'gjk.py',
                                               kernels_only=True)}
    assert {'gjk', 'separating_plane', 'manifold'} <= stale


def test_a_3d_module_is_mutated_against_the_tests_of_the_modules_calling_it():
    """triangles is imported by no other 3D module; gjk by separating_plane, manifold and,
    through them, polyhedron and batch (their imports say so); its own tests run first."""
    assert mutants.TARGETS['geometry3d/triangles.py'] == ['test/test_geometry3d_triangles.py']
    assert mutants.TARGETS['geometry3d/gjk.py'] == [
        f'test/test_geometry3d_{m}.py'
        for m in ('gjk', 'batch', 'manifold', 'polyhedron', 'separating_plane')]


def test_only_the_stale_modules_entries_leave_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(mutants, 'CACHE', tmp_path)
    kernels = tmp_path / _CacheLocator.get_suitable_cache_subpath(
        str(PACKAGE / 'kernels' / 'toi.py'))
    kernels.mkdir()
    names = ['toi.first_contacts-1.py311.nbi', 'toi.first_contacts-1.py311.1.nbc',
             'polyroots.clip_to_band-9.py311.nbi', 'trig.sincos-3.py311.nbi']
    for name in names:
        (kernels / name).touch()
    mutants.drop_cached([PACKAGE / 'kernels' / 'toi.py', PACKAGE / 'kernels' / 'trig.py'])
    assert sorted(p.name for p in kernels.iterdir()) == [names[2]]


def test_a_test_run_left_behind_is_stopped_by_the_next(tmp_path, monkeypatch):
    """mutmut kills the runner alone when it gives up on a test run; the run goes on in a
    process group of its own, named in the busy file, and the next runner stops it before
    starting its own."""
    monkeypatch.setattr(mutants, 'BUSY', tmp_path / 'busy')
    assert mutants.running_test() is None
    left = subprocess.Popen(['sleep', '60'], start_new_session=True)
    mutants.BUSY.write_text(f'{left.pid} {os.getpid()}')
    assert mutants.running_test() == left.pid
    monkeypatch.setattr(mutants, 'ROOT', tmp_path)  # pytest finds no tests there: exit 5
    assert mutants.test('kernels/trig.py', [], jit=False) == 1
    assert left.wait(timeout=10) == -signal.SIGKILL
    assert mutants.running_test() is None and not mutants.BUSY.exists()


def test_a_test_run_is_orphaned_once_its_runner_is_gone(tmp_path, monkeypatch):
    """The driver stops a test run whose runner mutmut has killed (mutmut waits on it)."""
    monkeypatch.setattr(mutants, 'BUSY', tmp_path / 'busy')
    runner = subprocess.Popen(['sleep', '60'])
    run = subprocess.Popen(['sleep', '60'], start_new_session=True)
    mutants.BUSY.write_text(f'{run.pid} {runner.pid}')
    assert mutants.orphaned_test() is None
    runner.kill()
    runner.wait()
    assert mutants.orphaned_test() == run.pid
    mutants.kill_group(mutants.orphaned_test())
    assert run.wait(timeout=10) == -signal.SIGKILL
    assert mutants.orphaned_test() is None and mutants.running_test() is None


def test_the_runner_stops_a_test_run_before_mutmut_would(tmp_path, monkeypatch):
    """Eight times mutmut's unmutated run, read from its cache (mutmut's own limit is ten
    times); twice SLOW_S without a cache or without that time."""
    monkeypatch.setattr(mutants, 'MUTMUT_CACHE', tmp_path / 'cache')
    assert mutants.runner_timeout() == 2 * mutants.SLOW_S
    with sqlite3.connect(mutants.MUTMUT_CACHE) as db:
        db.execute('create table MiscData (key text primary key, value text)')
        db.execute("insert into MiscData values ('version', '4')")
    assert mutants.runner_timeout() == 2 * mutants.SLOW_S
    with sqlite3.connect(mutants.MUTMUT_CACHE) as db:
        db.execute("insert into MiscData values ('baseline_time_elapsed', '12.5')")
    assert mutants.runner_timeout() == 100.0


def test_the_lines_patch_adds_exactly_the_lines_asked_for(tmp_path, monkeypatch):
    """git, applying the patch to the file without those lines, gives the file back."""
    source = [f'line {k}' for k in range(1, 21)]
    (tmp_path / 'm.py').write_text('\n'.join(source) + '\n')
    monkeypatch.setattr(mutants, 'ROOT', tmp_path)
    for first, last in ((1, 1), (5, 9), (20, 20), (15, 10 ** 9)):
        kept = source[:first - 1] + source[last:]
        (tmp_path / 'm.py.work').write_text(''.join(t + '\n' for t in kept))
        patch = mutants.lines_patch('m.py', first, last).replace('m.py', 'm.py.work')
        subprocess.run(['git', 'apply', '--unidiff-zero', '-'], input=patch, text=True,
                       cwd=tmp_path, check=True)
        assert (tmp_path / 'm.py.work').read_text() == (tmp_path / 'm.py').read_text()


def test_a_line_range_is_first_to_last_or_first_to_the_end():
    assert mutants.line_range('212-') == (212, 10 ** 9)
    assert mutants.line_range('3-3') == (3, 3)
    for bad in ('5', '0-4', '9-8', 'a-b', '-4'):
        with pytest.raises(argparse.ArgumentTypeError):
            mutants.line_range(bad)
