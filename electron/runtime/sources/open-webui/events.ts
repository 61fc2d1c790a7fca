// What Open WebUI's `__event_emitter__` events become here (pure, so each mapping is tested):
// status → the call's progress line; notification → a line of its own (the toast's text);
// citation/source → sources listed under the result; message/replace → text appended to it;
// files → attachments of the result (images shown, other files listed).
import type { ToolNotification } from '../../../../shared/tools.ts';

export interface OpenWebUiEvent {
  type: string;
  data: Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

const LEVELS: ToolNotification['level'][] = ['info', 'success', 'warning', 'error'];

/** The toast of a `notification` event (an unknown type is shown as info), or null for other events. */
export function notificationOf(event: OpenWebUiEvent): ToolNotification | null {
  if (event.type !== 'notification') return null;
  const level = text(event.data?.type) as ToolNotification['level'];
  return { level: LEVELS.includes(level) ? level : 'info', text: text(event.data?.content).slice(0, 2000) };
}

/** The progress line an event shows while the call runs, or null when it shows none. */
export function progressLine(event: OpenWebUiEvent): string | null {
  const data = event.data ?? {};
  if (event.type === 'status') return data.hidden === true ? null : `${text(data.description)}${data.done === true ? ' ✓' : ''}`;
  if (event.type === 'notification') return `[${text(data.type) || 'info'}] ${text(data.content)}`;
  return null;
}

export interface EventOutcome {
  /** Text for the model and the user after the tool's own result (message/replace, sources). */
  appended: string;
  sources: { name: string; url?: string }[];
  notifications: { type: string; content: string }[];
  images: { mimeType: string; data: string }[];
  files: string[];
  /** Event types this app does not show. */
  ignored: string[];
}

/** Folds a call's events into what shows under its result. */
export function foldEvents(events: OpenWebUiEvent[]): EventOutcome {
  const out: EventOutcome = { appended: '', sources: [], notifications: [], images: [], files: [], ignored: [] };
  let message = '';
  for (const event of events) {
    const data = event.data ?? {};
    switch (event.type) {
      case 'status':
        break;
      case 'message':
      case 'chat:message:delta':
        message += text(data.content);
        break;
      case 'replace':
      case 'chat:message':
        message = text(data.content);
        break;
      case 'notification':
        out.notifications.push({ type: text(data.type) || 'info', content: text(data.content) });
        break;
      case 'citation':
      case 'source':
        out.sources.push(...sourcesOf(data));
        break;
      case 'files':
      case 'chat:message:files':
        for (const file of Array.isArray(data.files) ? data.files : []) addFile(out, file as Record<string, unknown>);
        break;
      default:
        if (!out.ignored.includes(event.type)) out.ignored.push(event.type);
    }
  }
  const parts = [message.trim()];
  if (out.sources.length) parts.push(`Sources:\n${out.sources.map((s) => `- ${s.name}${s.url && s.url !== s.name ? ` (${s.url})` : ''}`).join('\n')}`);
  if (out.files.length) parts.push(`Files:\n${out.files.map((f) => `- ${f}`).join('\n')}`);
  out.appended = parts.filter(Boolean).join('\n\n');
  return out;
}

function sourcesOf(data: Record<string, unknown>): { name: string; url?: string }[] {
  const source = (data.source ?? {}) as Record<string, unknown>;
  const metadata = Array.isArray(data.metadata) ? (data.metadata as Record<string, unknown>[]) : [];
  const urls = metadata.map((m) => text(m?.source)).filter(Boolean);
  const name = text(source.name) || urls[0] || 'source';
  const url = text(source.url) || urls[0];
  return [{ name, ...(url ? { url } : {}) }];
}

function addFile(out: EventOutcome, file: Record<string, unknown>): void {
  const url = text(file?.url);
  const image = /^data:(image\/[A-Za-z0-9.+-]+);base64,(.+)$/s.exec(url);
  if (image) out.images.push({ mimeType: image[1]!, data: image[2]! });
  else if (url || file?.name) out.files.push(text(file.name) || url);
}
