# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
# Each creates .venv and installs what it needs on a fresh machine with python3, pip and make.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-base
BENCH_STAMP := $(VENV)/.installed-bench

# DDS stays on this machine, whatever the shell says (Jazzy's switch; tests pick their own
# ROS_DOMAIN_ID).  One numba cache directory for every process of a run, named after the
# package's sources: numba checks a cached kernel against its own file only, not against the
# kernels it calls from other modules, so an edit anywhere starts a cache of its own
# (test/conftest.py names it the same way).
export ROS_AUTOMATIC_DISCOVERY_RANGE := LOCALHOST
unexport ROS_LOCALHOST_ONLY
SOURCE_HASH := $(shell cat $$(find collision_monitor -name '*.py' | LC_ALL=C sort) \
	| sha1sum | cut -c1-12)
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache/$(SOURCE_HASH)
export PYTHONUNBUFFERED := 1

.PHONY: demo test test-nojit bench soak mutants clean-cache clean

$(STAMP): setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[ros,test,demo,replay]'
	touch $@

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[ros,test,demo,replay,bench]'
	touch $@

demo: $(STAMP)
	$(PY) -m collision_monitor.tools.demo

# --capture=sys: what C code writes to stderr (glibc's heap checks, std::terminate) reaches the
# terminal, where a crash's own message is seen before Python's fault dump.  Then the engine
# tests again with numba's bounds checks (kernels compiled apart, in a cache of their own): a
# kernel writing past a buffer fails there with IndexError instead of corrupting the heap.
BOUNDSCHECK_CACHE := $(CURDIR)/.numba_cache_boundscheck/$(SOURCE_HASH)
test: $(STAMP)
	find .numba_cache .numba_cache_boundscheck -mindepth 1 -maxdepth 1 \
		! -name $(SOURCE_HASH) -exec rm -rf {} + 2>/dev/null || true
	$(PY) -m pytest --capture=sys
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(BOUNDSCHECK_CACHE) \
		$(PY) -m pytest --capture=sys -q -m "not ros and not slow"

# The kernels as plain Python (for coverage and tracebacks); slow, so only the engine tests.
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -m "not ros and not slow" test

# Mutation testing of the kernels (by hand, not in CI: about 5 s per mutant): mutmut 2
# (mutmut 3 leaves decorated functions alone, and every kernel is decorated) changes one
# line at a time and runs the tests that cover that module, with the kernels as plain Python.
# Decorator mutants are skipped: with the JIT off `@jit` is the identity already (and some
# stop mutmut 2.5.1 with "Mutant.line is required").
# Survivors and why they live: docs/mutation.md.  `mutmut show N` prints mutant N.
# mutmut 2.5.1 counts only exit status 1 as a kill (a collection error, status 2, would
# survive): the runner turns every failure into 1.
# A mutant can loop for ever: mutmut's own timeout ends the runner but not pytest, so the
# test run is killed after 5 minutes here (its exit status counts as a kill).
MUTANT_PYTEST = timeout -s KILL 300 $(PY) -m pytest -x -q -p no:cacheprovider -m 'not ros'
# every 3D test file, comma-separated (pytest runs a file named twice once)
TESTS_3D = $(subst $(eval) ,$(comma),$(sort $(wildcard test/test_geometry3d_*.py)))
comma := ,
MUTANT_TARGETS ?= \
	collision_monitor/kernels/kinematics.py=test/test_kinematics.py,test/test_toi.py \
	collision_monitor/kernels/motion.py=test/test_motion.py,test/test_monitor.py,$\
		test/test_world.py \
	collision_monitor/kernels/broadphase.py=test/test_broadphase.py,test/test_world.py \
	collision_monitor/kernels/polyroots.py=test/test_polyroots.py,test/test_toi.py \
	collision_monitor/kernels/toi.py=test/test_toi.py \
	collision_monitor/kernels/narrowphase.py=test/test_narrowphase.py,$\
		test/test_geometry2d_contact.py,test/test_world.py \
	$(foreach m,primitives segment_intersection point_in_polygon separating_axis contact \
		validation distance,collision_monitor/kernels/geometry2d/$(m).py=$\
		test/test_geometry2d_$(m).py,test/test_geometry2d_contact.py) \
	$(foreach m,gjk distance manifold triangles point_in_polyhedron planar bounding $\
		validation polyhedron batch separating_plane,collision_monitor/geometry3d/$(m).py=$\
		test/test_geometry3d_$(m).py,$(TESTS_3D))
mutants: $(STAMP)
	$(PY) -m pip install --quiet 'mutmut==2.5.1'
	for target in $(MUTANT_TARGETS); do \
		tests=$$(echo $${target#*=} | tr , ' '); \
		NUMBA_DISABLE_JIT=1 HYPOTHESIS_PROFILE=quick $(PY) -m mutmut run \
			--paths-to-mutate $${target%%=*} --disable-mutation-types=decorator \
			--runner "sh -c \"$(MUTANT_PYTEST) $$tests || exit 1\"" || true; \
	done
	$(PY) -m mutmut results

bench: $(BENCH_STAMP)
	$(PY) -m benchmarks

clean-cache:
	rm -rf .numba_cache .numba_cache_boundscheck

clean: clean-cache
	rm -rf $(VENV) build install log .mutmut-cache

# 30 minutes, 200 bodies at 100 Hz (docs/reliability.md); SOAK_SECONDS=60 for a short one.
SOAK_SECONDS ?= 1800
soak: $(STAMP)
	$(PY) test/soak.py --bodies 200 --rate 100 --seconds $(SOAK_SECONDS)
