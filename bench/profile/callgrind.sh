#!/usr/bin/env bash
# Instructions per call of one rockpoint-bench operation, under callgrind:
# runs rockpoint-profile (bench/profile/profile_main.cpp) with the given
# arguments, collecting its measured loop only, and prints
#   <op> <channels>ch: <instructions per call> Ir/call (<calls> calls)
# Instruction counts repeat on a noisy machine where times do not.
#
#   bench/profile/callgrind.sh --op get-by-id --channels 10
#   bench/profile/callgrind.sh --op put --channels 10 --calls 500
#
# Environment: BUILD_DIR (default: build), KEEP=1 keeps the callgrind output
# file (for callgrind_annotate) and prints its path.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
PROFILE="$BUILD_DIR/bench/rockpoint-profile"
[[ -x "$PROFILE" ]] || {
  echo "callgrind.sh: build $PROFILE first (cmake --build $BUILD_DIR" \
    "--target rockpoint_profile)" >&2
  exit 1
}
command -v valgrind >/dev/null || {
  echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
}

op=get-by-id channels=1 calls=
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
  case "${args[i]}" in
    --op) op="${args[i + 1]}" ;;
    --channels) channels="${args[i + 1]}" ;;
    --calls) calls="${args[i + 1]}" ;;
  esac
done

if [[ -z "$calls" ]]; then
  calls=2000
  args+=(--calls "$calls")
fi

out="$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")"
log="$out.log"
if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect='*RunMeasuredCalls*' "$PROFILE" "${args[@]}" \
    2>"$log"; then
  cat "$log" >&2
  rm -f "$out" "$log"
  exit 1
fi
rm -f "$log"
total="$(grep -m1 '^summary:' "$out" | awk '{print $2}')"
echo "$op ${channels}ch: $((total / calls)) Ir/call ($calls calls)"
if [[ "${KEEP:-0}" == 1 ]]; then
  echo "callgrind output: $out"
else
  rm -f "$out"
fi
