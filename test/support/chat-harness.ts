// Test helpers for the chat engine: a fresh TOOLDESK_HOME, settings pointing at a fake server,
// a demo tool group defined in code, and a SessionManager wired to them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEvent } from '../../shared/chat.ts';
import type { ApprovalDecision } from '../../shared/tools.ts';
import { SessionManager, type SessionManagerOptions } from '../../electron/runtime/chat/persistence/session-manager.ts';
import type { ChatSession } from '../../electron/runtime/chat/chat-session.ts';
import type { ToolSource } from '../../electron/runtime/tools/tool-session.ts';
import { openSettingsStore, type SettingsStore } from '../../electron/runtime/store/settings-store.ts';
import type { Tool, ToolGroup } from '../../electron/runtime/tools/types.ts';

export const tmpHome = () => mkdtempSync(join(tmpdir(), 'td-'));

export function fakeProviderSettings(settings: SettingsStore, url: string, extra: Record<string, unknown> = {}): void {
  settings.update({
    providers: [{ id: 'fake', name: 'Fake AI', kind: 'openai-compatible', baseURL: url, model: 'fake-model', ...extra }],
    activeProviderId: 'fake',
  } as never);
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

export interface DemoLog {
  running: number;
  maxConcurrent: number;
  calls: string[];
}

/** A tool group defined in code: echo, guarded (ask-always), slow (honours abort), big (long output). */
export function demoGroup(log: DemoLog = { running: 0, maxConcurrent: 0, calls: [] }): ToolGroup {
  const tool = (name: string, parameters: Record<string, unknown>, execute: Tool['execute'], extra: Partial<Tool> = {}): Tool => ({
    definition: { type: 'function', function: { name, description: `${name} (test tool)`, parameters } },
    permission: { executionPolicy: 'auto' },
    execute: async (args, ctx) => {
      log.calls.push(name);
      log.running++;
      log.maxConcurrent = Math.max(log.maxConcurrent, log.running);
      try {
        return await execute(args, ctx);
      } finally {
        log.running--;
      }
    },
    ...extra,
  });
  return {
    name: 'demo',
    rulePrompt: 'Demo tools: use echo to repeat text.',
    tools: [
      tool('echo', object({ text: { type: 'string' } }, ['text']), async (args) => ({ data: `echo: ${String(args.text)}` })),
      tool('guarded', object({ what: { type: 'string' } }), async (args) => ({ data: `guarded ran ${String(args.what ?? '')}` }), {
        permission: { executionPolicy: 'ask-always' },
      }),
      tool('slow', object({ ms: { type: 'number' } }), (args, ctx) =>
        new Promise((resolve, reject) => {
          ctx.onUpdate({ text: 'working…' });
          const timer = setTimeout(() => resolve({ data: `slept ${String(args.ms)}` }), Number(args.ms ?? 200));
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('stopped'));
          });
        }),
      ),
      tool('big', object({ lines: { type: 'number' } }), async (args) => ({
        data: Array.from({ length: Number(args.lines ?? 3000) }, (_, i) => `line ${i + 1}`).join('\n'),
      })),
    ],
  };
}

export function staticTools(groups: ToolGroup[]): ToolSource {
  return { groups: () => groups };
}

export function makeManager(home: string, extra: Partial<SessionManagerOptions> = {}) {
  const settings = openSettingsStore(home);
  const manager = new SessionManager({ home, settings, tools: staticTools([demoGroup()]), ...extra });
  return { settings, manager };
}

/** Records a session's events; answers approvals with `answer` when given. */
export function recordEvents(session: ChatSession, answer?: (request: { toolName: string; args: Record<string, unknown> }) => ApprovalDecision) {
  const events: ChatEvent[] = [];
  const dispose = session.onEvent((event) => {
    events.push(event);
    if (answer && event.type === 'approval.requested') {
      const decision = answer(event.request);
      queueMicrotask(() => session.answerApproval(event.request.id, decision));
    }
  });
  return { events, dispose, types: () => events.map((e) => e.type) };
}
