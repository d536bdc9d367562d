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
"""Mutation testing with mutmut 2 (``make mutants``; docs/mutation.md): the kernels, the 3D
algorithms, and the monitor, ros and tools layers but the node (its tests run over DDS, seconds
each, too slow for one run per mutant; the logic it calls is the monitor's).

``python test/mutants.py [--no-jit] [--lines FIRST-LAST] [MODULE ...]`` runs mutmut over each
module (default: every module of `TARGETS`) against the tests that cover it; ``--lines``
mutates only those lines (1-based, inclusive; mutmut is handed a patch that adds them).
mutmut changes one line of the source in place, runs this file's ``--test`` mode, and counts
exit status 1 as a kill.

With the JIT on (the default) every test run shares one numba cache, ``.numba_cache_mutants``:
numba recompiles the mutated module's kernels itself (their file changed), but it checks a
cached kernel against its own file only, so the entries of every module whose kernels may
inline some of the mutated one's (it imports a kernel or a constant of it, directly or not)
are deleted before each run.  Bounds checks are on, so
an index past an array's end fails as it does in plain Python.  ``--no-jit`` runs the kernels
as plain Python (``NUMBA_DISABLE_JIT=1``): the same verdicts, several times slower.

mutmut 2.5.1 now and then stops inside its result cache and then hangs; the driver restarts
it when no test run has been seen for a minute (it goes on from its cache).  A mutant that
loops is stopped by the runner, short of mutmut's own timeout, after which mutmut hangs
too.
"""

import argparse
import ast
import contextlib
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = 'collision_monitor'
CACHE = ROOT / '.numba_cache_mutants'
BUSY = ROOT / '.mutmut-busy'   # the process id of the test run under way
LINES_PATCH = ROOT / '.mutmut-lines.patch'   # the patch of ``--lines``
SLOW_S = 300     # mutmut calls a kill slow past twice the unmutated run plus this
MUTMUT_CACHE = ROOT / '.mutmut-cache'
IDLE_LIMIT_S = 60


def module_name(path):
    """Dotted module name of a source file of the package."""
    parts = path.relative_to(ROOT).with_suffix('').parts
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


def imported_names(path, modules):
    """What `path` imports of the package's modules (`modules`, a set of dotted names): a
    dict from module to the names taken from it (None: the module itself)."""
    name = module_name(path)
    package = name if path.name == '__init__.py' else name.rpartition('.')[0]
    found = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for a in node.names:
                found.setdefault(a.name, set()).add(None)
        elif isinstance(node, ast.ImportFrom):
            base = package.split('.')
            base = base[:len(base) - node.level + 1] if node.level else []
            base = '.'.join(base + ([node.module] if node.module else []))
            for a in node.names:
                found.setdefault(base, set()).add(a.name)
                found.setdefault(f'{base}.{a.name}', set()).add(None)
    return {m: names for m, names in found.items() if m in modules}


def plain_functions(path):
    """Names of the module's top-level functions that are not compiled (no decorator): a
    kernel cannot call them, nor inline their code."""
    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, ast.FunctionDef) and not node.decorator_list}


def importers(target, kernels_only=False):
    """`target` (a path) and the files of the package that import it, directly or not.

    With `kernels_only`, only those whose kernels may hold some of the target's code: an
    import of the target's plain Python functions alone does not count (numba inlines the
    kernels and the constants a kernel reads, never a Python function)."""
    files = {module_name(p): p for p in (ROOT / PACKAGE).rglob('*.py')}
    imports = {m: imported_names(p, set(files)) for m, p in files.items()}
    plain = {m: plain_functions(p) for m, p in files.items()} if kernels_only else {}
    stale = {module_name(target)}
    todo = list(stale)
    while todo:
        m = todo.pop()
        for other, theirs in imports.items():
            if (m in theirs and other not in stale
                    and not theirs[m] <= plain.get(m, set())):
                stale.add(other)
                todo.append(other)
    return [files[m] for m in sorted(stale)]


def _covering_3d(name):
    """The 3D tests that can see a mutant of ``geometry3d/<name>.py``: those of the modules
    that import it, directly or not (a mutant changes no other module), its own first (most
    mutants fail there, and pytest stops at the first failure)."""
    found = (ROOT / 'test' / f'test_geometry3d_{p.stem}.py'
             for p in importers(ROOT / PACKAGE / 'geometry3d' / f'{name}.py')
             if p.parent.name == 'geometry3d')
    return sorted((str(t.relative_to(ROOT)) for t in found if t.is_file()),
                  key=lambda t: (t != f'test/test_geometry3d_{name}.py', t))


