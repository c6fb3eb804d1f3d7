# Starts a throwaway PostgreSQL cluster on 127.0.0.1:54329 and exports TEST_DATABASE_URL.
# Sourced by .ci/run; also usable by hand: `source scripts/ci-postgres.sh && start_postgres`.
PG_BIN=$(dirname "$(command -v pg_ctl 2>/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl | tail -1)")
PG_DIR=${PG_DIR:-/tmp/reis-pg}
PG_PORT=${PG_PORT:-54329}

start_postgres() {
  rm -rf "$PG_DIR" && mkdir -p "$PG_DIR"
  local runas=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd -r -M postgres
    chown -R postgres "$PG_DIR"
    runas=(su postgres -s /bin/sh -c)
  else
    runas=(sh -c)
  fi
  "${runas[@]}" "$PG_BIN/initdb -D $PG_DIR/data -U reis --auth=trust >$PG_DIR/initdb.log 2>&1"
  "${runas[@]}" "$PG_BIN/pg_ctl -D $PG_DIR/data -o '-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off' -l $PG_DIR/pg.log -w start >/dev/null"
  export TEST_DATABASE_URL="postgres://reis@127.0.0.1:$PG_PORT/postgres"
  echo "PostgreSQL on $TEST_DATABASE_URL"
}

stop_postgres() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $PG_DIR/data -m fast stop" >/dev/null 2>&1 || true
  else
    "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  fi
}
