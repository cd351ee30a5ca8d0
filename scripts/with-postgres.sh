#!/usr/bin/env bash
# Run a command against PostgreSQL: scripts/with-postgres.sh COMMAND [ARGS...]
#
# If DATABASE_URL is set (and names PostgreSQL), the command simply runs with it. Otherwise a private,
# throw-away PostgreSQL server is started for the command and stopped afterwards (trap), whatever the
# command's outcome:
#   - the server comes from Debian's packages (apt-get install postgresql when missing; needs root);
#   - a fresh cluster (initdb) in a temporary directory, on a free port on 127.0.0.1 only, with its
#     socket in that directory, so it never touches the machine's own cluster nor another run's;
#   - a role `ttt` (password `ttt`, CREATEDB: pytest-django creates `test_ttt`) owning a database `ttt`;
#   - DATABASE_URL=postgres://ttt:ttt@127.0.0.1:PORT/ttt is exported to the command.
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
#
# PG_DURABLE=0 (the default for tests) turns off fsync and synchronous commit: a test database is thrown
# away anyway. PG_DURABLE=1 keeps PostgreSQL's production defaults (the web benchmark uses that).
# PG_KEEP=1 leaves the data directory behind for inspection.
set -euo pipefail

if [[ $# -eq 0 ]]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi

if [[ -n "${DATABASE_URL:-}" ]]; then
    case "$DATABASE_URL" in
        postgres://*|postgresql://*|pgsql://*) ;;
        *) echo "with-postgres: DATABASE_URL is set but does not name PostgreSQL: $DATABASE_URL" >&2; exit 2 ;;
    esac
    echo "with-postgres: using the given DATABASE_URL" >&2
    exec "$@"
fi

log() { echo "with-postgres: $*" >&2; }

pg_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [[ -n "$dir" && -x "$dir/initdb" ]] && echo "$dir"
}

BINDIR=$(pg_bindir || true)
if [[ -z "$BINDIR" ]]; then
    if [[ $(id -u) -ne 0 ]]; then
        echo "with-postgres: PostgreSQL is not installed; run as root, or: sudo apt-get install -y postgresql" >&2
        exit 1
    fi
    log "installing PostgreSQL from Debian's packages"
    apt-get update -qq
    # Debian's postinst creates and starts a default cluster on 5432; this script does not use it.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    BINDIR=$(pg_bindir)
fi

as_pg() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

DIR=$(mktemp -d /tmp/ttt-postgres.XXXXXX)
chmod 755 "$DIR"
[[ $(id -u) -eq 0 ]] && chown postgres: "$DIR"
DATA="$DIR/data"
PORT=${PG_PORT:-$(free_port)}

cleanup() {
    local status=$?
    as_pg "$BINDIR/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
    if [[ "${PG_KEEP:-0}" == 1 ]]; then
        log "kept $DIR"
    else
        rm -rf "$DIR"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start_us=${EPOCHREALTIME/./}
as_pg "$BINDIR/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >/dev/null
SETTINGS=(-c "listen_addresses=127.0.0.1" -c "port=$PORT" -c "unix_socket_directories=$DIR" -c "max_connections=200")
if [[ "${PG_DURABLE:-0}" != 1 ]]; then
    SETTINGS+=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off)
fi
as_pg "$BINDIR/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 -o "${SETTINGS[*]}" start >/dev/null || {
    cat "$DIR/server.log" >&2
    exit 1
}
as_pg "$BINDIR/psql" -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
    -c "CREATE ROLE ttt LOGIN CREATEDB PASSWORD 'ttt'" \
    -c "CREATE DATABASE ttt OWNER ttt"
export DATABASE_URL="postgres://ttt:ttt@127.0.0.1:$PORT/ttt"
log "PostgreSQL $("$BINDIR/postgres" --version | awk '{print $3}') up on 127.0.0.1:$PORT in $(( (${EPOCHREALTIME/./} - start_us) / 1000 )) ms (data in $DIR)"

# Not exec: the trap must stop the server when the command ends.
"$@"
