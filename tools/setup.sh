#!/usr/bin/env bash
# rockpoint set-up: installs missing Debian 12 packages (idempotent, quiet
# when everything is there), configures and builds, then runs a job.
#
#   tools/setup.sh demo    build, then run the demo on an embedded store
#   tools/setup.sh test    run every test, each suite once, printing its wall
#                          time: the libraries, the CLI and the demo built
#                          with gcc and -Werror, and the CMake package's
#                          install-and-consume test on that build; the clang
#                          build (-Wthread-safety, ASan+UBSan) where the C++
#                          suites run under the sanitizers (ctest), the fuzz
#                          smoke run, TSan; then the LangGraph.js suites and
#                          the Python suites. clang-tidy is not part of it:
#                          tools/check_static.sh runs it
#   tools/setup.sh build   build everything (tests and bench included)
#
# The test job's suites find the PostgreSQL server for the PostgreSQL
# backend's tests at ROCKPOINT_TEST_POSTGRES_URL. When it is set, they use
# that server (a developer's own; the job starts none); otherwise the job
# starts a throwaway one in BUILD_DIR/pg-test (tools/pg_server.sh), exports
# its URL for every suite and stops it when it ends, passed or failed.
#
# Environment: BUILD_DIR (default: build), JOBS (default: nproc),
# ROCKPOINT_TEST_POSTGRES_URL (default: the throwaway server).
# ccache is used when installed (the test job installs it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
JOB="${1:-build}"

# The library, the CLI, the demo and the C++ tests.
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  librocksdb-dev libzstd-dev libsqlite3-dev libpq-dev libssl-dev libxxhash-dev
  libmsgpack-cxx-dev libboost-dev doctest-dev
  libcli11-dev nlohmann-json3-dev
)
# What only the test job needs: ccache (the Python extension recompiles the
# core), clang-16 and its sanitizer and libFuzzer runtimes for the
# thread-safety and sanitizer builds, clang-tidy-16 (tools/check_static.sh
# requires it), llvm-16 for llvm-symbolizer (sanitizer reports with
# function names, which TSan's suppressions match), Python for the Python
# package and the fuzz seeds, the PostgreSQL server for the PostgreSQL
# backend's tests.
TEST_PACKAGES=(
  ccache clang-16 clang-tidy-16 libclang-rt-16-dev llvm-16
  python3 python3-venv python3-dev
  postgresql
)

install_packages() {
  local wanted=("${PACKAGES[@]}")
  [ "$JOB" = test ] && wanted+=("${TEST_PACKAGES[@]}")
  local missing=()
  for pkg in "${wanted[@]}"; do
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

# configure [cmake flags...]: configures BUILD_DIR when it is new or when
# flags are given (a re-configure keeps what is built).
configure() {
  local launcher=()
  command -v ccache >/dev/null 2>&1 &&
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$BUILD_DIR/build.ninja" ] || [ $# -gt 0 ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "${launcher[@]}" "$@" >/dev/null
  fi
}

# build [cmake flags...] [-- targets...]: configures, then builds the
# targets given (default: all).
build() {
  local flags=() targets=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  targets=("$@")
  configure "${flags[@]}"
  if [ ${#targets[@]} -gt 0 ]; then
    cmake --build "$BUILD_DIR" -j "$JOBS" --target "${targets[@]}"
  else
    cmake --build "$BUILD_DIR" -j "$JOBS"
  fi
}

# start_postgres: exports ROCKPOINT_TEST_POSTGRES_URL, the server of the
# PostgreSQL tests: the caller's when set, else a throwaway server in
# BUILD_DIR/pg-test, stopped when this script exits.
start_postgres() {
  if [ -n "${ROCKPOINT_TEST_POSTGRES_URL:-}" ]; then
    echo "setup: PostgreSQL tests on $ROCKPOINT_TEST_POSTGRES_URL" >&2
    return 0
  fi
  trap stop_postgres EXIT
  ROCKPOINT_TEST_POSTGRES_URL="$("$ROOT/tools/pg_server.sh" start "$BUILD_DIR/pg-test")"
  export ROCKPOINT_TEST_POSTGRES_URL
}

# stop_postgres: stops start_postgres's server; a failure to stop is
# reported, and leaves the job's exit status as it is.
stop_postgres() {
  "$ROOT/tools/pg_server.sh" stop "$BUILD_DIR/pg-test" ||
    echo "setup: could not stop the PostgreSQL server in $BUILD_DIR/pg-test" >&2
}

# timed <label> <command...>: runs the command, then prints its wall time.
timed() {
  local label="$1" start=$SECONDS
  shift
  echo "setup: $label" >&2
  "$@"
  echo "setup: $label took $((SECONDS - start)) s" >&2
}

install_packages
case "$JOB" in
  build)
    build
    ;;
  demo)
    build -- rockpoint_demo
    "$BUILD_DIR/tools/rockpoint-demo" "${@:2}"
    ;;
  test)
    # The C++ suites run once, in the sanitized clang build
    # (check_sanitizers.sh). The gcc build is the -Werror check of the
    # libraries, the CLI and the demo, and what the CMake package test
    # installs and consumes.
    timed "gcc build" build -DROCKPOINT_WERROR=ON -- rockpoint_cli \
      rockpoint_demo
    timed "CMake package test" ctest --test-dir "$BUILD_DIR" \
      --output-on-failure -R '^package$'
    start_postgres
    # check_sanitizers.sh builds the clang build first (check_static.sh
    # build); clang-tidy (tools/check_static.sh tidy) is a developer check
    # outside this job, which must stay within CI's time.
    for suite in tools/check_sanitizers.sh bindings/node/test.sh \
        bindings/python/test.sh; do
      timed "$suite" "$ROOT/$suite"
    done
    ;;
  *)
    echo "usage: tools/setup.sh [build|demo|test]" >&2
    exit 1
    ;;
esac
