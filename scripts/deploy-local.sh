#!/usr/bin/env bash
# Deploy croupier on this Debian machine from Debian's packages: what compose.yaml describes
# for Docker hosts, without Docker.
#   1. apt-get install postgresql and python3-venv (when missing);
#   2. a PostgreSQL cluster of its own (pg_createcluster) with a role and a database;
#   3. a system user `croupier` that owns the install and runs the server;
#   4. the install by scripts/install.sh (the same as `make` and the Dockerfile) into PREFIX;
#   5. an environment file (mode 600) with every CROUPIER_* setting, a fresh secret key and
#      operator password unless given;
#   6. `croupier serve` against PostgreSQL as that user (a systemd unit where systemd runs,
#      a background process with a pid file otherwise), then waits for /healthz.
# Run as root. Options:
#   --prefix DIR     where it goes (default /opt/croupier)
#   --port N         the server's port (default 8000)
#   --pg-port N      the cluster's port (default 5439)
#   --python PATH    the interpreter of the install (default Debian's /usr/bin/python3, which
#                    the croupier user can run; a python under root's home would not do)
#   --dry-run        print the steps, change nothing
#   --stop           stop the server and the cluster; --purge also drops the cluster
set -euo pipefail

PREFIX=/opt/croupier
PORT=8000
PG_PORT=5439
PYTHON=/usr/bin/python3
DRY=0
STOP=0
PURGE=0
CLUSTER=croupier
SRC="$(cd "$(dirname "$0")/.." && pwd)"

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        --pg-port) PG_PORT="$2"; shift 2 ;;
        --python) PYTHON="$2"; shift 2 ;;
        --dry-run) DRY=1; shift ;;
        --stop) STOP=1; shift ;;
        --purge) STOP=1; PURGE=1; shift ;;
        *) echo "deploy-local.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

step() { echo "==> $*"; }
run() {
    if [ "$DRY" -eq 1 ]; then echo "    $*"; else "$@"; fi
}

