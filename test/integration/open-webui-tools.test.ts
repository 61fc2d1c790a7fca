// Open WebUI Tools files through the real CLI (`tools list|check|run|config`), with both
// interpreters: python3 (pyenv, pydantic 2) and /usr/bin/python3 (no pydantic: the stand-in).
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startHeadlessKeyring } from '../support/headless-keyring.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot, runCli } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

const FIXTURES = join(repoRoot, 'test/fixtures/tools');
const python = realPython()!;
const DEBIAN_PYTHON = '/usr/bin/python3';

/** A home whose tools root holds copies of the given fixture folders, run with `interpreter`. */
function home(interpreter: string, ...fixtures: string[]): { home: string; root: string } {
  const base = mkdtempSync('/var/tmp/td-owui-');
  const root = join(base, 'tools');
  for (const f of fixtures) cpSync(join(FIXTURES, f), root, { recursive: true });
  writeFileSync(join(base, 'settings.json'), JSON.stringify({ pythonPath: interpreter }));
  return { home: base, root };
}

const run = (h: { home: string; root: string }, tool: string, args: Record<string, unknown>, extra: string[] = []) =>
  runCli(h.home, ['tools', 'run', tool, '--root', h.root, '--args', JSON.stringify(args), '--yes', ...extra]);

