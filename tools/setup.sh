#!/usr/bin/env bash
# rockpoint set-up: installs missing Debian 12 packages (idempotent, quiet
# when everything is there), configures and builds, then runs a job.
#
#   tools/setup.sh demo    build, then run the demo on an embedded store
#   tools/setup.sh test    build, then run every test (C++ and, when the
#                          binding exists, the LangGraph.js suites)
#   tools/setup.sh build   build only
#   tools/setup.sh static  also installs clang-16 and clang-tidy-16, then
#                          runs tools/check_static.sh (clang -Werror
#                          -Wthread-safety build, clang-tidy)
#
# Environment: BUILD_DIR (default: build), JOBS (default: nproc),
# CMAKE_ARGS (extra configure arguments, e.g. -DROCKPOINT_WERROR=ON).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
JOB="${1:-build}"
CMAKE_ARGS="${CMAKE_ARGS:-}"

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  librocksdb-dev libzstd-dev libsqlite3-dev
  libmsgpack-cxx-dev libboost-dev doctest-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
)
if [ "$JOB" = static ]; then
  PACKAGES+=(clang-16 clang-tidy-16)
fi

install_packages() {
  local missing=()
  for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
        grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  # The LangGraph.js binding's tests need node and npm (Node 20 or newer).
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    # shellcheck disable=SC2086  # CMAKE_ARGS is a list of arguments.
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      $CMAKE_ARGS >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

install_packages
case "$JOB" in
  build)
    build
    ;;
  demo)
    build
    "$BUILD_DIR/tools/rockpoint-demo" "${@:2}"
    ;;
  test)
    build
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
    if [ -x "$ROOT/bindings/node/test.sh" ]; then
      "$ROOT/bindings/node/test.sh"
    fi
    ;;
  static)
    "$ROOT/tools/check_static.sh"
    ;;
  *)
    echo "usage: tools/setup.sh [build|demo|test|static]" >&2
    exit 1
    ;;
esac
