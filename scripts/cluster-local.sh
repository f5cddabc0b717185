#!/usr/bin/env bash
# A whole croupier cluster on this machine from Debian's packages (issue 18): what compose.yaml
# describes for Docker hosts, without Docker, in one state directory.
#   1. a PostgreSQL cluster of its own (initdb/pg_ctl, as the postgres user when run as root)
#      with a role and a database `croupier`;
#   2. redis-server on a free port (no persistence: --save '' --appendonly no), its default
#      user off and an ACL user `croupier` with a fresh password (in a configuration file of
#      mode 600, never on a command line), allowed the cluster's keys and channels only;
#   3. K `croupier serve` processes (default 3) sharing both, one fresh secret key, node ids
#      node1..nodeK; the first starts alone (it migrates the schema and seeds the tables), then
#      the others;
#   4. HAProxy in front on one port (deploy/haproxy.cfg, the file compose.yaml's haproxy uses,
#      plus a backend file listing the processes), once every /healthz answers 200.
# Then it prints the cluster's description as shell lines and writes them to DIR/cluster.env:
#   CLUSTER_URL (HAProxy), CLUSTER_NODES, CLUSTER_PIDS, CLUSTER_NODE_IDS (same order),
#   DATABASE_URL, REDIS_URL, POSTGRES_PID, REDIS_PID, HAPROXY_PID, ...
# (CLUSTER_SECRET_KEY, REDIS_PASSWORD and CLUSTER_BUS_KEY are written to the file only,
# mode 600; REDIS_USERNAME is `croupier`.)
#
#   cluster-local.sh start [--processes K] [--dir DIR] [--port P] [--pg-port N]
#                          [--python PATH] [--no-fsync]
#   cluster-local.sh stop --dir DIR
#
# start: --dir is where the state, data and logs (DIR/logs/) go (default: a new directory
# under /tmp); --port is HAProxy's port (default: a free one); --python is the interpreter that
# has croupier installed (default: the checkout's .venv/bin/python; it runs
# `PYTHON -m croupier.cli serve`); --no-fsync runs PostgreSQL without fsync (tests only).
# Every CROUPIER_* variable of the caller's environment reaches the croupier processes, except
# the ones the cluster sets per process: CROUPIER_DATABASE_URL, CROUPIER_REDIS_URL,
# CROUPIER_NODE_ID, CROUPIER_HOST, CROUPIER_PORT, CROUPIER_REDIS_USERNAME and
# CROUPIER_REDIS_PASSWORD. CROUPIER_SECRET_KEY and CROUPIER_BUS_KEY (the key that seals the
# bus's messages) are the caller's when set, else fresh ones; CROUPIER_TRUSTED_PROXIES defaults to ["127.0.0.1"] (HAProxy's address, so
# the login throttle sees each client's own address in X-Forwarded-For).
# Missing packages (postgresql, redis-server, haproxy) are installed with scripts/install-*.sh
# when run as root, under the apt lock the test suite takes (flock /tmp/croupier-apt.lock).
#
# stop: stops the croupier processes (SIGTERM, SIGKILL after 10 s), then HAProxy, Redis and
# PostgreSQL, and removes PostgreSQL's data. Running it twice, or after a failed start, is fine.
set -eEuo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
APT_LOCK=/tmp/croupier-apt.lock

die() { echo "cluster-local.sh: $*" >&2; exit 1; }
usage() {
    sed -n '/^#   cluster-local.sh start/,/^#   cluster-local.sh stop/p' "$0" | sed 's/^# *//' >&2
    exit 2
}

# ---------------------------------------------------------------- stop

