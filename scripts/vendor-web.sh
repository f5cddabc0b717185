#!/bin/sh
# Copy the browser client's two libraries from node_modules (npm ci, versions pinned in
# package.json / package-lock.json) into src/croupier/web/static/vendor, with their licences.
# The copies are committed: the client has no build step and `make run` needs no Node.js.
# The only change: hooks.module.js imports "./preact.module.js" instead of the bare "preact"
# (an import map would be an inline script, which the page's CSP forbids).
set -eu
cd "$(dirname "$0")/.."
out=src/croupier/web/static/vendor
mkdir -p "$out"
cp node_modules/preact/dist/preact.module.js "$out/preact.module.js"
sed 's#from"preact"#from"./preact.module.js"#' node_modules/preact/hooks/dist/hooks.module.js \
  > "$out/hooks.module.js"
cp node_modules/htm/dist/htm.module.js "$out/htm.module.js"
cp node_modules/preact/LICENSE "$out/LICENSE-preact"
cp node_modules/htm/LICENSE "$out/LICENSE-htm"
sed -i 's#//\# sourceMappingURL=.*##' "$out"/*.module.js
{
  echo "Vendored ES modules (scripts/vendor-web.sh copies them from npm):"
  echo "preact $(node -p 'require("./node_modules/preact/package.json").version') (preact.module.js, hooks.module.js) MIT, LICENSE-preact"
  echo "htm $(node -p 'require("./node_modules/htm/package.json").version') (htm.module.js) Apache-2.0, LICENSE-htm"
} > "$out/VERSIONS.txt"
