// The chat header's permission level and tool set. A change is stored with the chat and applies
// to its next tool call, also in the middle of a turn.
import { For, Show } from 'solid-js';
import type { ChatSettings } from '../../../../shared/chat.ts';
import { PERMISSION_LEVEL_LABELS, PERMISSION_LEVELS, type PermissionLevel } from '../../../../shared/permissions.ts';
import { useApp } from '../../store/app-context.tsx';

export function PermissionControls(props: { chat: ChatSettings; onChange: (chat: ChatSettings) => void }) {
  const app = useApp();
  const sets = () => app.state.settings?.toolSets ?? [];
  const toolSetLevel = (): PermissionLevel => sets().find((s) => s.name === props.chat.toolSet)?.level ?? 'default';
  const setLevel = (value: string) => {
    const { permissions: _old, ...rest } = props.chat;
    props.onChange(value === '' ? rest : { ...rest, permissions: value as PermissionLevel });
  };
  const setToolSet = (value: string) => {
    const { toolSet: _old, ...rest } = props.chat;
    props.onChange(value === '' ? rest : { ...rest, toolSet: value });
  };
  return (
    <>
      <label class="small row" title="How this chat's tool calls are approved (deny rules always deny)">
        Permissions
        <select data-testid="permission-level" aria-label="Permission level" value={props.chat.permissions ?? ''} onChange={(e) => setLevel(e.currentTarget.value)}>
          {/* Not set: the chat's tool set gives the level, else it is the default. */}
          <option value="">{props.chat.toolSet ? `The tool set's (${PERMISSION_LEVEL_LABELS[toolSetLevel()]})` : PERMISSION_LEVEL_LABELS.default}</option>
          {/* Without a tool set the empty choice is the default level: not listed twice. */}
          <For each={PERMISSION_LEVELS.filter((level) => level !== 'default' || props.chat.toolSet || props.chat.permissions === 'default')}>
            {(level) => <option value={level}>{PERMISSION_LEVEL_LABELS[level]}</option>}
          </For>
        </select>
      </label>
      <Show when={sets().length > 0 || props.chat.toolSet}>
        <label class="small row" title="A named set of tools, rules and level (/toolset NAME)">
          Tool set
          <select data-testid="tool-set" aria-label="Tool set" value={props.chat.toolSet ?? ''} onChange={(e) => setToolSet(e.currentTarget.value)}>
            <option value="">None</option>
            <For each={sets()}>{(set) => <option value={set.name}>{set.name}</option>}</For>
          </select>
        </label>
      </Show>
    </>
  );
}
