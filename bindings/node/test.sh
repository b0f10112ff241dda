#!/usr/bin/env bash
# Tests of the LangGraph.js binding: installs the npm packages when missing
# or stale (npm ci from package-lock.json), builds the addon (scripts/
# build.mjs: node-gyp, linking the rockpoint libraries installed in
# ROCKPOINT_PREFIX when it is set, else those of a library-only CMake build
# in build/rockpoint-lib), then runs every test with vitest: LangGraph's
# validation suite on RocksDB and in-memory stores, the saver's own tests,
# the end-to-end graph tests, the TypeScript type check (tsc --noEmit) and
# the install of the packed tarball in a fresh directory. Ends with one line
# "node: N passed, N failed, N skipped".
#
#   bindings/node/test.sh [vitest args...]
#   bindings/node/test.sh --deps-only      only the npm packages
#
# Environment: JOBS (default 2), NODEDIR (Node headers; default /usr, so no
# header download happens), ROCKPOINT_PREFIX (an installed rockpoint, e.g.
# the test job's build/prefix), ROCKPOINT_SKIP_INSTALL_TEST=1 skips the
# tarball install test, ROCKPOINT_CLI (the rockpoint binary test/cli.test.js
# runs; default build/tools/rockpoint, skipped when missing).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

export JOBS="${JOBS:-2}"
export NODEDIR="${NODEDIR:-/usr}"
# Native npm packages (better-sqlite3, used by the comparison script) build
# against the installed headers instead of downloading them.
export npm_config_nodedir="${npm_config_nodedir:-$NODEDIR}"
cd "$HERE"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "bindings/node: node and npm are required" >&2
  exit 1
fi

# npm ci only when node_modules does not match the lockfile.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] ||
    [ package.json -nt "$stamp" ]; then
  echo "bindings/node: installing npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
[ "${1:-}" = --deps-only ] && exit 0

node scripts/build.mjs

results="$HERE/build/vitest-results.json"
rm -f "$results"
status=0
"$HERE/node_modules/.bin/vitest" run --reporter=default --reporter=json \
  --outputFile.json="$results" "$@" || status=$?

if [ -f "$results" ]; then
  # A crashed test file counts as a failure even if none of its tests did.
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    let failed = r.numFailedTests + (r.numFailedTestSuites ?? 0);
    if (process.argv[2] !== "0" && failed === 0) failed = 1;
    console.log(`node: ${r.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
  ' "$results" "$status"
else
  echo "node: 0 passed, 1 failed"
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
