// The app's store and the actions the UI calls. Events flow in through applyEvent; actions call
// the API and, where the server answers with fresh state, apply it the same way.
import { createStore, produce, reconcile } from 'solid-js/store';
import { batch } from 'solid-js';
import { API_ERRORS, type ApiEvent, type AttachmentUpload, type ExportFormat, type TooldeskApi } from '../../../shared/api.ts';
import type { ChatSettings } from '../../../shared/chat.ts';
import type { ApprovalDecision } from '../../../shared/tools.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import { emptyAppState, type AppState } from './app-state.ts';
import { applyEvent, applySnapshot } from './apply-event.ts';

/** The connection the store waits on to resend (browser mode); IPC is always open. */
export interface StoreConnection {
  state(): 'connecting' | 'open' | 'closed';
  onConnectionChange(listener: (state: 'connecting' | 'open' | 'closed') => void): () => void;
}

/** Where the message being sent is: 'waiting' = kept until the connection is back. */
export type SendState = 'idle' | 'sending' | 'waiting';

/** A message sent while its chat's turn ran: it goes out, in order, when the turn is over. */
export interface QueuedMessage {
  id: string;
  text: string;
  attachments?: AttachmentUpload[];
}

export interface AppStore {
  state: AppState;
  api: TooldeskApi;
  /** Loads sessions, tools and settings; opens the current or most recent session (or creates one). */
  init(): Promise<void>;
  openSession(sessionId: string): Promise<void>;
  /** "+ New chat": a draft; the session is stored with its first message. */
  newSession(): Promise<void>;
  /**
   * Sends a message to the open chat (creating the draft's session first). Resolves true once the
   * runtime accepted it; while the connection is down it waits and resends the same message
   * (the runtime stores it once). False when it was refused (the error is shown).
   */
  send(text: string, attachments?: AttachmentUpload[]): Promise<boolean>;
  sendState: () => SendState;
  /** Messages of a chat waiting for its running turn to end (sent then, in order). */
  queued(sessionId: string | null): QueuedMessage[];
  /** Takes a queued message back (Cancel); its text is returned for the message box. */
  unqueue(sessionId: string, id: string): QueuedMessage | undefined;
  /**
   * True while a chat's queued messages wait for the user: its turn was interrupted, and whether
   * the model goes on first (Continue, Retry) or the message goes now (Send) is theirs to say.
   */
  queueHeld(sessionId: string | null): boolean;
  /** Send: the held queue goes now, in order (the interruption ends with the first message). */
  sendQueued(sessionId: string): void;
  edit(messageId: string, text: string): Promise<void>;
  /** Regenerate an answer, or Retry a failed turn (answers again from the user message before `messageId`). */
  regenerate(messageId: string): Promise<void>;
  /** Continue the open chat's turn a restart interrupted (its calls are asked again, then the model goes on). */
  continueTurn(): Promise<void>;
  switchBranch(messageId: string): Promise<void>;
  deleteMessage(messageId: string): Promise<void>;
  /** The open chat's model and settings (the draft's, before it is stored). */
  setChatSettings(chat: ChatSettings): Promise<void>;
  exportSession(format: ExportFormat): Promise<{ fileName: string; content: string } | undefined>;
  abort(): Promise<void>;
  answer(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<void>;
  /** Stops one running tool call; the turn it belongs to goes on (the model gets a "cancelled" result). */
  cancelToolCall(sessionId: string, callId: string): Promise<void>;
  /** Stores the chat's choice of tools (null: back to the global switches). */
  /** The open chat's choice of tools (a draft keeps it until its session is created). */
  setToolSelection(sessionId: string | null, selection: ChatToolSelection | null): Promise<void>;
  /** The open chat's session id, creating the draft's session first (a run from the Tools panel). */
  ensureSession(): Promise<string | null>;
  /** "Run again" of a finished call; its new result arrives as events, under the first call. */
  rerunToolCall(sessionId: string, callId: string, args?: Record<string, unknown>): Promise<void>;
  /** Takes a tool's toast away (its close button, or its time is up). */
  dismissToast(sessionId: string, toastId: string): void;
  /** Applies a state the server returned (e.g. setSettings' answer) exactly like its event. */
  apply(event: ApiEvent): void;
  /** Runs an action; a failure becomes the error toast and resolves to undefined. */
  guard<T>(work: () => Promise<T>): Promise<T | undefined>;
  dispose(): void;
  /** Errors from actions, shown as a toast: one raised in a chat shows only while that chat is open. */
  error: () => string | null;
  setError(message: string | null): void;
}

const OPEN_CONNECTION: StoreConnection = { state: () => 'open', onConnectionChange: () => () => {} };

export function createAppStore(api: TooldeskApi, connection: StoreConnection = OPEN_CONNECTION): AppStore {
  const [state, setState] = createStore<AppState>(emptyAppState());
  const [ui, setUi] = createStore<{ error: { message: string; sessionId: string | null } | null; sendState: SendState; queues: Record<string, QueuedMessage[]> }>({
    error: null,
    sendState: 'idle',
    queues: {},
  });
  /** An error belongs to the chat open when it happened: it does not follow the user elsewhere. */
  const raise = (error: unknown) => setUi('error', { message: error instanceof Error ? error.message : String(error), sessionId: state.activeSessionId });
  const connected = () =>
    connection.state() === 'open'
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const stop = connection.onConnectionChange((s) => {
            if (s !== 'open') return;
            stop();
            resolve();
          });
        });
  const clientId = () => `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  /** Runs a turn-starting call; a lost connection waits for the next one and tries again. */
  const retrying = async <T>(work: () => Promise<T>): Promise<T> => {
    for (;;) {
      if (connection.state() !== 'open') {
        setUi('sendState', 'waiting');
        await connected();
      }
      setUi('sendState', 'sending');
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof Error && error.name === API_ERRORS.disconnected) || connection.state() === 'closed') throw error;
      }
    }
  };
  // Stream deltas arrive by the thousand per second: they are queued and applied together once
  // per animation frame. Any other event first flushes the queue, so order is kept.
  let queued: ApiEvent[] = [];
  let frame = 0;
  const flush = () => {
    frame = 0;
    if (queued.length === 0) return;
    const events = queued;
    queued = [];
    setState(produce((s) => events.forEach((e) => applyEvent(e, s))));
  };
  const apply = (event: ApiEvent) => {
    if (event.type === 'session.delta' && typeof requestAnimationFrame === 'function') {
      queued.push(event);
      frame ||= requestAnimationFrame(flush);
      return;
    }
    flush();
    // The tools come whole: merged into what is shown, so a group's row (and the switch the
    // keyboard is on) stays the same element when only its state changed.
    if (event.type === 'tools.changed') setState('tools', reconcile(event.tools, { key: 'name' }));
    else setState(produce((s) => applyEvent(event, s)));
    if (event.type === 'session.turn') drainQueues();
  };
  /** Sends each chat's first queued message once its turn is over (one at a time per chat). */
  const draining = new Set<string>();
  const interrupted = (sessionId: string) => !!state.chats[sessionId]?.rows.some((r) => r.kind === 'interrupted');
  const drainQueues = () => {
    for (const [sessionId, list] of Object.entries(ui.queues)) {
      if (list.length > 0 && state.chats[sessionId]?.running === false && !interrupted(sessionId)) sendNext(sessionId);
    }
  };
  /** Sends a chat's first queued message; the next one waits for the turn it starts to end. */
  const sendNext = (sessionId: string) => {
    const next = ui.queues[sessionId]?.[0];
    if (!next || draining.has(sessionId)) return;
    draining.add(sessionId);
    setUi('queues', sessionId, (q) => q.slice(1));
    void retrying(() => api.sendMessage({ sessionId, text: next.text, messageId: next.id, ...(next.attachments?.length ? { attachments: next.attachments } : {}) }))
      .catch((error: unknown) => setUi('error', { message: error instanceof Error ? error.message : String(error), sessionId }))
      .finally(() => {
        draining.delete(sessionId);
        setUi('sendState', 'idle');
        drainQueues();
      });
  };
  const unsubscribe = api.onEvent(apply);

  const guard = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      raise(error);
      return undefined;
    }
  };

  /** The open chat's session, storing the draft's first (with its settings and tool choice). */
  const createDraftSession = async (): Promise<string | undefined> => {
    if (state.activeSessionId) return state.activeSessionId;
    if (!state.draft) return undefined;
    const { chat, toolSelection } = state.draft;
    const info = await api.createSession(Object.keys(chat).length ? { chat } : {});
    if (toolSelection) await api.setToolSelection({ sessionId: info.id, selection: toolSelection });
    const snapshot = await api.openSession({ sessionId: info.id });
    setState(produce((s) => {
      applySnapshot(snapshot, s);
      s.activeSessionId = info.id;
      s.draft = null;
    }));
    return info.id;
  };

  const store: AppStore = {
    state,
    api,
    error: () => {
      const e = ui.error;
      return e && (e.sessionId === null || e.sessionId === state.activeSessionId) ? e.message : null;
    },
    setError: (message) => setUi('error', message === null ? null : { message, sessionId: state.activeSessionId }),
    dismissToast(sessionId, toastId) {
      if (state.chats[sessionId]) setState('chats', sessionId, 'toasts', (toasts) => toasts.filter((t) => t.id !== toastId));
    },
    queued: (sessionId) => (sessionId ? (ui.queues[sessionId] ?? []) : []),
    queueHeld: (sessionId) => !!sessionId && (ui.queues[sessionId]?.length ?? 0) > 0 && state.chats[sessionId]?.running === false && interrupted(sessionId),
    sendQueued(sessionId) {
      // Its turn starts, so the interruption is over: the rest go after it, as usual.
      if (!state.chats[sessionId]?.running) sendNext(sessionId);
    },
    unqueue(sessionId, id) {
      const item = ui.queues[sessionId]?.find((q) => q.id === id);
      if (item) setUi('queues', sessionId, (q) => q.filter((x) => x.id !== id));
      return item;
    },
    async init() {
      await guard(async () => {
        const [sessions, tools, settings] = await Promise.all([api.listSessions(), api.listTools(), api.getSettings()]);
        batch(() => {
          setState('sessions', sessions);
          setState('tools', tools);
          setState('settings', settings);
        });
        // After a reconnect the open session stays open; on start, the most recent one not archived opens.
        const current = state.activeSessionId;
        if (state.draft && !current) return;
        const first = current ?? sessions.filter((s) => !s.archived).sort((a, b) => b.updatedAt - a.updatedAt)[0]?.id;
        if (first) await store.openSession(first);
        else await store.newSession();
      });
    },
    async openSession(sessionId) {
      await guard(async () => {
        const snapshot = await api.openSession({ sessionId });
        setState(produce((s) => {
          applySnapshot(snapshot, s);
          s.activeSessionId = sessionId;
          s.draft = null;
        }));
        // Back after a restart with messages queued: they go now, unless the turn was interrupted.
        drainQueues();
      });
    },
    async newSession() {
      batch(() => {
        setState('activeSessionId', null);
        setState('draft', { chat: {} });
      });
    },
    sendState: () => ui.sendState,
    async send(text, attachments) {
      if (!text.trim() && !attachments?.length) return false;
      const messageId = clientId();
      const open = state.activeSessionId;
      if (open && (state.chats[open]?.running || store.queueHeld(open))) {
        // The turn is still running: the message waits for it, as the offline queue does. Sent
        // after an interruption with messages held, it goes behind them, and Send releases them.
        const held = store.queueHeld(open);
        setUi('queues', open, (q) => [...(q ?? []), { id: messageId, text, ...(attachments?.length ? { attachments } : {}) }]);
        if (held) store.sendQueued(open);
        return true;
      }
      try {
        await retrying(async () => {
          const sessionId = await createDraftSession();
          if (!sessionId) throw new Error('Open or start a chat first.');
          return api.sendMessage({ sessionId, text, messageId, ...(attachments?.length ? { attachments } : {}) });
        });
        // The chat's own error (a refused send) has had its answer.
        if (ui.error?.sessionId === (state.activeSessionId ?? open)) setUi('error', null);
        return true;
      } catch (error) {
        raise(error);
        return false;
      } finally {
        setUi('sendState', 'idle');
      }
    },
    async edit(messageId, text) {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.editMessage({ sessionId, messageId, text }));
    },
    async regenerate(messageId) {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.regenerate({ sessionId, messageId }));
    },
    async continueTurn() {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.continueTurn({ sessionId }));
    },
    async switchBranch(messageId) {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.switchBranch({ sessionId, messageId }));
    },
    async deleteMessage(messageId) {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.deleteMessage({ sessionId, messageId }));
    },
    async setChatSettings(chat) {
      const sessionId = state.activeSessionId;
      if (!sessionId) {
        if (state.draft) setState('draft', { chat: { ...chat } });
        return;
      }
      const saved = await guard(() => api.setChatSettings({ sessionId, chat }));
      if (saved) store.apply({ type: 'session.settings', sessionId, chat: saved });
    },
    async exportSession(format) {
      const sessionId = state.activeSessionId;
      if (!sessionId) return undefined;
      return guard(() => api.exportSession({ sessionId, format }));
    },
    async abort() {
      const sessionId = state.activeSessionId;
      if (!sessionId) return;
      await guard(() => api.abort({ sessionId }));
    },
    async answer(sessionId, requestId, decision) {
      await guard(() => api.answerApproval({ sessionId, requestId, decision }));
    },
    async cancelToolCall(sessionId, callId) {
      // False means it finished in the meantime: its tool.finished event updates the block.
      await guard(() => api.cancelToolCall({ sessionId, callId }));
    },
    ensureSession: () => guard(createDraftSession).then((id) => id ?? null),
    async setToolSelection(sessionId, selection) {
      if (!sessionId) {
        if (state.draft) setState('draft', 'toolSelection', selection);
        return;
      }
      const saved = await guard(() => api.setToolSelection({ sessionId, selection }));
      if (saved === undefined) return;
      setState(produce((s) => {
        const chat = s.chats[sessionId];
        if (chat) chat.toolSelection = saved;
      }));
    },
    async rerunToolCall(sessionId, callId, args) {
      await guard(() => api.rerunToolCall({ sessionId, callId, ...(args ? { args } : {}) }));
    },
    apply,
    guard,
    dispose() {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    },
  };
  return store;
}

