#!/usr/bin/env bash
# Tests of the Python package langgraph-checkpoint-rockpoint: prepares the
# virtual environment with venv.sh ($BUILD_DIR/python-venv: the pinned
# requirements-dev.txt, and the package built from bindings/python as a real
# wheel; the CMake build dir is kept under build/python, so a rebuild is
# incremental), then runs pytest on bindings/python/tests. Ends with pytest's
# summary line; exits non-zero on failure.
#
# Environment: BUILD_DIR (default <repo>/build), PYTHON (default python3),
# JOBS (default 2), ROCKPOINT_CLI (the rockpoint binary test_cli_readable.py
# runs; default build/tools/rockpoint, skipped when missing). Extra
# arguments go to pytest.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="$("$HERE/venv.sh")"
cd "$HERE"
exec "$PY" -m pytest -p no:cacheprovider "$@"