describe('Open WebUI Tools files', () => {
  const demo = home(python, 'open-webui-demo', 'open-webui-broken', 'open-webui-plain-class');

  it('are found by their class Tools; module functions and a plain class Tools stay as they were', async () => {
    const listed = await runCli(demo.home, ['tools', 'list', '--root', demo.root, '--json']);
    const groups = JSON.parse(listed.stdout).groups as { name: string; tools: { name: string; format: string; parameters: Record<string, unknown>; meta?: Record<string, unknown> }[] }[];
    const byGroup = Object.fromEntries(groups.map((g) => [g.name, g]));
    expect(byGroup.owui_demo!.tools.map((t) => t.name)).toEqual(['greet', 'secret_length', 'slow_count', 'context', 'convert', 'ask', 'fail']);
    expect(byGroup.owui_demo!.tools.every((t) => t.format === 'open-webui')).toBe(true);
    // A plain module that has a class named Tools without docstrings: its functions, as today.
    expect(byGroup.plain_with_tools_class!.tools).toMatchObject([{ name: 'shout', format: 'python' }]);
    const tools = Object.fromEntries(byGroup.owui_demo!.tools.map((t) => [t.name, t]));
    // Injected __x__ arguments are never in the schema; :param and Args: both describe.
    expect(tools.greet!.parameters).toEqual({ type: 'object', properties: { name: { type: 'string', description: 'Who to greet.' } }, required: ['name'] });
    expect(tools.slow_count!.parameters).toMatchObject({ properties: { upto: { type: 'integer', description: 'Where to stop counting.' } }, required: ['upto'] });
    expect(tools.convert!.parameters).toEqual({
      type: 'object',
      properties: {
        value: { type: 'number', description: 'The number.' },
        unit: { type: 'string', enum: ['metric', 'imperial'], description: 'Which system.' },
        point: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer', default: 0 } }, required: ['x'], description: 'Where.' },
        mode: { type: 'string', enum: ['fast', 'exact'], description: 'How.', default: 'fast' },
      },
      required: ['value', 'unit'],
    });
    expect(tools.greet!.meta).toMatchObject({ openWebUi: { title: 'Demo Toolkit', version: '0.1.0', valves: [{ name: 'GREETING', default: 'Hello' }, { name: 'REPEAT', default: 1 }, { name: 'SERVICE_API_KEY', secret: true }], userValves: [{ name: 'NICKNAME', default: 'friend' }] } });
    expect(JSON.stringify(groups)).not.toContain('helper_not_a_tool');
  });

  it('check names open_webui imports, __request__, unmet requirements with the pip command, and syntax errors', async () => {
    const checked = await runCli(demo.home, ['tools', 'check', '--root', demo.root]);
    expect(checked.code).toBe(1);
    const out = checked.stdout;
    expect(out).toContain(`${join(demo.root, 'owui_needs_openwebui.py')}:5: error: It imports open_webui.models.users, which exists only inside an Open WebUI server: its tools are unavailable here [open-webui-import]`);
    // #36 item 15: __request__ gets None (said), no longer refused; this file stays out for its open_webui import.
    expect(out).toContain(`${join(demo.root, 'owui_needs_openwebui.py')}:9: warning: whoami() takes __request__`);
    expect(out).toContain(`${join(demo.root, 'owui_requirements.py')}:1: warning: Its requirements are not installed for ${python}: tooldesk-surely-absent-package>=1.0, another_absent_pkg [unmet-requirements]`);
    expect(out).toContain(`hint: Install them yourself (Tooldesk never installs packages): ${python} -m pip install 'tooldesk-surely-absent-package>=1.0' another_absent_pkg`);
    expect(out).toMatch(/owui_syntax\.py:5:\d+: error: Syntax error/);
    expect(out).toContain('context() asks for __mystery__, which Tooldesk does not provide: it gets None');
    expect(out).not.toContain('pydantic-missing');
    const listed = JSON.parse((await runCli(demo.home, ['tools', 'list', '--root', demo.root, '--json'])).stdout) as { groups: { name: string }[] };
    expect(listed.groups.map((g) => g.name)).not.toContain('owui_needs_openwebui');
  });

  it('runs sync and async methods with valves, user valves and injected arguments', async () => {
    const h = home(python, 'open-webui-demo');
    expect(await run(h, 'greet', { name: 'Ada' })).toMatchObject({ code: 0, stdout: 'Hello, Ada (from friend as admin)\n' });
    const set = await runCli(h.home, ['tools', 'config', 'owui_demo', 'GREETING=Hi', 'REPEAT=2', '--root', h.root]);
    expect(set.stdout).toContain('GREETING (string) = "Hi" [default "Hello"] — How to greet');
    expect((await runCli(h.home, ['tools', 'config', 'owui_demo', '--user', 'NICKNAME=Bob', '--root', h.root])).code).toBe(0);
    expect((await run(h, 'greet', { name: 'Ada' })).stdout).toBe('Hi, Ada (from Bob as admin) Hi, Ada (from Bob as admin)\n');
    // A value of the wrong type, an unknown key, and a group without valves are refused by name.
    const bad = await runCli(h.home, ['tools', 'config', 'owui_demo', 'REPEAT=two', '--root', h.root]);
    expect(bad).toMatchObject({ code: 1, stderr: 'tooldesk tools config: REPEAT expects an integer, got "two"\n' });
    expect((await runCli(h.home, ['tools', 'config', 'owui_demo', 'NOPE=1', '--root', h.root])).stderr).toContain('owui_demo has no Valves field "NOPE"; its fields: GREETING, REPEAT, SERVICE_API_KEY');
    expect((await runCli(h.home, ['tools', 'config', 'nothing_here', '--root', h.root])).stderr).toContain('no tool group "nothing_here"');
    // Back to the default.
    await runCli(h.home, ['tools', 'config', 'owui_demo', 'REPEAT=', '--root', h.root]);
    expect((await run(h, 'greet', { name: 'Ada' })).stdout).toBe('Hi, Ada (from Bob as admin)\n');
    // A model cannot fill an injected argument itself.
    expect((await run(h, 'greet', { name: 'Eve', __user__: { role: 'hacker' } })).stdout).not.toContain('hacker');

    const counted = await run(h, 'slow_count', { upto: 3 }, ['--json']);
    const result = JSON.parse(counted.stdout);
    expect(result).toMatchObject({ status: 'SUCCESS', data: 'counted to 3' });
    expect(result.finalText).toContain('counted to 3\n\n(counted for you)\n\nSources:\n- Numbers (https://example.org/numbers)');
    expect(result.logs).toContain('Notifications:\n[info] counted');
    // tools run prints the notification as a line of its own on stderr.
    expect(counted.stderr).toContain('Notifications:\n[info] counted\n');
    expect(result.logs).not.toContain('event {');

    const context = JSON.parse((await run(h, 'context', {}, ['--json'])).stdout);
    expect(context.data).toMatchObject({ metadata: { chat_id: 'cli', tool_ids: ['owui_demo'] }, messages: 0, files: [], model: null, id: 'owui_demo', mystery: null });
    expect(context.data.metadata.message_id).toMatch(/\S/);

    const asked = JSON.parse((await run(h, 'ask', {}, ['--json'])).stdout);
    expect(asked).toMatchObject({ status: 'ERROR' });
    expect(asked.finalText).toContain('__event_call__ type "execute" runs JavaScript in an Open WebUI browser tab; Tooldesk has no such page, so it is refused');
    const failed = JSON.parse((await run(h, 'fail', {}, ['--json'])).stdout);
    expect(failed.finalText).toContain('RuntimeError: boom from the toolkit');
    expect((await run(h, 'convert', { value: 1.5, unit: 'metric', point: { x: 1 } })).stdout).toBe("1.5 metric {'x': 1} fast\n");
  });

  it('__event_call__ input and confirmation are asked on the terminal of tools run', async () => {
    const h = home(python, 'open-webui-demo');
    const named = await runCli(h.home, ['tools', 'run', 'ask_name', '--root', h.root, '--args', '{}'], 'y\nAda\ny\n');
    expect(named.stderr).toContain('Tool "ask_name" (owui_asks) asks: Your name');
    expect(named.stdout).toBe("hello 'Ada'\n");
    const declined = await runCli(h.home, ['tools', 'run', 'confirm_delete', '--root', h.root, '--args', '{"path": "a.txt"}'], 'y\nn\n');
    expect(declined.stderr).toContain('Tool "confirm_delete" (owui_asks) asks you to confirm: Delete?');
    expect(declined.stderr).toContain('Confirm? [y/N]');
    expect(declined.stderr).not.toContain('Send {}');
    expect(declined.stdout).toBe('kept a.txt (False)\n');
    // End of input while asked: cancelled, so the confirmation is not given.
    const cancelled = await runCli(h.home, ['tools', 'run', 'confirm_delete', '--root', h.root, '--args', '{"path": "b.txt"}'], 'y\n');
    expect(cancelled.stdout).toBe('kept b.txt (False)\n');
  });

  it('a tool cannot forge events or its result, floods are bounded, a misused emitter is a clear error', async () => {
    const h = home(python, 'open-webui-hostile');
    const listed = JSON.parse((await runCli(h.home, ['tools', 'list', '--root', h.root, '--json'])).stdout) as { groups: { tools: { name: string }[] }[] };
    expect(listed.groups.flatMap((g) => g.tools.map((t) => t.name))).toEqual(['forge', 'flood', 'misuse']);
    const forged = JSON.parse((await run(h, 'forge', {}, ['--json'])).stdout);
    expect(forged).toMatchObject({ status: 'SUCCESS', data: 'the real result' });
    expect(forged.finalText).not.toContain('forged');
    expect(forged.logs).toContain('forged result'); // what it printed stays its logs
    const flood = JSON.parse((await run(h, 'flood', { n: 5000 }, ['--json'])).stdout);
    expect(flood.data).toBe('flooded');
    // The events the envelope lists are capped at 1000: the appended text is too.
    expect(flood.finalText).toBe(`flooded\n\n${'x'.repeat(1000)}`);
    expect(flood.warnings).toContain('4000 events after the first 1000 were dropped.');
    expect(flood.logs ?? '').not.toContain('event {');
    const misuse = JSON.parse((await run(h, 'misuse', {}, ['--json'])).stdout);
    expect(misuse.status).toBe('ERROR');
    expect(misuse.finalText).toContain('TypeError: __event_emitter__ takes a dict like {"type": "status", "data": {...}}, got str');
  });

  it('an HTMLResponse result is an app of the call (with the Apps shim), also saved with a link to open it', async () => {
    const h = home(python, 'open-webui-html');
    const result = JSON.parse((await run(h, 'chart', { title: 'Sales <2026>' }, ['--json'])).stdout);
    expect(result.status).toBe('SUCCESS');
    expect(result.app.uri).toMatch(/^ui:\/\/open-webui\/owui_page\/[A-Za-z0-9_-]+\.html$/);
    expect(result.data.resource).toMatchObject({ uri: result.app.uri, mimeType: 'text/html;profile=mcp-app' });
    expect(result.data.resource.text).toMatch(/^<!doctype html><script>\(\(\) => \{[\s\S]*'ui\/initialize'[\s\S]*<\/script><html><body><h1>Sales <2026><\/h1><\/body><\/html>$/);
    // The model reads the text, never the HTML.
    expect(result.finalText).not.toContain('<h1>');
    expect(result.finalText).toContain('shown to the user in the chat');
    const link = /(file:\/\/\S+\.html)/.exec(result.finalText)![1]!;
    expect(result.finalText).toContain('open it in a browser to see it');
    const file = fileURLToPath(link);
    expect(file.startsWith(join(h.home, 'cache', 'open-webui-html'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('<!doctype html><html><body><h1>Sales <2026></h1></body></html>');
  });

  it('without pydantic (Debian python3): diagnosed, defaults from the file, the stand-in runs valves', async () => {
    expect(existsSync(DEBIAN_PYTHON)).toBe(true);
    const h = home(DEBIAN_PYTHON, 'open-webui-demo', 'open-webui-html');
    const checked = await runCli(h.home, ['tools', 'check', '--root', h.root]);
    expect(checked.stdout).toContain(`owui_demo.py:1: warning: pydantic is not installed for ${DEBIAN_PYTHON}: Valves defaults are read from the file`);
    expect(checked.stdout).toContain(`${DEBIAN_PYTHON} -m pip install pydantic`);
    const config = await runCli(h.home, ['tools', 'config', 'owui_demo', '--root', h.root]);
    expect(config.stdout).toContain('REPEAT (integer) = 1 (default) — How many times');
    await runCli(h.home, ['tools', 'config', 'owui_demo', 'REPEAT=2', '--root', h.root]);
    const greeted = JSON.parse((await run(h, 'greet', { name: 'Ada' }, ['--json'])).stdout);
    expect(greeted.data).toBe('Hello, Ada (from friend as admin) Hello, Ada (from friend as admin)');
    expect(greeted.warnings).toContain('pydantic is not installed for this Python; Tooldesk used a minimal stand-in (no validation).');
    const counted = JSON.parse((await run(h, 'slow_count', { upto: 2 }, ['--json'])).stdout);
    expect(counted.data).toBe('counted to 2');
    expect(JSON.parse((await run(h, 'chart', { title: 'x' }, ['--json'])).stdout).finalText).toMatch(/file:\/\/.*\.html/);
  });
});

describe('secret valves', () => {
  const keyring = startHeadlessKeyring();
  afterAll(() => keyring?.stop());

  it('live in the keychain, never in tool-valves.json, and reach self.valves', async () => {
    expect(keyring, 'dbus-daemon and gnome-keyring-daemon are needed (apt-get install dbus gnome-keyring)').toBeDefined();
    const h = home(python, 'open-webui-demo');
    const env = keyring!.env;
    const set = await runCli(h.home, ['tools', 'config', 'owui_demo', 'SERVICE_API_KEY=-', '--root', h.root], 'sk-0123456789\n', env);
    expect(set.stdout).toContain('SERVICE_API_KEY (string, secret) = (set, in the keychain)');
    const stored = readFileSync(join(h.home, 'tool-valves.json'), 'utf8');
    expect(stored).not.toContain('sk-0123456789');
    expect(JSON.parse(stored)).toMatchObject({ owui_demo: { secrets: { valves: ['SERVICE_API_KEY'] } } });
    const ran = await runCli(h.home, ['tools', 'run', 'secret_length', '--root', h.root, '--args', '{}', '--yes'], '', env);
    expect(ran.stdout).toBe('key length 13\n');
    await runCli(h.home, ['tools', 'config', 'owui_demo', 'SERVICE_API_KEY=', '--root', h.root], '', env);
    expect((await runCli(h.home, ['tools', 'run', 'secret_length', '--root', h.root, '--args', '{}', '--yes'], '', env)).stdout).toBe('key length 0\n');
  });
});
