// Counts attacks on what calls share (fork-server, spare, tool host, transpile cache, MCP server
// processes) and whether a later call's result changed; each hostile file prints its tally.

export interface CallOutcome {
  status?: string;
  data?: unknown;
  error?: string | undefined;
}

export interface CrossCallLedger {
  /** One attack: `before` is the victim's result without it, `after` the victim's result after it. */
  record(attack: string, before: CallOutcome, after: CallOutcome): void;
  /** The changes seen so far (an empty list is the goal). */
  changes(): string[];
  /** Prints `hostile cross-call (AREA): N cases, M cross-call changes` and each change. */
  print(): void;
}

const summary = (r: CallOutcome) => JSON.stringify({ status: r.status, data: r.data ?? null, error: r.error ?? null });

export function crossCallLedger(area: string): CrossCallLedger {
  let cases = 0;
  const changed: string[] = [];
  return {
    record(attack, before, after) {
      cases++;
      if (summary(before) !== summary(after)) changed.push(`${attack}: ${summary(before).slice(0, 200)} became ${summary(after).slice(0, 200)}`);
    },
    changes: () => [...changed],
    print() {
      console.log(`hostile cross-call (${area}): ${cases} cases, ${changed.length} cross-call changes`);
      for (const line of changed) console.log(`  CROSS-CALL ${line}`);
    },
  };
}
