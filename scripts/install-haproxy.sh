#!/bin/sh
# Install Debian's haproxy, the load balancer in front of the cluster (scripts/cluster-local.sh
# runs this when haproxy is missing). Needs root, as in CI; Debian/Ubuntu only. The package's
# system service is not started (policy-rc.d refuses it, and it is stopped if the package
# started it anyway): cluster-local.sh runs its own haproxy with deploy/haproxy.cfg.
# Callers take the apt lock: flock /tmp/croupier-apt.lock.
set -eu
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
    echo "haproxy is already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-haproxy.sh: run as root (or install the 'haproxy' package yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
fi
apt-get install -y --no-install-recommends haproxy
if command -v service >/dev/null 2>&1; then
    service haproxy stop >/dev/null 2>&1 || true
fi
