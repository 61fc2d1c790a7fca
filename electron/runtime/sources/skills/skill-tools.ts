// The skills group: what the model sees of the enabled skills. Its rule prompt is the catalog
// (skill-catalog.ts); activate_skill returns a skill's instructions and file list, read_skill_file
// one file inside it, and run_skill_script / run_skill_python run code for it as tool calls
// (sandboxed, approved, audited, results as variables: the executor's pipeline, like any tool).
// Nothing in a skill runs except through those two, and never at load.
import { readFileSync } from 'node:fs';
import type { Settings } from '../../../../shared/settings.ts';
import type { ToolDefinition } from '../../../../shared/tools.ts';
import type { ApprovalBinding, Tool, ToolGroup } from '../../tools/types.ts';
import type { SourceContext } from '../types.ts';
import { activationHeading, type ActiveSkills } from './active-skills.ts';
import { markCommandLines } from './mark-commands.ts';
import { resolveInSkill } from './resolve-in-skill.ts';
import type { SkillApprovals } from './skill-approvals.ts';
import { skillCatalog } from './skill-catalog.ts';
import { runSkillProcess } from './run-skill-process.ts';
import type { Skill } from './skill-types.ts';

export const SKILLS_GROUP = 'skills';
export const ACTIVATE_SKILL = 'activate_skill';
export const READ_SKILL_FILE = 'read_skill_file';
export const RUN_SKILL_SCRIPT = 'run_skill_script';
export const RUN_SKILL_PYTHON = 'run_skill_python';

/** read_skill_file shows at most this much of one file. */
const MAX_READ_BYTES = 256 * 1024;

export interface SkillToolPorts {
  /** The enabled skills, in catalog order. */
  skills: readonly Skill[];
  /** Contract: cheap, never throws (read at every call: sandbox and limits follow the settings). */
  context: () => SourceContext;
  settings: () => Settings;
  approvals: SkillApprovals;
  active: ActiveSkills;
  /** What `skills check` found in a skill, shown on its cards. Contract: never throws. */
  flags: (skill: Skill) => string[];
  catalogBudgetChars?: number;
}