if [ "$DRY" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "deploy-local.sh: run as root (it installs packages and creates a user)" >&2
    exit 1
fi

pg_version() { ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1; }

stop_all() {
    if [ -f "$PREFIX/croupier.pid" ]; then
        step "stopping croupier (pid $(cat "$PREFIX/croupier.pid"))"
        run kill "$(cat "$PREFIX/croupier.pid")" || true
        run rm -f "$PREFIX/croupier.pid"
    elif [ -d /run/systemd/system ] && systemctl list-unit-files croupier.service >/dev/null 2>&1; then
        run systemctl stop croupier.service || true
    fi
    local version
    version="$(pg_version)"
    if [ -n "$version" ] && pg_lsclusters -h 2>/dev/null | awk '{print $2}' | grep -qx "$CLUSTER"; then
        if [ "$PURGE" -eq 1 ]; then
            step "dropping the PostgreSQL cluster $version/$CLUSTER"
            run pg_dropcluster --stop "$version" "$CLUSTER"
        else
            step "stopping the PostgreSQL cluster $version/$CLUSTER"
            run pg_ctlcluster "$version" "$CLUSTER" stop || true
        fi
    fi
}

if [ "$STOP" -eq 1 ]; then
    stop_all
    exit 0
fi

step "1. Debian packages: postgresql, python3, python3-venv"
missing=()
[ -n "$(pg_version)" ] || missing+=(postgresql)
[ -x "$PYTHON" ] || missing+=(python3)
"$PYTHON" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    run env DEBIAN_FRONTEND=noninteractive apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "    already installed"
fi
VERSION="$(pg_version)"
VERSION="${VERSION:-16}"

step "2. PostgreSQL cluster $VERSION/$CLUSTER on port $PG_PORT, role and database croupier"
if [ "$DRY" -eq 1 ] || ! pg_lsclusters -h | awk '{print $2}' | grep -qx "$CLUSTER"; then
    run pg_createcluster "$VERSION" "$CLUSTER" --port "$PG_PORT" --start -- --auth-local=peer --auth-host=scram-sha-256
else
    run pg_ctlcluster "$VERSION" "$CLUSTER" start || true
fi
ENV_FILE="$PREFIX/croupier.env"
if [ -f "$ENV_FILE" ]; then
    DB_PASSWORD="$(sed -n 's/^CROUPIER_DB_PASSWORD=//p' "$ENV_FILE")"
else
    DB_PASSWORD="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
fi
psql_admin() { run runuser -u postgres -- psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAt "$@"; }
if [ "$DRY" -eq 1 ]; then
    echo "    CREATE ROLE croupier LOGIN PASSWORD '…'; CREATE DATABASE croupier OWNER croupier"
else
    if [ "$(runuser -u postgres -- psql -p "$PG_PORT" -qAt -c "SELECT 1 FROM pg_roles WHERE rolname = 'croupier'")" != "1" ]; then
        psql_admin -c "CREATE ROLE croupier LOGIN PASSWORD '$DB_PASSWORD'"
    else
        psql_admin -c "ALTER ROLE croupier PASSWORD '$DB_PASSWORD'"
    fi
    if [ "$(runuser -u postgres -- psql -p "$PG_PORT" -qAt -c "SELECT 1 FROM pg_database WHERE datname = 'croupier'")" != "1" ]; then
        psql_admin -c "CREATE DATABASE croupier OWNER croupier"
    fi
fi

step "3. system user croupier"
if [ "$DRY" -eq 1 ] || ! id croupier >/dev/null 2>&1; then
    run useradd --system --home-dir "$PREFIX" --shell /usr/sbin/nologin croupier
else
    echo "    exists"
fi

step "4. install into $PREFIX with scripts/install.sh (as make and the Dockerfile do)"
run mkdir -p "$PREFIX/app"
if [ "$DRY" -eq 1 ]; then
    echo "    copy $SRC to $PREFIX/app (without .git, .venv, caches, databases)"
else
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./artifacts --exclude='*.db' \
        --exclude='*cache*' -cf - . | tar -C "$PREFIX/app" -xf -
fi
run env PYTHON="$PYTHON" VENV="$PREFIX/venv" sh "$PREFIX/app/scripts/install.sh"
run chown -R croupier "$PREFIX"

step "5. settings in $ENV_FILE (mode 600)"
if [ "$DRY" -eq 0 ]; then
    SECRET="$(sed -n 's/^CROUPIER_SECRET_KEY=//p' "$ENV_FILE" 2>/dev/null || true)"
    SECRET="${SECRET:-$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')}"
    OPERATOR_PASSWORD="${CROUPIER_OPERATOR_PASSWORD:-$(sed -n 's/^CROUPIER_OPERATOR_PASSWORD=//p' "$ENV_FILE" 2>/dev/null || true)}"
    OPERATOR_PASSWORD="${OPERATOR_PASSWORD:-$(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')}"
    umask 077
    cat > "$ENV_FILE" <<ENV
CROUPIER_DB_PASSWORD=$DB_PASSWORD
CROUPIER_DATABASE_URL=postgresql+psycopg://croupier:$DB_PASSWORD@127.0.0.1:$PG_PORT/croupier
CROUPIER_SECRET_KEY=$SECRET
CROUPIER_OPERATOR_USERNAME=${CROUPIER_OPERATOR_USERNAME:-operator}
CROUPIER_OPERATOR_PASSWORD=$OPERATOR_PASSWORD
CROUPIER_HOST=127.0.0.1
CROUPIER_PORT=$PORT
CROUPIER_LOG_JSON=true
ENV
    chown croupier "$ENV_FILE"
    chmod 600 "$ENV_FILE"
fi

step "6. croupier serve as user croupier on port $PORT"
if [ "$DRY" -eq 0 ] && [ -d /run/systemd/system ]; then
    cat > /etc/systemd/system/croupier.service <<UNIT
[Unit]
Description=croupier casino server
After=network.target postgresql.service

[Service]
User=croupier
EnvironmentFile=$ENV_FILE
WorkingDirectory=$PREFIX
ExecStart=$PREFIX/venv/bin/croupier serve
Restart=on-failure

[Install]
WantedBy=multi-user.target
UNIT
    systemctl daemon-reload
    systemctl enable --now croupier.service
elif [ "$DRY" -eq 1 ]; then
    echo "    runuser -u croupier -- $PREFIX/venv/bin/croupier serve (settings from $ENV_FILE)"
else
    if [ -f "$PREFIX/croupier.pid" ] && kill -0 "$(cat "$PREFIX/croupier.pid")" 2>/dev/null; then
        kill "$(cat "$PREFIX/croupier.pid")"
        sleep 1
    fi
    # shellcheck disable=SC2016
    runuser -u croupier -- sh -c 'set -a; . "$1"; set +a; cd "$2"; exec "$2/venv/bin/croupier" serve >> "$2/croupier.log" 2>&1' \
        croupier-serve "$ENV_FILE" "$PREFIX" &
    echo $! > "$PREFIX/croupier.pid"
fi

step "waiting for http://127.0.0.1:$PORT/healthz"
if [ "$DRY" -eq 1 ]; then
    echo "    curl -fsS http://127.0.0.1:$PORT/healthz"
    exit 0
fi
for _ in $(seq 1 120); do
    if body="$(curl -fsS "http://127.0.0.1:$PORT/healthz" 2>/dev/null)"; then
        echo "    healthy: $body"
        echo "croupier runs on http://127.0.0.1:$PORT as user croupier; settings in $ENV_FILE"
        exit 0
    fi
    sleep 0.5
done
echo "deploy-local.sh: /healthz did not answer 200 within 60 s; see $PREFIX/croupier.log" >&2
exit 1
