#!/usr/bin/env bash
# Prepares the Python environment of the tests and the bench: creates (once)
# $BUILD_DIR/python-venv, installs requirements-dev.txt when it changed, and
# builds and installs this package (non-editable: a real wheel). Prints the
# venv's python on stdout; progress goes to stderr.
#
# Environment: BUILD_DIR (default <repo>/build), PYTHON (default python3),
# JOBS (default 2).
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
    -r "$HERE/requirements-dev.txt" >&2
  touch "$stamp"
fi

# The build requirements (scikit-build-core, nanobind) are pinned in
# requirements-dev.txt too, so the build needs no isolated environment and
# its paths stay stable (ccache and the CMake build dir stay warm).
echo "bindings/python: building and installing the package" >&2
# The CMake build dir follows BUILD_DIR (pyproject.toml's default is the
# same place for a plain "pip install bindings/python").
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --force-reinstall \
  --config-settings="build-dir=$BUILD_DIR/python/{wheel_tag}" "$HERE" >&2
echo "$PY"