export function createSkillsGroup(ports: SkillToolPorts): ToolGroup | null {
  const { skills } = ports;
  if (skills.length === 0) return null;
  const byId = new Map(skills.map((s) => [s.id, s]));
  const ids = skills.map((s) => s.id);
  const find = (value: unknown): Skill | string => {
    const skill = typeof value === 'string' ? byId.get(value) : undefined;
    return skill ?? `No enabled skill "${String(value)}". Skills: ${ids.join(', ')}.`;
  };
  const network = (skill: Skill) => ports.settings().skills?.[skill.id]?.network === true;
  const detail = (args: Record<string, unknown>): string[] => {
    const skill = byId.get(String(args.skill));
    if (!skill) return [];
    const lines = [`Skill ${skill.id} from ${skill.origin.label} (${skill.dir})`, `Network: ${network(skill) ? 'granted for this skill' : 'off'}`];
    if (skill.frontMatter.allowedTools?.length) lines.push(`allowed-tools (a proposal, not granted): ${skill.frontMatter.allowedTools.join(' ')}`);
    for (const flag of ports.flags(skill)) lines.push(`Flag: ${flag}`);
    return lines;
  };
  const binding: ApprovalBinding = {
    check(args) {
      const skill = byId.get(String(args.skill));
      if (!skill) return { state: 'none' };
      const held = ports.approvals.check(skill);
      if (held.state === 'held') return { state: 'held', label: `"always" for skill ${skill.id} (its files unchanged)` };
      if (held.state === 'changed') return { state: 'changed', note: `skill ${skill.id} changed since you allowed it always: ${held.changes.join(', ')}` };
      return { state: 'none' };
    },
    bind(args) {
      const skill = byId.get(String(args.skill));
      if (skill) ports.approvals.bind(skill);
    },
  };
  const source = { format: 'skill' as const, file: skills[0]!.file };
  const readOnly = { meta: { readOnly: true }, permission: { executionPolicy: 'auto' as const, resultApprovalPolicy: 'never' as const } };

  const activate: Tool = {
    definition: fn(ACTIVATE_SKILL, 'Load a skill: returns its instructions (SKILL.md) and the list of its files. Call it before doing a task a skill covers.', {
      name: { type: 'string', enum: ids, description: 'The skill, as the Skills list names it' },
    }, ['name']),
    ...readOnly,
    // The instructions are needed whole and stay in the conversation: never cut or moved to a variable.
    SKIP_CACHE_RESULT: true,
    SKIP_EXTERNAL_TRUNCATE: true,
    source,
    async execute(args, ctx) {
      const skill = find(args.name);
      if (typeof skill === 'string') return { status: 'ERROR', error: skill };
      if (ports.active.isActive(ctx, skill.id) || !ports.active.activate(ctx.sessionId, skill.id)) {
        ports.active.activate(ctx.sessionId, skill.id);
        const text = `Skill ${skill.id} is already active in this conversation: its instructions are in the result of the earlier ${ACTIVATE_SKILL} call.`;
        return { status: 'SUCCESS', data: text, formattedText: text };
      }
      const text = activationText(skill);
      return { status: 'SUCCESS', data: text, formattedText: text };
    },
  };

  const read: Tool = {
    definition: fn(READ_SKILL_FILE, "Read a file of a skill (a reference, a script's source, an asset's text), named relative to the skill's folder.", {
      skill: { type: 'string', enum: ids },
      path: { type: 'string', description: 'Relative to the skill folder, e.g. "reference.md" or "scripts/fill.py"' },
    }, ['skill', 'path']),
    ...readOnly,
    source,
    async execute(args) {
      const skill = find(args.skill);
      if (typeof skill === 'string') return { status: 'ERROR', error: skill };
      const where = resolveInSkill(skill.dir, args.path);
      if (!where.ok) return { status: 'ERROR', error: where.message };
      const bytes = readFileSync(where.path);
      if (bytes.subarray(0, 8192).includes(0)) return { status: 'ERROR', error: `"${String(args.path)}" is a binary file (${bytes.length} bytes): it cannot be shown as text.` };
      const text = bytes.subarray(0, MAX_READ_BYTES).toString('utf8');
      const shown = bytes.length > MAX_READ_BYTES ? `${text}\n[cut: the file has ${bytes.length} bytes, ${MAX_READ_BYTES} shown]` : text;
      return { status: 'SUCCESS', data: shown, formattedText: markCommandLines(shown).text };
    },
  };

  const askEveryRun = { permission: { executionPolicy: 'ask-always' as const, resultApprovalPolicy: 'never' as const }, approvalBinding: binding, approvalDetail: detail, source };

  const runScript: Tool = {
    definition: fn(RUN_SKILL_SCRIPT, "Run one of a skill's scripts (.py, .js, .mjs, .sh) in the working folder, sandboxed, after the user approves. Its output is the result.", {
      skill: { type: 'string', enum: ids },
      script: { type: 'string', description: 'Relative to the skill folder, e.g. "scripts/check.py"' },
      args: { type: 'array', items: { type: 'string' }, description: 'Command-line arguments' },
      stdin: { type: 'string', description: 'Text given on standard input' },
    }, ['skill', 'script']),
    ...askEveryRun,
    compressArgs: (args) => `${String(args.skill)} ${String(args.script)} ${Array.isArray(args.args) ? args.args.join(' ') : ''}`.trim(),
    async execute(args, ctx) {
      const skill = find(args.skill);
      if (typeof skill === 'string') return { status: 'ERROR', error: skill };
      const where = resolveInSkill(skill.dir, args.script, 'script');
      if (!where.ok) return { status: 'ERROR', error: where.message };
      const argv = Array.isArray(args.args) ? args.args.map(String) : [];
      return runSkillProcess(ports.context(), ctx, {
        skill,
        toolName: RUN_SKILL_SCRIPT,
        what: { script: where.path, args: argv, ...(typeof args.stdin === 'string' ? { stdin: args.stdin } : {}) },
        network: network(skill),
      });
    },
  };

  const runPython: Tool = {
    definition: fn(RUN_SKILL_PYTHON, "Run a short Python program a skill's instructions ask for (only while that skill is active), sandboxed like its scripts, after the user approves.", {
      skill: { type: 'string', enum: ids, description: 'The active skill this program is for' },
      code: { type: 'string', description: 'The Python program' },
    }, ['skill', 'code']),
    ...askEveryRun,
    async execute(args, ctx) {
      const skill = find(args.skill);
      if (typeof skill === 'string') return { status: 'ERROR', error: skill };
      if (!ports.active.isActive(ctx, skill.id)) return { status: 'ERROR', error: `Skill ${skill.id} is not active in this conversation: call ${ACTIVATE_SKILL} first.` };
      if (typeof args.code !== 'string' || !args.code.trim()) return { status: 'ERROR', error: '"code" must be a Python program.' };
      return runSkillProcess(ports.context(), ctx, { skill, toolName: RUN_SKILL_PYTHON, what: { code: args.code }, network: network(skill) });
    },
  };

  return {
    name: SKILLS_GROUP,
    enabledByDefault: true,
    tools: [activate, read, runScript, runPython],
    rulePrompt: skillCatalog(skills, ports.catalogBudgetChars),
    source,
  };
}

/** The skill a call of one of the skill tools names (`name` of activate_skill, else `skill`); undefined for other tools. */
export function skillNamedBy(tool: string, args: Record<string, unknown>): string | undefined {
  const value = tool === ACTIVATE_SKILL ? args.name : tool === READ_SKILL_FILE || tool === RUN_SKILL_SCRIPT || tool === RUN_SKILL_PYTHON ? args.skill : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What activate_skill returns: the instructions (commands marked, never run) and the file list. */
export function activationText(skill: Skill): string {
  const marked = markCommandLines(skill.body);
  const parts = [activationHeading(skill.id).trimEnd(), `Folder: ${skill.dir} (origin: ${skill.origin.label})`];
  if (marked.count > 0) parts.push(`Note: ${marked.count} command(s) in these instructions are marked "NOT run": nothing ran when the skill loaded. Run one only through ${RUN_SKILL_SCRIPT} or ${RUN_SKILL_PYTHON}, if it is needed.`);
  parts.push('', marked.text.trim(), '', `## Files of skill ${skill.id}`, ...skill.files.map((f) => `- ${f}`));
  parts.push('', `Read a file with ${READ_SKILL_FILE} {"skill": "${skill.id}", "path": …}; run a script with ${RUN_SKILL_SCRIPT} {"skill": "${skill.id}", "script": "scripts/…", "args": […]}.`);
  if (skill.frontMatter.allowedTools?.length) parts.push(`The skill proposes these tools (not granted by it): ${skill.frontMatter.allowedTools.join(' ')}.`);
  return parts.join('\n');
}

function fn(name: string, description: string, properties: Record<string, unknown>, required: string[]): ToolDefinition {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } } };
}
