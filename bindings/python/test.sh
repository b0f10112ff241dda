#!/usr/bin/env bash
# Tests of the Python package langgraph-checkpoint-rockpoint: prepares the
# virtual environment with venv.sh ($BUILD_DIR/python-venv: the pinned
# requirements-dev.txt, and the package built from bindings/python as a real
# wheel; the CMake build dir is kept under build/python, so a rebuild is
# incremental), then runs pytest on bindings/python/tests in
# PYTEST_WORKERS processes (pytest-xdist; default 3: the tests mostly wait
# on fsyncs, child processes and TTL clocks), each test file in one
# process (--dist loadfile), so a file's tests run in order as written.
# Ends with pytest's summary line; exits non-zero on failure.
#
# Environment: BUILD_DIR (default <repo>/build), PYTHON (default python3),
# PYTEST_WORKERS (default 3; 0 runs the tests in this process),
# JOBS (default 2), ROCKPOINT_CLI (the rockpoint binary test_cli_readable.py
# runs; default build/tools/rockpoint, skipped when missing). Extra
# arguments go to pytest.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="$("$HERE/venv.sh")"
cd "$HERE"
exec "$PY" -m pytest -p no:cacheprovider -n "${PYTEST_WORKERS:-3}" \
  --dist loadfile "$@"
