// "Chat settings": this chat's system prompt, temperature and max tokens (empty = the defaults
// from Settings), and presets saved in settings ("Save as preset").
import { For, Show, createSignal } from 'solid-js';
import type { ChatSettings } from '../../../shared/chat.ts';
import type { ChatPreset } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';
import { promptDialog } from '../ui/dialog.tsx';
import { useLayer } from '../ui/layers.ts';

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** Esc closes it without saving, as Cancel does (a layer, like a menu). */
export function ChatSettingsPanel(props: { chat: ChatSettings; onClose: () => void }) {
  const app = useApp();
  useLayer(() => props.onClose());
  const [systemText, setSystemPrompt] = createSignal(props.chat.systemPrompt ?? '');
  const [temperature, setTemperature] = createSignal(props.chat.temperature?.toString() ?? '');
  const [maxTokens, setMaxTokens] = createSignal(props.chat.maxTokens?.toString() ?? '');
  const [problem, setProblem] = createSignal<string | null>(null);
  const presets = () => app.state.settings?.chatPresets ?? [];

  const values = (): Omit<ChatSettings, 'providerId' | 'model'> | null => {
    const t = numberOrUndefined(temperature());
    const m = numberOrUndefined(maxTokens());
    if (t !== undefined && (!Number.isFinite(t) || t < 0 || t > 2)) return setProblem('Temperature: a number from 0 to 2 (empty: the provider default).'), null;
    if (m !== undefined && (!Number.isInteger(m) || m < 1)) return setProblem('Max tokens: a whole number from 1 (empty: no limit sent).'), null;
    setProblem(null);
    return { ...(systemText().trim() ? { systemPrompt: systemText() } : {}), ...(t !== undefined ? { temperature: t } : {}), ...(m !== undefined ? { maxTokens: m } : {}) };
  };
  const save = async () => {
    const v = values();
    if (!v) return;
    // The panel edits these three; the chat's model, tool set, level and skills stay as they are.
    const { systemPrompt: _prompt, temperature: _temperature, maxTokens: _maxTokens, ...kept } = props.chat;
    await app.setChatSettings({ ...kept, ...v });
    props.onClose();
  };
  const apply = (preset: ChatPreset) => {
    setSystemPrompt(preset.systemPrompt ?? '');
    setTemperature(preset.temperature?.toString() ?? '');
    setMaxTokens(preset.maxTokens?.toString() ?? '');
  };
  const saveAsPreset = async () => {
    const v = values();
    if (!v) return;
    const name = await promptDialog({ title: 'Save as preset', label: 'Name of the preset', confirmLabel: 'Save preset', message: presets().length ? 'A preset with the same name is replaced.' : undefined });
    if (!name) return;
    const next = [...presets().filter((p) => p.name !== name), { name, ...v }];
    await app.guard(() => app.api.setSettings({ patch: { chatPresets: next } }).then((settings) => app.apply({ type: 'settings.changed', settings })));
  };

  return (
    <section class="chat-settings" aria-label="Chat settings" data-testid="chat-settings">
      <Show when={presets().length > 0}>
        <label class="row">
          Preset
          <select aria-label="Preset" onChange={(e) => { const p = presets().find((x) => x.name === e.currentTarget.value); if (p) apply(p); }}>
            <option value="">Choose…</option>
            <For each={presets()}>{(p) => <option value={p.name}>{p.name}</option>}</For>
          </select>
        </label>
      </Show>
      <label>
        System prompt <span class="muted small">(empty: the one in Settings)</span>
        <textarea aria-label="System prompt" value={systemText()} onInput={(e) => setSystemPrompt(e.currentTarget.value)} />
      </label>
      <div class="row">
        <label>
          Temperature <input aria-label="Temperature" inputmode="decimal" size={6} value={temperature()} onInput={(e) => setTemperature(e.currentTarget.value)} />
        </label>
        <label>
          Max tokens <input aria-label="Max tokens" inputmode="numeric" size={8} value={maxTokens()} onInput={(e) => setMaxTokens(e.currentTarget.value)} />
        </label>
      </div>
      <Show when={problem()}>
        <div class="error-text small" role="alert">{problem()}</div>
      </Show>
      <div class="row">
        <button type="button" class="primary" onClick={() => void save()}>Save</button>
        <button type="button" onClick={() => void saveAsPreset()}>Save as preset</button>
        <button type="button" onClick={() => props.onClose()}>Cancel</button>
      </div>
    </section>
  );
}
