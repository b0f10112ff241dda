#!/usr/bin/env bash
# Runs bench/steps.mjs with a PostgreSQL server of its own in the no-fsync
# class (fsync, full_page_writes and synchronous_commit off;
# bench/with_pg.sh). Arguments go to steps.mjs.
#
#   bindings/node/bench/steps.sh [--rounds=10] [--samples=240] [--quick]
#                                [--workloads=step,chat] [--out=F]
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/with_pg.sh" steps "bench/steps.sh $*" "$@"
