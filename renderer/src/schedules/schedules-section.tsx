// Settings → Schedules: prompts that run on their own, with the next run time, the last run's
// status, Run now, a switch, and a form with the fields of `tooldesk schedule add`. One
// self-contained section: it loads and saves through the schedule API methods itself.
import { For, Show, createSignal } from 'solid-js';
import { PERMISSION_LEVEL_LABELS, PERMISSION_LEVELS, type PermissionLevel } from '../../../shared/permissions.ts';
import type { OnAsk, ScheduleConfig, ScheduleInfo } from '../../../shared/schedules.ts';
import { DraftSaveRow } from '../settings/draft-save-row.tsx';
import { useApp } from '../store/app-context.tsx';
import { useSchedules } from './use-schedules.ts';
import './schedules.css';

const time = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const systemZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

interface Draft {
  name: string;
  kind: 'every' | 'cron';
  when: string;
  timezone: string;
  prompt: string;
  toolSet: string;
  permissions: PermissionLevel | '';
  onAsk: OnAsk;
  model: string;
  cwd: string;
}

const emptyDraft = (): Draft => ({ name: '', kind: 'every', when: '1d', timezone: systemZone(), prompt: '', toolSet: '', permissions: '', onAsk: 'pause', model: '', cwd: '' });

export function draftToSchedule(draft: Draft): ScheduleConfig {
  return {
    name: draft.name.trim(),
    prompt: draft.prompt,
    ...(draft.kind === 'every' ? { every: draft.when.trim() } : { cron: draft.when.trim(), timezone: draft.timezone.trim() || systemZone() }),
    ...(draft.toolSet ? { toolSet: draft.toolSet } : {}),
    ...(draft.permissions ? { permissions: draft.permissions } : {}),
    onAsk: draft.onAsk,
    ...(draft.model.trim() ? { model: draft.model.trim() } : {}),
    ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
  };
}

