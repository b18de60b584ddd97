#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# A private PostgreSQL server for tests: source this file, then
#   pg_start            starts a server in a fresh temporary folder, listening on 127.0.0.1 on a
#                       free port (as the unprivileged user "postgres" when run as root); sets
#                       PG_URL (a database "grove"), PG_DIR, PG_PORT; returns 77 if PostgreSQL is
#                       not installed (1 when GROVE_REQUIRE_PG=1)
#   pg_stop             stops it and removes the folder
#   pg_restart          stops and starts the same server (data kept)
#   pg_sql "SQL"        runs SQL as the superuser on the grove database
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)

pg_as() { # run a command as the server's user
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

pg_start() {
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL server programs not installed"
    [ "${GROVE_REQUIRE_PG:-}" = 1 ] && return 1
    return 77
  fi
  PG_DIR=$(mktemp -d /tmp/grove-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  [ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR"
  PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust --no-sync >/dev/null || return 1
  pg_run
  pg_as "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres grove || return 1
  PG_URL="postgresql://postgres@127.0.0.1:$PG_PORT/grove"
  export PG_URL PG_DIR PG_PORT
}

pg_run() {
  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$PG_DIR -c fsync=on" \
    start >/dev/null
}

pg_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$PG_DIR"
  PG_DIR=""
}

pg_restart() {
  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
  pg_run
}

pg_sql() {
  pg_as "$PG_BIN/../bin/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d grove -tA -c "$1" 2>/dev/null ||
    psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d grove -tA -c "$1"
}
