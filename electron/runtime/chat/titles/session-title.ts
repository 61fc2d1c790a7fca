// A chat's title: "New chat" until the first user message, then its first words, then (after the
// first exchange ended well) a short title by the model — unless the user renamed the chat
// meanwhile: a title the user chose is never replaced. Every change is a `title` record.
import type { ChatMessage, ChatSettings } from '../../../../shared/chat.ts';
import type { ProviderResolution } from '../../llm/resolve-provider.ts';
import type { SessionRecord } from '../persistence/session-records.ts';
import { DEFAULT_TITLE, titleFromMessage } from './title-from-message.ts';
import { firstExchange, TITLE_TIMEOUT_MS, titleFromModel } from './title-from-model.ts';

export interface SessionTitlePorts {
  /** The title on file now. */
  current(): string;
  /** Writes a record to the session file. */
  record(record: SessionRecord & { t: 'title' }): void;
  /** The shown branch, root → head. */
  path(): ChatMessage[];
  chat(): ChatSettings;
  /** Contract: resolves with the chat's provider (or why there is none); never rejects. */
  provider(chat: ChatSettings): Promise<ProviderResolution>;
  /** The model of `chat` under the resolved provider. */
  model(chat: ChatSettings, resolution: Extract<ProviderResolution, { ok: true }>): string;
  /** Aborts when the session closes (a title request still running ends). */
  closing: AbortSignal;
}

export class SessionTitle {
  readonly #ports: SessionTitlePorts;
  #titled: boolean;
  /** Set by rename(): a title the user chose is never replaced. */
  #byUser = false;

  /** `titled`: the chat already has its title (a user message, or a title other than the default). */
  constructor(ports: SessionTitlePorts, titled: boolean) {
    this.#ports = ports;
    this.#titled = titled || ports.current() !== DEFAULT_TITLE;
  }

  /** The first user message titles the chat with its first words; returns them (undefined: titled already). */
  firstMessage(text: string): string | undefined {
    if (this.#titled) return undefined;
    this.#titled = true;
    const firstWords = titleFromMessage(text);
    if (firstWords !== this.#ports.current()) this.#ports.record({ t: 'title', at: Date.now(), title: firstWords });
    return firstWords;
  }

  /** The user's own title (empty: the default); it stays. */
  rename(title: string): void {
    this.#titled = true;
    this.#byUser = true;
    this.#ports.record({ t: 'title', at: Date.now(), title: title.trim() || DEFAULT_TITLE });
  }

  /** Replaces the first-words title with the model's, unless the user renamed the chat meanwhile. Never rejects. */
  async byModel(firstWords: string): Promise<void> {
    const ports = this.#ports;
    const exchange = firstExchange(ports.path());
    if (!exchange || ports.closing.aborted) return;
    const chat = ports.chat();
    const resolution = await ports.provider(chat);
    if (!resolution.ok) return;
    const signal = AbortSignal.any([ports.closing, AbortSignal.timeout(TITLE_TIMEOUT_MS)]);
    const title = await titleFromModel(resolution.provider, ports.model(chat, resolution), exchange, signal);
    if (!title || ports.closing.aborted || this.#byUser || ports.current() !== firstWords || title === firstWords) return;
    ports.record({ t: 'title', at: Date.now(), title });
  }
}
