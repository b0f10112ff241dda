#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, kept in one directory DIR
# (e.g. build/pg-test): the cluster in DIR/data, the Unix socket in
# DIR/socket (no TCP address), the server log in DIR/server.log. Made for
# speed, not durability (fsync, full_page_writes and synchronous_commit off),
# unless PG_SERVER_DURABLE=1 (for benchmarks: all three on, as a production
# server has them); trust authentication on the socket only.
#
#   tools/pg_server.sh start DIR         creates the cluster when DIR has
#                                        none, starts the server unless it
#                                        runs, prints its URL; idempotent
#   tools/pg_server.sh stop DIR          stops the server if it runs
#                                        (fast: sessions are ended);
#                                        idempotent
#   tools/pg_server.sh url DIR           prints the URL if the server runs,
#                                        exits 1 otherwise
#   tools/pg_server.sh psql DIR [ARGS]   psql on that URL
#
# The URL, the only thing printed on stdout (callers capture it), is
# postgresql:///rockpoint_test?host=DIR/socket with DIR absolute; start checks
# it answers before printing it. rockpoint_test is a database owned by the
# role of the user running this script; the roles root, postgres and that
# user's are superusers. pg_ctl's, initdb's and psql's messages go to
# stderr, the server's to the log.
#
# The binaries are those of the newest major version under /usr/lib/postgresql
# (Debian's postgresql package). initdb and postgres refuse to run as root,
# so as root the cluster belongs to the postgres system user (every command
# on it runs through runuser): DIR is made traversable to it (chmod o+x, DIR
# only) and each directory above DIR must already be; otherwise the cluster
# belongs to the current user.
#
# The cluster's encoding is UTF8 and its default collation ICU's en-US
# (Debian's PostgreSQL is built with ICU), so that code is tested against a
# non-byte-order collation as users' servers have, whatever locales the
# system has generated. A server killed with
# kill -9 leaves a stale postmaster.pid; start waits for its orphaned
# processes to exit, removes it and starts. DIR must be an
# absolute or relative path of the characters [A-Za-z0-9/._+~@-] (it goes
# into the URL unencoded and into postgresql.conf), short enough for the
# socket path (107 bytes). start and stop on one DIR take a lock (flock on
# DIR/.lock), so concurrent callers wait for each other.
set -euo pipefail

DATABASE=rockpoint_test
PORT=5432
DURABILITY=off
if [ "${PG_SERVER_DURABLE:-0}" = 1 ]; then DURABILITY=on; fi
START_TIMEOUT=60

die() {
  echo "pg_server: $*" >&2
  exit 1
}

usage() {
  echo "usage: tools/pg_server.sh start|stop|url DIR" >&2
  echo "       tools/pg_server.sh psql DIR [psql arguments]" >&2
  exit 2
}

[ $# -ge 2 ] || usage
COMMAND="$1"
case "$COMMAND" in start | stop | url | psql) ;; *) usage ;; esac
DIR="$(realpath -ms -- "$2")"
shift 2
[[ "$DIR" =~ ^[A-Za-z0-9/._+~@-]+$ ]] ||
  die "$DIR: only the characters [A-Za-z0-9/._+~@-] are supported in DIR"
