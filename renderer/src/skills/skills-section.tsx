// Settings → Skills: every Agent Skill found (enabled or not) with its origin, description, files,
// flags and problems; its switch, its scripts' network grant and — when its SKILL.md proposes
// `allowed-tools` — the choice to use them as a tool set while the skill is active. The proposal
// is shown as such: nothing is granted until the user accepts it here. The folders searched are
// listed, and `skillRoots` (more folders) is edited one per line.
import { For, Show, createEffect, createSignal, on } from 'solid-js';
import type { SkillsView, SkillView } from '../../../shared/api-skills.ts';
import { useApp } from '../store/app-context.tsx';
import { Switch } from '../settings/switch.tsx';

export function SkillsSection() {
  const app = useApp();
  const [view, setView] = createSignal<SkillsView | null>(null);
  const [open, setOpen] = createSignal<Record<string, boolean>>({});
  const [notes, setNotes] = createSignal<Record<string, string>>({});
  const [rootsText, setRootsText] = createSignal<string | null>(null);
  const [rootsProblem, setRootsProblem] = createSignal<string | null>(null);

  const load = async () => {
    const next = await app.guard(() => app.api.listSkills());
    if (next) setView(next);
  };
  // Switches, grants and roots live in the settings, files in the skills group: re-read after either.
  createEffect(on([() => app.state.settings, () => app.state.tools], () => void load()));

  const act = async (run: () => Promise<SkillsView>) => {
    const next = await app.guard(run);
    if (next) setView(next);
    return next;
  };
  const useToolSet = async (skill: SkillView, accept: boolean) => {
    const next = await app.guard(() => app.api.setSkillToolSet({ id: skill.id, accept }));
    if (!next) return;
    setView(next);
    setNotes({ ...notes(), [skill.id]: accept && next.unmatched.length ? `Not tools of this app, left out: ${next.unmatched.join(', ')}` : '' });
  };
  const saveRoots = async () => {
    const roots = (rootsText() ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
    try {
      setView(await app.api.setSkillRoots({ roots }));
      setRootsText(null);
      setRootsProblem(null);
    } catch (error) {
      setRootsProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section class="settings-section" aria-labelledby="skills-title" data-testid="skills-section">
      <h3 id="skills-title">Skills</h3>
      <p class="small muted">
        Agent Skills: folders with a <code>SKILL.md</code>. The model sees each enabled skill's name and description and loads its instructions when it needs them. A skill's scripts
        run sandboxed, with no network unless you grant it here, and ask before each run.
      </p>
      <ul class="group-list">
        <For each={view()?.skills ?? []} fallback={<li class="muted small">No skills found. Put skill folders in one of the folders below.</li>}>
          {(skill) => (
            <li class="group-item card" data-testid="skill-item" data-skill={skill.id}>
              <div class="row wrap">
                <Switch checked={skill.enabled} label={`Enable skill ${skill.id}`} onChange={(on) => void act(() => app.api.setSkillEnabled({ id: skill.id, enabled: on }))} testId={`skill-toggle-${skill.id}`} />
                <strong class="grow">
                  {skill.id}
                  <span class="muted small" data-testid="skill-meta">
                    {' '}
                    · {skill.origin.label} · {skill.fileCount} file{skill.fileCount === 1 ? '' : 's'}
                    {skill.license ? ` · ${skill.license}` : ''}
                  </span>
                </strong>
                <button type="button" class="link small" aria-expanded={!!open()[skill.id]} onClick={() => setOpen({ ...open(), [skill.id]: !open()[skill.id] })}>
                  {open()[skill.id] ? 'Hide details' : 'Details'}
                </button>
              </div>
              <p class="small" data-testid="skill-description">
                {skill.description}
              </p>
              <Show when={skill.flags.length}>
                <ul class="small error-text" data-testid="skill-flags" aria-label={`Flags of skill ${skill.id}`}>
                  <For each={skill.flags}>{(flag) => <li>⚑ {flag}</li>}</For>
                </ul>
              </Show>
              <Show when={skill.diagnostics.length}>
                <ul class="small" data-testid="skill-diagnostics" aria-label={`Problems of skill ${skill.id}`}>
                  <For each={skill.diagnostics}>
                    {(d) => (
                      <li class={d.severity === 'error' ? 'error-text' : 'muted'}>
                        {d.file.split('/').pop()}
                        {d.line ? `:${d.line}` : ''}: {d.message}
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
              <Show when={open()[skill.id]}>
                <div class="stack small">
                  <span class="muted">Folder: {skill.dir || `served by ${skill.origin.root}`}</span>
                  <Show when={skill.dir}>
                    <div class="row">
                      <Switch checked={skill.network} label={`Network for the scripts of ${skill.id}`} onChange={(on) => void act(() => app.api.setSkillNetwork({ id: skill.id, granted: on }))} testId={`skill-network-${skill.id}`} />
                      <span>Its scripts may use the network</span>
                    </div>
                  </Show>
                  <Show when={skill.allowedTools.length}>
                    <div class="stack" data-testid="skill-allowed-tools">
                      <span>
                        Proposes the tools <code>{skill.allowedTools.join(' ')}</code> (<code>allowed-tools</code>: a proposal, not granted).
                      </span>
                      <Show
                        when={skill.toolSet}
                        fallback={
                          <button type="button" class="small" data-testid={`skill-accept-tools-${skill.id}`} onClick={() => void useToolSet(skill, true)}>
                            Use as the tool set while {skill.id} is active
                          </button>
                        }
                      >
                        <span>
                          While {skill.id} is active in a chat, only the tool set <code>{skill.toolSet}</code> is on (it narrows, never widens).{' '}
                          <button type="button" class="link small" data-testid={`skill-drop-tools-${skill.id}`} onClick={() => void useToolSet(skill, false)}>
                            Stop using it
                          </button>
                        </span>
                      </Show>
                      <Show when={notes()[skill.id]}>
                        <span class="muted" role="status">
                          {notes()[skill.id]}
                        </span>
                      </Show>
                    </div>
                  </Show>
                  <Show when={skill.declaredDeps.length || skill.hasEnv}>
                    <span data-testid="skill-deps">
                      Python packages: {skill.declaredDeps.join(', ') || 'none declared'}
                      {skill.hasEnv ? ' · has its own environment' : ''} (add one with <code>tooldesk skills deps {skill.id} --add PKG</code>)
                    </span>
                  </Show>
                  <details>
                    <summary>Files ({skill.fileCount})</summary>
                    <ul data-testid="skill-files">
                      <For each={skill.files}>{(f) => <li><code>{f}</code></li>}</For>
                    </ul>
                  </details>
                </div>
              </Show>
            </li>
          )}
        </For>
      </ul>
      <h4>Where skills are looked for</h4>
      <ul class="small" data-testid="skill-roots">
        <For each={view()?.roots ?? []}>
          {(root) => (
            <li>
              <code>{root.root}</code> <span class="muted">({root.label}{root.untrusted ? ', project folder not trusted: not read' : ''})</span>
            </li>
          )}
        </For>
      </ul>
      <label class="stack small">
        More folders holding skill folders (<code>skillRoots</code>), one per line
        <textarea
          rows={3}
          aria-label="Skill folders"
          data-testid="skill-roots-input"
          value={rootsText() ?? (view()?.skillRoots ?? []).join('\n')}
          onInput={(e) => setRootsText(e.currentTarget.value)}
        />
      </label>
      <div class="row">
        <button type="button" class="primary" disabled={rootsText() === null} data-testid="skill-roots-save" onClick={() => void saveRoots()}>
          Save folders
        </button>
        <Show when={rootsProblem()}>
          <span class="small error-text" role="alert">
            {rootsProblem()}
          </span>
        </Show>
      </div>
    </section>
  );
}
