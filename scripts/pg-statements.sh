#!/usr/bin/env bash
# A private PostgreSQL with pg_stat_statements, for profiling a benchmark's statements (docs/performance.md,
# "Statements"). The shared server on 5432 does not preload the extension and must not be restarted, so this
# one runs beside it on its own port, as the postgres user, with autovacuum off like the shared one.
#
#   bash scripts/pg-statements.sh start            # initdb (once) and start on 127.0.0.1:${PORT:-5433}
#   DATABASE_URL=postgres://postgres@127.0.0.1:5433/qc_stmt bun bench/inventory.ts
#   bash scripts/pg-statements.sh top [N] [db]     # the N statements (10) of db (qc_stmt) by total time
#   bash scripts/pg-statements.sh reset            # forget what was counted
#   bash scripts/pg-statements.sh stop
set -euo pipefail

PORT=${PORT:-5433}
DATA=${PGSTAT_DATA:-/tmp/qc-pg-statements}
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
psql_() { psql -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else bash -c "$1"; fi; }

case "${1:-}" in
  start)
    if [ ! -f "$DATA/PG_VERSION" ]; then
      mkdir -p "$DATA" && { [ "$(id -u)" != 0 ] || chown postgres "$DATA"; }
      as_postgres "$BIN/initdb -D $DATA -A trust >/dev/null"
    fi
    as_postgres "$BIN/pg_ctl -D $DATA -l $DATA/log -w -o '-p $PORT -k /tmp -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c autovacuum=off' start"
    psql_ -qc 'create extension if not exists pg_stat_statements'
    psql_ -qAt -c "select 1 from pg_database where datname = '${2:-qc_stmt}'" | grep -q 1 || psql_ -qc "create database ${2:-qc_stmt}"
    ;;
  top)
    psql_ -P pager=off -c "
      select calls, round(total_exec_time::numeric) as total_ms, round(mean_exec_time::numeric, 3) as mean_ms,
        round((100 * total_exec_time / sum(total_exec_time) over ())::numeric, 1) as pct,
        left(regexp_replace(query, '\s+', ' ', 'g'), 120) as statement
      from pg_stat_statements where dbid = (select oid from pg_database where datname = '${3:-qc_stmt}')
      order by total_exec_time desc limit ${2:-10}"
    ;;
  reset) psql_ -qAt -c 'select pg_stat_statements_reset()' >/dev/null ;;
  stop) as_postgres "$BIN/pg_ctl -D $DATA -m fast stop" ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac
