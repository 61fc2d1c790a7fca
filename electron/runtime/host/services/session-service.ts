// The chat side of the API over the SessionManager / ChatSession.
import { apiError } from '../../../../shared/api.ts';
import type { SessionManager } from '../../chat/persistence/session-manager.ts';
import type { ChatSession, SendResult } from '../../chat/chat-session.ts';
import { exportSession } from '../../chat/persistence/export-session.ts';
import { sleep } from '../../llm/retry-policy.ts';
import { watchSessionsFolder } from '../../chat/persistence/watch-sessions-folder.ts';
import type { VariableSystem } from '../../tools/variables/variable-system.ts';
import type { SessionService, VariableAccess } from './services.ts';

function variableAccess(variables: VariableSystem): VariableAccess {
  return {
    list: ({ type, search }) => variables.list({ ...(type ? { type } : {}), ...(search ? { search } : {}) }).items,
    // slice peeks: looking at a variable in the UI must not reorder the eviction queue.
    read: (name, start, length) => variables.slice(name, start, length),
    remove: (name) => {
      if (variables.peek(name)?.type === 'RULE') throw apiError('VariableError', `"${name}" is a rule; rules are kept for as long as their tool group is loaded`);
      return variables.remove(name);
    },
  };
}

/** A started turn's id; a refusal (busy, empty, closed) becomes the API error. */
function started(result: SendResult): { turnId: string } {
  if (!result.ok) throw apiError(result.error.name, result.error.message);
  // The outcome arrives as a `session.turn` finished event; the promise itself never rejects.
  void result.done.catch(() => {});
  return { turnId: result.turnId };
}

/**
 * Continues a turn a restart cut off while a call waited for approval, so the card is back as it
 * was; resolves once the question is asked again (or the turn ended), so the snapshot holds it.
 */
async function resumeWaiting(session: ChatSession): Promise<void> {
  let dispose = () => {};
  const asked = new Promise<void>((resolve) => {
    dispose = session.onEvent((event) => {
      if (event.type === 'approval.requested' || (event.type === 'session.turn' && event.state === 'finished')) resolve();
    });
  });
  const result = session.continueTurn();
  const waited = new AbortController();
  if (result.ok) {
    void result.done.catch(() => {});
    await Promise.race([asked, result.done, sleep(RESUME_WAIT_MS, waited.signal)]);
  }
  waited.abort();
  dispose();
}

/** How long opening waits for a resumed turn to ask again (a tool that validates slowly); the card comes as an event after. */
const RESUME_WAIT_MS = 5000;

export function createSessionService(manager: SessionManager): SessionService {
  const session = (id: string): ChatSession => {
    if (!manager.exists(id)) throw apiError('NotFoundError', `no session "${id}"`);
    return manager.open(id);
  };
  return {
    list: async () => manager.list(),
    create: async (title, chat) => manager.create({ ...(title === undefined ? {} : { title }), ...(chat ? { chat } : {}) }).info,
    open: async (id) => {
      const s = session(id);
      if (s.interruption()?.during === 'approval' && !s.running) await resumeWaiting(s);
      const asks = s.pendingMcpInteractions();
      const interrupted = s.interruption();
      return {
        session: s.info,
        messages: s.messages(),
        pendingApprovals: s.pendingApprovals(),
        running: s.running,
        toolSelection: s.toolSelection(),
        branches: s.branches(),
        chat: s.chatSettings(),
        ...(asks.length ? { pendingMcpInteractions: asks } : {}),
        ...(interrupted ? { interrupted } : {}),
      };
    },
    rename: async (id, title) => {
      session(id);
      return manager.rename(id, title);
    },
    setFlags: async (id, flags) => {
      session(id);
      return manager.setFlags(id, flags);
    },
    delete: async (id) => {
      if (!manager.delete(id)) throw apiError('NotFoundError', `no session "${id}"`);
    },
    search: async (query) => manager.search(query),
    send: async (id, text, options = {}) => {
      const target = session(id);
      // Files are stored (and PDFs read) before the turn starts: a bad file fails the send, nothing is half-sent.
      const messageId = options.messageId;
      if (messageId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(messageId)) throw apiError('InvalidRequestError', 'sendMessage: messageId may hold letters, digits, _ and - only');
      const attachments = [];
      for (const [index, upload] of (options.attachments ?? []).entries()) {
        try {
          attachments.push(await target.storeAttachment(upload, `${messageId ?? Date.now().toString(36)}-${index + 1}`));
        } catch (error) {
          throw apiError('AttachmentError', (error as Error).message);
        }
      }
      return started(target.send(text, { ...(messageId ? { messageId } : {}), ...(attachments.length ? { attachments } : {}), ...(options.prompt ? { prompt: options.prompt } : {}) }));
    },
    edit: async (id, messageId, text) => started(session(id).edit(messageId, text)),
    regenerate: async (id, messageId) => started(session(id).regenerate(messageId)),
    continueTurn: async (id) => started(session(id).continueTurn()),
    switchBranch: async (id, messageId) => {
      if (!session(id).switchBranch(messageId)) throw apiError('NotFoundError', `cannot switch to "${messageId}" (no such message, or a turn is running)`);
    },
    deleteMessage: async (id, messageId) => {
      if (!session(id).deleteMessage(messageId)) throw apiError('NotFoundError', `cannot delete "${messageId}" (no such message, or a turn is running)`);
    },
    setChatSettings: async (id, chat) => {
      session(id);
      return manager.setChatSettings(id, chat);
    },
    export: async (id, format) => {
      const s = session(id);
      return exportSession({ info: s.info, messages: s.messages(), allMessages: s.allMessages(), chat: s.chatSettings() }, format);
    },
    abort: async (id) => {
      session(id).abort();
    },
    answerApproval: async (id, requestId, decision) => session(id).answerApproval(requestId, decision),
    answerMcpInteraction: async (id, requestId, answer) => session(id).answerMcpInteraction(requestId, answer),
    cancelToolCall: async (id, callId) => session(id).cancelToolCall(callId),
    runTool: async (id, name, args) => session(id).runTool(name, args),
    rerunToolCall: async (id, callId, args) => session(id).rerunToolCall(callId, args),
    checkToolArgs: async (id, name, args) => session(id).checkToolArgs(name, args),
    setToolSelection: async (id, selection) => session(id).setToolSelection(selection),
    readToolImage: async (id, stored) => session(id).toolImage(stored),
    variables: async (id) => variableAccess(session(id).tools.variables),
    onEvent: (listener) => manager.onEvent(listener),
    onListChanged: (listener) => watchSessionsFolder(manager.dir, listener),
  };
}
