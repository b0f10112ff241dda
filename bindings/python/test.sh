#!/usr/bin/env bash
# Tests of the Python package langgraph-checkpoint-rockpoint: creates (once)
# a virtual environment in $BUILD_DIR/python-venv, installs the pinned
# requirements (requirements-dev.txt) when they changed, builds and installs
# the package from bindings/python (a real wheel, not editable; the CMake
# build dir is kept under build/python, so a rebuild is incremental), then
# runs pytest on bindings/python/tests. Ends with pytest's summary line;
# exits non-zero on failure.
#
# Environment: BUILD_DIR (default <repo>/build), PYTHON (default python3),
# JOBS (default 2). Extra arguments go to pytest.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
PYTHON="${PYTHON:-python3}"
VENV="$BUILD_DIR/python-venv"
export CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-2}"
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "bindings/python: creating $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"

# pip install -r only when requirements-dev.txt is newer than the stamp.
stamp="$VENV/.requirements-dev.stamp"
if [ ! -f "$stamp" ] || [ "$HERE/requirements-dev.txt" -nt "$stamp" ]; then
  echo "bindings/python: installing requirements-dev.txt" >&2
  "$PY" -m pip install --quiet --disable-pip-version-check \
    -r "$HERE/requirements-dev.txt"
  touch "$stamp"
fi

# The build requirements (scikit-build-core, nanobind) are pinned in
# requirements-dev.txt too, so the build needs no isolated environment and
# its paths stay stable (ccache and the CMake build dir stay warm).
echo "bindings/python: building and installing the package" >&2
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --force-reinstall "$HERE"

cd "$HERE"
exec "$PY" -m pytest -p no:cacheprovider "$@"
