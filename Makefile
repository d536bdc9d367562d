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
# terminal, where a crash's own message is seen before Python's fault dump.  Alongside, at a
# lower priority, the engine tests again with numba's bounds checks (kernels compiled apart,
# in a cache of their own): a kernel writing past a buffer fails there with IndexError instead
# of corrupting the heap.  That pass is mostly compiling and the suite mostly waits on DDS and
# child processes, so on two cores the two together take 7 to 8 minutes where one after the
# other takes 9 to 10; its output follows the suite's.
BOUNDSCHECK_CACHE := $(CURDIR)/.numba_cache_boundscheck/$(SOURCE_HASH)
test: $(STAMP)
	find .numba_cache .numba_cache_boundscheck -mindepth 1 -maxdepth 1 \
		! -name $(SOURCE_HASH) -exec rm -rf {} + 2>/dev/null || true
	@log=$$(mktemp); \
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(BOUNDSCHECK_CACHE) nice -n 10 \
		$(PY) -m pytest --capture=sys -q -m "not ros and not slow" > $$log 2>&1 & \
	checked=$$!; \
	trap 'kill $$checked 2>/dev/null; rm -f $$log' EXIT; \
	trap 'exit 130' INT TERM; \
	$(PY) -m pytest --capture=sys; suite=$$?; \
	wait $$checked; bounds=$$?; \
	echo "=== the engine tests with NUMBA_BOUNDSCHECK=1 (run alongside the suite):"; \
	cat $$log; \
	[ $$suite -eq 0 ] && [ $$bounds -eq 0 ]

# The kernels as plain Python (for coverage and tracebacks); slow, so only the engine tests.
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -m "not ros and not slow" test

# Mutation testing of the kernels (by hand, not in CI; docs/mutation.md lists the survivors
# and why they live): mutmut 2 (mutmut 3 leaves decorated functions alone, and every kernel is
# decorated) changes one line at a time and runs the tests that cover that module, with the
# JIT on and one numba cache for the run (test/mutants.py says how it stays true to the
# mutant).  MUTANTS=kernels/toi.py picks modules; MUTANT_FLAGS=--no-jit runs the kernels as
# plain Python (several times slower), MUTANT_FLAGS=--lines=200- mutates line 200 on.
# `mutmut show N` prints mutant N.
MUTANTS ?=
MUTANT_FLAGS ?=
mutants: $(STAMP)
	$(PY) -m pip install --quiet 'mutmut==2.5.1' whatthepatch
	$(PY) test/mutants.py $(MUTANT_FLAGS) $(MUTANTS)

bench: $(BENCH_STAMP)
	$(PY) -m benchmarks

clean-cache:
	rm -rf .numba_cache .numba_cache_boundscheck .numba_cache_mutants

clean: clean-cache
	rm -rf $(VENV) build install log .mutmut-cache .mutmut-busy .mutmut-lines.patch

# 30 minutes, 200 bodies at 100 Hz (docs/reliability.md); SOAK_SECONDS=60 for a short one.
SOAK_SECONDS ?= 1800
soak: $(STAMP)
	$(PY) test/soak.py --bodies 200 --rate 100 --seconds $(SOAK_SECONDS)