def _kernels_2d(name):
    """A 2D module's own tests, the contact tests, then the narrow phase's and the
    world's (the corner and tip cases at the tolerance live there), fast files first."""
    own = [f'test/test_geometry2d_{name}.py'] if name != 'contact' else []
    return own + ['test/test_geometry2d_contact.py', 'test/test_narrowphase.py',
                  'test/test_world.py']


# module (relative to the package) -> the tests that cover it
TARGETS = {
    'kernels/trig.py': ['test/test_trig.py'],
    'kernels/threads.py': ['test/test_threads.py', 'test/test_world.py'],
    'kernels/kinematics.py': ['test/test_kinematics.py', 'test/test_toi.py'],
    'kernels/rigid.py': ['test/test_rigid.py', 'test/test_kinematics.py', 'test/test_toi.py',
                         'test/test_world.py'],
    'kernels/motion.py': ['test/test_motion.py', 'test/test_monitor.py', 'test/test_world.py'],
    'kernels/broadphase.py': ['test/test_broadphase.py', 'test/test_world.py'],
    'kernels/polyroots.py': ['test/test_polyroots.py', 'test/test_toi.py'],
    'kernels/toi.py': ['test/test_toi.py', 'test/test_rigid.py', 'test/test_world.py'],
    'kernels/lookback.py': ['test/test_world.py'],
    'kernels/double_double.py': ['test/test_double_double.py', 'test/test_geometry3d_gjk.py'],
    'kernels/narrowphase.py': ['test/test_narrowphase.py', 'test/test_geometry2d_contact.py',
                               'test/test_world.py'],
    **{f'kernels/geometry2d/{m}.py': _kernels_2d(m)
       for m in ('primitives', 'segment_intersection', 'point_in_polygon', 'separating_axis',
                 'contact', 'validation', 'distance')},
    **{f'geometry3d/{m}.py': _covering_3d(m)
       for m in ('gjk', 'distance', 'manifold', 'triangles', 'point_in_polyhedron', 'planar',
                 'bounding', 'validation', 'polyhedron', 'batch', 'separating_plane')},
    'ros/cdr.py': ['test/test_cdr.py'],
    'ros/messages.py': ['test/test_messages.py', 'test/test_cdr.py'],
    'ros/frames.py': ['test/test_frames.py'],
    'monitor/config.py': ['test/test_config.py', 'test/test_monitor.py'],
    'monitor/monitor.py': ['test/test_monitor.py'],
    'tools/replay.py': ['test/test_replay.py', 'test/test_replay_blocks.py'],
}
# tests of a module's files left out of its runs: the clean-venv install (100 s) tests
# packaging, which no mutant of the module changes
LEFT_OUT = {
    'tools/replay.py': ['test/test_replay.py::'
                        'test_the_replay_extra_installs_and_runs_in_a_clean_venv'],
}


def drop_cached(paths, cache=None):
    """Delete the numba cache entries (in `cache`, by default `CACHE`) of the kernels defined
    in `paths`."""
    from numba.core.caching import _CacheLocator  # numba's name for a source file's folder
    for path in paths:
        folder = (cache or CACHE) / _CacheLocator.get_suitable_cache_subpath(str(path))
        for entry in folder.glob(f'{path.stem}.*'):
            entry.unlink(missing_ok=True)


