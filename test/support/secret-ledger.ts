// Counts attacks that try to get a keychain secret into a process the user never named for it (a
// forged module `exec`, a registry entry or bundle naming the user's secret); each hostile file
// prints its tally beside escapes, orphans and cross-call changes.

export interface SecretLedger {
  /** One attack; `leaked`: what reached the unnamed process (undefined: nothing did). */
  record(attack: string, leaked: string | undefined): void;
  /** The leaks seen so far (an empty list is the goal). */
  leaks(): string[];
  /** Prints `hostile secrets (AREA): N cases, M secrets to unnamed processes` and each leak. */
  print(): void;
}

export function secretLedger(area: string): SecretLedger {
  let cases = 0;
  const leaked: string[] = [];
  return {
    record(attack, value) {
      cases++;
      if (value !== undefined) leaked.push(`${attack}: ${value.slice(0, 200)}`);
    },
    leaks: () => [...leaked],
    print() {
      console.log(`hostile secrets (${area}): ${cases} cases, ${leaked.length} secrets to unnamed processes`);
      for (const line of leaked) console.log(`  SECRET ${line}`);
    },
  };
}
