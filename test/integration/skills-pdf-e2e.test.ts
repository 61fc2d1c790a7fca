// Issue 34's "done": a real `pdf` skill (test/fixtures/skills/own/pdf: ours, MIT, standing in for
// Anthropic's, whose licence forbids keeping a copy; same name, same two form scripts) in
// ~/.agents/skills, its Python dependency added with `skills deps pdf --add pypdf` (pip as
// configured: this machine's local index), then a scripted model in `tooldesk chat` activates
// it and runs scripts/check_fillable_fields.py and scripts/extract_form_field_info.py on a
// fillable PDF in the working folder: network off, each call approved on the terminal, and the
// output read back from its $VAR.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.ts';
import { realPython } from '../support/real-python.ts';
import { runCli } from '../support/run-cli.ts';
import { copyFixtureSkill } from '../support/skill-fixtures.ts';
import { tempHomes } from '../support/temp-homes.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const homes = tempHomes();
let server: FakeOpenAIServer;
let userHome: string;
let home: string;
let work: string;
let env: Record<string, string>;

// The pip configuration of the user running the tests (this machine's local package index).
// pip as the user configured it: their config file, also when the suite runs with another HOME (CI).
const pipConfig = [homedir(), userInfo().homedir].flatMap((h) => [join(h, '.config/pip/pip.conf'), join(h, '.pip/pip.conf')]).find((f) => existsSync(f)) ?? join(homedir(), '.config/pip/pip.conf');

/** A PDF with an AcroForm: a text field and a checkbox, made with pypdf from the skill's environment. */
const MAKE_FORM = `
import sys
from pypdf import PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject, TextStringObject
w = PdfWriter()
page = w.add_blank_page(612, 792)
def widget(name, ft, rect, extra):
    d = DictionaryObject({NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"),
        NameObject("/FT"): NameObject(ft), NameObject("/T"): TextStringObject(name),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]), NameObject("/F"): NumberObject(4)})
    d.update(extra)
    return w._add_object(d)
name = widget("full_name", "/Tx", [100, 700, 300, 720], {})
ap = DictionaryObject({NameObject("/N"): DictionaryObject({NameObject("/Yes"): w._add_object(DictionaryObject()), NameObject("/Off"): w._add_object(DictionaryObject())})})
agree = widget("agree", "/Btn", [100, 650, 115, 665], {NameObject("/AP"): ap, NameObject("/V"): NameObject("/Off"), NameObject("/AS"): NameObject("/Off")})
page[NameObject("/Annots")] = ArrayObject([name, agree])
w._root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): ArrayObject([name, agree])})
w.write(sys.argv[1])
`;

beforeAll(async () => {
  const base = homes.make();
  userHome = join(base, 'user');
  home = join(base, 'tooldesk');
  work = join(base, 'work');
  for (const d of [userHome, home, work]) mkdirSync(d, { recursive: true });
  copyFixtureSkill('pdf', join(userHome, '.agents/skills'));
  copyFixtureSkill('skill-creator', join(userHome, '.agents/skills'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython(), workingDir: work }));
  env = { HOME: userHome, ...(existsSync(pipConfig) ? { PIP_CONFIG_FILE: pipConfig } : {}) };
  server = await startFakeOpenAI({ turns: [] });
});

afterAll(async () => {
  await server?.close();
  homes.removeAll();
});

const toolMessages = (request: RecordedRequest) => (request.body.messages as Array<{ role: string; content: string; tool_call_id?: string }>).filter((m) => m.role === 'tool');

describe('the pdf skill, end to end', () => {
  it('adds pypdf to the skill, then a scripted model runs its two form scripts, approved, network off', async () => {
    const deps = await runCli(home, ['skills', 'deps', 'pdf', '--add', 'pypdf', '--yes'], '', env);
    expect(deps.stderr).toBe('');
    expect(deps.stdout).toContain('installed for skill pdf: pypdf (the import works)');
    // The test's own fillable PDF, made with the pypdf the skill now has.
    execFileSync(join(home, 'skill-envs/pdf/bin/python'), ['-c', MAKE_FORM, join(work, 'form.pdf')]);

    server.setScript((request, turn) => {
      if (turn === 0) return fakeTurn.toolCall('activate_skill', { name: 'pdf' });
      if (turn === 1) return fakeTurn.toolCall('run_skill_script', { skill: 'pdf', script: 'scripts/check_fillable_fields.py', args: ['form.pdf'] });
      if (turn === 2) return fakeTurn.toolCall('run_skill_script', { skill: 'pdf', script: 'scripts/extract_form_field_info.py', args: ['form.pdf', 'fields.json'] });
      if (turn === 3) {
        // Read the first script's output back from its variable.
        const callId = toolMessages(request)[1]!.tool_call_id!;
        return fakeTurn.toolCall('ReadVar', { name: `run_skill_script_${callId}_result` });
      }
      return fakeTurn.text('The form has a text field and a checkbox.');
    });
    const chat = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', 'What fields does form.pdf have?'], 'y\ny\n', env);
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe('The form has a text field and a checkbox.\n');

    const requests = server.chatRequests();
    // The catalog was in the first request; the skill's instructions came back whole from activate_skill.
    expect(requests[0]!.body.messages[0].content).toContain('- pdf: Work with PDF files — read their text, find and fill their form fields');
    expect(requests[0]!.body.messages[0].content).toContain('- skill-creator: Create new skills');
    const results = toolMessages(requests.at(-1)!);
    expect(results[0]!.content).toContain('# PDF Processing Guide');
    expect(results[1]!.content).toContain('This PDF has fillable form fields');
    expect(results[3]!.content).toContain('This PDF has fillable form fields');
    const fields = JSON.parse(readFileSync(join(work, 'fields.json'), 'utf8')) as Array<{ field_id: string; type: string }>;
    expect(fields.map((f) => [f.field_id, f.type]).sort()).toEqual([['agree', 'checkbox'], ['full_name', 'text']]);
    // Each script call was asked on the terminal, with the skill's origin and the network off.
    expect(chat.stderr.match(/Run run_skill_script/g)).toHaveLength(2);
    expect(chat.stderr).toContain(`Skill pdf from agents (${join(userHome, '.agents/skills/pdf')})`);
    expect(chat.stderr).toContain('Network: off');
  });
});
