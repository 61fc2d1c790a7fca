// What a message offers on hover or focus: Copy, Edit (user), Regenerate (assistant), Delete,
// the "‹ 1/2 ›" switcher between branches, and under an answer its model, tokens and speed.
import { Show, createSignal } from 'solid-js';
import type { BranchInfo, StepTiming, TokenUsage } from '../../../shared/chat.ts';
import { useApp } from '../store/app-context.tsx';
import { copyText } from '../ui/copy-text.ts';
import { formatDuration } from '../ui/format.ts';
import { confirmDialog } from '../ui/dialog.tsx';

export function BranchSwitcher(props: { branch?: BranchInfo; disabled?: boolean }) {
  const app = useApp();
  return (
    <Show when={props.branch}>
      {(branch) => (
        <span class="branch-switcher" data-testid="branch-switcher" role="group" aria-label="Branches">
          <button type="button" class="icon" aria-label="Previous branch" disabled={props.disabled || !branch().previous} onClick={() => void app.switchBranch(branch().previous!)}>
            ‹
          </button>
          <span data-testid="branch-position">
            {branch().index}/{branch().count}
          </span>
          <button type="button" class="icon" aria-label="Next branch" disabled={props.disabled || !branch().next} onClick={() => void app.switchBranch(branch().next!)}>
            ›
          </button>
        </span>
      )}
    </Show>
  );
}

export function MessageActions(props: { messageId: string; kind: 'user' | 'assistant'; text: string; running: boolean; branch?: BranchInfo; onEdit?: () => void }) {
  const app = useApp();
  const [copied, setCopied] = createSignal(false);
  return (
    <div class="message-actions" data-testid="message-actions">
      <BranchSwitcher branch={props.branch} disabled={props.running} />
      <button
        type="button"
        class="ghost"
        onClick={async () => {
          if (await copyText(props.text)) {
            setCopied(true);
            setTimeout(() => setCopied(false), 1200);
          }
        }}
      >
        {copied() ? 'Copied' : 'Copy'}
      </button>
      <Show when={props.kind === 'user' && props.onEdit}>
        <button type="button" class="ghost" disabled={props.running} onClick={() => props.onEdit!()}>
          Edit
        </button>
      </Show>
      <Show when={props.kind === 'assistant'}>
        <button type="button" class="ghost" disabled={props.running} onClick={() => void app.regenerate(props.messageId)}>
          Regenerate
        </button>
      </Show>
      <button
        type="button"
        class="ghost"
        disabled={props.running}
        onClick={() => {
          void confirmDialog({ title: 'Delete this message?', message: 'What follows it stays.', confirmLabel: 'Delete', danger: true }).then((yes) => (yes ? app.deleteMessage(props.messageId) : undefined));
        }}
      >
        Delete
      </button>
    </div>
  );
}

/** A user message being edited: Save resends from it (the old one stays as a branch). */
export function MessageEdit(props: { messageId: string; text: string; onDone: () => void }) {
  const app = useApp();
  const [text, setText] = createSignal(props.text);
  const save = () => {
    if (!text().trim()) return;
    props.onDone();
    void app.edit(props.messageId, text());
  };
  return (
    <div class="message-edit" data-testid="message-edit">
      <textarea
        aria-label="Edit message"
        value={text()}
        ref={(el) => queueMicrotask(() => el.focus())}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            props.onDone();
          }
        }}
      />
      <div class="row">
        <button type="button" class="primary" onClick={save}>
          Save and send
        </button>
        <button type="button" onClick={() => props.onDone()}>
          Cancel
        </button>
      </div>
    </div>
  );
}

const tokens = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** Model, tokens in/out, time to first token and speed of one answer. */
export function AssistantMeta(props: { model?: string; usage?: TokenUsage; timing?: StepTiming }) {
  return (
    <Show when={props.model || props.usage || props.timing}>
      <div class="assistant-meta muted" data-testid="assistant-meta">
        <Show when={props.model}>
          <span data-testid="message-model">{props.model}</span>
        </Show>
        <Show when={props.usage}>
          {(u) => (
            <span data-testid="message-usage" title="Tokens the provider counted: input → output">
              {tokens(u().inputTokens)} in · {tokens(u().outputTokens)} out
            </span>
          )}
        </Show>
        <Show when={props.timing?.firstTokenMs !== undefined}>
          <span title="Time to first token">first token {formatDuration(props.timing!.firstTokenMs!)}</span>
        </Show>
        <Show when={props.timing?.tokensPerSecond !== undefined}>
          <span>{props.timing!.tokensPerSecond} tok/s</span>
        </Show>
      </div>
    </Show>
  );
}

export { tokens as formatTokens };
