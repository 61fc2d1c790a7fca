// Attempts to get past a deny rule: path traversal, symlinks, look-alike tool names, $VAR_REF
// that expands into a denied path after the model wrote only a reference, levels and "always"
// that must not outrank deny, and a chat whose level changes between two calls of one turn.
// Real executor, real settings file, a tool that really reads files.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolRule } from '../../shared/permissions.ts';
import type { ApprovalRequest } from '../../shared/tools.ts';
import { openSettingsStore, type SettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { settingsPermissionStore } from '../../electron/runtime/store/permission-store.ts';
import { bookCallGuard } from '../../electron/runtime/tools/rules/book-call-guard.ts';
import { RuleBook } from '../../electron/runtime/tools/rules/rule-book.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../electron/runtime/tools/types.ts';
import { fakeProviderSettings, makeManager, recordEvents, staticTools } from '../support/chat-harness.ts';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { tempHomes } from '../support/temp-homes.ts';

const homes = tempHomes();

function makeManagerOver(store: SettingsStore, ruleBook: RuleBook) {
  return { manager: new SessionManager({ home, settings: store, tools: staticTools([{ name: 'files', tools: [{ ...readTool(), permission: { executionPolicy: 'ask-always' } }] }]), ruleBook }) };
}
afterAll(() => homes.removeAll());

let home: string;
let settings: SettingsStore;
let book: RuleBook;
let reads: string[];

/** Reads the file it is given (~ is the test home): what every rule here must keep from running. */
function readTool(name = 'read_file'): Tool {
  return {
    definition: { type: 'function', function: { name, description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' }, extra: {} }, required: ['path'] } } },
    permission: { executionPolicy: 'auto' },
    source: { format: 'script', file: join(home, 'tools', name, 'tool.json') },
    execute: async (args) => {
      const path = String(args.path).replace(/^~(?=\/|$)/, home);
      reads.push(path);
      return { data: readFileSync(path, 'utf8') };
    },
  };
}

function executor(options: { level?: 'ask' | 'default' | 'read-only-auto' | 'trusted'; approve?: (r: ApprovalRequest) => 'once' | 'always' | 'reject' } = {}, tools: Tool[] = [readTool()]) {
  const asked: ApprovalRequest[] = [];
  const ex = new ToolExecutor({
    sessionId: 'hostile',
    permissions: settingsPermissionStore(settings),
    guard: bookCallGuard(book),
    ...(options.level ? { permissionLevel: options.level } : {}),
    ...(options.approve ? { approve: async (r) => (asked.push(r), { decision: options.approve!(r) }) } : {}),
  });
  ex.registerToolGroup({ name: 'files', tools });
  ex.toggleGroupEnabled('files', true);
  return { ex, asked };
}

function rules(list: ToolRule[]): void {
  settings.set('toolRules', list);
}

beforeEach(() => {
  home = homes.make();
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh/id_rsa'), 'PRIVATE-KEY');
  mkdirSync(join(home, 'projects/app'), { recursive: true });
  writeFileSync(join(home, 'projects/app/readme.md'), 'readme');
  settings = openSettingsStore(home);
  settings.set('workingDir', join(home, 'projects'));
  book = new RuleBook({ get: () => settings.get(), onDidChange: (l) => settings.onDidChange(() => l()) }, { home });
  reads = [];
});
afterEach(() => {
  book.close();
  settings.close();
});

const SSH_DENY: ToolRule = { action: 'deny', tool: '*', where: [{ path: 'path', prefix: '~/.ssh' }], reason: 'keys stay private' };

describe('rule bypass attempts', () => {
  it('path traversal in every spelling is denied before the tool runs', async () => {
    rules([SSH_DENY]);
    const { ex } = executor({ level: 'trusted' });
    const spellings = [
      '~/.ssh/id_rsa',
      '~/projects/../.ssh/id_rsa',
      `${home}/projects/app/../../.ssh/id_rsa`,
      '../.ssh/id_rsa', // relative to the working folder (projects)
      'app/../../.ssh/id_rsa',
      `${home}//.ssh//id_rsa`,
      `${home}/./.ssh/./id_rsa`,
      '~/.ssh/',
      '~/.ssh',
      `file://${home}/.ssh/id_rsa`,
    ];
    for (const path of spellings) {
      const result = await ex.execute('read_file', { path });
      expect(result.status, path).toBe('EXECUTION_REJECTED');
      expect(result.finalText).toContain('Denied by rule 1: keys stay private');
    }
    expect(reads).toEqual([]);
    // A neighbour whose name starts the same is not the folder.
    mkdirSync(join(home, '.ssh-public'));
    writeFileSync(join(home, '.ssh-public/key.pub'), 'public');
    expect((await ex.execute('read_file', { path: '~/.ssh-public/key.pub' })).status).toBe('SUCCESS');
  });

  it('symlinks into the denied folder are resolved: a link to it, a chain of links, a link to the file', async () => {
    rules([SSH_DENY]);
    symlinkSync(join(home, '.ssh'), join(home, 'projects/keys'));
    symlinkSync(join(home, 'projects/keys'), join(home, 'projects/app/more-keys'));
    symlinkSync(join(home, '.ssh/id_rsa'), join(home, 'projects/app/innocent.txt'));
    const { ex } = executor({ level: 'trusted' });
    for (const path of ['~/projects/keys/id_rsa', `${home}/projects/app/more-keys/id_rsa`, 'app/innocent.txt', '~/projects/keys/not-yet/../id_rsa']) {
      expect((await ex.execute('read_file', { path })).status, path).toBe('EXECUTION_REJECTED');
    }
    expect(reads).toEqual([]);
  });

  it('an allow rule never covers a path that only looks inside its folder', async () => {
    rules([{ action: 'allow', tool: 'read_file', where: [{ path: 'path', glob: '~/projects/**' }] }]);
    symlinkSync(join(home, '.ssh'), join(home, 'projects/keys'));
    const { ex, asked } = executor({ approve: () => 'reject' }, [{ ...readTool(), permission: { executionPolicy: 'ask-always' } }]);
    expect((await ex.execute('read_file', { path: '~/projects/app/readme.md' })).status).toBe('SUCCESS');
    expect(asked).toHaveLength(0);
    for (const path of ['~/projects/../.ssh/id_rsa', '~/projects/keys/id_rsa']) {
      expect((await ex.execute('read_file', { path })).status).toBe('EXECUTION_REJECTED');
    }
    // Not allowed by the rule, so the tool's policy asked (and the user said no).
    expect(asked.map((r) => r.args.path)).toEqual(['~/projects/../.ssh/id_rsa', '~/projects/keys/id_rsa']);
    expect(reads).toEqual([join(home, 'projects/app/readme.md')]);
  });

  it('look-alike letters in a tool name do not escape a deny, nor earn an allow', async () => {
    rules([{ action: 'deny', tool: 'read_*', reason: 'no reading' }, { action: 'allow', tool: 'rеad_notes' }]);
    const cyrillic = readTool('rеad_file'); // е is Cyrillic
    const fullwidth = readTool('ｒead_file');
    const hidden = readTool('re\u200bad_file');
    const notes = readTool('rеad_notes');
    const { ex } = executor({ level: 'trusted' }, [cyrillic, fullwidth, hidden]);
    for (const name of ['rеad_file', 'ｒead_file', 're\u200bad_file']) {
      const result = await ex.execute(name, { path: '~/projects/app/readme.md' });
      expect(result.status, name).toBe('EXECUTION_REJECTED');
      expect(result.finalText).toContain('Denied by rule 1: no reading');
    }
    // The allow rule names the look-alike exactly, but the deny (on its skeleton) still wins.
    const other = executor({ level: 'trusted' }, [notes]).ex;
    expect((await other.execute('rеad_notes', { path: '~/projects/app/readme.md' })).status).toBe('EXECUTION_REJECTED');
    expect(reads).toEqual([]);
  });

  it('$VAR_REF that expands into a denied path is judged on what it expands to', async () => {
    rules([SSH_DENY]);
    const { ex } = executor({ level: 'trusted' });
    ex.variables.add('target', '~/.ssh/id_rsa', 'ToolCallResult');
    ex.variables.add('half', '~/.ss', 'ToolCallResult');
    ex.variables.add('up', '../.ssh/id_rsa', 'ToolCallResult');
    for (const path of ['$VAR_REF{{target}}', '$VAR_REF{{half}}h/id_rsa', '~/projects/$VAR_REF{{up}}', '$VAR_REF{{target:0:6}}/id_rsa']) {
      const result = await ex.execute('read_file', { path });
      expect(result.status, path).toBe('EXECUTION_REJECTED');
    }
    expect(reads).toEqual([]);
  });

  it('deny outranks "always", an auto override, the trusted level and a human who would say yes', async () => {
    rules([{ action: 'allow', tool: '*' }, SSH_DENY]);
    settings.set('permissionOverrides', { read_file: { executionPolicy: 'auto' } });
    const { ex, asked } = executor({ level: 'trusted', approve: () => 'always' });
    expect((await ex.execute('read_file', { path: '~/.ssh/id_rsa' })).status).toBe('EXECUTION_REJECTED');
    expect(asked).toEqual([]);
    const askAll = executor({ level: 'ask', approve: () => 'once' });
    expect((await askAll.ex.execute('read_file', { path: '~/.ssh/id_rsa' })).status).toBe('EXECUTION_REJECTED');
    expect(askAll.asked).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('a deny rule that cannot compile denies its tools instead of protecting nothing', async () => {
    settings.set('toolRules', [{ action: 'deny', tool: 'read_file', where: [{ path: 'path', regex: '(unclosed' }] }]);
    const { ex } = executor({ level: 'trusted' });
    const result = await ex.execute('read_file', { path: '~/projects/app/readme.md' });
    expect(result.status).toBe('EXECUTION_REJECTED');
    expect(result.finalText).toMatch(/rule 1 cannot be used \(where\[0\]\.regex: invalid regular expression/);
    expect(reads).toEqual([]);
  });

  it('strings deep in nested arguments are seen by a rule without a path', async () => {
    rules([{ action: 'deny', tool: '*', where: [{ glob: '~/.ssh/**' }] }]);
    const { ex } = executor({ level: 'trusted' });
    let nested: unknown = '~/projects/../.ssh/id_rsa';
    for (let i = 0; i < 20; i++) nested = i % 2 ? [nested] : { deeper: nested };
    expect((await ex.execute('read_file', { path: '~/projects/app/readme.md', extra: nested })).status).toBe('EXECUTION_REJECTED');
  });
});

describe('rules in a chat (fake model)', () => {
  let server: FakeOpenAIServer;
  afterEach(async () => server?.close());

  it('returns the reason to the model, shows "Denied by rule N" in the chat, and a level change applies to the next call', async () => {
    server = await startFakeOpenAI({
      turns: [
        fakeTurn.toolCall('read_file', { path: '~/projects/../.ssh/id_rsa' }),
        fakeTurn.toolCall('read_file', { path: '~/projects/app/readme.md' }),
        fakeTurn.toolCall('read_file', { path: '~/projects/app/readme.md' }),
        fakeTurn.text('done'),
      ],
    });
    // One settings store for the chat and its rules (afterEach closes them).
    book.close();
    settings.close();
    const { settings: chatSettings, manager } = makeManager(home, { tools: staticTools([{ name: 'files', tools: [{ ...readTool(), permission: { executionPolicy: 'ask-always' } }] }]) });
    settings = chatSettings;
    book = new RuleBook({ get: () => settings.get(), onDidChange: (l) => settings.onDidChange(() => l()) }, { home });
    manager.closeAll();
    const { manager: withRules } = makeManagerOver(settings, book);
    try {
      fakeProviderSettings(chatSettings, server.url);
      chatSettings.set('groupDefaults', { files: true });
      rules([SSH_DENY]);
      const session = withRules.create();
      session.setChatSettings({ permissions: 'trusted' });
      let approvals = 0;
      const recorder = recordEvents(session, () => {
        approvals++;
        return { decision: 'once' };
      });
      // The second call (trusted) runs without asking; switch to "ask" then, for the third.
      const onSecond = session.onEvent((event) => {
        if (event.type === 'tool.finished' && reads.length === 1) session.setChatSettings({ permissions: 'ask' });
      });
      const outcome = await (session.send('read my files') as { done: Promise<{ stopReason: string }> }).done;
      onSecond();
      recorder.dispose();
      expect(outcome.stopReason).toBe('stop');
      const toolMessages = session.messages().filter((m) => m.role === 'tool');
      expect(toolMessages.map((m) => (m.role === 'tool' ? m.result.status : ''))).toEqual(['EXECUTION_REJECTED', 'SUCCESS', 'SUCCESS']);
      const first = toolMessages[0]!;
      expect(first.role === 'tool' && first.result.rejectReason).toBe('Denied by rule 1: keys stay private');
      // What the model read in its next request.
      const sent = JSON.stringify(server.chatRequests()[1]!.body.messages);
      expect(sent).toContain('Denied by rule 1: keys stay private');
      expect(approvals).toBe(1);
      expect(reads).toEqual([join(home, 'projects/app/readme.md'), join(home, 'projects/app/readme.md')]);
      // The header's level is stored with the chat.
      expect(session.chatSettings().permissions).toBe('ask');
    } finally {
      withRules.closeAll();
    }
  }, 60_000);

  it('/toolset NAME picks a tool set without asking the model: its tools, its level; an unknown one is refused', async () => {
    server = await startFakeOpenAI({ turns: [fakeTurn.text('unused')] });
    book.close();
    settings.close();
    const { settings: chatSettings, manager } = makeManager(home, { tools: staticTools([]) });
    manager.closeAll();
    settings = chatSettings;
    book = new RuleBook({ get: () => settings.get(), onDidChange: (l) => settings.onDidChange(() => l()) }, { home });
    const { manager: withRules } = makeManagerOver(settings, book);
    try {
      fakeProviderSettings(settings, server.url);
      settings.set('groupDefaults', { files: true });
      settings.set('toolSets', [{ name: 'nothing', tools: ['no_such_tool'], level: 'trusted' }]);
      const session = withRules.create();
      expect(session.tools.definitions().map((d) => d.function.name)).toContain('read_file');
      const picked = await (session.send('/toolset nothing') as { done: Promise<{ stopReason: string }> }).done;
      expect(picked.stopReason).toBe('stop');
      expect(session.chatSettings().toolSet).toBe('nothing');
      expect(session.tools.permissionLevel()).toBe('trusted');
      expect(session.tools.definitions().map((d) => d.function.name)).not.toContain('read_file');
      const unknown = await (session.send('/toolset nope') as { done: Promise<{ stopReason: string; error?: { message: string } }> }).done;
      expect(unknown.error?.message).toBe('No tool set named "nope". There are: nothing.');
      await (session.send('/toolset none') as { done: Promise<unknown> }).done;
      expect(session.chatSettings().toolSet).toBeUndefined();
      expect(session.tools.permissionLevel()).toBe('default');
      expect(session.tools.definitions().map((d) => d.function.name)).toContain('read_file');
      expect(server.chatRequests()).toHaveLength(0);
      expect(session.messages()).toHaveLength(0);
    } finally {
      withRules.closeAll();
    }
  }, 60_000);
});
