// A chat's tool calls: each one runs through the chat's ToolSession with events (started,
// progress, finished), a unique call id within the session (variables are named after it), its
// own Cancel, its images kept as files of the session, its result bounded as the session keeps
// it, and the approval memory persisted when a call changed it. Also what one request offers
// (all enabled definitions, or FindTools and a few when they exceed the budget); FindTools is a
// built-in group of the chat's ToolSession (find-tools-group.ts), so it runs like any other call.
import type { ChatEvent, ChatMessage, ToolResultMessage } from '../../../../shared/chat.ts';
import type { ChatToolSelection } from '../../../../shared/tool-selection.ts';
import { DEFAULT_LIMITS, type Settings } from '../../../../shared/settings.ts';
import type { ToolDefinition, ToolExecuteResult } from '../../../../shared/tools.ts';
import type { LlmToolCall } from '../../llm/types.ts';
import { appOnly } from '../../apps/app-visibility.ts';
import type { SavedResult } from '../../tools/result/saved-result.ts';
import type { ToolSession } from '../../tools/tool-session.ts';
import type { ToolContext } from '../../tools/types.ts';
import { boundToolResult, type BoundOptions } from './bound-tool-result.ts';
import type { SessionAttachments } from '../persistence/session-attachments.ts';
import type { SessionRecord } from '../persistence/session-records.ts';
import { createFindToolsGroup } from './find-tools-group.ts';
import { toChatToolCall } from '../turn/stream-assistant-step.ts';
import { ToolBudget } from './tool-budget.ts';
import type { TurnGate } from '../turn/turn-gate.ts';

export interface ChatToolCallsPorts {
  sessionId: string;
  tools: ToolSession;
  attachments: SessionAttachments;
  settings: () => Settings;
  storedResult?: BoundOptions;
  /** Contract: never throws (an emitter's fire). */
  emit(event: ChatEvent): void;
  /** Writes a record to the session file (throws a FileError when the disk refuses). */
  record(record: SessionRecord): void;
  newId(prefix: string): string;
  /** What a call may know of its chat (ToolContext.conversation). Contract: cheap, never throws. */
  conversation?: ToolContext['conversation'];
}

export class ChatToolCalls {
  readonly #ports: ChatToolCallsPorts;
  readonly #usedCallIds = new Set<string>();
  /** Running calls by the call id the events carry, so one call can be cancelled alone. */
  readonly #running = new Map<string, AbortController>();
  /** Images stored by calls of this run (file → type), readable before their message is appended. */
  readonly #newImages = new Map<string, string>();
  readonly #budget: ToolBudget;
  #approvalMemoryJson: string;
  #foundCount: number;

