// The pure parts of the Open WebUI format: events → progress and result text, valve values as
// typed, the keychain names of secret valves, the pip command for unmet requirements.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerOf, elicitationOf, startAskEndpoint } from '../../../electron/runtime/sources/open-webui/ask-server.ts';
import type { ElicitationAsk } from '../../../electron/runtime/sources/mcp/types.ts';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { hasToolsClassLine } from '../../../electron/runtime/sources/open-webui/index.ts';
import { foldEvents, notificationOf, progressLine } from '../../../electron/runtime/sources/open-webui/events.ts';
import type { ValveSpec } from '../../../electron/runtime/sources/open-webui/parse.ts';
import { pipCommand, requirementName, unmetRequirementsDiagnostic } from '../../../electron/runtime/sources/open-webui/requirements.ts';
import { callValves, parseValveValue, readValves, setValves, valveSecretName } from '../../../electron/runtime/sources/open-webui/valves.ts';

const spec = (name: string, schema: Record<string, unknown>, extra: Partial<ValveSpec> = {}): ValveSpec => ({ name, schema, default: null, line: 1, ...extra });

describe('Open WebUI events', () => {
  it('status and notification are progress lines; hidden status shows nothing', () => {
    expect(progressLine({ type: 'status', data: { description: 'Fetching', done: false } })).toBe('Fetching');
    expect(progressLine({ type: 'status', data: { description: 'Fetched', done: true } })).toBe('Fetched ✓');
    expect(progressLine({ type: 'status', data: { description: 'secret', hidden: true } })).toBeNull();
    expect(progressLine({ type: 'notification', data: { type: 'warning', content: 'slow' } })).toBe('[warning] slow');
    expect(progressLine({ type: 'message', data: { content: 'x' } })).toBeNull();
  });

  it('a notification event is a toast of its level (unknown levels are info); other events are none', () => {
    expect(notificationOf({ type: 'notification', data: { type: 'success', content: 'saved' } })).toEqual({ level: 'success', text: 'saved' });
    expect(notificationOf({ type: 'notification', data: { type: 'loud', content: 'hm' } })).toEqual({ level: 'info', text: 'hm' });
    expect(notificationOf({ type: 'status', data: { description: 'x' } })).toBeNull();
  });

  it('message appends, replace replaces, citations and files are listed, images kept, unknown types named', () => {
    const folded = foldEvents([
      { type: 'message', data: { content: 'one ' } },
      { type: 'message', data: { content: 'two' } },
      { type: 'replace', data: { content: 'fresh' } },
      { type: 'message', data: { content: ' start' } },
      { type: 'citation', data: { document: ['d'], metadata: [{ source: 'https://a.example/x' }], source: { name: 'A' } } },
      { type: 'source', data: { source: { name: 'B', url: 'https://b.example' } } },
      { type: 'files', data: { files: [{ type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }, { name: 'report.csv', url: '/files/1' }] } },
      { type: 'notification', data: { type: 'error', content: 'bad' } },
      { type: 'confetti', data: {} },
    ]);
    expect(folded.appended).toBe('fresh start\n\nSources:\n- A (https://a.example/x)\n- B (https://b.example)\n\nFiles:\n- report.csv');
    expect(folded.images).toEqual([{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    expect(folded.notifications).toEqual([{ type: 'error', content: 'bad' }]);
    expect(folded.ignored).toEqual(['confetti']);
  });

  it('events with odd data never throw', () => {
    expect(() => foldEvents([{ type: 'files', data: { files: 'nope' } }, { type: 'citation', data: {} }, { type: 'message', data: { content: { a: 1 } } }] as never)).not.toThrow();
    expect(foldEvents([{ type: 'citation', data: {} }]).sources).toEqual([{ name: 'source' }]);
  });
});

describe('Open WebUI valves', () => {
  it('values are checked against the field type and named in the error', () => {
    expect(parseValveValue(spec('N', { type: 'integer' }), '42')).toBe(42);
    expect(() => parseValveValue(spec('N', { type: 'integer' }), '4.2')).toThrow('N expects an integer, got "4.2"');
    expect(parseValveValue(spec('F', { type: 'number' }), '0.5')).toBe(0.5);
    expect(() => parseValveValue(spec('F', { type: 'number' }), 'NaN')).toThrow('F expects a number');
    expect(parseValveValue(spec('B', { type: 'boolean' }), 'TRUE')).toBe(true);
    expect(() => parseValveValue(spec('B', { type: 'boolean' }), 'yes')).toThrow('B expects true or false');
    expect(parseValveValue(spec('L', { type: 'array' }), '["a"]')).toEqual(['a']);
    expect(() => parseValveValue(spec('L', { type: 'array' }), '{"a":1}')).toThrow('L expects a JSON array');
    expect(() => parseValveValue(spec('E', { type: 'string', enum: ['a', 'b'] }), 'c')).toThrow('E expects one of "a", "b", got "c"');
    expect(parseValveValue(spec('S', { type: 'string' }), '')).toBe('');
  });

  it('secret valves get keychain names within the rules, whatever the group is called', () => {
    expect(valveSecretName('my tools/x', 'valves', 'API_KEY')).toBe('openwebui.my_tools_x.API_KEY');
    expect(valveSecretName('g', 'userValves', 'TOKEN')).toBe('openwebui.g.user.TOKEN');
    expect(valveSecretName('g'.repeat(300), 'valves', 'K').length).toBeLessThanOrEqual(128);
    expect(callValves('g', { valves: { A: 1 }, secrets: { valves: ['TOKEN'] } })).toEqual({
      valves: { A: 1 },
      userValves: {},
      secretEnv: { valves: { TOKEN: 'openwebui.g.TOKEN' }, userValves: {} },
      secrets: ['openwebui.g.TOKEN'],
    });
  });

  it('setValves writes plain values to the file and secrets to the store; a bad value writes nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-valves-'));
    const stored = new Map<string, string>();
    const secrets = { set: async (n: string, v: string) => void stored.set(n, v), delete: async (n: string) => stored.delete(n) };
    const specs = [spec('REPEAT', { type: 'integer' }), spec('API_KEY', { type: 'string' }, { secret: true })];
    await setValves(home, 'g', 'valves', specs, { REPEAT: '3', API_KEY: 'sk-1' }, secrets);
    expect(await readValves(home)).toEqual({ g: { valves: { REPEAT: 3 }, secrets: { valves: ['API_KEY'] } } });
    expect(stored.get('openwebui.g.API_KEY')).toBe('sk-1');
    await expect(setValves(home, 'g', 'valves', specs, { REPEAT: 'x', API_KEY: 'sk-2' }, secrets)).rejects.toThrow('REPEAT expects an integer');
    expect(stored.get('openwebui.g.API_KEY')).toBe('sk-1');
    await setValves(home, 'g', 'valves', specs, { API_KEY: '' }, secrets);
    expect(stored.has('openwebui.g.API_KEY')).toBe(false);
    expect(readFileSync(join(home, 'tool-valves.json'), 'utf8')).not.toContain('sk-');
  });

  it('a broken tool-valves.json is an error naming the file and what to do', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-valves-'));
    writeFileSync(join(home, 'tool-valves.json'), '{"g": ');
    await expect(readValves(home)).rejects.toThrow(`${join(home, 'tool-valves.json')} is not valid JSON`);
    writeFileSync(join(home, 'tool-valves.json'), '[1]');
    await expect(readValves(home)).rejects.toThrow('must hold a JSON object of groups; fix it or delete it');
  });
});

