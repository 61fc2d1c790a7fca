// Opens, creates, lists, renames, deletes and searches sessions under TOOLDESK_HOME/sessions, and
// keeps the open ones (one ChatSession per id) so the host can route API calls and events.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSearchHit } from '../../../../shared/api.ts';
import type { ChatEvent, ChatMessage, ChatSettings, SessionFlags, SessionInfo } from '../../../../shared/chat.ts';
import type { Settings } from '../../../../shared/settings.ts';
import { Emitter } from '../../base/emitter.ts';
import { fileError } from '../../base/file-error.ts';
import { appPaths } from '../../paths.ts';
import { resolveProvider, type ProviderResolution } from '../../llm/resolve-provider.ts';
import { settingsPermissionStore } from '../../store/permission-store.ts';
import type { RuleBook } from '../../tools/rules/rule-book.ts';
import type { SecretStore } from '../../store/secret-store.ts';
import type { SettingsStore } from '../../store/settings-store.ts';
import { ChatSession } from '../chat-session.ts';
import { toolSessionFactory, type ToolSessionFactory, type ToolSource } from '../../tools/tool-session.ts';
import { readSessionFile, readSessionInfo, SessionFile, sessionPaths } from './session-file.ts';
import { searchSession } from './search-sessions.ts';
import { outlineSession, type SessionOutline } from './session-outline.ts';
import { SessionAttachments } from './session-attachments.ts';
import { isValidSessionId, newSessionId } from './session-id.ts';
import { DEFAULT_TITLE } from '../titles/title-from-message.ts';

export interface SessionManagerOptions {
  /** TOOLDESK_HOME; sessions live in `<home>/sessions`. */
  home: string;
  settings: SettingsStore;
  secrets?: SecretStore;
  tools?: ToolSource;
  /** Opens each chat's ToolSession (createRuntime's); else one over `tools` and `settings`. */
  toolSession?: ToolSessionFactory;
  /** Replaces the settings-based provider resolution (the CLI's --base-url/--model). */
  provider?: (settings: Settings) => Promise<ProviderResolution>;
  /** Rules, tool sets and the audit log for every session. */
  ruleBook?: RuleBook;
  log?: (message: string) => void;
}

export class SessionManager {
  readonly dir: string;
  readonly #options: SessionManagerOptions;
  readonly #open = new Map<string, ChatSession>();
  #toolSession: ToolSessionFactory | undefined;
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

  /** Newest first. Sessions without a message are not listed (a new chat counts once it has one). */
  list(): SessionInfo[] {
    return this.#listAll().filter((info) => info.messageCount > 0);
  }

  #listAll(): SessionInfo[] {
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

  /** A new session; without `chat`, it starts with the model last picked in a chat (settings.lastChatModel). */
  create(options: { title?: string; chat?: ChatSettings } = {}): ChatSession {
    const file = SessionFile.create(this.dir, newSessionId(), options.title?.trim() || DEFAULT_TITLE);
    const session = this.#attach(new ChatSession({ ...this.#sessionOptions(), file }));
    const last = this.#options.settings.get().lastChatModel;
    const chat = options.chat ?? (last ? { providerId: last.providerId, model: last.model } : undefined);
    if (chat && Object.keys(chat).length > 0) session.setChatSettings(chat);
    if (options.chat) this.#rememberModel(options.chat);
    return session;
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

  /** A session read for showing, in memory bounded whatever its size (session-outline.ts). */
  outline(id: string): SessionOutline {
    const { variableMaxEntries, variableMaxBytes } = this.#options.settings.get().limits;
    return outlineSession(sessionPaths(this.dir, id).log, id, { maxEntries: variableMaxEntries, maxBytes: variableMaxBytes });
  }

  /** A chat's own model and settings; a picked model also becomes the one new chats start with. */
  setChatSettings(id: string, chat: ChatSettings): ChatSettings {
    const saved = this.open(id).setChatSettings(chat);
    this.#rememberModel(chat);
    return saved;
  }

  /** New chats start with the model picked last. */
  #rememberModel(chat: ChatSettings): void {
    const last = this.#options.settings.get().lastChatModel;
    if (chat.providerId && chat.model && (last?.providerId !== chat.providerId || last?.model !== chat.model)) {
      this.#options.settings.update({ lastChatModel: { providerId: chat.providerId, model: chat.model } });
    }
  }

  rename(id: string, title: string): SessionInfo {
    return this.open(id).rename(title);
  }

  setFlags(id: string, flags: SessionFlags): SessionInfo {
    return this.open(id).setFlags(flags);
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
    rmSync(join(this.dir, `${id}.files`), { recursive: true, force: true });
    return existed;
  }

  /** Case-insensitive match on titles and message text (every branch), newest session first. */
  search(query: string): SessionSearchHit[] {
    const needle = query.trim().toLowerCase();
    if (!needle) return this.list().map((session) => ({ session }));
    const hits: SessionSearchHit[] = [];
    for (const info of this.list()) {
      let messages: ChatMessage[] = [];
      const open = this.#open.get(info.id);
      if (open) messages = open.allMessages();
      else if (!info.title.toLowerCase().includes(needle)) {
        try {
          messages = readSessionFile(sessionPaths(this.dir, info.id).log, info.id).tree.all();
        } catch {
          continue; // deleted meanwhile
        }
      }
      const files = new SessionAttachments(this.dir, info.id);
      const hit = searchSession(info, messages, needle, (stored, maxBytes) => files.readText(stored, maxBytes));
      if (hit) hits.push(hit);
    }
    return hits;
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
    this.#toolSession ??=
      this.#options.toolSession ??
      toolSessionFactory({
        ...(tools ? { tools } : {}),
        settings: () => settings.get(),
        onSettingsChanged: (listener: (s: Settings) => void) => settings.onDidChange(listener),
        permissions: settingsPermissionStore(settings),
        ...(this.#options.ruleBook ? { ruleBook: this.#options.ruleBook } : {}),
        ...(log ? { log } : {}),
      });
    return {
      settings: () => settings.get(),
      toolSession: this.#toolSession,
      provider: (chat?: ChatSettings) => (provider ? provider(settings.get()) : resolveProvider(settings.get(), secrets, {}, chat?.providerId)),
      forward: (event: ChatEvent) => this.#events.fire(event),
      hasApprover: () => this.#events.size > 0,
      ...(log ? { log } : {}),
    };
  }

  #attach(session: ChatSession): ChatSession {
    this.#open.set(session.id, session);
    return session;
  }
}
