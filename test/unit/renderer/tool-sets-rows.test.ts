// Settings → Tool sets: rows back to settings.toolSets, each problem named by its set; and
// `/toolset NAME` offered in the message box's menu.
import { describe, expect, it } from 'vitest';
import { rowsToToolSets, skillsNotLoaded } from '../../../renderer/src/settings/tool-sets-section.tsx';
import { suggestToolSets } from '../../../renderer/src/chat/composer/slash-suggestions.ts';
import { isUnknownToolCommand } from '../../../renderer/src/chat/composer/composer-send.tsx';

const row = (name: string, groups = '', tools = '', level: '' | 'trusted' | 'ask' = '') => ({ name, groups, tools, level });

describe('rowsToToolSets', () => {
  it('splits on commas, trims, drops repeats and empty parts, and keeps a set\'s own rules', () => {
    const rules = [{ action: 'deny' as const, tool: 'fs__write_file' }];
    expect(rowsToToolSets([{ ...row(' web ', 'browser, , browser', ' fetch_url ,'), rules }, row('chat-only', '', 'script_echo', 'ask')])).toEqual({
      sets: [
        { name: 'web', groups: ['browser'], tools: ['fetch_url'], rules },
        { name: 'chat-only', tools: ['script_echo'], level: 'ask' },
      ],
    });
  });

  it('names the set and what to do: no name, a space in the name, a taken name, nothing in it', () => {
    expect(rowsToToolSets([row('', 'files')])).toEqual({ error: 'Tool set 1: give it a name.' });
    expect(rowsToToolSets([row('my set', 'files')])).toEqual({ error: 'Tool set "my set": a name has no spaces (/toolset NAME reads one word).' });
    expect(rowsToToolSets([row('a', 'files'), row('a', 'web')])).toEqual({ error: 'Tool set "a": another set has this name.' });
    expect(rowsToToolSets([row('empty', ' , ', ',')])).toEqual({ error: 'Tool set "empty": name at least one group, tool or skill.' });
  });

  it('keeps the skills a set names (a set of skills alone is a set)', () => {
    expect(rowsToToolSets([{ ...row('forms', '', 'read_file'), skills: 'pdf, docx, pdf' }, { ...row('just-skills'), skills: ' pdf ' }])).toEqual({
      sets: [
        { name: 'forms', tools: ['read_file'], skills: ['pdf', 'docx'] },
        { name: 'just-skills', skills: ['pdf'] },
      ],
    });
  });
});

describe('/toolset in the message box', () => {
  it('offers each tool set and none once "/to…" is typed, and nothing without sets', () => {
    expect(suggestToolSets('to', ['web', 'files'])).toEqual(['/toolset web', '/toolset files', '/toolset none']);
    expect(suggestToolSets('toolset', ['web'])).toEqual(['/toolset web', '/toolset none']);
    expect(suggestToolSets('t', ['web'])).toEqual([]);
    expect(suggestToolSets('tools', [])).toEqual([]);
    expect(suggestToolSets('web', ['web'])).toEqual([]);
  });

  it('is not a mistyped tool: the box is cleared once it is sent', () => {
    expect(isUnknownToolCommand('/toolset web', ['script_echo'])).toBe(false);
    expect(isUnknownToolCommand('/toolsett web', ['script_echo'])).toBe(true);
  });
});

describe('skills a tool set names that are not loaded', () => {
  it('are named once the list of skills is known, each once, and never before', () => {
    const loaded = new Set(['pdf', 'docx']);
    expect(skillsNotLoaded('pdf, xlsx, xlsx , docx, pptx', loaded)).toEqual(['xlsx', 'pptx']);
    expect(skillsNotLoaded(' pdf ', loaded)).toEqual([]);
    expect(skillsNotLoaded('xlsx', null)).toEqual([]);
  });
});
