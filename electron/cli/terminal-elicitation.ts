// MCP elicitation on the terminal (`tooldesk tools run`): a form's fields are asked one by one
// (Enter keeps the default), then the answers are sent only if the user says so. A URL request
// opens the browser only after a yes; a tool's confirmation is one Confirm? [y/N]. With --yes nobody
// is asked: forms get their defaults, confirmations are confirmed and
// URL requests are declined.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { formDefaults, type FormValue, type McpInteractions } from '../runtime/host/mcp-client.ts';
import { openInBrowser } from './serve/open-browser.ts';
import type { TerminalApprover } from './terminal-approver.ts';

interface Field {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: { enum?: unknown[] };
}

export function terminalElicitation(approver: TerminalApprover, out: NodeJS.WritableStream, yes: boolean): NonNullable<McpInteractions['elicit']> {
  return async ({ server, params, tool, confirm }): Promise<ElicitResult> => {
    const asker = tool ? `Tool "${tool}" (${server})` : `MCP server "${server}"`;
    if (params.mode === 'url') {
      out.write(`\n${asker} asks you to open ${params.url}\n  ${params.message}\n`);
      if (yes) return { action: 'decline' };
      const answer = (await approver.question('  Open it in your browser? [y/N] '))?.trim().toLowerCase();
      if (answer === null || answer === undefined) return { action: 'cancel' };
      if (answer !== 'y' && answer !== 'yes') return { action: 'decline' };
      await openInBrowser(params.url);
      return { action: 'accept' };
    }
    if (confirm) {
      // A yes/no question: no form to fill and nothing to "send". --yes confirms, as it
      // answers a form with its defaults.
      out.write(`\n${asker} asks you to confirm: ${params.message}\n`);
      if (yes) {
        out.write('  confirmed (--yes)\n');
        return { action: 'accept' };
      }
      const answer = (await approver.question('  Confirm? [y/N] '))?.trim().toLowerCase();
      if (answer === null || answer === undefined) return { action: 'cancel' };
      return answer === 'y' || answer === 'yes' ? { action: 'accept' } : { action: 'decline' };
    }
    const defaults = formDefaults(params.requestedSchema);
    out.write(`\n${asker} asks: ${params.message}\n`);
    if (yes) {
      out.write(`  answered with the form's defaults (--yes): ${JSON.stringify(defaults)}\n`);
      return { action: 'accept', content: defaults };
    }
    const content: Record<string, FormValue> = {};
    const properties = (params.requestedSchema.properties ?? {}) as Record<string, Field>;
    for (const [name, field] of Object.entries(properties)) {
      const choices = field.enum ?? field.items?.enum;
      const hint = [field.description, choices ? `one of ${choices.join(', ')}` : '', field.default !== undefined ? `default ${JSON.stringify(field.default)}` : ''].filter(Boolean).join('; ');
      const line = await approver.question(`  ${field.title && field.title !== name ? `${name} (${field.title})` : name}${hint ? ` — ${hint}` : ''}: `);
      if (line === null) return { action: 'cancel' };
      const value = line.trim() === '' ? defaults[name] : parseField(line.trim(), field);
      if (value !== undefined) content[name] = value;
    }
    const send = (await approver.question(`  Send ${JSON.stringify(content)} to ${tool ? `"${tool}"` : `"${server}"`}? [y/N] `))?.trim().toLowerCase();
    if (send === null || send === undefined) return { action: 'cancel' };
    return send === 'y' || send === 'yes' ? { action: 'accept', content } : { action: 'decline' };
  };
}

function parseField(text: string, field: Field): FormValue | undefined {
  switch (field.type) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return /^(y|yes|true|1)$/i.test(text);
    case 'array':
      return text.split(',').map((s) => s.trim()).filter(Boolean);
    default:
      return text;
  }
}
