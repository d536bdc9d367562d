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
"""Differential run of a kernel's mutants (docs/mutation.md): each mutmut mutant of some lines
of a module is run against the unmutated engine on random two-body scenes, and the scenes
whose first contact moved by more than 1e-6 s are named.

``python test/mutants_differential.py --lines FIRST-LAST [--scenes N] [--seed S] [MODULE]``
(default ``kernels/toi.py``, 40,000 scenes, seed 2; mutmut from ``make mutants``) prints a
verdict per mutant: SAME, DIFFERS with the first scenes that moved, or BROKEN (the mutated
engine did not finish).
``--show K`` prints scene K as ``(shapes, states, models)``, the form of
`test_rigid.rigid_scenes`, to be checked against dense sampling and made an example.

A scene: two polygons of 3 to 7 vertices (star-shaped, convex or not) 1 to 3.5 m apart, each
under a model drawn from arc, holonomic (twice as likely) and the two point models, twists up
to 1.5 m/s and 3 rad/s, accelerations half the time, the second body at rest a third of the
time; the answer is `World.predict` over 2 s.  The mutants are made in a copy of the package;
each starts from the unmutated run's numba cache less the entries that may hold the mutated
module's code (as `make mutants` does); the working tree is never changed.
"""

import argparse
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from mutants import drop_cached, importers, line_range
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = 'collision_monitor'
MODELS = ['arc', 'holonomic', 'arc', 'holonomic', 'constant_acceleration', 'constant_velocity']


def _polygon(rng):
    k = rng.integers(3, 8)
    angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, k))
    radii = rng.uniform(0.05, 1.2, k) if rng.random() < 0.5 else np.full(k, rng.uniform(0.05, 1.2))
    return np.column_stack([radii * np.cos(angles), radii * np.sin(angles)]).round(6)


def scene(rng):
    """``(shapes, states, models)``: states ``((x, y, phi), twist, acceleration)`` per body."""
    shapes = [_polygon(rng), _polygon(rng)]
    gap, heading = rng.uniform(1.0, 3.5), rng.uniform(-np.pi, np.pi)
    poses = [(0.0, 0.0, rng.uniform(-3, 3)),
             (gap * math.cos(heading), gap * math.sin(heading), rng.uniform(-3, 3))]
    models = [str(rng.choice(MODELS)) for _ in range(2)]
    states = []
    for k in range(2):
        twist = [rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3)]
        accel = ([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-3, 3)]
                 if rng.random() < 0.5 else [0.0, 0.0, 0.0])
        if k == 1 and rng.random() < 0.3:
            twist, accel = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        states.append((tuple(round(float(v), 6) for v in poses[k]),
                       tuple(round(float(v), 6) for v in twist),
                       tuple(round(float(v), 6) for v in accel)))
    return [s.tolist() for s in shapes], states, models


def answers(n, seed):
    """The first contact of each of n scenes: its time, 'none', or 'refused' (a shape the
    engine refuses)."""
    from collision_monitor import World
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        shapes, states, models = scene(rng)
        world = World()
        try:
            for k, (shape, (pose, twist, accel), model) in enumerate(zip(shapes, states, models)):
                world.add_body(f'b{k}', shape, pose=pose, predictor=model)
                world.set_twists([twist], [k])
                world.set_accelerations([accel], [k])
        except ValueError:
            out.append('refused')
            continue
        pred = world.predict(2.0)
        out.append(repr(float(pred.time[0])) if len(pred) else 'none')
    return out


def run_answers(package_root, n, seed, cache):
    """`answers` in a process of its own, importing the package under `package_root`, with
    the numba cache `cache`."""
    env = dict(os.environ, PYTHONPATH=str(package_root), NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, __file__, '--answers', str(n), str(seed)],
                          env=env, cwd=package_root, capture_output=True, text=True,
                          timeout=1800)
    return done.stdout.split() if done.returncode == 0 else None


def mutant_cache(base, copy, module):
    """A numba cache for a mutant of `module` in `copy`: the unmutated run's `base`, less the
    entries of every module whose kernels may hold the mutated one's (`mutants.importers`),
    so that only those compile again."""
    cache = pathlib.Path(tempfile.mkdtemp(prefix='numba_', dir=base.parent))
    shutil.copytree(base, cache, dirs_exist_ok=True)
    stale = importers(ROOT / PACKAGE / module, kernels_only=True)
    drop_cached([copy / p.relative_to(ROOT) for p in stale], cache)
    return cache


def moved(base, got):
    """Indices of the scenes whose answers differ by more than 1e-6 s (or in kind)."""
    out = []
    for k, (a, b) in enumerate(zip(base, got)):
        if a == b:
            continue
        try:
            if abs(float(a) - float(b)) <= 1e-6:
                continue
        except ValueError:
            pass
        out.append(k)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('module', nargs='?', default='kernels/toi.py')
    parser.add_argument('--lines', metavar='FIRST-LAST', type=line_range)
    parser.add_argument('--scenes', type=int, default=40000)
    parser.add_argument('--seed', type=int, default=2)
    parser.add_argument('--show', type=int, metavar='K')
    parser.add_argument('--answers', nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.answers:
        print('\n'.join(answers(*args.answers)))
        return 0
    if args.show is not None:
        rng = np.random.default_rng(args.seed)
        for _ in range(args.show):
            scene(rng)
        print(scene(rng))
        return 0
    if not args.lines:
        parser.error('--lines FIRST-LAST is required')
    from mutmut import Context, list_mutations, mutate
    first, last = args.lines
    copy = pathlib.Path(tempfile.mkdtemp(prefix='differential_'))
    try:
        shutil.copytree(ROOT / PACKAGE, copy / PACKAGE,
                        ignore=shutil.ignore_patterns('__pycache__'))
        target = copy / PACKAGE / args.module
        source = target.read_text()
        lines = source.splitlines()
        base_cache = copy / 'numba_base'
        base = run_answers(copy, args.scenes, args.seed, base_cache)
        if base is None:
            sys.exit('the unmutated engine did not finish')
        context = Context(source=source, filename=args.module, dict_synonyms=[])
        for m in list_mutations(context):
            if not first <= m.line_number + 1 <= last:
                continue
            mutated, _ = mutate(Context(source=source, filename=args.module, mutation_id=m,
                                        dict_synonyms=[]))
            new = mutated.splitlines()[m.line_number]
            if new.strip().startswith('@') or lines[m.line_number].strip().startswith('@'):
                continue
            target.write_text(mutated)
            cache = mutant_cache(base_cache, copy, args.module)
            got = run_answers(copy, args.scenes, args.seed, cache)
            shutil.rmtree(cache, ignore_errors=True)
            target.write_text(source)
            if got is None or len(got) != len(base):
                verdict = 'BROKEN'
            else:
                ks = moved(base, got)
                verdict = f'DIFFERS {len(ks)} (scenes {ks[:5]})' if ks else 'SAME'
            print(f'{verdict}  {m.line_number + 1}: {lines[m.line_number].strip()} => '
                  f'{new.strip()}', flush=True)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
