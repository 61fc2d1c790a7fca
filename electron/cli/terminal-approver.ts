// Asks approvals (and, without a keyring, a provider's API key) on the terminal for `tooldesk chat`:
// the question on stderr, the answer one line from stdin (a TTY or a pipe). End of input means
// "reject". "e" edits a call's arguments first (in $VISUAL/$EDITOR on a terminal, else one line
// of JSON), checked like the call will check them; the call then runs with them and the model is
// told, as with the app's "Edit arguments".
import { createInterface, type Interface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest } from '../../shared/tools.ts';
import { editInEditor, editorFrom } from './edit-in-editor.ts';

type Args = Record<string, unknown>;

export interface TerminalApproverOptions {
  /** Checks edited arguments as the call will (`$VAR_REF`, the tool's schema). Contract: never throws. */
  checkArgs?: (toolName: string, args: Args) => { ok: boolean; message?: string };
  /** Where $VISUAL / $EDITOR are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

const ANSWERS: Record<string, ApprovalDecision['decision']> = { y: 'once', yes: 'once', o: 'once', s: 'session', a: 'always', n: 'reject', no: 'reject', r: 'reject' };

export function describeRequest(request: ApprovalRequest): string {
  const args = JSON.stringify(request.args);
  const shown = args.length > 300 ? `${args.slice(0, 300)}…` : args;
  if (request.type === 'result') {
    const text = request.result?.text ?? '';
    return `Send the result of ${request.toolName} (${request.result?.status}) to the model?\n${text.length > 500 ? `${text.slice(0, 500)}…` : text}`;
  }
  const detail = request.detail?.length ? `\n${request.detail.map((line) => `  ${line}`).join('\n')}` : '';
  return `Run ${request.toolName} ${shown}?${request.note ? ` (asked because ${request.note})` : ''}${detail}`;
}

export class TerminalApprover {
  #lines: AsyncIterableIterator<string> | null = null;
  #rl: Interface | null = null;
  /** Questions are asked one at a time even when parallel calls ask together. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly options: TerminalApproverOptions = {},
  ) {}

  get #tty(): boolean {
    return Boolean((this.input as { isTTY?: boolean }).isTTY);
  }

  ask(request: ApprovalRequest): Promise<ApprovalDecision> {
    const next = this.#queue.then(() => this.#askNow(request));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Asks for one line (null at end of input), through the same reader as the approvals so piped
   * answers stay in order. `secret`: on a terminal the typed text is hidden (ANSI conceal).
   */
  question(prompt: string, options: { secret?: boolean } = {}): Promise<string | null> {
    const next = this.#queue.then(async () => {
      const tty = this.#tty;
      const conceal = options.secret && tty;
      this.output.write(`${prompt}${conceal ? '\x1b[8m' : ''}`);
      const line = await this.#nextLine();
      if (conceal) this.output.write('\x1b[28m');
      // A terminal echoed the Enter; a pipe did not.
      if (!tty || line === null) this.output.write('\n');
      return line;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #nextLine(): Promise<string | null> {
    this.#rl ??= createInterface({ input: this.input, terminal: false });
    this.#lines ??= this.#rl[Symbol.asyncIterator]();
    const next = await this.#lines.next();
    return next.done ? null : next.value;
  }

  async #askNow(request: ApprovalRequest): Promise<ApprovalDecision> {
    const editable = request.type === 'execution';
    let edited: Args | undefined;
    for (;;) {
      const shown = edited ? { ...request, args: edited } : request;
      this.output.write(`\n? ${describeRequest(shown)}${edited ? ' (arguments edited by you)' : ''}\n  [y]es once · [s]ession · [a]lways${editable ? ' · [e]dit arguments' : ''} · [n]o (or "n: reason"): `);
      const answer = await this.#nextLine();
      if (answer === null) {
        this.output.write('\n');
        return { decision: 'reject', reason: 'No answer came (the input ended).', unasked: true };
      }
      const line = answer.trim();
      if (editable && /^e(dit)?$/i.test(line)) {
        const next = await this.#editArgs(request.toolName, edited ?? request.args);
        if (next) edited = next;
        continue;
      }
      const match = /^(\w+)\s*[:\s]\s*([\s\S]*)$|^(\w+)$/.exec(line);
      const word = (match?.[1] ?? match?.[3] ?? '').toLowerCase();
      const known = ANSWERS[word];
      if (known && known !== 'reject') return { decision: known, ...(edited ? { args: edited } : {}) };
      // "n", "n: reason", or anything else: a rejection whose reason is what the user wrote.
      const reason = known ? (match?.[2] ?? '').trim() : line;
      return { decision: 'reject', reason: reason || 'Rejected on the terminal.' };
    }
  }

  /**
   * New arguments from the user, checked; retried until they are valid. Undefined: unchanged (an
   * empty line, the same arguments, end of input, or an editor that failed).
   */
  async #editArgs(toolName: string, current: Args): Promise<Args | undefined> {
    const editor = editorFrom(this.options.env ?? process.env);
    const inEditor = editor !== undefined && this.#tty;
    let draft = JSON.stringify(current, null, 2);
    for (;;) {
      let text: string | null;
      if (inEditor) {
        // The editor owns the terminal until it exits: nothing typed may reach our reader.
        this.#rl?.pause();
        const saved = await editInEditor(editor, `${draft}\n`).catch((error: unknown) => ({ error: (error as Error).message }));
        this.#rl?.resume();
        if ('error' in saved) {
          this.output.write(`  ${saved.error}; the arguments are unchanged.\n`);
          return undefined;
        }
        text = saved.text;
      } else {
        this.output.write(`  New arguments for ${toolName}, as one line of JSON (empty: keep them)${editor ? '' : '; set $EDITOR to edit them in an editor on a terminal'}:\n  > `);
        text = await this.#nextLine();
        if (!this.#tty) this.output.write('\n');
      }
      if (text === null || text.trim() === '') {
        this.output.write('  The arguments are unchanged.\n');
        return undefined;
      }
      const parsed = parseArgsText(text);
      if ('error' in parsed) {
        this.output.write(`  ${parsed.error} Try again.\n`);
        draft = text.trimEnd();
        continue;
      }
      if (JSON.stringify(parsed.args) === JSON.stringify(current)) {
        this.output.write('  The arguments are unchanged.\n');
        return undefined;
      }
      const check = this.options.checkArgs?.(toolName, parsed.args) ?? { ok: true };
      if (!check.ok) {
        const why = (check.message ?? 'the tool refuses them').trim().split('\n').map((l) => `    ${l}`).join('\n');
        this.output.write(`  Not valid for ${toolName}:\n${why}\n  Try again.\n`);
        draft = JSON.stringify(parsed.args, null, 2);
        continue;
      }
      return parsed.args;
    }
  }

  close(): void {
    this.#rl?.close();
  }
}

/** One JSON object, or a message saying what is wrong with the text. */
function parseArgsText(text: string): { args: Args } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `That is not valid JSON (${(error as Error).message}).` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'The arguments must be one JSON object, like {"key": "value"}.' };
  return { args: value as Args };
}
