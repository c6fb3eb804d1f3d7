# A throwaway PostgreSQL cluster for the server suite's PostgreSQL run, in a fresh temporary folder on a free
# loopback port (two runs on one machine never collide), removed when stopped.
#   sourced (.ci/run):  source scripts/ci-postgres.sh && start_postgres; … ; stop_postgres
#   run (npm test):     bash scripts/ci-postgres.sh start   → prints TEST_DATABASE_URL=… and PG_DIR=…
#                       bash scripts/ci-postgres.sh stop DIR
PG_BIN=$(dirname "$(command -v pg_ctl 2>/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | tail -1)")

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"
  fi
}

start_postgres() {
  PG_DIR=${PG_DIR:-$(mktemp -d /tmp/reis-pg.XXXXXX)}
  PG_PORT=${PG_PORT:-$(free_port)}
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd -r -M postgres
    chown -R postgres "$PG_DIR"
  fi
  as_postgres "$PG_BIN/initdb -D $PG_DIR/data -U reis --auth=trust >$PG_DIR/initdb.log 2>&1"
  as_postgres "$PG_BIN/pg_ctl -D $PG_DIR/data -o '-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off' -l $PG_DIR/pg.log -w start >/dev/null"
  export PG_DIR
  export TEST_DATABASE_URL="postgres://reis@127.0.0.1:$PG_PORT/postgres"
  echo "PostgreSQL on $TEST_DATABASE_URL (data in $PG_DIR)" >&2
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  as_postgres "$PG_BIN/pg_ctl -D $PG_DIR/data -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    start)
      start_postgres
      echo "TEST_DATABASE_URL=$TEST_DATABASE_URL"
      echo "PG_DIR=$PG_DIR"
      ;;
    stop)
      PG_DIR=${2:?which folder}
      stop_postgres
      ;;
    *)
      echo "usage: bash scripts/ci-postgres.sh start | stop DIR" >&2
      exit 2
      ;;
  esac
fi