def _busy():
    """``(test run, runner)`` process ids from the busy file; None when there is none."""
    try:
        test_pid, runner = map(int, BUSY.read_text().split())
        return test_pid, runner
    except (FileNotFoundError, ValueError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def runner_timeout():
    """The runner's own limit on a test run (s): eight times the unmutated run (`MUTMUT_CACHE`),
    short of mutmut's ten, so that a mutant that loops ends as killed here.  mutmut, timing a
    runner out, kills the runner alone and then hangs until restarted, which tries that
    mutant again.  Without the unmutated run's time: 2 `SLOW_S`."""
    try:
        with contextlib.closing(sqlite3.connect(f'file:{MUTMUT_CACHE}?mode=ro', uri=True)) as db:
            row = db.execute("select value from MiscData where key = 'baseline_time_elapsed'"
                             ).fetchone()
        return 8.0 * float(row[0])
    except (sqlite3.Error, TypeError, ValueError):
        return 2.0 * SLOW_S


def running_test():
    """Process (group) id of the test run under way, None when there is none.  A test run
    outlives its runner when mutmut gives up on it and kills the runner alone."""
    busy = _busy()
    return busy[0] if busy and _alive(busy[0]) else None


def orphaned_test():
    """`running_test` when its runner is gone, else None: mutmut timed the runner out, and it
    does not go on while the run it left lives."""
    busy = _busy()
    return busy[0] if busy and _alive(busy[0]) and not _alive(busy[1]) else None


def kill_group(pid):
    """Kill process group `pid` (None: nothing to kill)."""
    try:
        if pid is not None:
            os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:  # gone, or the id passed on to a process of another group
        pass


def test(module, tests, jit):
    """mutmut's runner: 1 when any test fails (mutmut counts no other status as a kill)."""
    env = dict(os.environ, HYPOTHESIS_PROFILE='quick')
    if jit:
        drop_cached(importers(ROOT / PACKAGE / module, kernels_only=True))
        env.update(NUMBA_CACHE_DIR=str(CACHE), NUMBA_BOUNDSCHECK='1')
    else:
        env['NUMBA_DISABLE_JIT'] = '1'
    kill_group(running_test())
    run = subprocess.Popen([sys.executable, '-m', 'pytest', '-x', '-q', '-p', 'no:cacheprovider',
                            '-m', 'not ros', *tests,
                            *(f'--deselect={t}' for t in LEFT_OUT.get(module, ()))],
                           cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    BUSY.write_text(f'{run.pid} {os.getpid()}')
    try:
        return 0 if run.wait(timeout=runner_timeout()) == 0 else 1
    except subprocess.TimeoutExpired:
        kill_group(run.pid)
        run.wait()
        return 1
    finally:
        BUSY.unlink(missing_ok=True)


def lines_patch(path, first, last):
    """A unified diff that adds lines `first` to `last` (1-based, inclusive) of `path` (relative
    to ROOT): mutmut's ``--use-patch-file`` then mutates those lines alone."""
    lines = (ROOT / path).read_text().splitlines()[first - 1:last]
    if not lines:
        raise ValueError(f'{path} has no lines {first} to {last}')
    hunk = f'@@ -{first - 1},0 +{first},{len(lines)} @@'
    return '\n'.join([f'--- {path}', f'+++ {path}', hunk] + ['+' + t for t in lines]) + '\n'


def mutate(module, jit, lines=None, rounds=20):
    """Run mutmut over one module (only `lines`, a (first, last) pair, if given) until it has
    tried every mutant; False if it keeps failing (`rounds` starts)."""
    runner = ' '.join([sys.executable, __file__, '--test', module] + ([] if jit else ['--no-jit']))
    command = [sys.executable, '-m', 'mutmut', 'run', '--paths-to-mutate', f'{PACKAGE}/{module}',
               '--disable-mutation-types=decorator', '--runner', runner, '--no-progress', '--CI',
               '--test-time-base', str(SLOW_S)]
    if lines:
        LINES_PATCH.write_text(lines_patch(f'{PACKAGE}/{module}', *lines))
        command += ['--use-patch-file', str(LINES_PATCH)]
    source = ROOT / PACKAGE / module
    for _ in range(rounds):
        # a group of its own: mutmut runs each mutant in a worker process, which outlives
        # a mutmut killed alone and goes on to test mutants beside the next mutmut's
        mutmut = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
        try:
            idle = 0.0
            while mutmut.poll() is None:
                time.sleep(5.0)
                kill_group(orphaned_test())
                idle = 0.0 if running_test() else idle + 5.0
                if idle >= IDLE_LIMIT_S:
                    kill_group(mutmut.pid)
        finally:  # also on Ctrl-C, which reaches neither group, and on SIGTERM
            kill_group(mutmut.pid)
            kill_group(running_test())
            mutmut.wait()
            # a killed mutmut leaves its mutant in place and the original beside it
            backup = source.with_name(source.name + '.bak')
            if backup.exists():
                backup.replace(source)
        if mutmut.returncode == 0:
            return True
    return False


def line_range(text):
    """``FIRST-LAST`` (``FIRST-`` for the rest of the file) as a pair of line numbers."""
    first, sep, last = text.partition('-')
    try:
        pair = (int(first), int(last) if last else 10 ** 9)
    except ValueError:
        pair = None
    if not sep or pair is None or not 1 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f'{text!r} is not FIRST-LAST, 1 <= FIRST <= LAST')
    return pair


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('modules', nargs='*', help='modules under collision_monitor/ '
                        f'(default: all of {", ".join(TARGETS)})')
    parser.add_argument('--no-jit', action='store_true', help='kernels as plain Python')
    parser.add_argument('--lines', metavar='FIRST-LAST', type=line_range,
                        help='mutate only these lines (1-based, inclusive) of each module')
    parser.add_argument('--test', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    unknown = [m for m in args.modules if m not in TARGETS]
    if unknown:
        parser.error(f'no tests are listed for {unknown}')
    if args.test:
        (module,) = args.modules
        return test(module, TARGETS[module], not args.no_jit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # mutate's clean-up runs then
    failed = [m for m in args.modules or TARGETS
              if not mutate(m, not args.no_jit, args.lines)]
    subprocess.run([sys.executable, '-m', 'mutmut', 'results'], cwd=ROOT)
    if failed:
        print(f'mutmut failed {failed}: see its output above', file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
