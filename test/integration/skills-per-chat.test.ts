// Skills per chat, over the real runtime and the scripted fake model (issue #34): a skill switched
// off in one chat's Tools menu is missing from that chat's requests (catalog and activate_skill's
// enum) and refused there, while another chat keeps it; the choice survives reopening the chat in
// a new runtime. A chat that activated a skill with an accepted `allowed-tools` set, reopened by a
// new runtime on the same home, is narrowed by that set without activating again, and activating
// it again adds nothing. A tool set naming a skill that is gone warns in the chat that picks it.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../electron/runtime/create-runtime.ts';
import type { ChatSession } from '../../electron/runtime/chat/chat-session.ts';
import { E2E_TOOLS } from '../e2e/support/e2e-home.ts';
import { e2eScript, offeredTools, toolMessages } from '../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.ts';
import { tempHomes } from '../support/temp-homes.ts';
import { writeSkill } from '../support/skill-fixtures.ts';

vi.setConfig({ testTimeout: 60_000 });

const homes = tempHomes();
const savedHome = process.env.HOME;
let fake: FakeOpenAIServer;
let home: string;
let work: string;
const runtimes: Runtime[] = [];

beforeAll(async () => {
  const base = homes.make();
  const userHome = join(base, 'user');
  home = join(base, 'tooldesk');
  work = join(base, 'work');
  for (const d of [userHome, home, work]) mkdirSync(d, { recursive: true });
  process.env.HOME = userHome;
  const skills = join(userHome, '.agents/skills');
  writeSkill(skills, 'forms', { name: 'forms', description: 'Fills forms.', 'allowed-tools': 'activate_skill' });
  writeSkill(skills, 'docx', { name: 'docx', description: 'Edits Word documents.' });
  cpSync(join(E2E_TOOLS, 'note'), join(home, 'tools/note'), { recursive: true });
  fake = await startFakeOpenAI({ script: e2eScript });
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
      activeProviderId: 'fake',
      workingDir: work,
      groupDefaults: { script: true },
      // `forms` proposed only the skill tools, and the user accepted it: while `forms` is active
      // in a chat, that chat offers the skills group alone.
      toolSets: [
        { name: 'skill:forms', groups: ['skills'] },
        { name: 'old', skills: ['forms', 'retired'] },
      ],
      skills: { forms: { toolSet: 'skill:forms' } },
    }),
  );
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await fake?.close();
  process.env.HOME = savedHome;
  homes.removeAll();
});

async function open(): Promise<Runtime> {
  const runtime = await createRuntime({ home, tools: { mcp: false, cwd: work } });
  runtimes.push(runtime);
  return runtime;
}

/** Sends `text` and returns the model request the turn's last step made. */
async function say(session: ChatSession, text: string): Promise<RecordedRequest> {
  const sent = session.send(text);
  if (!sent.ok) throw new Error(sent.error.message);
  await sent.done;
  return fake.chatRequests().at(-1)!;
}

const system = (request: RecordedRequest) => (request.body.messages as Array<{ content: string }>)[0]!.content;
const activateEnum = (request: RecordedRequest) =>
  ((request.body.tools as Array<{ function: { name: string; parameters: { properties: { name: { enum: string[] } } } } }>).find((t) => t.function.name === 'activate_skill')?.function.parameters.properties.name.enum ?? []).sort();

describe('a skill switched off in one chat', () => {
  it("is gone from that chat's requests and refused there; the other chat keeps it; reopened, it stays off", async () => {
    const runtime = await open();
    const sessions = await runtime.sessions();
    const a = sessions.create();
    const b = sessions.create();
    sessions.setChatSettings(a.id, { skillsOff: ['docx'] });

    const fromA = await say(a, 'hello');
    expect(system(fromA)).toContain('- forms: Fills forms.');
    expect(system(fromA)).not.toContain('docx');
    expect(activateEnum(fromA)).toEqual(['forms']);
    const fromB = await say(b, 'hello');
    expect(system(fromB)).toContain('- docx: Edits Word documents.');
    expect(activateEnum(fromB)).toEqual(['docx', 'forms']);

    // The model names it anyway: refused with the reason, nothing activated.
    const refused = await say(a, 'call activate_skill {"name":"docx"}');
    expect(toolMessages(refused).at(-1)).toContain('Skill docx is switched off for this chat');
    const used = await say(b, 'call activate_skill {"name":"docx"}');
    expect(toolMessages(used).at(-1)).toMatch(/^# Skill docx\n/);

    // A new runtime on the same home: the chat's choice came back with it.
    const ids = { a: a.id, b: b.id };
    await runtime.close();
    const again = await (await open()).sessions();
    expect(again.open(ids.a).chatSettings().skillsOff).toEqual(['docx']);
    const reopened = await say(again.open(ids.a), 'hello again');
    expect(activateEnum(reopened)).toEqual(['forms']);
    expect(activateEnum(await say(again.open(ids.b), 'hello again'))).toEqual(['docx', 'forms']);
  });
});

describe('a tool set naming a skill that is gone, picked in a chat', () => {
  it('warns in that chat, naming the set and the entry, and offers the skills it names that are there', async () => {
    const runtime = await open();
    const sessions = await runtime.sessions();
    const chat = sessions.create();
    const notices: string[] = [];
    chat.onEvent((event) => event.type === 'session.notice' && event.level === 'warning' && notices.push(event.message));
    sessions.setChatSettings(chat.id, { toolSet: 'old' });
    expect(notices).toEqual(['tool set "old": skill:retired is not loaded or switched off now (skills on: docx, forms); the set offers only the skills it names that are.']);
    expect(activateEnum(await say(chat, 'hello'))).toEqual(['forms']);
    // Settings saved again with the same set: no second warning.
    sessions.setChatSettings(chat.id, { toolSet: 'old', permissions: 'ask' });
    expect(notices).toHaveLength(1);
  });
});

describe('skills a chat activated, after a restart', () => {
  it("are active again: the accepted allowed-tools set narrows without activating, and activating again adds nothing", async () => {
    const runtime = await open();
    const chat = (await runtime.sessions()).create();
    expect(offeredTools(await say(chat, 'before'))).toContain('script_note');
    await say(chat, 'call activate_skill {"name":"forms"}');
    expect(offeredTools(fake.chatRequests().at(-1))).not.toContain('script_note');
    const id = chat.id;
    await runtime.close();

    const reopened = (await (await open()).sessions()).open(id);
    const first = await say(reopened, 'after the restart');
    expect(offeredTools(first)).not.toContain('script_note');
    expect(offeredTools(first)).toContain('activate_skill');
    const twice = await say(reopened, 'call activate_skill {"name":"forms"}');
    expect(toolMessages(twice).at(-1)).toMatch(/^Skill forms is already active in this conversation/);
  });
});
