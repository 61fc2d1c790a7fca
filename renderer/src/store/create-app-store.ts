// The app's store and the actions the UI calls. Events flow in through applyEvent; actions call
// the API and, where the server answers with fresh state, apply it the same way.
import { createStore, produce } from 'solid-js/store';
import { batch } from 'solid-js';
import type { ApiEvent, TooldeskApi } from '../../../shared/api.ts';
import type { ApprovalDecision } from '../../../shared/tools.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import { emptyAppState, type AppState } from './app-state.ts';
import { applyEvent, applySnapshot } from './apply-event.ts';

export interface AppStore {
  state: AppState;
  api: TooldeskApi;
  /** Loads sessions, tools and settings; opens the current or most recent session (or creates one). */
  init(): Promise<void>;
  openSession(sessionId: string): Promise<void>;
  newSession(): Promise<void>;
  send(text: string): Promise<void>;
  abort(): Promise<void>;
  answer(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<void>;
  /** Stops one running tool call; the turn it belongs to goes on (the model gets a "cancelled" result). */
  cancelToolCall(sessionId: string, callId: string): Promise<void>;
  /** Stores the chat's choice of tools (null: back to the global switches). */
  setToolSelection(sessionId: string, selection: ChatToolSelection | null): Promise<void>;
  /** "Run again" of a finished call; its new result arrives as events, under the first call. */
  rerunToolCall(sessionId: string, callId: string, args?: Record<string, unknown>): Promise<void>;
  /** Applies a state the server returned (e.g. setSettings' answer) exactly like its event. */
  apply(event: ApiEvent): void;
  /** Runs an action; a failure becomes the error toast and resolves to undefined. */
  guard<T>(work: () => Promise<T>): Promise<T | undefined>;
  dispose(): void;
  /** Errors from actions, shown as a toast. */
  error: () => string | null;
  setError(message: string | null): void;
}

export function createAppStore(api: TooldeskApi): AppStore {
  const [state, setState] = createStore<AppState>(emptyAppState());
  const [ui, setUi] = createStore<{ error: string | null }>({ error: null });
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
    setState(produce((s) => applyEvent(event, s)));
  };
  const unsubscribe = api.onEvent(apply);

  const guard = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      setUi('error', error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };

  const store: AppStore = {
    state,
    api,
    error: () => ui.error,
    setError: (message) => setUi('error', message),
    async init() {
      await guard(async () => {
        const [sessions, tools, settings] = await Promise.all([api.listSessions(), api.listTools(), api.getSettings()]);
        batch(() => {
          setState('sessions', sessions);
          setState('tools', tools);
          setState('settings', settings);
        });
        // After a reconnect the open session stays open; on start, the most recent one opens.
        const current = sessions.find((x) => x.id === state.activeSessionId);
        const first = current ?? [...sessions].sort((a, b) => b.updatedAt - a.updatedAt)[0];
        if (first) await store.openSession(first.id);
        else await store.newSession();
      });
    },
    async openSession(sessionId) {
      await guard(async () => {
        const snapshot = await api.openSession({ sessionId });
        setState(produce((s) => {
          applySnapshot(snapshot, s);
          s.activeSessionId = sessionId;
        }));
      });
    },
    async newSession() {
      await guard(async () => {
        const info = await api.createSession({});
        setState(produce((s) => {
          if (!s.sessions.some((x) => x.id === info.id)) s.sessions.unshift(info);
        }));
        await store.openSession(info.id);
      });
    },
    async send(text) {
      const sessionId = state.activeSessionId;
      if (!sessionId || !text.trim()) return;
      await guard(() => api.sendMessage({ sessionId, text }));
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
    async setToolSelection(sessionId, selection) {
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

