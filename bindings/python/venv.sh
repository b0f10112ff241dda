#!/usr/bin/env bash
# Prepares the Python environment of the tests and the bench: creates (once)
# $BUILD_DIR/python-venv, installs requirements-dev.txt when it changed, and
# builds this package's wheel into $BUILD_DIR/python/dist and installs it
# (non-editable: a real wheel). Prints the venv's python on stdout; progress
# goes to stderr.
#
#   bindings/python/venv.sh              the venv with the package
#   bindings/python/venv.sh --deps-only  the venv with requirements-dev.txt
#
# With ROCKPOINT_PREFIX (an installed rockpoint: the component "library" of
# a build of this checkout, e.g. the test job's build/prefix), the extension
# is built alone (bindings/python/CMakeLists.txt as the CMake project) and
# links the libraries of that prefix; without it, the wheel builds the core
# too, as a release wheel does.
#
# Environment: BUILD_DIR (default <repo>/build), PYTHON (default python3),
# JOBS (default 2), ROCKPOINT_PREFIX.
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
if [ "${1:-}" = --deps-only ]; then
  echo "$PY"
  exit 0
fi

# The build requirements (scikit-build-core, nanobind) are pinned in
# requirements-dev.txt too, so the build needs no isolated environment and
# its paths stay stable (ccache and the CMake build dir stay warm).
# The CMake build dir follows BUILD_DIR (pyproject.toml's default is the
# same place for a plain "pip install bindings/python").
settings=(--config-settings="build-dir=$BUILD_DIR/python/{wheel_tag}")
if [ -n "${ROCKPOINT_PREFIX:-}" ]; then
  prefix="$(cd "$ROCKPOINT_PREFIX" && pwd)"
  echo "bindings/python: building the wheel on the rockpoint in $prefix" >&2
  settings=(
    --config-settings="build-dir=$BUILD_DIR/python/prefix-{wheel_tag}"
    --config-settings=cmake.source-dir=.
    --config-settings="cmake.define.CMAKE_PREFIX_PATH=$prefix"
  )
else
  echo "bindings/python: building the wheel (the core included)" >&2
fi
dist="$BUILD_DIR/python/dist"
rm -rf "$dist"
"$PY" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --wheel-dir "$dist" "${settings[@]}" "$HERE" >&2
wheel=("$dist"/*.whl)
echo "bindings/python: installing ${wheel[0]##*/}" >&2
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
  --force-reinstall "${wheel[0]}" >&2
echo "$PY"
