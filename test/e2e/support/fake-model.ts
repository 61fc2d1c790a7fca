// The fake model's behaviour in the e2e suite: `call TOOL {json}` from the user makes it call
// that tool, `parallel N` makes N parallel script_echo calls; after tool results it answers
// quoting the last one; `fail STATUS` answers with that HTTP error; anything else is echoed.
import { fakeTurn, type FakeScript, type RecordedRequest } from '../../support/fake-openai-server.ts';

export const FINAL_PREFIX = 'Final answer. The tool said:';

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String(p.text) : '')).join('');
  return '';
}

export const e2eScript: FakeScript = (request) => {
  const messages: Array<{ role: string; content: unknown }> = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return fakeTurn.text(`${FINAL_PREFIX} ${text(last.content).slice(0, 300)}`);
  const said = text(last?.content);
  const parallel = /^parallel (\d+)$/.exec(said.trim());
  if (parallel) {
    const calls = Array.from({ length: Number(parallel[1]) }, (_, i) => ({ name: 'script_echo', args: { text: `parallel ${i + 1}` } }));
    return fakeTurn.parallel(calls);
  }
  const fail = /^fail (\d{3})$/.exec(said.trim());
  if (fail) return fakeTurn.error(Number(fail[1]), 'the fake model refused this turn');
  const call = /^call (\S+)\s*([\s\S]*)$/.exec(said.trim());
  if (call) return fakeTurn.toolCall(call[1]!, JSON.parse(call[2] || '{}'));
  return fakeTurn.text(`You said: ${said}`);
};

/** Names of the tools offered in a recorded chat request. */
export function offeredTools(request: RecordedRequest | undefined): string[] {
  return ((request?.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
}

/** The tool messages the model received in a request. */
export function toolMessages(request: RecordedRequest | undefined): string[] {
  return ((request?.body?.messages ?? []) as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool').map((m) => text(m.content));
}
