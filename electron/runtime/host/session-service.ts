// The chat side of the API over the SessionManager / ChatSession.
import { apiError } from '../../../shared/api.ts';
import type { SessionManager } from '../chat/session-manager.ts';
import type { ChatSession } from '../chat/chat-session.ts';
import type { VariableSystem } from '../tools/variable-system.ts';
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

export function createSessionService(manager: SessionManager): SessionService {
  const session = (id: string): ChatSession => {
    if (!manager.exists(id)) throw apiError('NotFoundError', `no session "${id}"`);
    return manager.open(id);
  };
  return {
    list: async () => manager.list(),
    create: async (title) => manager.create(title === undefined ? {} : { title }).info,
    open: async (id) => {
      const s = session(id);
      const asks = s.pendingMcpInteractions();
      return { session: s.info, messages: s.messages(), pendingApprovals: s.pendingApprovals(), running: s.running, toolSelection: s.toolSelection(), ...(asks.length ? { pendingMcpInteractions: asks } : {}) };
    },
    rename: async (id, title) => {
      session(id);
      return manager.rename(id, title);
    },
    delete: async (id) => {
      if (!manager.delete(id)) throw apiError('NotFoundError', `no session "${id}"`);
    },
    search: async (query) => manager.search(query),
    send: async (id, text) => {
      const started = session(id).send(text);
      if (!started.ok) throw apiError(started.error.name, started.error.message);
      // The outcome arrives as a `session.turn` finished event; the promise itself never rejects.
      void started.done.catch(() => {});
      return { turnId: started.turnId };
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
    variables: async (id) => variableAccess(session(id).variables),
    onEvent: (listener) => manager.onEvent(listener),
  };
}
