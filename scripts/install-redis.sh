#!/bin/sh
# Install Debian's redis-server for the cluster (scripts/cluster-local.sh and
# tests/cluster/conftest.py run this when redis-server is missing). Needs root, as in CI;
# Debian/Ubuntu only. The package's system service is not started (policy-rc.d refuses it, and
# it is stopped if the package started it anyway): croupier runs its own redis-server on a free
# port in a directory of its own. Callers take the apt lock: flock /tmp/croupier-apt.lock.
set -eu
if command -v redis-server >/dev/null 2>&1; then
    echo "redis-server is already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-redis.sh: run as root (or install the 'redis-server' package yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
# Exit status 101 from policy-rc.d: "action forbidden", so no service starts at install.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
fi
apt-get install -y --no-install-recommends redis-server
if command -v service >/dev/null 2>&1; then
    service redis-server stop >/dev/null 2>&1 || true
fi
