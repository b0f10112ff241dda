#!/usr/bin/env bash
# rockpoint set-up: installs missing Debian 12 packages (idempotent, quiet
# when everything is there), configures and builds, then runs a job.
#
#   tools/setup.sh demo    build the demo and the CLI, then run the demo on
#                          an embedded store
#   tools/setup.sh test    every suite on one build: builds the libraries,
#                          the CLI, the tests and the bench once (gcc,
#                          BUILD_DIR), installs the libraries into
#                          BUILD_DIR/prefix, then runs at once the C++
#                          suites (ctest -j, the CMake package test
#                          included), the LangGraph.js binding's suites and
#                          the Python package's suites, both linking that
#                          prefix. Prints each step's wall time.
#   tools/setup.sh check   the sanitizer matrix (tools/check_sanitizers.sh):
#                          a clang build of everything with -Wthread-safety
#                          and ASan+UBSan where the whole ctest runs, the fuzz
#                          smoke run, and a ThreadSanitizer run of the RocksDB
#                          and runtime tests. CI runs it after test.
#   tools/setup.sh build   build everything (tests and bench included)
#
# The suites find the PostgreSQL server of the PostgreSQL backend's tests at
# ROCKPOINT_TEST_POSTGRES_URL. When it is set, they use that server (a
# developer's own; the job starts none); otherwise test and check start a
# throwaway one in BUILD_DIR/pg-test (tools/pg_server.sh), export its URL for
# every suite and stop it when the job ends, passed or failed.
#
# Environment: BUILD_DIR (default: build), JOBS (default: nproc; exported to
# every step), ROCKPOINT_TEST_POSTGRES_URL (default: the throwaway server),
# WERROR (ON or OFF: compiler warnings fail the build; default ON when CI is
# set, else OFF, so a developer's build/ keeps no -Werror).
# ccache is used when installed (test and check install it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
export JOBS
JOB="${1:-build}"
if [ -n "${CI:-}" ]; then
  WERROR="${WERROR:-ON}"
else
  WERROR="${WERROR:-OFF}"
fi

# The library, the CLI, the demo and the C++ tests.
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  librocksdb-dev libzstd-dev libsqlite3-dev libpq-dev libssl-dev libxxhash-dev
  libmsgpack-cxx-dev libboost-dev doctest-dev libhnswlib-dev
  libcli11-dev nlohmann-json3-dev
)
# What the test job needs besides: ccache, Python for the Python package, the
# PostgreSQL server for the PostgreSQL backend's tests.
TEST_PACKAGES=(ccache python3 python3-venv python3-dev postgresql)
# What the check job needs besides: clang-16 and its sanitizer and libFuzzer
# runtimes, clang-tidy-16 (tools/check_static.sh requires it), llvm-16 for
# llvm-symbolizer (sanitizer reports with function names, which TSan's
# suppressions match), Python for the fuzz seeds.
CHECK_PACKAGES=(
  ccache clang-16 clang-tidy-16 libclang-rt-16-dev llvm-16 python3 postgresql
)

install_packages() {
  local wanted=("${PACKAGES[@]}")
  case "$JOB" in
    test) wanted+=("${TEST_PACKAGES[@]}") ;;
    check) wanted+=("${CHECK_PACKAGES[@]}") ;;
  esac
  local missing=()
  for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
        grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  # The LangGraph.js binding's tests need node and npm (Node 20 or newer).
  if [ "$JOB" = test ]; then
    command -v node >/dev/null 2>&1 || missing+=(nodejs)
    command -v npm >/dev/null 2>&1 || missing+=(npm)
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

# configure: configures BUILD_DIR (gcc, RelWithDebInfo with line tables
# only, ccache when installed, ROCKPOINT_WERROR=$WERROR). The test job
# always does, and rebuilds only what WERROR changes; build and demo
# configure only a new BUILD_DIR, so a developer's own configuration stays.
# -g1 keeps what a backtrace or a debugger's `bt` needs (function names,
# files and lines); -g's variable and type information cost the cold test
# build 612 s against 528 s with -g1 (README, "Quick start").
configure() {
  [ -f "$BUILD_DIR/build.ninja" ] && [ "$JOB" != test ] && return 0
  local launcher=()
  command -v ccache >/dev/null 2>&1 &&
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    "${launcher[@]}" -DROCKPOINT_WERROR="$WERROR" >/dev/null
}

