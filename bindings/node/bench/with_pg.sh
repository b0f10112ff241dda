#!/usr/bin/env bash
# Runs bench/SCRIPT.mjs (in bindings/node) with a PostgreSQL server of its
# own, started by tools/pg_server.sh in a temporary directory and stopped at
# exit, passed as --pg=URL before ARGS. COMMAND is what the report prints as
# its command. PG_SERVER_DURABLE=1 (pg_server.sh) makes the server durable.
# Needs the package's dependencies (npm ci) and its addon built
# (bindings/node/test.sh or npm run build).
#
#   bench/with_pg.sh SCRIPT COMMAND [ARGS...]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
script="$1" command="$2"
shift 2
PG_DIR="$(mktemp -d /tmp/rockpoint-bench-pg.XXXXXX)"
stop() {
  "$ROOT/tools/pg_server.sh" stop "$PG_DIR" || true
  rm -rf "$PG_DIR"
}
trap stop EXIT
chmod 755 "$PG_DIR"
url="$("$ROOT/tools/pg_server.sh" start "$PG_DIR")"
cd "$HERE/.."
ROCKPOINT_BENCH_COMMAND="$command" node "bench/$script.mjs" --pg="$url" "$@"
