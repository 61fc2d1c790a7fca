#!/usr/bin/env bash
# Runs the official MCP conformance suite's server scenarios that apply to a server of someone
# else's tools against `tooldesk mcp serve --http --no-auth` (a fresh TOOLDESK_HOME serving the
# examples). Ends with one line: "mcp conformance (server): N passed, N failed" (scenarios).
set -uo pipefail
cd "$(dirname "$0")/../.."
SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection)

node22=$(test/mcp-conformance/node22.sh) || { echo "mcp conformance (server): 0 passed, ${#SCENARIOS[@]} failed"; exit 1; }
work=$(mktemp -d)
mkdir -p "$work/home" "$work/tools"
cp -r resources/examples/. "$work/tools/"
echo '{"groupDefaults": {"text_stats": true, "script": true, "examples": true, "countdown": true}}' >"$work/home/settings.json"

TOOLDESK_HOME="$work/home" node electron/cli/bin.mjs mcp serve --http --no-auth --port 0 --root "$work/tools" >"$work/out" 2>"$work/err" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 120); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/out" 2>/dev/null | head -1)
  [ -n "$url" ] && grep -q 'authentication is OFF' "$work/out" && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$url" ]; then
  echo "mcp serve did not start:"; cat "$work/out" "$work/err"
  echo "mcp conformance (server): 0 passed, ${#SCENARIOS[@]} failed"
  exit 1
fi

passed=0 failed=0
for scenario in "${SCENARIOS[@]}"; do
  log="$work/$scenario.log"
  timeout 180 "$node22" node_modules/@modelcontextprotocol/conformance/dist/index.js server --url "$url" --scenario "$scenario" >"$log" 2>&1
  status=$?
  summary=$(grep -E '^Passed: [0-9]+/[0-9]+' "$log" | tail -1)
  if [ $status -eq 0 ] && echo "$summary" | grep -qE '^Passed: ([0-9]+)/\1, 0 failed'; then
    passed=$((passed + 1)); echo "PASS $scenario ($summary)"
  else
    failed=$((failed + 1)); echo "FAIL $scenario (exit $status)"; sed 's/^/  /' "$log" | tail -20
  fi
done
echo "mcp conformance (server): $passed passed, $failed failed"
[ $failed -eq 0 ]
