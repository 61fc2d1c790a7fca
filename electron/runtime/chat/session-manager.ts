// Opens, creates, lists, renames, deletes and searches sessions under TOOLDESK_HOME/sessions, and
// keeps the open ones (one ChatSession per id) so the host can route API calls and events.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { SessionSearchHit } from '../../../shared/api.ts';
import type { ChatEvent, SessionInfo } from '../../../shared/chat.ts';
import type { Settings } from '../../../shared/settings.ts';
import { Emitter } from '../base/emitter.ts';
import { fileError } from '../base/file-error.ts';
import { appPaths } from '../paths.ts';
import { resolveProvider, type ProviderResolution } from '../llm/resolve-provider.ts';
import { settingsPermissionStore } from '../store/permission-store.ts';
import type { SecretStore } from '../store/secret-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import { ChatSession, type ToolSource } from './chat-session.ts';
import { readSessionInfo, SessionFile, sessionPaths } from './session-file.ts';
import { isValidSessionId, newSessionId } from './session-id.ts';
import { DEFAULT_TITLE } from './title-from-message.ts';

export interface SessionManagerOptions {
  /** TOOLDESK_HOME; sessions live in `<home>/sessions`. */
  home: string;
  settings: SettingsStore;
  secrets?: SecretStore;
  tools?: ToolSource;
  /** Replaces the settings-based provider resolution (the CLI's --base-url/--model). */
  provider?: (settings: Settings) => Promise<ProviderResolution>;
  log?: (message: string) => void;
}

export class SessionManager {
  readonly dir: string;
  readonly #options: SessionManagerOptions;
  readonly #open = new Map<string, ChatSession>();
  readonly #events: Emitter<ChatEvent>;
  /** Warnings from opening session files (torn lines), by session id. */
  readonly warnings = new Map<string, string[]>();

  constructor(options: SessionManagerOptions) {
    this.#options = options;
    this.#events = new Emitter({ onListenerError: (error) => options.log?.(`A session event listener failed: ${(error as Error).message}`) });
    this.dir = appPaths(options.home).sessionsDir;
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (error) {
      throw fileError('create the sessions folder', this.dir, error);
    }
  }

  /** Newest first. */
  list(): SessionInfo[] {
    const ids = readdirSync(this.dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => f.slice(0, -'.jsonl'.length))
      .filter(isValidSessionId);
    return ids
      .map((id) => this.#open.get(id)?.info ?? readSessionInfo(this.dir, id))
      .filter((info): info is SessionInfo => info !== null)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  exists(id: string): boolean {
    return isValidSessionId(id) && (this.#open.has(id) || readSessionInfo(this.dir, id) !== null);
  }

  create(options: { title?: string } = {}): ChatSession {
    const file = SessionFile.create(this.dir, newSessionId(), options.title?.trim() || DEFAULT_TITLE);
    return this.#attach(new ChatSession({ ...this.#sessionOptions(), file }));
  }

  /** The session if it is open now (nothing is read from disk). */
  opened(id: string): ChatSession | undefined {
    return this.#open.get(id);
  }

  /** The open session, or the one on disk replayed (variables, approvals memory included). */
  open(id: string): ChatSession {
    const open = this.#open.get(id);
    if (open) return open;
    const { file, state } = SessionFile.open(this.dir, id);
    if (state.warnings.length) this.warnings.set(id, state.warnings);
    const session = this.#attach(new ChatSession({ ...this.#sessionOptions(), file, state }));
    for (const message of state.warnings) this.#options.log?.(message);
    return session;
  }

  rename(id: string, title: string): SessionInfo {
    return this.open(id).rename(title);
  }

  /** Closes the session if open, then removes its files. False when it did not exist. */
  delete(id: string): boolean {
    if (!isValidSessionId(id)) return false;
    this.#open.get(id)?.close({ discard: true });
    this.#open.delete(id);
    const paths = sessionPaths(this.dir, id);
    const existed = readSessionInfo(this.dir, id) !== null;
    rmSync(paths.log, { force: true });
    rmSync(paths.meta, { force: true });
    return existed;
  }

  /** Case-insensitive match on titles, newest first. */
  search(query: string): SessionSearchHit[] {
    const needle = query.trim().toLowerCase();
    if (!needle) return this.list().map((session) => ({ session }));
    return this.list()
      .filter((s) => s.title.toLowerCase().includes(needle))
      .map((session) => ({ session, snippet: session.title }));
  }

  /** Events of every open session. Returns a disposer. */
  onEvent(listener: (event: ChatEvent) => void): () => void {
    return this.#events.event(listener);
  }

  closeAll(): void {
    for (const session of this.#open.values()) session.close();
    this.#open.clear();
  }

  #sessionOptions() {
    const { settings, secrets, tools, log } = this.#options;
    const provider = this.#options.provider;
    return {
      settings: () => settings.get(),
      onSettingsChanged: (listener: (s: Settings) => void) => settings.onDidChange(listener),
      provider: () => (provider ? provider(settings.get()) : resolveProvider(settings.get(), secrets)),
      permissions: settingsPermissionStore(settings),
      forward: (event: ChatEvent) => this.#events.fire(event),
      hasApprover: () => this.#events.size > 0,
      ...(tools ? { tools } : {}),
      ...(log ? { log } : {}),
    };
  }

  #attach(session: ChatSession): ChatSession {
    this.#open.set(session.id, session);
    return session;
  }
}
