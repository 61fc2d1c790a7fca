#!/usr/bin/env bash
# The MCP conformance suite's client command: `client.sh SERVER_URL` (the suite appends the URL
# and sets MCP_CONFORMANCE_SCENARIO). Runs Tooldesk's MCP client code under the app's Node.
root="$(cd "$(dirname "$0")/../.." && pwd)"
exec node --import tsx "$root/test/mcp-conformance/client.ts" "$@"
