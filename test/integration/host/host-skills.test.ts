// Settings → Skills through the real host over the WebSocket: New tool → Agent Skill makes a
// skill that is listed at once; bad requests come back as InvalidRequestErrors that name the
// skill or the rule; accepting and withdrawing `allowed-tools` writes and removes its tool set.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostApps } from '../../support/host-app.ts';

const apps = hostApps();
afterEach(() => apps.closeAll());

describe('the skills API', () => {
  it('creates, lists, refuses bad requests by name, and accepts then withdraws allowed-tools', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const dir = join(home, 'skills', 'proposer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: proposer\ndescription: Proposes tools.\nallowed-tools: Read mcp__nowhere__x\n---\n\nBody.\n');
    const { client } = await apps.start(home);

    const made = await client.createSkill({ name: 'notes-helper' });
    expect(made.dir).toBe(join(home, 'skills', 'notes-helper'));
    const listed = await client.listSkills();
    expect(listed.skills.find((s) => s.id === 'notes-helper')).toMatchObject({ origin: { kind: 'user', label: 'tooldesk' }, enabled: true, fileCount: 2, diagnostics: [] });
    await expect(client.createSkill({ name: 'notes-helper' })).rejects.toMatchObject({ name: 'InvalidRequestError', message: expect.stringContaining('already exists') });
    await expect(client.createSkill({ name: 'Bad Name' })).rejects.toMatchObject({ name: 'InvalidRequestError', message: expect.stringContaining('not a valid skill name') });
    await expect(client.setSkillEnabled({ id: 'nope', enabled: false })).rejects.toMatchObject({ name: 'InvalidRequestError', message: expect.stringContaining('no skill named "nope"') });
    await expect(client.setSkillToolSet({ id: 'notes-helper', accept: true })).rejects.toMatchObject({ message: 'skill notes-helper proposes no tools (its SKILL.md has no allowed-tools)' });

    const accepted = await client.setSkillToolSet({ id: 'proposer', accept: true });
    expect(accepted.unmatched).toEqual(['Read', 'mcp__nowhere__x']);
    expect(accepted.skills.find((s) => s.id === 'proposer')?.toolSet).toBe('skill:proposer');
    expect((await client.getSettings()).toolSets).toEqual([{ name: 'skill:proposer', groups: ['skills'], tools: [] }]);
    const withdrawn = await client.setSkillToolSet({ id: 'proposer', accept: false });
    expect(withdrawn.skills.find((s) => s.id === 'proposer')?.toolSet).toBeUndefined();
    expect((await client.getSettings()).toolSets).toEqual([]);

    // A grant withdrawn is gone from the settings, not merged back in.
    await client.setSkillNetwork({ id: 'proposer', granted: true });
    expect((await client.getSettings()).skills?.proposer?.network).toBe(true);
    const off = await client.setSkillNetwork({ id: 'proposer', granted: false });
    expect(off.skills.find((s) => s.id === 'proposer')?.network).toBe(false);
    expect((await client.getSettings()).skills?.proposer).toEqual({});
  });
});
