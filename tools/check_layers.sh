#!/usr/bin/env bash
# The layering rule the build keeps: nothing under tools/, bench/,
# bindings/ or fuzz/ includes a private engine header (a file under
# engine/); they reach stores through include/rockpoint/ (Open, the
# Checkpointer front, maintenance.h) and the shared formats of formats/.
# Prints each offending include and exits 1; exits 0 when there is none.
# ctest runs it as the test "layers".
#
#   tools/check_layers.sh [SOURCE_DIR]   (default: this script's repo)
set -euo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
status=0
while IFS= read -r -d '' file; do
  while IFS= read -r line; do
    header="${line#*\"}"
    header="${header%%\"*}"
    # A test helper of the same name (tests/engine/...) is not the engine's.
    if [[ "$header" == engine/* && -f "$ROOT/$header" ]]; then
      echo "${file#"$ROOT"/}: includes the private engine header $header"
      status=1
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"engine/' "$file" || true)
done < <(find "$ROOT/tools" "$ROOT/bench" "$ROOT/bindings" "$ROOT/fuzz" \
  \( -name node_modules -o -name build -o -name .venv \) -prune -o \
  -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cc' \) -print0)
exit "$status"