describe('Open WebUI requirements', () => {
  it('names distributions and quotes the pip command for a shell', () => {
    expect(requirementName('beautifulsoup4>=4.0')).toBe('beautifulsoup4');
    expect(requirementName('pkg[extra]; python_version > "3.8"')).toBe('pkg');
    expect(requirementName('  ')).toBeNull();
    expect(pipCommand('/usr/bin/python3', ['requests', 'a>=1', "it's"])).toBe("/usr/bin/python3 -m pip install requests 'a>=1' 'it'\\''s'");
    const probe = { python: '/p', installed: new Map([['requests', true], ['absent', false]]), pydantic: true };
    expect(unmetRequirementsDiagnostic('/t.py', ['requests', 'absent==2'], probe)).toMatchObject({ code: 'unmet-requirements', message: 'Its requirements are not installed for /p: absent==2', hint: "Install them yourself (Tooldesk never installs packages): /p -m pip install absent==2" });
    expect(unmetRequirementsDiagnostic('/t.py', ['requests'], probe)).toBeNull();
  });
});

describe('Open WebUI __event_call__ endpoint', () => {
  it('maps confirmation and input to elicitation and back', () => {
    expect(elicitationOf('confirmation', { title: 'Delete?', message: 'Delete a?' })).toEqual({ message: 'Delete?\n\nDelete a?', requestedSchema: { type: 'object', properties: {} } });
    expect(elicitationOf('input', { title: 'Name', placeholder: 'a name', value: 'Bo' }).requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'string', title: 'Name', description: 'a name', default: 'Bo' } },
      required: ['value'],
    });
    expect(answerOf('confirmation', { action: 'accept' })).toBe(true);
    expect(answerOf('confirmation', { action: 'cancel' })).toBe(false);
    expect(answerOf('input', { action: 'accept', content: { value: 'x' } })).toBe('x');
    expect(answerOf('input', { action: 'decline' })).toBeNull();
  });

  it('answers only its token, only confirmation/input, only small bodies, and closes with the call', async () => {
    const asked: string[] = [];
    const askers: string[] = [];
    const controller = new AbortController();
    const elicit = async (ask: ElicitationAsk): Promise<ElicitResult> => {
      asked.push(String(ask.params.message));
      askers.push(`${ask.tool} of ${ask.server}${ask.confirm ? ' confirms' : ''}`);
      return { action: 'accept', content: { value: 'yes' } };
    };
    const endpoint = await startAskEndpoint('g', 'ask_name', { sessionId: 's', callId: 'c' }, { elicit }, controller.signal);
    const post = (body: string, token = endpoint.token) => fetch(endpoint.url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
    expect((await post('{"type":"input","data":{}}', 'wrong')).status).toBe(403);
    expect((await fetch(endpoint.url)).status).toBe(403);
    expect((await post('{"type":"execute","data":{}}')).status).toBe(400);
    expect((await post('x'.repeat(70_000)).catch(() => ({ status: 400 }))).status).toBe(400);
    expect(asked).toEqual([]);
    expect(await (await post('{"type":"input","data":{"message":"Who?"}}')).json()).toEqual({ answer: 'yes' });
    expect(asked).toEqual(['Who?']);
    // A confirmation says it is one, and both name the tool that asks.
    expect(await (await post('{"type":"confirmation","data":{"message":"Sure?"}}')).json()).toEqual({ answer: true });
    expect(askers).toEqual(['ask_name of g', 'ask_name of g confirms']);
    controller.abort();
    await expect(post('{"type":"input","data":{}}')).rejects.toThrow();
  });
});

describe('Open WebUI candidate files', () => {
  it('are the ones with a line starting `class Tools` (the AST decides the rest)', () => {
    const has = (text: string) => hasToolsClassLine(Buffer.from(text));
    expect(has('class Tools:\n')).toBe(true);
    expect(has('\ufeffclass Tools:\n')).toBe(true);
    expect(has('import x\nclass Tools(object):\n')).toBe(true);
    expect(has('class Tools')).toBe(true);
    expect(has('class ToolsHelper:\n')).toBe(false);
    expect(has('    class Tools:\n')).toBe(false);
    expect(has('# class Tools\nx = "class Tools"\n')).toBe(false);
    expect(has('def f():\n    pass\n')).toBe(false);
  });
});
