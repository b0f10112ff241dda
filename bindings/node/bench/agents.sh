#!/usr/bin/env bash
# Runs bench/agents.mjs with a durable PostgreSQL server of its own (fsync,
# full_page_writes and synchronous_commit on; bench/with_pg.sh). Arguments
# go to agents.mjs.
#
#   bindings/node/bench/agents.sh [--agents=1,8,32,128] [--seconds=5] [--out=F]
set -euo pipefail
PG_SERVER_DURABLE=1 exec "$(dirname "${BASH_SOURCE[0]}")/with_pg.sh" \
  agents "bench/agents.sh $*" "$@"