export function SchedulesSection() {
  const app = useApp();
  const view = useSchedules();
  const [draft, setDraft] = createSignal<Draft>(emptyDraft());
  const [problem, setProblem] = createSignal('');
  const [note, setNote] = createSignal('');
  const edit = (change: Partial<Draft>) => setDraft({ ...draft(), ...change });
  const add = async () => {
    setProblem('');
    try {
      await app.api.saveSchedule({ schedule: draftToSchedule(draft()) });
      setDraft(emptyDraft());
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const setEnabled = (info: ScheduleInfo, enabled: boolean) => {
    const { enabled: _old, ...rest } = info.config;
    void app.guard(() => app.api.saveSchedule({ schedule: enabled ? rest : { ...rest, enabled: false } }));
  };
  const runNow = async (info: ScheduleInfo) => {
    setNote(`Running ${info.config.name}…`);
    const run = await app.guard(() => app.api.runSchedule({ name: info.config.name }));
    setNote(run ? `${info.config.name}: ${run.status}${run.reason ? ` — ${run.reason}` : ''}` : '');
  };
  const status = (info: ScheduleInfo) => {
    if (info.problem) return info.problem;
    if (info.config.enabled === false) return 'Off';
    if (info.lastRun?.status === 'waiting') return 'Waiting for you (see the Inbox)';
    return info.nextRunAt ? `Next run ${time(info.nextRunAt)}` : 'No next run';
  };

  return (
    <section class="settings-section" aria-labelledby="schedules-title" data-testid="schedules-section">
      <h3 id="schedules-title">Schedules</h3>
      <p class="small muted">
        Prompts that run on their own, each in its own chat. Nobody watches them: a schedule can only narrow what your settings allow, and a call that needs an answer
        pauses the run until you give it in the Inbox (or is refused, if you choose so).
      </p>
      <For each={view()?.schedules ?? []} fallback={<p class="small muted">No schedules yet.</p>}>
        {(info) => (
          <div class="schedule-row" data-testid="schedule-row">
            <div>
              <strong>{info.config.name}</strong>{' '}
              <span class="small muted">
                {info.config.every ? `every ${info.config.every}` : `cron ${info.config.cron} (${info.config.timezone ?? 'system time'})`}
                {info.config.toolSet ? ` · tool set ${info.config.toolSet}` : ''}
                {info.config.permissions ? ` · ${PERMISSION_LEVEL_LABELS[info.config.permissions]}` : ''}
                {info.config.onAsk === 'deny' ? ' · refuses questions' : ''}
                {info.config.cwd ? ` · in ${info.config.cwd}` : ''}
              </span>
              <div class="small" data-testid="schedule-status">
                {status(info)}
                <Show when={info.lastRun}>{(last) => <span class="muted"> · last run {last().status}{last().late ? ' (late)' : ''} {time(last().startedAt)}</span>}</Show>
              </div>
            </div>
            <div class="row">
              <label class="small">
                <input type="checkbox" checked={info.config.enabled !== false} onChange={(e) => setEnabled(info, e.currentTarget.checked)} aria-label={`${info.config.name} on`} /> On
              </label>
              <button type="button" class="small" onClick={() => void runNow(info)}>
                Run now
              </button>
              <Show when={info.sessionId}>
                <button type="button" class="small" onClick={() => void app.openSession(info.sessionId!)}>
                  Chat
                </button>
              </Show>
              <button type="button" class="small danger" aria-label={`Remove schedule ${info.config.name}`} onClick={() => void app.guard(() => app.api.removeSchedule({ name: info.config.name }))}>
                ✕
              </button>
            </div>
          </div>
        )}
      </For>
      <Show when={note()}>
        <p class="small" role="status">
          {note()}
        </p>
      </Show>
      <fieldset class="stack">
        <legend class="small">Add a schedule</legend>
        <div class="row wrap">
          <input aria-label="Schedule name" placeholder="name" value={draft().name} onInput={(e) => edit({ name: e.currentTarget.value })} />
          <select aria-label="Schedule kind" value={draft().kind} onChange={(e) => edit({ kind: e.currentTarget.value as Draft['kind'], when: e.currentTarget.value === 'every' ? '1d' : '0 9 * * 1-5' })}>
            <option value="every">Every</option>
            <option value="cron">Cron</option>
          </select>
          <input aria-label={draft().kind === 'every' ? 'Interval (30m, 2h, 1d)' : 'Cron expression (5 fields)'} value={draft().when} onInput={(e) => edit({ when: e.currentTarget.value })} />
          <Show when={draft().kind === 'cron'}>
            <input aria-label="Time zone" value={draft().timezone} onInput={(e) => edit({ timezone: e.currentTarget.value })} />
          </Show>
        </div>
        <textarea aria-label="Prompt" placeholder="What to ask at each run" rows={2} value={draft().prompt} onInput={(e) => edit({ prompt: e.currentTarget.value })} />
        <div class="row wrap">
          <select aria-label="Tool set" value={draft().toolSet} onChange={(e) => edit({ toolSet: e.currentTarget.value })}>
            <option value="">Tools: as switched on</option>
            <For each={app.state.settings?.toolSets ?? []}>{(set) => <option value={set.name}>Tool set {set.name}</option>}</For>
          </select>
          <select aria-label="Permission level" value={draft().permissions} onChange={(e) => edit({ permissions: e.currentTarget.value as Draft['permissions'] })}>
            <option value="">Level: default</option>
            <For each={PERMISSION_LEVELS}>{(level) => <option value={level}>{PERMISSION_LEVEL_LABELS[level]}</option>}</For>
          </select>
          <select aria-label="When a call needs an answer" value={draft().onAsk} onChange={(e) => edit({ onAsk: e.currentTarget.value as OnAsk })}>
            <option value="pause">Pause and wait for me</option>
            <option value="deny">Refuse it</option>
          </select>
          <input aria-label="Model (optional)" placeholder="model (default: the active one)" value={draft().model} onInput={(e) => edit({ model: e.currentTarget.value })} />
          <input aria-label="Working folder (optional)" placeholder="folder its tools run in (default: the working folder)" value={draft().cwd} onInput={(e) => edit({ cwd: e.currentTarget.value })} />
        </div>
        <DraftSaveRow label="Add schedule" disabled={!draft().name.trim() || !draft().prompt.trim()} onSave={() => void add()} problem={problem()} />
      </fieldset>
    </section>
  );
}
