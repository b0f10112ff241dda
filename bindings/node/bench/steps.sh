#!/usr/bin/env bash
# Runs bench/steps.mjs with a PostgreSQL server of its own in the no-fsync
# class (tools/pg_server.sh without PG_SERVER_DURABLE: fsync,
# full_page_writes and synchronous_commit off) in a temporary directory,
# stopped at exit. Needs the package's dependencies (npm ci) and its addon
# built (bindings/node/test.sh or npm run build). Arguments go to steps.mjs.
#
#   bindings/node/bench/steps.sh [--rounds=10] [--samples=240] [--quick]
#                                [--workloads=step,chat] [--out=F]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PG_DIR="$(mktemp -d /tmp/rockpoint-steps-pg.XXXXXX)"
stop() {
  "$ROOT/tools/pg_server.sh" stop "$PG_DIR" || true
  rm -rf "$PG_DIR"
}
trap stop EXIT
chmod 755 "$PG_DIR"
url="$("$ROOT/tools/pg_server.sh" start "$PG_DIR")"
cd "$HERE/.."
ROCKPOINT_STEPS_COMMAND="bench/steps.sh $*" node bench/steps.mjs --pg="$url" "$@"
