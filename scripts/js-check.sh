#!/bin/sh
# The browser client's JavaScript checks, run by `make test`: ESLint and the Node unit tests
# (tests/web/js). They need Node.js and the npm registry (`npm ci`, versions from
# package-lock.json, which also installs axe-core for the browser tests). Without Node.js
# they are skipped, saying so.
set -eu
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "js-check: SKIPPED -- Node.js/npm not found: ESLint, the JS unit tests and the axe-core audit do not run (install nodejs and npm)"
  exit 0
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npx --no-install eslint src/croupier/web/static tests/web/js eslint.config.js
echo "eslint: clean"
