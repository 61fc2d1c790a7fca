// Settings → Rules: the ordered tool rules (deny > ask > allow, before a tool's policy), edited as
// rows (action, tool glob, tests as `PATH~GLOB; PATH=~REGEX`, reason), moved up and down, saved at
// once; and a "test a call" box asking the runtime which rule decides (with paths resolved).
import { For, Show, createSignal } from 'solid-js';
import { RULE_ACTIONS, type RuleAction, type RuleVerdict } from '../../../shared/permissions.ts';
import { useApp } from '../store/app-context.tsx';
import { useDraftRows } from './draft-rows.ts';
import { DraftSaveRow } from './draft-save-row.tsx';
import { rowsToRules, toRuleRow } from './rule-rows.ts';
import { useSettings } from './use-settings.ts';

export function RulesSection() {
  const app = useApp();
  const { settings, save } = useSettings();
  const { rows, dirty, problem, setProblem, change, update, markSaved } = useDraftRows(() => settings()?.toolRules ?? [], toRuleRow);
  const move = (i: number, by: number) => {
    const next = [...rows()];
    const [row] = next.splice(i, 1);
    next.splice(i + by, 0, row!);
    change(next);
  };
  const saveRules = async () => {
    const parsed = rowsToRules(rows());
    if ('error' in parsed) return setProblem(parsed.error);
    if (await save({ toolRules: parsed.rules })) markSaved();
  };

  const [testTool, setTestTool] = createSignal('');
  const [testArgs, setTestArgs] = createSignal('{}');
  const [verdict, setVerdict] = createSignal('');
  const test = async () => {
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(testArgs()) as Record<string, unknown>;
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error('the arguments must be a JSON object');
    } catch (e) {
      return setVerdict(`The arguments are not a JSON object: ${(e as Error).message}`);
    }
    const parsed = rowsToRules(rows());
    if ('error' in parsed) return setVerdict(parsed.error);
    const answer: RuleVerdict | undefined = await app.guard(() => app.api.testToolRules({ tool: testTool().trim(), args, rules: parsed.rules }));
    if (!answer) return;
    setVerdict(answer.action === 'none' ? 'No rule matches: the tool\'s policy decides.' : `${answer.action} by ${answer.label}${answer.reason ? `: ${answer.reason}` : ''}`);
  };

  return (
    <section class="settings-section" aria-labelledby="rules-title" data-testid="rules-section">
      <h3 id="rules-title">Rules</h3>
      <p class="small muted">
        Checked on every call's resolved arguments before its policy: deny wins over everything, then ask, then allow. Tests: <code>PATH~GLOB</code>,{' '}
        <code>PATH=~REGEX</code>, <code>PATH^=PREFIX</code>, <code>PATH==VALUE</code>, separated by <code>;</code> (no PATH: every string). Paths are compared with
        ~, .. and symlinks resolved.
      </p>
      <For each={rows()} fallback={<p class="small muted">No rules: every call follows its tool's policy.</p>}>
        {(row, i) => (
          <div class="row wrap rule-row" data-testid="rule-row">
            <span class="small muted">{i() + 1}</span>
            <select aria-label={`Rule ${i() + 1} action`} value={row.action} onChange={(e) => update(i(), { action: e.currentTarget.value as RuleAction })}>
              <For each={RULE_ACTIONS}>{(a) => <option value={a}>{a}</option>}</For>
            </select>
            <input aria-label={`Rule ${i() + 1} tool`} placeholder="tool or glob" value={row.tool} onInput={(e) => update(i(), { tool: e.currentTarget.value })} />
            <input class="grow" aria-label={`Rule ${i() + 1} tests`} placeholder="url~http://localhost:*" value={row.where} onInput={(e) => update(i(), { where: e.currentTarget.value })} />
            <input aria-label={`Rule ${i() + 1} reason`} placeholder="reason" value={row.reason} onInput={(e) => update(i(), { reason: e.currentTarget.value })} />
            <button type="button" class="small" aria-label={`Move rule ${i() + 1} up`} disabled={i() === 0} onClick={() => move(i(), -1)}>
              ↑
            </button>
            <button type="button" class="small" aria-label={`Move rule ${i() + 1} down`} disabled={i() === rows().length - 1} onClick={() => move(i(), 1)}>
              ↓
            </button>
            <button type="button" class="small danger" aria-label={`Remove rule ${i() + 1}`} onClick={() => change(rows().filter((_, j) => j !== i()))}>
              ✕
            </button>
          </div>
        )}
      </For>
      <DraftSaveRow label="Save rules" disabled={!dirty()} onSave={() => void saveRules()} problem={problem()}>
        <button type="button" onClick={() => change([...rows(), { action: 'ask', tool: '', where: '', reason: '' }])}>
          + Add rule
        </button>
      </DraftSaveRow>
      <fieldset class="stack" data-testid="rule-test">
        <legend class="small">Test a call</legend>
        <div class="row wrap">
          <input aria-label="Tool to test" placeholder="tool name" value={testTool()} onInput={(e) => setTestTool(e.currentTarget.value)} />
          <input class="grow" aria-label="Arguments to test" value={testArgs()} onInput={(e) => setTestArgs(e.currentTarget.value)} />
          <button type="button" disabled={!testTool().trim()} onClick={() => void test()}>
            Test
          </button>
        </div>
        <Show when={verdict()}>
          <p class="small" data-testid="rule-verdict">
            {verdict()}
          </p>
        </Show>
      </fieldset>
    </section>
  );
}
