// The chat bar's context meter: tokens of the last request and its answer, of the model's window.
// The window comes from the provider's model list when the server states it (OpenRouter, vLLM, LM
// Studio…), else from the model-facts table; with neither, the meter says "window unknown"
// rather than guess. The list is asked once per set of providers, not on every chat switch.
import { Show, createResource } from 'solid-js';
import type { ModelList, TooldeskApi } from '../../../shared/api.ts';
import { contextWindow } from '../../../shared/model-facts.ts';
import { useApp } from '../store/app-context.tsx';
import { formatTokens } from './message-actions.tsx';

const listed = new WeakMap<TooldeskApi, { providers: unknown; list: Promise<ModelList> }>();

function listedModels(api: TooldeskApi, providers: unknown): Promise<ModelList> {
  const cached = listed.get(api);
  if (cached && cached.providers === providers) return cached.list;
  const list = api.listAllModels().catch((): ModelList => ({ models: [], problems: [] }));
  listed.set(api, { providers, list });
  return list;
}

export interface ModelWindow {
  tokens: number;
  source: 'server' | 'table';
}

/** The model's window: what its server lists first, then the table. */
export function modelWindow(list: ModelList | undefined, current: { providerId?: string; model?: string }): ModelWindow | undefined {
  if (!current.model) return undefined;
  const stated = list?.models.find((m) => m.model === current.model && (!current.providerId || m.providerId === current.providerId))?.contextWindow;
  if (stated) return { tokens: stated, source: 'server' };
  const known = contextWindow(current.model);
  return known ? { tokens: known, source: 'table' } : undefined;
}

export function ContextMeter(props: { current: { providerId?: string; model?: string }; used: number }) {
  const app = useApp();
  const [list] = createResource(
    () => app.state.settings?.providers ?? false,
    (providers) => listedModels(app.api, providers),
  );
  const window = () => modelWindow(list(), props.current);
  const title = () => {
    const w = window();
    const from = !w ? 'the server does not state it and Tooldesk’s model table does not know this model' : w.source === 'server' ? 'as the server’s model list states it' : 'from Tooldesk’s model table';
    return `Tokens of the last request and its answer, of the model's context window (${from}).`;
  };

  // Until the server's list is in, "unknown" would be a guess too.
  const settled = () => list.state === 'ready' || list.state === 'errored' || list() !== undefined;

  return (
    <Show when={props.current.model && (window() || settled())}>
      <span class="context-meter muted" data-testid="context-meter" data-window={window()?.source ?? 'unknown'} title={title()}>
        <Show
          when={window()}
          fallback={
            <>
              <Show when={props.used > 0}>{formatTokens(props.used)} tokens · </Show>window unknown
            </>
          }
        >
          {(w) => (
            <>
              <meter
                min={0}
                max={w().tokens}
                value={Math.min(props.used, w().tokens)}
                low={w().tokens * 0.6}
                high={w().tokens * 0.85}
                optimum={0}
                aria-label="Context used"
                data-testid="context-fill"
              />
              {props.used > 0 ? `${formatTokens(props.used)} / ${formatTokens(w().tokens)} tokens` : `${formatTokens(w().tokens)} window`}
            </>
          )}
        </Show>
      </span>
    </Show>
  );
}