DATA="$DIR/data"
SOCKET_DIR="$DIR/socket"
LOG="$DIR/server.log"
URL="postgresql:///$DATABASE?host=$SOCKET_DIR"
socket_path="$SOCKET_DIR/.s.PGSQL.$PORT"
((${#socket_path} <= 107)) ||
  die "$socket_path is longer than a Unix socket path may be (107 bytes); use a shorter DIR"

# The newest installed major version.
initdb="$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"
[ -x "$initdb" ] ||
  die "no PostgreSQL server under /usr/lib/postgresql: install the postgresql package"
BIN="${initdb%/initdb}"
MAJOR="${BIN#/usr/lib/postgresql/}"
MAJOR="${MAJOR%/bin}"

# as_owner COMMAND...: runs COMMAND as the cluster's owner.
AS_ROOT=false
if [ "$(id -u)" -eq 0 ]; then
  AS_ROOT=true
  OWNER=postgres
  getent passwd postgres >/dev/null ||
    die "no postgres system user (the postgresql package creates it)"
  as_owner() { runuser -u postgres -- "$@"; }
  DATABASE_OWNER=root
else
  OWNER="$(id -un)"
  as_owner() { "$@"; }
  DATABASE_OWNER="$OWNER"
fi
# The owner's commands must be able to resolve their working directory.
cd /

# cluster_process PID: whether PID is a live process of this cluster's
# server: a postgres process (not a zombie) working in DATA, as every
# process of a server does.
cluster_process() {
  local pid="$1" stat
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ] || return 1
  stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat%% *}" != [ZX] ]] || return 1
  [ "/proc/$pid/cwd" -ef "$DATA" ]
}

# The postmaster's PID when a server from DATA runs. A postmaster.pid left by
# a server killed with kill -9 names a process that is gone, a zombie, or
# (PID reused) another program: no server runs then.
server_pid() {
  local pid
  [ -f "$DATA/postmaster.pid" ] || return 1
  pid="$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] && cluster_process "$pid" || return 1
  echo "$pid"
}

answers() {
  [ "$("$BIN/psql" -X -A -t -q -c 'select 1' "$URL" 2>/dev/null)" = 1 ]
}

lock() {
  exec 9>"$DIR/.lock"
  flock -w 300 9 || die "$DIR/.lock: still locked after 300 s"
}

# Clears what a server killed with kill -9 leaves behind, before a start: its
# orphaned processes get up to 30 s to exit (each ends when it notices the
# postmaster is gone), then the lock files go. postgres would refuse to start
# on a lock file whose PID is a zombie or another program's.
clear_stale_server() {
  local waited=0 orphans proc
  while :; do
    orphans=()
    for proc in /proc/[0-9]*; do
      cluster_process "${proc#/proc/}" && orphans+=("${proc#/proc/}")
    done
    ((${#orphans[@]} == 0)) && break
    ((waited < 30)) ||
      die "processes of an earlier server from $DATA still run: ${orphans[*]}"
    sleep 1
    waited=$((waited + 1))
  done
  local file
  for file in "$DATA/postmaster.pid" "$SOCKET_DIR/.s.PGSQL.$PORT.lock"; do
    if [ -f "$file" ]; then
      echo "pg_server: removing the stale $file" >&2
      rm -f "$file"
    fi
  done
}

# Makes DIR usable by the owner: as root, DIR traversable (o+x), and the
# parts the server writes (data, socket, log) owned by postgres. A cluster
# of another user (made with and without root) is refused.
prepare_dir() {
  mkdir -p "$DIR"
  if [ -d "$DATA" ] && [ "$(stat -c %U "$DATA")" != "$OWNER" ]; then
    die "$DATA belongs to $(stat -c %U "$DATA"), not $OWNER: remove $DIR or run as that user"
  fi
  if ! $AS_ROOT; then
    mkdir -p "$SOCKET_DIR"
    touch "$LOG"
    return
  fi
  chmod o+x "$DIR"
  local parents=() path="$DIR"
  while [ "$path" != / ]; do
    path="$(dirname "$path")"
    parents+=("$path")
  done
  local blocked
  blocked="$(runuser -u postgres -- bash -c \
    'for p in "$@"; do [ -x "$p" ] || { echo "$p"; exit; }; done' _ \
    "${parents[@]}" "$DIR")"
  [ -z "$blocked" ] ||
    die "$blocked is not traversable by the postgres user (chmod o+x it, or use a DIR elsewhere)"
  mkdir -p "$SOCKET_DIR" "$DATA"
  touch "$LOG"
  chown postgres: "$SOCKET_DIR" "$DATA" "$LOG"
  chmod 700 "$DATA"
  chmod 755 "$SOCKET_DIR"
}

# Creates the cluster when DATA has none (or half of one, from an interrupted
# initdb, or one of another major version: it is disposable).
init_cluster() {
  if [ -f "$DATA/PG_VERSION" ]; then
    [ "$(cat "$DATA/PG_VERSION")" = "$MAJOR" ] && return 0
    echo "pg_server: $DATA is a PostgreSQL $(cat "$DATA/PG_VERSION") cluster; recreating it for $MAJOR" >&2
  fi
  if [ -d "$DATA" ]; then
    find "$DATA" -mindepth 1 -delete
  fi
  echo "pg_server: creating a PostgreSQL $MAJOR cluster in $DATA (ICU en-US)" >&2
  as_owner "$BIN/initdb" -D "$DATA" --encoding=UTF8 --locale=C.UTF-8 \
    --locale-provider=icu --icu-locale=en-US \
    --auth-local=trust --auth-host=reject --no-sync --no-instructions \
    >"$LOG" 2>&1 || {
    cat "$LOG" >&2
    die "initdb failed"
  }
  echo "include = 'rockpoint_test.conf'" | as_owner tee -a "$DATA/postgresql.conf" >/dev/null
}

# The settings, rewritten at every start (so a moved DIR or a changed
# setting takes effect).
write_settings() {
  as_owner tee "$DATA/rockpoint_test.conf" >/dev/null <<EOF
# Written by tools/pg_server.sh at every start.
listen_addresses = ''
port = $PORT
unix_socket_directories = '$SOCKET_DIR'
max_connections = 200
fsync = $DURABILITY
full_page_writes = $DURABILITY
synchronous_commit = $DURABILITY
EOF
}

start_server() {
  clear_stale_server
  # 9>&-: the postmaster must not inherit the lock.
  if ! as_owner "$BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t "$START_TIMEOUT" \
      >&2 9>&-; then
    tail -n 30 "$LOG" >&2
    die "the server did not start; log: $LOG"
  fi
}

# The roles and the database, when missing.
create_database() {
  "$BIN/psql" -X -q -v ON_ERROR_STOP=1 \
    "host=$SOCKET_DIR port=$PORT dbname=postgres user=$OWNER" >&2 <<EOF
SELECT format('CREATE ROLE %I SUPERUSER LOGIN', name)
  FROM (VALUES ('root'), ('postgres'), ('$DATABASE_OWNER')) AS wanted (name)
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = name)
 GROUP BY name \gexec
SELECT format('CREATE DATABASE %I OWNER %I', '$DATABASE', '$DATABASE_OWNER')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DATABASE') \gexec
EOF
}

start() {
  prepare_dir
  lock
  if ! server_pid >/dev/null; then
    init_cluster
    write_settings
    start_server
  fi
  create_database
  answers || die "a server runs from $DATA but $URL does not answer; log: $LOG"
  echo "$URL"
}

stop() {
  [ -d "$DIR" ] || return 0
  lock
  server_pid >/dev/null || return 0
  as_owner "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t "$START_TIMEOUT" >&2 9>&- ||
    ! server_pid >/dev/null || die "the server did not stop; log: $LOG"
}

case "$COMMAND" in
  start) start ;;
  stop) stop ;;
  url)
    server_pid >/dev/null && answers || exit 1
    echo "$URL"
    ;;
  psql)
    server_pid >/dev/null && answers || die "no server runs from $DIR"
    exec "$BIN/psql" -X -d "$URL" "$@"
    ;;
esac
