#!/usr/bin/env bash
# The Python savers benchmark: RockpointSaver (fsync on and off),
# InMemorySaver, SqliteSaver (file, WAL) and PostgresSaver on a real local
# PostgreSQL server, one workload, interleaved in one run (bench.py).
#
# Installs Debian's postgresql if missing (apt-get), creates a cluster in a
# temporary directory as an unprivileged user (nobody, when run as root),
# listening only on a Unix socket, and stops it at exit. The Python
# environment is bindings/python/venv.sh's.
#
# Usage: bench/python/run.sh [--quick] [--out FILE]   (see bench.py --help)
#        bench/python/run.sh agents [--agents 1,8,32,128] [--seconds S]
#                                   [--modes threads,asyncio] [--out FILE]
#        (many agents at once, durability "sync"; see agents.py --help)
#        bench/python/run.sh stores [--quick] [--vectors 10000,100000]
#                                   [--out FILE]
#        (RockpointStore against LangGraph's stores; see stores.py --help)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
if [ -z "$(pg_bin)" ]; then
  echo "bench/python: installing postgresql" >&2
  apt-get install -y -q postgresql >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q postgresql >&2; }
fi
PG_BIN="$(pg_bin)"

# SqliteStore's vector search loads the sqlite-vec extension, which needs a
# Python whose sqlite3 can load extensions. The stores bench uses Debian's
# python3 (its own venv in build/bench-stores) when the default one cannot.
if [ "${1:-}" = stores ] && ! "${PYTHON:-python3}" -c \
    'import sqlite3; sqlite3.connect(":memory:").enable_load_extension' \
    2>/dev/null; then
  echo "bench/python: using /usr/bin/python3 (sqlite3 with extensions)" >&2
  export PYTHON=/usr/bin/python3 BUILD_DIR="$ROOT/build/bench-stores"
fi
PY="$("$ROOT/bindings/python/venv.sh")"

WORK="$(mktemp -d /tmp/rockpoint-pybench.XXXXXX)"
RUN_AS=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$WORK"
  RUN_AS=(runuser -u nobody --)
fi
chmod 755 "$WORK"
PGDATA="$WORK/pgdata"
stop() {
  "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap stop EXIT

"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PGDATA" -U postgres -A trust \
  --no-instructions >/dev/null
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/postgres.log" -w \
  -o "-c listen_addresses='' -k $WORK -c fsync=on" start >/dev/null

SCRIPT="$HERE/bench.py"
if [ "${1:-}" = agents ]; then
  SCRIPT="$HERE/agents.py"
  shift
elif [ "${1:-}" = stores ]; then
  SCRIPT="$HERE/stores.py"
  shift
fi
"$PY" "$SCRIPT" --pg "host=$WORK user=postgres dbname=postgres" "$@"
