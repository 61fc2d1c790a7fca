// The lazy command tables: every line loads its command, whose name and summary are the table's
// (help lists the table's without loading anything, so the two must never drift apart).
import { describe, expect, it } from 'vitest';
import { loadCommand, type CommandEntry } from '../../../electron/cli/command.ts';
import { COMMANDS } from '../../../electron/cli/commands/index.ts';
import { MCP_SUBCOMMANDS } from '../../../electron/cli/commands/mcp.ts';
import { TOOLS_SUBCOMMANDS } from '../../../electron/cli/commands/tools.ts';

const tables: Array<[string, CommandEntry[]]> = [
  ['tooldesk', COMMANDS],
  ['tooldesk tools', TOOLS_SUBCOMMANDS],
  ['tooldesk mcp', MCP_SUBCOMMANDS],
];

describe('command tables', () => {
  for (const [title, table] of tables) {
    it(`${title}: each line loads its own command, with the same name and summary`, async () => {
      // Lines should be lazy ({name, summary, load}); a ready Command still works, but loads with the table.
      expect(new Set(table.map((c) => c.name)).size).toBe(table.length);
      for (const entry of table) {
        const command = await loadCommand(entry);
        expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
        expect(command.usage.length).toBeGreaterThan(0);
      }
    });
  }
});
