// Tool sets that name skills (issue #34): `toolset add NAME skill:S` stores the skill's id and
// refuses a name that is no skill, naming the set and the entry; `chat --toolset` with a set
// naming one skill of two offers the model that skill alone (catalog and enum, the skill tools on
// without naming their group) and refuses the other; a set naming a skill that is gone since
// still works, with a warning naming the set and the entry (`chat`, `schedule add`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../shared/settings.ts';
import { offeredTools, toolMessages } from '../e2e/support/fake-model.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.ts';
import { runCli } from '../support/run-cli.ts';
import { skillHomes, writeSkill } from '../support/skill-fixtures.ts';

vi.setConfig({ testTimeout: 120_000 });

let server: FakeOpenAIServer;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startFakeOpenAI({ turns: [] });
  const homes = skillHomes();
  home = homes.home;
  env = { HOME: homes.userHome };
  const skills = join(homes.userHome, '.agents/skills');
  writeSkill(skills, 'pdf', { name: 'pdf', description: 'Fills PDF forms.' });
  writeSkill(skills, 'docx', { name: 'docx', description: 'Edits Word documents.' });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ workingDir: homes.work }));
});

afterAll(async () => {
  await server?.close();
});

const settings = (): Settings => JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as Settings;
const system = (request: RecordedRequest) => (request.body.messages as Array<{ content: string }>)[0]!.content;
const activateEnum = (request: RecordedRequest) =>
  (request.body.tools as Array<{ function: { name: string; parameters: { properties: { name?: { enum?: string[] } } } } }>).find((t) => t.function.name === 'activate_skill')?.function.parameters.properties.name?.enum;

describe('tool sets naming skills', () => {
  it('toolset add takes skill:S, and refuses a skill that does not exist by set and entry', async () => {
    const added = await runCli(home, ['toolset', 'add', 'forms', 'skill:pdf'], '', env);
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe('Added tool set forms: skill pdf\n');
    expect(settings().toolSets).toEqual([{ name: 'forms', skills: ['pdf'] }]);
    const typo = await runCli(home, ['toolset', 'add', 'typo', 'skill:pdff'], '', env);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe('tooldesk toolset add: tool set "typo", skill:pdff: no skill named "pdff" (skills: docx, pdf). `tooldesk skills list` shows the skills.\n');
    expect(settings().toolSets?.map((s) => s.name)).toEqual(['forms']);
  });

  it('chat --toolset with a set naming one skill of two offers that one alone and refuses the other', async () => {
    server.setScript([fakeTurn.toolCall('activate_skill', { name: 'docx' }), fakeTurn.toolCall('activate_skill', { name: 'pdf' }), fakeTurn.text('Done.')]);
    const result = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', '--toolset', 'forms', 'fill the form'], '', env);
    expect(result.code).toBe(0);
    const [first, , last] = server.chatRequests().slice(-3) as [RecordedRequest, RecordedRequest, RecordedRequest];
    expect(system(first)).toContain('- pdf: Fills PDF forms.');
    expect(system(first)).not.toContain('docx');
    expect(activateEnum(first)).toEqual(['pdf']);
    expect(offeredTools(first)).toEqual(expect.arrayContaining(['activate_skill', 'read_skill_file', 'run_skill_script']));
    const [refused, activated] = toolMessages(last);
    expect(refused).toBe('Skill docx is not in this chat\'s tool set "forms" (its skills: pdf), so it cannot be used here.');
    expect(activated).toMatch(/^# Skill pdf\n/);

    // Without the set, both skills are offered: the narrowing came from the set alone.
    server.setScript([fakeTurn.text('Hello.')]);
    await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', 'hello'], '', env);
    expect(activateEnum(server.chatRequests().at(-1)!)).toEqual(['docx', 'pdf']);
  });

  it('a set naming a skill that is gone since works with the rest and says so', async () => {
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ ...settings(), toolSets: [...(settings().toolSets ?? []), { name: 'old', skills: ['pdf', 'retired'] }] }));
    server.setScript([fakeTurn.text('Hello.')]);
    const result = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', '--toolset', 'old', 'hello'], '', env);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('tooldesk: warning: tool set "old": skill:retired is not loaded or switched off now (skills on: docx, pdf); the set offers only the skills it names that are.');
    expect(result.stderr.match(/skill:retired/g)).toHaveLength(1);
    expect(activateEnum(server.chatRequests().at(-1)!)).toEqual(['pdf']);
    // A schedule given that set is kept, with the same warning.
    const scheduled = await runCli(home, ['schedule', 'add', 'nightly', '--every', '1d', '--prompt', 'fill the forms', '--toolset', 'old'], '', env);
    expect(scheduled.code).toBe(0);
    expect(scheduled.stderr).toContain('tooldesk schedule add: warning: tool set "old": skill:retired is not loaded or switched off now');
  });
});