# alive PID WORD: the process PID runs and its command line contains WORD (a pid reused by
# another program is never killed).
alive() {
    [ -n "$1" ] && [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' < "/proc/$1/cmdline" | grep -q -- "$2"
}

# stop_pids WORD PID...: SIGTERM, then SIGKILL whatever is still running after 10 s.
stop_pids() {
    local word="$1" pid left i
    shift
    for pid in "$@"; do
        if alive "$pid" "$word"; then kill -TERM "$pid" 2>/dev/null || true; fi
    done
    for i in $(seq 1 100); do
        left=0
        for pid in "$@"; do
            if alive "$pid" "$word"; then left=1; fi
        done
        [ "$left" -eq 0 ] && return 0
        [ "$i" -eq 100 ] || sleep 0.1
    done
    for pid in "$@"; do
        if alive "$pid" "$word"; then kill -KILL "$pid" 2>/dev/null || true; fi
    done
    sleep 0.2
}

cmd_stop() {
    local dir="$1"
    [ -n "$dir" ] || die "stop needs --dir DIR"
    local state="$dir/state.env"
    if [ ! -f "$state" ]; then
        echo "cluster-local.sh: nothing to stop in $dir (no state.env)"
        return 0
    fi
    local CLUSTER_PIDS="" HAPROXY_PID="" REDIS_PID="" POSTGRES_PID="" PG_DATA="" PG_BASE=""
    local PG_BIN="" PG_USER=""
    # shellcheck disable=SC1090
    . "$state"
    local pids=()
    IFS=, read -r -a pids <<< "$CLUSTER_PIDS"
    [ ${#pids[@]} -eq 0 ] || stop_pids croupier "${pids[@]}"
    stop_pids haproxy "$HAPROXY_PID"
    stop_pids redis-server "$REDIS_PID"
    if alive "$POSTGRES_PID" postgres && [ -n "$PG_BIN" ] && [ -d "$PG_DATA" ]; then
        as_pg "$PG_USER" "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 20 stop >/dev/null 2>&1 || true
    fi
    stop_pids postgres "$POSTGRES_PID"
    if [ -n "$PG_BASE" ] && [ -d "$PG_BASE" ]; then
        rm -rf "$PG_BASE"
    fi
    rm -f "$dir/redis.pid" "$dir/haproxy.pid" "$dir/cluster.env" "$state"
    echo "cluster-local.sh: stopped the cluster in $dir"
}

# ---------------------------------------------------------------- start helpers

# as_pg USER CMD...: run CMD as USER (postgres refuses to run as root) or as ourselves.
as_pg() {
    local user="$1"
    shift
    if [ -n "$user" ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

pg_bindir() {
    local candidate
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
        if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
            echo "$candidate"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
        return 0
    fi
    return 1
}

haproxy_bin() {
    command -v haproxy 2>/dev/null || { [ -x /usr/sbin/haproxy ] && echo /usr/sbin/haproxy; }
}

# ensure NAME FOUND-CHECK...: install package NAME with scripts/install-NAME.sh when missing.
ensure() {
    local name="$1"
    shift
    if "$@" >/dev/null 2>&1; then return 0; fi
    if [ "$(id -u)" -ne 0 ]; then
        die "$name is not installed: run scripts/install-$name.sh as root (or install it yourself)"
    fi
    echo "==> installing $name (scripts/install-$name.sh)"
    flock "$APT_LOCK" sh "$REPO/scripts/install-$name.sh"
    "$@" >/dev/null 2>&1 || die "$name is still missing after scripts/install-$name.sh"
}

# free_ports N: N distinct free TCP ports on 127.0.0.1, space-separated.
free_ports() {
    "$PY" - "$1" <<'PYTHON'
import socket
import sys

socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for sock in socks:
    sock.bind(("127.0.0.1", 0))
print(" ".join(str(sock.getsockname()[1]) for sock in socks))
for sock in socks:
    sock.close()
PYTHON
}

# http_ok URL: the URL answers 200.
http_ok() {
    "$PY" - "$1" <<'PYTHON' 2>/dev/null
import sys
import urllib.request

with urllib.request.urlopen(sys.argv[1], timeout=2) as response:
    sys.exit(0 if response.status == 200 else 1)
PYTHON
}

# wait_for WHAT SECONDS PID WORD CHECK...: until CHECK succeeds; fails early when PID dies.
wait_for() {
    local what="$1" seconds="$2" pid="$3" word="$4" i
    shift 4
    for i in $(seq 1 $((seconds * 5))); do
        if "$@"; then return 0; fi
        if [ -n "$pid" ] && ! alive "$pid" "$word"; then
            echo "cluster-local.sh: $what exited before it was ready" >&2
            return 1
        fi
        [ "$i" -eq $((seconds * 5)) ] || sleep 0.2
    done
    echo "cluster-local.sh: $what was not ready within ${seconds} s" >&2
    return 1
}

# record KEY VALUE: append to the state file that stop reads (written as things start, so a
# failed start can be cleaned up).
record() {
    case "$2" in
        *[[:space:]\'\"\$\`\\]*) die "unsafe value for $1: $2" ;;
    esac
    echo "$1=$2" >> "$DIR/state.env"
}

fail_start() {
    local code=$?
    trap - ERR
    echo "cluster-local.sh: start failed; logs in $DIR/logs; stopping what started" >&2
    local log
    for log in "$DIR"/logs/*.log; do
        [ -s "$log" ] || continue
        echo "---- tail of $log" >&2
        tail -n 15 "$log" >&2
    done
    cmd_stop "$DIR" >&2 || true
    exit "$code"
}

start_postgres() {
    local bindir="$1" port="$2" fsync="$3" password="$4"
    PG_USER=""
    if [ "$(id -u)" -eq 0 ]; then
        # Root: postgres runs as the postgres user, in a directory of its own that user can
        # reach (DIR may sit under a directory only root may enter, like pytest's tmp_path).
        PG_USER=postgres
        PG_BASE="$(mktemp -d /tmp/croupier-cluster-pg.XXXXXX)"
        chown postgres: "$PG_BASE"
    else
        PG_BASE="$DIR/pg"
        mkdir -p "$PG_BASE"
    fi
    local data="$PG_BASE/data" sockets="$PG_BASE/run"
    as_pg "$PG_USER" mkdir -p "$sockets"
    record PG_BASE "$PG_BASE"
    record PG_DATA "$data"
    record PG_BIN "$bindir"
    record PG_USER "$PG_USER"
    record PG_SOCKET_DIR "$sockets"
    as_pg "$PG_USER" "$bindir/initdb" -D "$data" -U postgres -E UTF8 --no-sync \
        --auth-local=trust --auth-host=scram-sha-256 > "$DIR/logs/initdb.log" 2>&1
    local options="-p $port -k $sockets -c listen_addresses=127.0.0.1 -c max_connections=300"
    if [ "$fsync" = off ]; then
        options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    as_pg "$PG_USER" "$bindir/pg_ctl" -D "$data" -o "$options" -l "$PG_BASE/postgres.log" \
        -w -t 60 start > /dev/null
    ln -sf "$PG_BASE/postgres.log" "$DIR/logs/postgres.log"
    POSTGRES_PID="$(head -n 1 "$data/postmaster.pid")"
    record POSTGRES_PID "$POSTGRES_PID"
    local psql=("$bindir/psql" -h "$sockets" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt)
    as_pg "$PG_USER" "${psql[@]}" -c "CREATE ROLE croupier LOGIN PASSWORD '$password'" > /dev/null
    as_pg "$PG_USER" "${psql[@]}" -c "CREATE DATABASE croupier OWNER croupier" > /dev/null
}

start_redis() {
    local port="$1" password="$2"
    mkdir -p "$DIR/redis"
    local conf="$DIR/redis/redis.conf"
    (
        umask 077
        # The bus is the cluster's alone (issue 27): nobody without the password gets in,
        # and the cluster's user reaches only the cluster's keys and channels.
        cat > "$conf" <<REDIS
bind 127.0.0.1
port $port
dir $DIR/redis
save ""
appendonly no
daemonize yes
pidfile $DIR/redis.pid
logfile $DIR/logs/redis.log
user default off
user croupier on >$password ~croupier:* &croupier:* +@all -@dangerous
REDIS
    )
    redis-server "$conf" > /dev/null
    local i
    for i in $(seq 1 50); do
        [ -s "$DIR/redis.pid" ] && break
        sleep 0.1
    done
    [ -s "$DIR/redis.pid" ] || { echo "cluster-local.sh: redis-server wrote no pid file" >&2; return 1; }
    REDIS_PID="$(cat "$DIR/redis.pid")"
    record REDIS_PID "$REDIS_PID"
    wait_for "redis-server" 20 "$REDIS_PID" redis-server redis_ping "$port"
}

redis_ping() {
    # The password from the environment, never on a command line.
    REDIS_PASSWORD="$REDIS_PASSWORD" "$PY" -c 'import os, redis, sys
redis.Redis(port=int(sys.argv[1]), username="croupier", password=os.environ["REDIS_PASSWORD"]).ping()' \
        "$1" 2>/dev/null
}

# start_node I PORT: one `croupier serve` in the background; its pid in NODE_PID.
start_node() {
    local i="$1" port="$2"
    CROUPIER_DATABASE_URL="$DATABASE_URL" setsid "$PY" -m croupier.cli serve \
        --redis "$REDIS_URL" --node "node$i" --host 127.0.0.1 --port "$port" \
        >> "$DIR/logs/node$i.log" 2>&1 < /dev/null &
    NODE_PID=$!
}

cmd_start() {
    [ -n "$PY" ] || PY="$REPO/.venv/bin/python"
    [ -x "$PY" ] || die "no Python at $PY: run make (or pass --python PATH)"
    "$PY" -c 'import croupier.cli' 2>/dev/null || die "$PY cannot import croupier.cli"
    [[ "$PROCESSES" =~ ^[1-9][0-9]*$ ]] || die "--processes must be a positive integer: $PROCESSES"
    if [ -z "$DIR" ]; then
        DIR="$(mktemp -d /tmp/croupier-cluster.XXXXXX)"
    fi
    case "$DIR" in
        *[[:space:]\'\"\$\`\\]*) die "--dir must not contain spaces, quotes or \$: $DIR" ;;
    esac
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    if [ -f "$DIR/state.env" ]; then
        die "$DIR already holds a cluster (state.env): run cluster-local.sh stop --dir $DIR first"
    fi
    local bindir hap
    ensure postgres pg_bindir
    bindir="$(pg_bindir)"
    ensure redis command -v redis-server
    ensure haproxy haproxy_bin
    hap="$(haproxy_bin)"

    mkdir -p "$DIR/logs"
    : > "$DIR/state.env"
    chmod 600 "$DIR/state.env"
    trap fail_start ERR
    local ports
    read -r -a ports <<< "$(free_ports $((PROCESSES + 3)))"
    local pg_port="${PG_PORT:-${ports[0]}}" redis_port="${ports[1]}" lb_port="${LB_PORT:-${ports[2]}}"
    local node_ports=("${ports[@]:3}")

    local password
    password="$("$PY" -c 'import secrets; print(secrets.token_hex(16))')"
    echo "==> PostgreSQL on 127.0.0.1:$pg_port" >&2
    start_postgres "$bindir" "$pg_port" "$FSYNC" "$password"
    DATABASE_URL="postgresql+psycopg://croupier:$password@127.0.0.1:$pg_port/croupier"
    echo "==> Redis on 127.0.0.1:$redis_port" >&2
    REDIS_PASSWORD="$("$PY" -c 'import secrets; print(secrets.token_hex(24))')"
    start_redis "$redis_port" "$REDIS_PASSWORD"
    REDIS_URL="redis://127.0.0.1:$redis_port/0"

    # The environment every croupier process inherits: the caller's CROUPIER_* settings and
    # the cluster's (the per-process ones are flags of start_node).
    unset CROUPIER_DATABASE_URL CROUPIER_REDIS_URL CROUPIER_NODE_ID CROUPIER_HOST CROUPIER_PORT
    if [ -z "${CROUPIER_SECRET_KEY:-}" ]; then
        CROUPIER_SECRET_KEY="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(32))')"
    fi
    if [ -z "${CROUPIER_BUS_KEY:-}" ]; then
        CROUPIER_BUS_KEY="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(32))')"
    fi
    export CROUPIER_SECRET_KEY CROUPIER_BUS_KEY
    export CROUPIER_REDIS_USERNAME=croupier CROUPIER_REDIS_PASSWORD="$REDIS_PASSWORD"
    export CROUPIER_TRUSTED_PROXIES="${CROUPIER_TRUSTED_PROXIES:-[\"127.0.0.1\"]}"

    local pids=() nodes=() ids=() i
    echo "==> $PROCESSES croupier processes on ports ${node_ports[*]}" >&2
    for i in $(seq 1 "$PROCESSES"); do
        start_node "$i" "${node_ports[$((i - 1))]}"
        pids+=("$NODE_PID")
        nodes+=("http://127.0.0.1:${node_ports[$((i - 1))]}")
        ids+=("node$i")
        record CLUSTER_PIDS "$(IFS=,; echo "${pids[*]}")"
        # The first one alone: it migrates the schema and seeds the tables from the TOML.
        if [ "$i" -eq 1 ]; then
            wait_for "node1 (${nodes[0]})" 120 "$NODE_PID" croupier http_ok "${nodes[0]}/healthz"
        fi
    done
    for i in $(seq 2 "$PROCESSES"); do
        wait_for "node$i (${nodes[$((i - 1))]})" 120 "${pids[$((i - 1))]}" croupier \
            http_ok "${nodes[$((i - 1))]}/healthz"
    done

    echo "==> HAProxy on 127.0.0.1:$lb_port" >&2
    {
        echo "# written by scripts/cluster-local.sh: the croupier processes behind HAProxy"
        echo "backend croupier from croupier"
        for i in $(seq 1 "$PROCESSES"); do
            echo "    server node$i 127.0.0.1:${node_ports[$((i - 1))]}"
        done
    } > "$DIR/haproxy-backend.cfg"
    LB_BIND="127.0.0.1:$lb_port" setsid "$hap" -f "$REPO/deploy/haproxy.cfg" \
        -f "$DIR/haproxy-backend.cfg" >> "$DIR/logs/haproxy.log" 2>&1 < /dev/null &
    HAPROXY_PID=$!
    echo "$HAPROXY_PID" > "$DIR/haproxy.pid"
    record HAPROXY_PID "$HAPROXY_PID"
    wait_for "haproxy" 30 "$HAPROXY_PID" haproxy http_ok "http://127.0.0.1:$lb_port/healthz"
    trap - ERR

    local env_file="$DIR/cluster.env"
    (
        umask 077
        {
            echo "CLUSTER_DIR=$DIR"
            echo "CLUSTER_URL=http://127.0.0.1:$lb_port"
            echo "CLUSTER_NODES=$(IFS=,; echo "${nodes[*]}")"
            echo "CLUSTER_PIDS=$(IFS=,; echo "${pids[*]}")"
            echo "CLUSTER_NODE_IDS=$(IFS=,; echo "${ids[*]}")"
            echo "DATABASE_URL=$DATABASE_URL"
            echo "REDIS_URL=$REDIS_URL"
            echo "REDIS_USERNAME=croupier"
            echo "POSTGRES_PID=$POSTGRES_PID"
            echo "REDIS_PID=$REDIS_PID"
            echo "HAPROXY_PID=$HAPROXY_PID"
            echo "PG_SOCKET_DIR=$PG_BASE/run"
        } > "$env_file"
    )
    cat "$env_file"
    {
        echo "CLUSTER_SECRET_KEY=$CROUPIER_SECRET_KEY"
        echo "CLUSTER_BUS_KEY=$CROUPIER_BUS_KEY"
        echo "REDIS_PASSWORD=$REDIS_PASSWORD"
    } >> "$env_file"
    echo "cluster-local.sh: up; stop it with: scripts/cluster-local.sh stop --dir $DIR" >&2
}

# ---------------------------------------------------------------- arguments

[ $# -ge 1 ] || usage
COMMAND="$1"
shift
PROCESSES=3
DIR=""
LB_PORT=""
PG_PORT=""
PY=""
FSYNC=on
while [ $# -gt 0 ]; do
    case "$1" in
        --processes) PROCESSES="${2:?--processes needs a number}"; shift 2 ;;
        --dir) DIR="${2:?--dir needs a directory}"; shift 2 ;;
        --port) LB_PORT="${2:?--port needs a number}"; shift 2 ;;
        --pg-port) PG_PORT="${2:?--pg-port needs a number}"; shift 2 ;;
        --python) PY="${2:?--python needs a path}"; shift 2 ;;
        --no-fsync) FSYNC=off; shift ;;
        *) echo "cluster-local.sh: unknown option $1" >&2; usage ;;
    esac
done
for value in "$LB_PORT" "$PG_PORT"; do
    [ -z "$value" ] || [[ "$value" =~ ^[0-9]+$ ]] || die "a port must be a number: $value"
done

case "$COMMAND" in
    start) cmd_start ;;
    stop) cmd_stop "$DIR" ;;
    *) echo "cluster-local.sh: unknown command $COMMAND (start or stop)" >&2; usage ;;
esac
