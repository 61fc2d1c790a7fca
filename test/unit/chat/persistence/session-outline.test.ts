// `sessions show` reads a session through its outline (session-outline.ts): the shown path, the
// summary and the variables must be what replaying the whole file (readSessionFile, as a chat
// opens it) gives — branches, a moved head, a deleted message, variables set, removed and evicted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../../electron/runtime/chat/persistence/session-file.ts';
import { outlineSession, shownMessages } from '../../../../electron/runtime/chat/persistence/session-outline.ts';
import { VariableSystem } from '../../../../electron/runtime/tools/variables/variable-system.ts';

const message = (id: string, parentId: string | null | undefined, content: string) => ({ id, ...(parentId !== undefined ? { parentId } : {}), role: 'user', content, createdAt: 1 });
const variable = (name: string, type: string, value: string, at: number) => ({ name, type, value, tags: [], size: value.length, createdAt: at, updatedAt: at, accessedAt: at });

describe('outlineSession', () => {
  it('gives the path, summary and variables a whole replay gives', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-outline-')), 's.jsonl');
    const records = [
      { t: 'session', v: 1, id: 's', createdAt: 100, title: 'T' },
      { t: 'message', at: 101, message: message('a', undefined, 'first') },
      { t: 'message', at: 102, message: message('b', undefined, 'second') },
      { t: 'message', at: 103, message: message('c', 'a', 'other branch') },
      { t: 'message', at: 104, message: message('d', 'c', 'under c') },
      { t: 'head', at: 105, id: 'b' },
      { t: 'message', at: 106, message: message('e', 'b', 'after b') },
      { t: 'delete', at: 107, id: 'b' },
      { t: 'title', at: 108, title: 'Renamed' },
      { t: 'var', at: 109, variable: variable('old', 'ToolCallResult', 'x'.repeat(10), 109) },
      { t: 'var', at: 110, variable: variable('rule', 'RULE', 'be brief', 110) },
      { t: 'var', at: 111, variable: variable('gone', 'ToolCallResult', 'y', 111) },
      { t: 'var-remove', at: 112, name: 'gone' },
      { t: 'var', at: 113, variable: variable('new', 'ToolCallResult', 'z'.repeat(10), 113) },
      { t: 'var', at: 114, variable: variable('bad', 'NoSuchType', 'w', 114) },
      { t: 'flags', at: 120, pinned: true, archived: true },
      { t: 'flags', at: 121, archived: false },
    ];
    writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\nnot json\n`);
    const bounds = { maxEntries: 1000, maxBytes: 15 }; // the oldest non-rule variable is evicted
    const outline = outlineSession(file, 's', bounds);
    const whole = readSessionFile(file, 's');
    const variables = new VariableSystem(bounds);
    variables.restore({ version: 1, variables: whole.variables });

    const warnings: string[] = [];
    expect([...shownMessages(outline, (w) => warnings.push(w))].map((m) => m.id)).toEqual(whole.messages.map((m) => m.id));
    expect(warnings).toEqual([]);
    expect(outline.info).toEqual({ id: 's', title: whole.title, createdAt: whole.createdAt, updatedAt: whole.updatedAt, messageCount: whole.tree.size, shownCount: whole.tree.path().length, ...whole.flags });
    expect(outline.info).toMatchObject({ updatedAt: 114, pinned: true });
    expect(outline.info.archived).toBeUndefined();
    expect(outline.variables.map((v) => v.name)).toEqual(variables.list().items.map((v) => v.name));
    expect(outline.variables.map((v) => v.name)).toEqual(['rule', 'new']);
    expect(outline.warnings).toEqual(whole.warnings);
  });
});
