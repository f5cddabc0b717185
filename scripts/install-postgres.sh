#!/bin/sh
# Install a PostgreSQL server for the test suite (tests/server/conftest.py runs this when no
# initdb/pg_ctl is found). Needs root, as in CI; Debian/Ubuntu only.
set -eu
if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "postgresql is already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-postgres.sh: run as root (or install the 'postgresql' package yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends postgresql
