// A server's prompts (prompts/list) as `/server:prompt` commands, and one prompt (prompts/get) as
// the user's turn: its text messages joined, images and embedded resources as attachments. The
// server is untrusted: lists are bounded, unknown content is named rather than passed on.
import { API_LIMITS, type AttachmentUpload } from '../../../../../shared/api.ts';
import type { McpPromptInfo } from '../../../../../shared/mcp.ts';
import { attachmentFromContents, RESOURCE_MAX_BYTES } from './server-resources.ts';
import type { McpConnection } from '../connection/server-connection.ts';

/** Prompts kept from one server (a server listing thousands would flood the `/` menu). */
export const MAX_PROMPTS = 500;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

export async function listPrompts(connection: McpConnection): Promise<McpPromptInfo[] | { error: string }> {
  const listed = await connection.request('list its prompts', (client, options) => client.listPrompts(undefined, { ...options, cacheMode: 'refresh' }));
  if (!listed.ok) return { error: listed.error };
  return (Array.isArray(listed.value.prompts) ? listed.value.prompts : []).slice(0, MAX_PROMPTS).flatMap((p): McpPromptInfo[] => {
    const name = str(p?.name);
    if (!name || /\s/.test(name)) return [];
    const args = Array.isArray(p.arguments) ? p.arguments : [];
    return [
      {
        server: connection.name,
        name,
        command: `${connection.name}:${name}`,
        ...(str(p.title) ? { title: p.title! } : {}),
        ...(str(p.description) ? { description: p.description!.slice(0, 2000) } : {}),
        arguments: args.slice(0, 100).flatMap((a) => (str(a?.name) ? [{ name: a.name, ...(str(a.description) ? { description: a.description! } : {}), required: a.required === true }] : [])),
      },
    ];
  });
}

export interface PromptTurn {
  text: string;
  attachments: AttachmentUpload[];
}

/** What is wrong with the arguments for this prompt (missing required, unknown names), or null. */
export function checkPromptArgs(prompt: McpPromptInfo, args: Record<string, string>): string | null {
  const usage = `/${prompt.command}${prompt.arguments.map((a) => ` ${a.name}=${a.required ? '…' : '[…]'}`).join('')}`;
  const unknown = Object.keys(args).filter((k) => !prompt.arguments.some((a) => a.name === k));
  if (unknown.length) {
    const known = prompt.arguments.map((a) => a.name).join(', ') || 'none';
    return `/${prompt.command} has no argument ${unknown.join(', ')} (its arguments: ${known}). Usage: ${usage}`;
  }
  const missing = prompt.arguments.filter((a) => a.required && (args[a.name] ?? '') === '');
  if (missing.length) {
    const what = missing.map((a) => (a.description ? `${a.name} (${a.description})` : a.name)).join(', ');
    return `/${prompt.command} needs ${what}. Usage: ${usage}`;
  }
  return null;
}

/** Runs prompts/get and turns its messages into one user turn. */
export async function getPromptTurn(connection: McpConnection, prompt: McpPromptInfo, args: Record<string, string>, signal?: AbortSignal): Promise<PromptTurn | { error: string }> {
  const got = await connection.request(`run the prompt ${prompt.name}`, (client, options) => client.getPrompt({ name: prompt.name, arguments: args }, options), signal);
  if (!got.ok) return { error: got.error };
  const messages = Array.isArray(got.value.messages) ? got.value.messages : [];
  const mixed = messages.some((m) => m?.role === 'assistant');
  const texts: string[] = [];
  const attachments: AttachmentUpload[] = [];
  let total = 0;
  for (const message of messages) {
    const block = (message?.content ?? {}) as Record<string, unknown>;
    const label = mixed ? `${message.role === 'assistant' ? 'Assistant' : 'User'}: ` : '';
    const base = `${prompt.server}-${prompt.name}-${attachments.length + 1}`;
    let attached: AttachmentUpload | { error: string } | undefined;
    if (block.type === 'text') texts.push(label + (str(block.text) ?? ''));
    else if (block.type === 'image' && str(block.data) && str(block.mimeType)) attached = { name: `${base}.${extension(block.mimeType as string)}`, mediaType: block.mimeType as string, data: block.data as string };
    else if (block.type === 'resource') attached = attachmentFromContents(block.resource, `${base}`);
    else if (block.type === 'resource_link') texts.push(`${label}[link: ${str(block.title) ?? str(block.name) ?? ''} <${str(block.uri) ?? ''}>]`);
    else texts.push(`${label}[${str(block.type) ?? 'unknown'} content from the prompt, not supported here]`);
    if (!attached) continue;
    if ('error' in attached) {
      texts.push(`${label}[${attached.error}]`);
      continue;
    }
    total += Math.floor((attached.data.length * 3) / 4);
    if (total > RESOURCE_MAX_BYTES) return { error: `/${prompt.command} returned more than ${RESOURCE_MAX_BYTES / 1024 / 1024} MB of images and resources, more than one message can carry` };
    attachments.push(attached);
  }
  const text = texts.join('\n\n').trim();
  if (!text && attachments.length === 0) return { error: `/${prompt.command} returned no messages` };
  // The same bound as a typed message: a server cannot push a 60 MB turn into the chat.
  if (text.length > API_LIMITS.maxTextChars) return { error: `/${prompt.command} returned ${text.length} characters of text; a message holds up to ${API_LIMITS.maxTextChars}` };
  return { text, attachments };
}

function extension(mimeType: string): string {
  const sub = mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? '';
  return sub === 'jpeg' ? 'jpg' : sub || 'bin';
}
