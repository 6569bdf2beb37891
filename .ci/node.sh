#!/usr/bin/env bash
# Node.js for CI from the npm registry only (the `node` package and its per-platform binary package):
# the release line in package.json "engines" (22, the newest LTS with uWebSockets.js binaries).
#   . .ci/node.sh               put it first on PATH of the calling shell
#   .ci/node.sh npm test        run one command with it
# Needs any node/npm already on PATH to fetch it; the install is kept in .ci/.node/ between runs.
NODE_MAJOR=22
NODE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/.node"

if [ "$("$NODE_HOME/node_modules/node/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$NODE_MAJOR" ]; then
  echo "installing Node.js $NODE_MAJOR from the npm registry"
  rm -rf "$NODE_HOME"
  mkdir -p "$NODE_HOME"
  (cd "$NODE_HOME" && echo '{"name": "ci-node", "private": true}' >package.json && npm install --no-audit --no-fund --no-save "node@$NODE_MAJOR" >/dev/null) || {
    echo "could not install Node.js $NODE_MAJOR" >&2
    return 1 2>/dev/null || exit 1
  }
fi
export PATH="$NODE_HOME/node_modules/node/bin:$PATH"
echo "using Node.js $(node --version)"

# Executed rather than sourced: run the given command with it.
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ $# -gt 0 ]; then exec "$@"; fi
