// What a module tool host says, handed to the request that asked for it. The host runs user code,
// so every message is untrusted: one that no open request of its kind asked for is "forged"
// (ignored, and charged to the modules running then), and what a message carries is checked
// before it reaches a call (host-messages.ts). `exec` (a module running a process) needs the
// app's runner and is handed back to the ToolHost.
import { EXPECTED_KIND, type Incarnation } from './host-incarnation.ts';
import { checkedResult, isObject } from './host-messages.ts';
import { MAX_CALL_OUTPUT_CHARS, type FromHost } from './host-protocol.ts';

export interface HostMessagePorts {
  /** Contract: never throws. A message no open request asked for, with why. */
  forged(message: FromHost, why: string): void;
  /** Contract: never throws. A module asks to run a process (its request is open: checked). */
  exec(message: Extract<FromHost, { t: 'exec' }>): void;
}

export function routeHostMessage(inc: Incarnation, message: FromHost, ports: HostMessagePorts): void {
  const asked = EXPECTED_KIND[message.t];
  if (asked === undefined) return ports.forged(message, 'not a message of the protocol');
  if (asked !== 'any') {
    const id = (message as { id?: unknown }).id;
    const kind = typeof id === 'number' ? inc.pending.get(id)?.kind : undefined;
    if (kind !== asked) return ports.forged(message, kind ? `request ${String(id)} is a ${kind}` : 'no such request is open');
  }
  switch (message.t) {
    case 'loaded': {
      const pending = inc.pending.get(message.id);
      if (pending?.kind === 'load') pending.resolve({ tools: Array.isArray(message.tools) ? message.tools : [], diagnostics: Array.isArray(message.diagnostics) ? message.diagnostics : [] });
      return;
    }
    case 'update': {
      const pending = inc.pending.get(message.id);
      if (pending?.kind === 'execute' && isObject(message.update)) {
        try {
          pending.onUpdate(message.update);
        } catch {
          // onUpdate never throws by contract; a broken listener must not break the call
        }
      }
      return;
    }
    case 'result': {
      const pending = inc.pending.get(message.id);
      if (pending?.kind === 'execute') pending.resolve(checkedResult(message.result));
      return;
    }
    case 'done': {
      const pending = inc.pending.get(message.id);
      if (pending?.kind === 'session') pending.resolve(typeof message.error === 'string' ? { error: message.error } : {});
      return;
    }
    case 'exec':
      return ports.exec(message);
    case 'output':
      return keepOutput(inc, message);
    case 'exec-cancel':
      inc.execs.get(message.id)?.controller.abort();
      return;
  }
}

/** A call's stdout and stderr, bounded here too: a host that does not bound what it sends is cut all the same. */
function keepOutput(inc: Incarnation, message: Extract<FromHost, { t: 'output' }>): void {
  const pending = inc.pending.get(message.id);
  if (pending?.kind !== 'execute' || (message.stream !== 'stdout' && message.stream !== 'stderr')) return;
  const { output } = pending;
  const stream = message.stream;
  const text = typeof message.text === 'string' ? message.text : '';
  const room = Math.max(0, MAX_CALL_OUTPUT_CHARS - output[stream].length);
  output[stream] += text.slice(0, room);
  const cut = Math.max(0, text.length - room) + (typeof message.cut === 'number' && message.cut > 0 ? message.cut : 0);
  if (cut > 0) output.cut[stream] = (output.cut[stream] ?? 0) + cut;
}
