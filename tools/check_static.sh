#!/usr/bin/env bash
# Static checks of the library with clang 16: builds with -Werror and
# -Wthread-safety (ROCKPOINT_WERROR, ROCKPOINT_THREAD_SAFETY) in a build
# directory of its own, then runs clang-tidy-16 with the repo's .clang-tidy
# (WarningsAsErrors '*') over the library sources. Exits non-zero on any
# warning. Installs nothing: prints what is missing and exits 1.
#
# That one clang build also serves tools/check_sanitizers.sh: it is the
# ASan+UBSan build (ROCKPOINT_BUILD_FUZZ, cmake/RockpointSanitizers.cmake)
# of everything: the libraries, the tests, the tools, the bench and the
# fuzz targets (fuzz/), so one compile gives the thread-safety check, the
# sanitized ctest run and the fuzz smoke run.
#
#   tools/check_static.sh            build, then clang-tidy
#   tools/check_static.sh build      the clang build only
#   tools/check_static.sh tidy       clang-tidy only (after a build)
#
# Environment: STATIC_BUILD_DIR (default: BUILD_DIR, else build, with
# "-clang" appended), JOBS (default: 2).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${STATIC_BUILD_DIR:-${BUILD_DIR:-$ROOT/build}-clang}"
JOBS="${JOBS:-2}"
STEP="${1:-all}"

CLANG=/usr/bin/clang++-16
CLANG_C=/usr/bin/clang-16
TIDY=/usr/bin/clang-tidy-16
# The sources clang-tidy checks: the libraries, with base/, keys/, serde/
# and formats/ that they build on.
SOURCE_DIRS=(base keys serde formats engine runtime)

require_tools() {
  local missing=()
  [[ -x "$CLANG" && -x "$CLANG_C" ]] || missing+=(clang-16)
  [[ -x "$TIDY" ]] || missing+=(clang-tidy-16)
  # The sanitizer and libFuzzer runtimes, and Python for the fuzz seeds.
  compgen -G "/usr/lib/llvm-16/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" \
    >/dev/null || missing+=(libclang-rt-16-dev)
  command -v python3 >/dev/null || missing+=(python3)
  command -v cmake >/dev/null || missing+=(cmake)
  command -v ninja >/dev/null || missing+=(ninja-build)
  if ((${#missing[@]})); then
    echo "check_static: missing packages: ${missing[*]}" >&2
    echo "  install them with: apt-get install ${missing[*]}" >&2
    exit 1
  fi
}

build() {
  local launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -Wno-dev \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$CLANG" -DCMAKE_C_COMPILER="$CLANG_C" \
    "${launcher[@]}" \
    -DROCKPOINT_WERROR=ON -DROCKPOINT_THREAD_SAFETY=ON \
    -DROCKPOINT_BUILD_FUZZ=ON -DROCKPOINT_BUILD_TESTS=ON \
    -DROCKPOINT_BUILD_BENCH=ON -DROCKPOINT_BUILD_TOOLS=ON \
    -DROCKPOINT_INSTALL=OFF >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

tidy() {
  [[ -f "$BUILD_DIR/compile_commands.json" ]] || {
    echo "check_static: no $BUILD_DIR/compile_commands.json; build first" >&2
    exit 1
  }
  local sources=()
  for dir in "${SOURCE_DIRS[@]}"; do
    while IFS= read -r file; do sources+=("$file"); done < <(
      find "$ROOT/$dir" -name '*.cpp' | sort)
  done
  echo "check_static: clang-tidy over ${#sources[@]} library sources"
  # Headers of the repository only (not RocksDB, Boost, msgpack).
  local filter="^$ROOT/(base|engine|formats|include|keys|runtime|serde)/"
  printf '%s\0' "${sources[@]}" |
    xargs -0 -n 1 -P "$JOBS" "$TIDY" -p "$BUILD_DIR" --quiet \
      --header-filter="$filter" 2> >(grep -v "warnings generated" >&2)
}

require_tools
case "$STEP" in
  all)
    build
    tidy
    ;;
  build) build ;;
  tidy) tidy ;;
  *) echo "usage: $0 [all|build|tidy]" >&2; exit 2 ;;
esac
echo "check_static: OK"
