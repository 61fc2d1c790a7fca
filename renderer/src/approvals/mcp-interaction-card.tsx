import { For, Match, Show, Switch, createSignal } from 'solid-js';
import type { McpFormField, McpInteractionAnswer, McpInteractionRequest } from '../../../shared/mcp.ts';
import { jumpToApprovalLabel } from './focus-if-idle.ts';
import './approvals.css';

type Value = string | number | boolean;

/**
 * What an MCP server asks during a tool call: a form, a page to open, or a sampling request. Like
 * the approval cards it never takes the keyboard by itself (it announces itself and the jump
 * shortcut reaches it), so a keystroke meant for the message box cannot answer it.
 */
export function McpInteractionCard(props: { request: McpInteractionRequest; onAnswer: (answer: McpInteractionAnswer) => void; model?: string }) {
  const titleId = () => `mcp-ask-${props.request.id}-title`;
  const [sent, setSent] = createSignal(false);
  const answer = (a: McpInteractionAnswer) => {
    if (sent()) return;
    setSent(true);
    props.onAnswer(a);
  };
  // A tool's own question (Open WebUI's __event_call__) names the tool and its group, not "MCP".
  const asker = () => (props.request.tool ? `${props.request.tool} (${props.request.server})` : props.request.server);
  const title = () => {
    const r = props.request;
    if (r.kind === 'form') return r.confirm ? `${asker()} asks you to confirm` : `${asker()} asks for information`;
    return r.kind === 'url' ? `${asker()} asks you to open a page` : `${asker()} asks to use the model`;
  };
  return (
    <section class="approval-card card mcp-ask" role="group" aria-labelledby={titleId()} data-testid="mcp-ask" data-kind={props.request.kind} data-request-id={props.request.id}>
      <span class="sr-only" role="alert">
        {title()}. Press {jumpToApprovalLabel()} to go to it.
      </span>
      <header class="row">
        <span class="badge">{props.request.tool ? 'Tool' : 'MCP'}</span>
        <h3 id={titleId()} class="grow">
          {title()}
        </h3>
        <kbd class="muted small jump-hint">{jumpToApprovalLabel()}</kbd>
      </header>
      <Switch>
        <Match when={props.request.kind === 'form' && props.request}>{(r) => <FormAsk request={r()} disabled={sent()} onAnswer={answer} />}</Match>
        <Match when={props.request.kind === 'url' && props.request}>
          {(r) => (
            <>
              <p>{r().message}</p>
              <p class="small">
                Opens <code data-testid="mcp-ask-url">{r().url}</code> in your browser. Whatever you enter there goes to that site, not through Tooldesk.
              </p>
              <div class="row">
                <button type="button" class="primary" disabled={sent()} onClick={() => answer({ action: 'accept' })}>
                  Open in browser
                </button>
                <button type="button" disabled={sent()} onClick={() => answer({ action: 'decline' })}>
                  Decline
                </button>
              </div>
            </>
          )}
        </Match>
        <Match when={props.request.kind === 'sampling' && props.request}>
          {(r) => (
            <>
              <p class="muted small">
                If you allow it, {props.model ? <code>{props.model}</code> : 'this chat’s model'} answers these messages (at most {r().maxTokens} tokens) and the server gets the answer. Nothing is sent before you allow it.
              </p>
              <Show when={r().systemPrompt}>
                <pre class="plain small" data-testid="mcp-ask-system">{r().systemPrompt}</pre>
              </Show>
              <ol class="mcp-sampling-messages">
                <For each={r().messages}>
                  {(m) => (
                    <li>
                      <span class="muted small">{m.role}:</span> <span class="plain">{m.text}</span>
                    </li>
                  )}
                </For>
              </ol>
              <div class="row">
                <button type="button" class="primary" disabled={sent()} onClick={() => answer({ action: 'accept' })}>
                  Allow
                </button>
                <button type="button" disabled={sent()} onClick={() => answer({ action: 'decline' })}>
                  Deny
                </button>
              </div>
            </>
          )}
        </Match>
      </Switch>
    </section>
  );
}

function initial(field: McpFormField): Value | undefined {
  if (field.default !== undefined) return field.default;
  if (field.type === 'boolean') return false;
  return undefined;
}

function FormAsk(props: { request: Extract<McpInteractionRequest, { kind: 'form' }>; disabled: boolean; onAnswer: (a: McpInteractionAnswer) => void }) {
  const [values, setValues] = createSignal<Record<string, Value | undefined>>(Object.fromEntries(props.request.fields.map((f) => [f.name, initial(f)])));
  const [problem, setProblem] = createSignal<string | null>(null);
  const set = (name: string, value: Value | undefined) => setValues({ ...values(), [name]: value });
  const send = (event: Event) => {
    event.preventDefault();
    const content: Record<string, Value> = {};
    for (const field of props.request.fields) {
      const value = values()[field.name];
      if (value === undefined || value === '') {
        if (field.required) return setProblem(`${field.title ?? field.name} is required.`);
        continue;
      }
      if ((field.type === 'number' || field.type === 'integer') && (typeof value !== 'number' || Number.isNaN(value))) return setProblem(`${field.title ?? field.name} must be a number.`);
      if (field.type === 'integer' && !Number.isInteger(value)) return setProblem(`${field.title ?? field.name} must be a whole number.`);
      content[field.name] = value;
    }
    setProblem(null);
    props.onAnswer({ action: 'accept', content });
  };
  return (
    <form class="stack" onSubmit={send} noValidate>
      <p>{props.request.message}</p>
      <For each={props.request.fields}>
        {(field) => (
          <label class="stack mcp-field">
            <span>
              {field.title ?? field.name}
              {field.required ? ' *' : ''}
            </span>
            <Show when={field.description}>
              <span class="muted small">{field.description}</span>
            </Show>
            <Switch>
              <Match when={field.options}>
                {(options) => (
                  <select value={String(values()[field.name] ?? '')} disabled={props.disabled} onChange={(e) => set(field.name, e.currentTarget.value || undefined)} data-field={field.name}>
                    <option value="">—</option>
                    <For each={options()}>{(o) => <option value={o.value}>{o.label}</option>}</For>
                  </select>
                )}
              </Match>
              <Match when={field.type === 'boolean'}>
                <input type="checkbox" checked={values()[field.name] === true} disabled={props.disabled} onChange={(e) => set(field.name, e.currentTarget.checked)} data-field={field.name} />
              </Match>
              <Match when={field.type === 'number' || field.type === 'integer'}>
                <input
                  type="number"
                  step={field.type === 'integer' ? 1 : 'any'}
                  value={values()[field.name] === undefined ? '' : String(values()[field.name])}
                  disabled={props.disabled}
                  onInput={(e) => set(field.name, e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
                  data-field={field.name}
                />
              </Match>
              <Match when={true}>
                <input
                  type={field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text'}
                  value={String(values()[field.name] ?? '')}
                  disabled={props.disabled}
                  onInput={(e) => set(field.name, e.currentTarget.value)}
                  data-field={field.name}
                />
              </Match>
            </Switch>
          </label>
        )}
      </For>
      <Show when={problem()}>
        <p class="error small" role="alert" data-testid="mcp-ask-problem">
          {problem()}
        </p>
      </Show>
      <div class="row">
        <button type="submit" class="primary" disabled={props.disabled}>
          {props.request.confirm ? 'Confirm' : 'Send'}
        </button>
        <button type="button" disabled={props.disabled} onClick={() => props.onAnswer({ action: 'decline' })}>
          {props.request.confirm ? 'Cancel' : 'Decline'}
        </button>
      </div>
    </form>
  );
}
