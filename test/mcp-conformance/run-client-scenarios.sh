#!/usr/bin/env bash
# Runs every client scenario of the conformance suite against client.sh (3 at a time), prints each
# outcome and "N/M scenarios passed". Exit status: how many REQUIRED scenarios failed (initialize,
# tools_call, elicitation-sep1034-client-defaults, sse-retry, auth/*), so CI can count them.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
node22="$("$here/node22.sh")" || { echo "conformance: could not get Node 22"; exit 1; }
suite="$root/node_modules/@modelcontextprotocol/conformance/dist/index.js"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

mapfile -t scenarios < <("$node22" "$suite" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
[ "${#scenarios[@]}" -gt 0 ] || { echo "conformance: no client scenarios listed"; exit 1; }

run_one() {
  local scenario="$1" file
  file="$out/$(echo "$scenario" | tr '/' '_')"
  if timeout 120 "$node22" "$suite" client --command "$here/client.sh" --scenario "$scenario" >"$file.log" 2>&1; then
    echo pass >"$file.status"
  else
    echo fail >"$file.status"
  fi
}
export -f run_one
export node22 suite here out
printf '%s\n' "${scenarios[@]}" | xargs -P 3 -I{} bash -c 'run_one "$@"' _ {}

passed=0 required_failed=0
for scenario in "${scenarios[@]}"; do
  file="$out/$(echo "$scenario" | tr '/' '_')"
  status="$(cat "$file.status" 2>/dev/null || echo fail)"
  required=no
  case "$scenario" in initialize|tools_call|elicitation-sep1034-client-defaults|sse-retry|auth/*) required=yes ;; esac
  if [ "$status" = pass ]; then
    passed=$((passed + 1))
    echo "  PASS  $scenario"
  else
    echo "  FAIL  $scenario$([ "$required" = yes ] && echo '  (required)')"
    grep -E "FAILURE|Passed:|error" "$file.log" | head -5 | sed 's/^/        /'
    [ "$required" = yes ] && required_failed=$((required_failed + 1))
  fi
done
echo "${passed}/${#scenarios[@]} scenarios passed"
exit "$required_failed"
