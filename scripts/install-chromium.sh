#!/bin/sh
# Install Debian's chromium for the browser tests (tests/web/conftest.py runs this when
# /usr/bin/chromium is missing). Needs root, as in CI; Debian/Ubuntu only. Playwright drives
# this browser through executable_path: `playwright install` (a download) is never run.
set -eu
if [ -x /usr/bin/chromium ]; then
    echo "chromium is already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-chromium.sh: run as root (or install the 'chromium' package yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium fonts-dejavu-core
