#!/usr/bin/env bash
# Runs bench/agents.mjs with a durable PostgreSQL server of its own
# (tools/pg_server.sh with PG_SERVER_DURABLE=1: fsync, full_page_writes and
# synchronous_commit on) in a temporary directory, stopped at exit. Needs the
# package's dependencies (npm ci) and its addon built (bindings/node/test.sh
# or npm run build). Arguments go to agents.mjs.
#
#   bindings/node/bench/agents.sh [--agents=1,8,32,128] [--seconds=5] [--out=F]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PG_DIR="$(mktemp -d /tmp/rockpoint-agents-pg.XXXXXX)"
stop() {
  "$ROOT/tools/pg_server.sh" stop "$PG_DIR" || true
  rm -rf "$PG_DIR"
}
trap stop EXIT
chmod 755 "$PG_DIR"
url="$(PG_SERVER_DURABLE=1 "$ROOT/tools/pg_server.sh" start "$PG_DIR")"
cd "$HERE/.."
ROCKPOINT_AGENTS_COMMAND="bench/agents.sh $*" node bench/agents.mjs --pg="$url" "$@"