# build [targets...]: configures, then builds the targets given (default:
# all).
build() {
  configure
  if [ $# -gt 0 ]; then
    cmake --build "$BUILD_DIR" -j "$JOBS" --target "$@"
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

TIMES=()
# timed <label> <command...>: runs the command, then prints its wall time
# (and keeps it for the job's summary).
timed() {
  local label="$1" start=$SECONDS
  shift
  echo "setup: $label" >&2
  "$@"
  TIMES+=("$label: $((SECONDS - start)) s")
  echo "setup: $label took $((SECONDS - start)) s" >&2
}

summary() {
  echo "setup: $JOB passed in $((SECONDS - JOB_START)) s:" >&2
  printf 'setup:   %s\n' "${TIMES[@]}" >&2
}

# binding_deps_start: installs the bindings' registry packages (npm ci from
# the lockfile, pip from requirements-dev.txt) in the background while the
# C++ build runs; binding_deps_wait waits for them and fails with their log
# when they failed.
binding_deps_start() {
  DEPS_LOG="$BUILD_DIR/binding-deps.log"
  mkdir -p "$BUILD_DIR"
  ("$ROOT/bindings/node/test.sh" --deps-only &&
    "$ROOT/bindings/python/venv.sh" --deps-only >/dev/null) \
    >"$DEPS_LOG" 2>&1 &
  DEPS_PID=$!
}

binding_deps_wait() {
  if ! wait "$DEPS_PID"; then
    cat "$DEPS_LOG" >&2
    echo "setup: installing the bindings' packages failed" >&2
    return 1
  fi
}

# logged <log> <label> <command...>: runs the command with its output in
# <log>, then appends its wall time there.
logged() {
  local log="$1" label="$2" start=$SECONDS status=0
  shift 2
  "$@" >"$log" 2>&1 || status=$?
  echo "setup: $label took $((SECONDS - start)) s" >>"$log"
  return "$status"
}

# suites: every suite at once: the Node and the Python suites in the
# background, each into its log in BUILD_DIR, and the C++ suites (ctest) in
# the foreground. Each mostly waits (fsyncs, child processes, TTL clocks),
# so together they take little more than the longest one. The bindings'
# logs are printed when all are done, each ending with its wall time; fails
# if any failed.
suites() {
  local node_log="$BUILD_DIR/node-suites.log"
  local python_log="$BUILD_DIR/python-suites.log"
  local ctest_status=0 node_status=0 python_status=0
  logged "$node_log" "Node suites" "$ROOT/bindings/node/test.sh" &
  local node_pid=$!
  logged "$python_log" "Python suites" "$ROOT/bindings/python/test.sh" &
  local python_pid=$!
  local start=$SECONDS
  echo "setup: C++ suites (ctest -j $JOBS)" >&2
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" ||
    ctest_status=$?
  TIMES+=("C++ suites (ctest -j $JOBS): $((SECONDS - start)) s")
  echo "setup: C++ suites took $((SECONDS - start)) s" >&2
  wait "$node_pid" || node_status=$?
  wait "$python_pid" || python_status=$?
  echo "setup: --- Node suites ($node_log)" >&2
  cat "$node_log" >&2
  echo "setup: --- Python suites ($python_log)" >&2
  cat "$python_log" >&2
  if [ "$ctest_status" -ne 0 ] || [ "$node_status" -ne 0 ] ||
      [ "$python_status" -ne 0 ]; then
    echo "setup: C++ suites exit $ctest_status, Node suites exit" \
      "$node_status, Python suites exit $python_status" >&2
    return 1
  fi
  TIMES+=("$(tail -n 1 "$node_log" | sed 's/^setup: //; s/ took /: /')")
  TIMES+=("$(tail -n 1 "$python_log" | sed 's/^setup: //; s/ took /: /')")
}

JOB_START=$SECONDS
install_packages
case "$JOB" in
  build)
    build
    ;;
  demo)
    # The CLI too: the README's CLI section inspects the demo's store with
    # build/tools/rockpoint.
    build rockpoint_demo rockpoint_cli
    "$BUILD_DIR/tools/rockpoint-demo" "${@:2}"
    ;;
  test)
    binding_deps_start
    timed "build (gcc, $BUILD_DIR)" build
    timed "install into $BUILD_DIR/prefix" cmake --install "$BUILD_DIR" \
      --prefix "$BUILD_DIR/prefix" --component library >/dev/null
    start_postgres
    timed "bindings' packages (npm ci, pip)" binding_deps_wait
    export ROCKPOINT_PREFIX="$BUILD_DIR/prefix"
    # The bindings' tests run this build's CLI on the stores their graphs
    # wrote.
    export ROCKPOINT_CLI="$BUILD_DIR/tools/rockpoint"
    timed "C++, Node and Python suites (at once)" suites
    summary
    ;;
  check)
    start_postgres
    timed "sanitizer matrix" "$ROOT/tools/check_sanitizers.sh"
    summary
    ;;
  *)
    echo "usage: tools/setup.sh [build|demo|test|check]" >&2
    exit 1
    ;;
esac
