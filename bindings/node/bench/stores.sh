#!/usr/bin/env bash
# Runs bench/stores.mjs (RockpointStore against InMemoryStore) from
# bindings/node, whatever the current directory; it needs no server. Needs
# the package's dependencies (npm ci) and its addon built (bindings/node/
# test.sh or npm run build). Arguments go to stores.mjs.
#
#   bindings/node/bench/stores.sh [--quick] [--vectors=10000,100000]
#                                 [--out=F]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROCKPOINT_BENCH_COMMAND="bench/stores.sh $*" exec node bench/stores.mjs "$@"