  /** `found`: the tools FindTools found in this chat before (saved with it). */
  constructor(ports: ChatToolCallsPorts, history: readonly { role: string; callId?: string; result?: ToolExecuteResult }[], found: readonly string[] = []) {
    this.#ports = ports;
    this.#budget = new ToolBudget(found);
    this.#foundCount = this.#budget.found().length;
    for (const m of history) if (m.role === 'tool') this.#usedCallIds.add(m.result?.callId ?? m.callId ?? '');
    this.#approvalMemoryJson = JSON.stringify(ports.tools.exportApprovalMemory());
    const { tools } = ports;
    tools.addBuiltinGroup(createFindToolsGroup(this.#budget, () => tools.definitions()));
  }

  /**
   * Runs one call with events; the tool message it returns is not yet appended. Never rejects.
   * `askAgain`: the user is asked first whatever the policy says, with this note (a call a restart cut off).
   */
  async run(call: LlmToolCall, signal: AbortSignal, options: { rerunOf?: string; fromApp?: string; askAgain?: string; savedResult?: SavedResult } = {}): Promise<ToolResultMessage> {
    const { rerunOf, fromApp, askAgain, savedResult } = options;
    const { tools, sessionId } = this.#ports;
    // Variables are named after the call id: keep them unique within the session.
    let callId = call.id;
    for (let n = 2; this.#usedCallIds.has(callId); n++) callId = `${call.id}_${n}`;
    this.#usedCallIds.add(callId);
    const display = toChatToolCall(call);
    const groupName = tools.groupOf(call.name);
    const summary = tools.summarize(call.name, display.args);
    this.#ports.emit({ type: 'tool.started', sessionId, callId: call.id, toolName: call.name, groupName, args: display.args, ...(summary ? { summary } : {}), ...(rerunOf ? { rerunOf } : {}), ...(fromApp ? { fromApp } : {}) });
    // Its own controller, so cancel() stops this call and not the turn.
    const controller = new AbortController();
    this.#running.set(call.id, controller);
    const result = await tools
      .execute(call.name, call.arguments, {
        callId,
        signal: AbortSignal.any([signal, controller.signal]),
        onUpdate: (update) => this.#ports.emit({ type: 'tool.progress', sessionId, callId: call.id, update }),
        ...(this.#ports.conversation ? { conversation: this.#ports.conversation } : {}),
        ...(askAgain !== undefined ? { askAgain } : {}),
        ...(savedResult ? { savedResult } : {}),
      })
      .finally(() => {
        if (this.#running.get(call.id) === controller) this.#running.delete(call.id);
      });
    // Stopped by the user (this call's Cancel, or the turn's Stop): "cancelled", not a failure.
    const stopped = controller.signal.aborted || signal.aborted;
    if (stopped && (result.status === 'ERROR' || result.status === 'EXECUTION_REJECTED' || result.status === 'RESULT_REJECTED')) result.cancelled = true;
    // Image bytes go to files of the session; the result keeps their names.
    if (result.images?.length) result.images = this.#keepImages(result.images, callId);
    // Events, history and the file all carry the bounded result: what a reopened session shows.
    const bounded = boundToolResult(result, this.#ports.storedResult);
    this.#ports.emit({ type: 'tool.finished', sessionId, callId: call.id, toolName: call.name, result: bounded.result });
    this.#persistApprovalMemory();
    this.#persistFound();
    const message = this.message(call, display.args, bounded.result, groupName);
    if (bounded.cut) message.cut = bounded.cut;
    if (rerunOf) message.rerunOf = rerunOf;
    if (fromApp) message.fromApp = fromApp;
    return message;
  }

  /**
   * A tool run by hand (the API's runTool, an app's call, "Run again"): holds the turn gate (a
   * running turn refuses it, or with `wait` it queues behind the turn), then `append`s its message.
   */
  async runByHand(turns: TurnGate, call: LlmToolCall, append: (message: ToolResultMessage) => void, options: { rerunOf?: string; fromApp?: string; wait?: AbortSignal }): Promise<ToolExecuteResult> {
    const { wait, ...marks } = options;
    const ran = await turns.exclusive(async (signal) => {
      const message = await this.run(call, signal, marks);
      append(message);
      return message.result;
    }, wait);
    return ran.ok ? ran.value : { status: 'ERROR', error: ran.message, finalText: ran.message };
  }

  /** The tool message of a call and its result. */
  message(call: LlmToolCall, args: Record<string, unknown>, result: ToolExecuteResult, groupName?: string): ToolResultMessage {
    return {
      id: this.#ports.newId('msg'),
      role: 'tool',
      createdAt: Date.now(),
      callId: call.id,
      toolName: call.name,
      ...(groupName ? { groupName } : {}),
      args,
      content: result.finalText,
      result,
    };
  }

  /** False when no such call is running (it already finished). */
  cancel(callId: string): boolean {
    const controller = this.#running.get(callId);
    if (!controller) return false;
    controller.abort(new Error('cancelled by the user'));
    return true;
  }

  /** The definitions one request carries: all enabled ones, or FindTools and a few when they exceed the budget. */
  offered(selection: ChatToolSelection | null): { tools: ToolDefinition[]; rule?: string } {
    const { tools } = this.#ports;
    // Tools only an app may call (`_meta.ui.visibility: ["app"]`) are never offered to the model.
    const all = tools.definitions().filter((d) => !appOnly(tools.toolMeta(d.function.name)));
    const pinnedNames = new Set(selection?.pinned ?? []);
    const pinned = new Set<string>();
    if (pinnedNames.size > 0) {
      for (const name of pinnedNames) {
        const tool = tools.tool(name);
        if (tool && tool.name === name) pinned.add(tool.modelName);
      }
    }
    const budget = this.#ports.settings().limits.toolDefinitionBudgetChars ?? DEFAULT_LIMITS.toolDefinitionBudgetChars;
    const offered = this.#budget.offer(all, pinned, budget);
    return offered.rule ? { tools: offered.tools, rule: offered.rule } : { tools: offered.tools };
  }

  /** An image one of this session's tool calls returned (only those: not any file of the session). */
  image(stored: string, history: readonly ChatMessage[]): { mimeType: string; data: string } | null {
    // Calls of a step still running are not in the history yet, but the chat shows them already.
    let mimeType = this.#newImages.get(stored);
    for (const message of history) {
      if (mimeType) break;
      if (message.role === 'tool') mimeType = message.result.images?.find((i) => i.stored === stored)?.mimeType;
      // An image the user attached is shown the same way (its chip's picture).
      if (message.role === 'user') mimeType = message.attachments?.find((a) => a.kind === 'image' && a.stored === stored)?.mediaType;
    }
    const bytes = mimeType ? this.#ports.attachments.read(stored) : null;
    return mimeType && bytes ? { mimeType, data: bytes.toString('base64') } : null;
  }

  #persistApprovalMemory(): void {
    const data = this.#ports.tools.exportApprovalMemory();
    const json = JSON.stringify(data);
    if (json === this.#approvalMemoryJson) return;
    this.#approvalMemoryJson = json;
    this.#ports.record({ t: 'approval-memory', at: Date.now(), data });
  }

  /** What FindTools found is saved with the chat, so a reopened chat still offers it. */
  #persistFound(): void {
    const names = this.#budget.found();
    if (names.length === this.#foundCount) return;
    this.#foundCount = names.length;
    this.#ports.record({ t: 'found-tools', at: Date.now(), names });
  }

  #keepImages(images: NonNullable<ToolExecuteResult['images']>, callId: string): NonNullable<ToolExecuteResult['images']> {
    try {
      const kept = this.#ports.attachments.storeToolImages(images, `tool-${callId}`);
      for (const image of kept) if (image.stored) this.#newImages.set(image.stored, image.mimeType);
      return kept;
    } catch (error) {
      // A full disk loses the images, not the result.
      const note = `not kept: ${(error as Error).message}`;
      return images.map(({ data: _bytes, ...image }) => ({ ...image, note }));
    }
  }
}

/** What "Run again" of `callId` runs: the same tool with the arguments it ran with (the user's edits, when there were any), or `args`. */
export function rerunOf(
  history: readonly ChatMessage[],
  callId: string,
  args?: Record<string, unknown>,
): { name: string; args: Record<string, unknown>; rerunOf: string } | ToolExecuteResult {
  const first = history.find((m): m is ToolResultMessage => m.role === 'tool' && (m.callId === callId || m.result.callId === callId));
  if (!first) {
    const message = `No finished tool call "${callId}" in this session to run again.`;
    return { status: 'NOT_FOUND', error: message, finalText: message };
  }
  return { name: first.toolName, args: args ?? first.result.editedArgs ?? first.args ?? {}, rerunOf: first.rerunOf ?? first.callId };
}
