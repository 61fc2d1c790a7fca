// Which tools exist, which group each belongs to, what is switched on, and the names the model
// sees. Groups start disabled, their tools enabled (seed 002). Enable flags are kept by name,
// apart from registration, so settings can be applied before a group loads and survive reloads.
import type { Diagnostic, ToolDefinition, ToolInfo, ToolPermission } from '../../../shared/tools.ts';
import { modelNameFor } from './model-name.ts';
import type { Tool, ToolGroup } from './types.ts';
import { ALWAYS_OFFERED_VAR_TOOLS, VARS_GROUP } from './variables/vars-tools.ts';

export const DEFAULT_GROUP = 'custom';

export interface RegisteredTool {
  tool: Tool;
  name: string;
  /** The name the model sees (an alias when `name` breaks providers' rules). */
  modelName: string;
  groupName: string;
  /** Of an unlisted built-in group (see ToolGroup.unlisted). */
  unlisted?: true;
}

export interface RegisteredGroup {
  name: string;
  /** The first registration's group (rulePrompt, defaultPermission, source). */
  group: ToolGroup;
  toolNames: string[];
  builtin: boolean;
}

export type RegisterResult = { ok: true; name: string; modelName: string } | { ok: false; error: string };

export interface GroupRegisterResult {
  registered: string[];
  errors: string[];
}

/** A tool set the switches were narrowed to: its name and what it names. */
export interface ToolSetScope {
  name: string;
  has(groupName: string, tool: { name: string; modelName: string }): boolean;
}

export class ToolCatalog {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly byModelName = new Map<string, string>();
  private readonly groups = new Map<string, RegisteredGroup>();
  /** Unlisted built-in groups and their tools, found by name after every listed tool; they stay. */
  private readonly unlisted = new Map<string, RegisteredGroup>();
  private readonly unlistedTools = new Map<string, RegisteredTool>();
  private readonly groupEnabled = new Map<string, boolean>();
  private readonly toolEnabled = new Map<string, boolean>();
  private definitionsCache: ToolDefinition[] | undefined;
  private toolSetScope: ToolSetScope | undefined;
  private readonly problems: Diagnostic[] = [];

  registerTool(tool: Tool, groupName: string = DEFAULT_GROUP): RegisterResult {
    const name = tool?.definition?.function?.name;
    const where = tool?.source?.file ?? '<builtin>';
    if (typeof name !== 'string' || !name.trim() || typeof tool.execute !== 'function') {
      return this.fail(where, `A tool in group "${groupName}" has no name or no execute function; it was not registered.`);
    }
    const existing = this.tools.get(name);
    if (existing) {
      const other = existing.tool.source?.file ?? `group ${existing.groupName}`;
      return this.fail(where, `Tool name "${name}" is already taken (by ${other}); this one was not registered.`, 'Rename one of the tools.');
    }
    const modelName = this.uniqueModelName(name);
    const group = this.ensureGroup(groupName);
    this.tools.set(name, { tool, name, modelName, groupName });
    this.byModelName.set(modelName, name);
    group.toolNames.push(name);
    this.changed();
    return { ok: true, name, modelName };
  }

  registerToolGroup(group: ToolGroup): GroupRegisterResult {
    if (group.unlisted && group.builtin) return this.registerUnlisted(group);
    this.ensureGroup(group.name, group);
    const result: GroupRegisterResult = { registered: [], errors: [] };
    for (const tool of group.tools ?? []) {
      const outcome = this.registerTool(tool, group.name);
      if (outcome.ok) result.registered.push(outcome.name);
      else result.errors.push(outcome.error);
    }
    return result;
  }

  /** Removes the (listed) group and its tools; returns the group as it was, or undefined. */
  unregisterToolGroup(name: string): RegisteredGroup | undefined {
    const group = this.groups.get(name);
    if (!group) return undefined;
    for (const toolName of group.toolNames) {
      const entry = this.tools.get(toolName);
      if (entry) this.byModelName.delete(entry.modelName);
      this.tools.delete(toolName);
    }
    this.groups.delete(name);
    this.changed();
    return group;
  }

  /** By real name first, then by the model-facing alias. */
  resolve(name: string): RegisteredTool | undefined {
    const direct = this.tools.get(name);
    if (direct) return direct;
    const real = this.byModelName.get(name);
    return real === undefined ? this.unlistedTools.get(name) : this.tools.get(real);
  }

  getGroup(name: string): RegisteredGroup | undefined {
    return this.groups.get(name);
  }

  /** The group a registered tool belongs to (listed or not). */
  groupOf(entry: RegisteredTool): RegisteredGroup | undefined {
    return entry.unlisted ? this.unlisted.get(entry.groupName) : this.groups.get(entry.groupName);
  }

  allGroups(): RegisteredGroup[] {
    return [...this.groups.values()];
  }

  diagnostics(): Diagnostic[] {
    return [...this.problems];
  }

  isGroupEnabled(name: string): boolean {
    return this.groupEnabled.get(name) ?? false;
  }

  toggleGroupEnabled(name: string, enabled?: boolean): boolean {
    const next = enabled ?? !this.isGroupEnabled(name);
    this.groupEnabled.set(name, next);
    this.changed();
    return next;
  }

  isToolEnabled(name: string): boolean {
    const real = this.resolve(name)?.name ?? name;
    return this.toolEnabled.get(real) ?? true;
  }

  setToolEnabled(name: string, enabled: boolean): void {
    this.toolEnabled.set(this.resolve(name)?.name ?? name, enabled);
    this.changed();
  }

  anyGroupEnabled(): boolean {
    for (const name of this.groups.keys()) if (this.isGroupEnabled(name)) return true;
    return false;
  }

  /** Enabled tool of an enabled group; ReadVar/ListVars ride along with any enabled group. */
  isExecutable(entry: RegisteredTool): boolean {
    if (entry.unlisted) return true;
    if (!this.isToolEnabled(entry.name)) return false;
    if (this.isGroupEnabled(entry.groupName)) return true;
    return entry.groupName === VARS_GROUP && ALWAYS_OFFERED_VAR_TOOLS.includes(entry.name) && this.anyGroupEnabled();
  }

  /** The tool set the switches were narrowed to (undefined: none), so a refusal can name it. */
  setToolSetScope(scope: ToolSetScope | undefined): void {
    this.toolSetScope = scope;
  }

  /** Why `entry` cannot run, worded for the model and for the user; undefined when it can. */
  whyNotExecutable(entry: RegisteredTool): { forModel: string; forUser: string } | undefined {
    if (this.isExecutable(entry)) return undefined;
    const scope = this.toolSetScope;
    // Outside the set comes first: switching its group on would not make it run.
    if (scope && entry.groupName !== VARS_GROUP && !scope.has(entry.groupName, entry)) {
      return {
        forModel: `Tool ${entry.modelName} cannot be called: it is outside the tool set "${scope.name}" this conversation uses. Ask the user to add it to the set if you need it.`,
        forUser: `${entry.name} is outside the tool set "${scope.name}", so it did not run. Add it to that set or pick another one (\`tooldesk toolset list\`).`,
      };
    }
    if (!this.isToolEnabled(entry.name)) {
      return {
        forModel: `Tool ${entry.modelName} is disabled by the user and cannot be called.`,
        forUser: `${entry.name} is switched off (Settings → Tool groups), so it did not run.`,
      };
    }
    return {
      forModel: `Tool ${entry.modelName} cannot be called: its group "${entry.groupName}" is disabled. Ask the user to enable it if you need it.`,
      forUser: `The group "${entry.groupName}" is switched off (Settings → Tool groups), so ${entry.name} did not run.`,
    };
  }

  executableTools(): RegisteredTool[] {
    const out: RegisteredTool[] = [];
    for (const group of this.groups.values()) {
      for (const name of group.toolNames) {
        const entry = this.tools.get(name);
        if (entry && this.isExecutable(entry)) out.push(entry);
      }
    }
    return out;
  }

  /** OpenAI function definitions of what can run now; built fresh objects, never extra fields. */
  definitions(): ToolDefinition[] {
    this.definitionsCache ??= this.executableTools().map(toDefinition);
    return [...this.definitionsCache];
  }

  /** Its own names: a listed tool of the same name wins at lookup and is never refused for it. */
  private registerUnlisted(group: ToolGroup): GroupRegisterResult {
    const registered: RegisteredGroup = { name: group.name, group, toolNames: [], builtin: true };
    this.unlisted.set(group.name, registered);
    for (const tool of group.tools) {
      const name = tool.definition.function.name;
      this.unlistedTools.set(name, { tool, name, modelName: name, groupName: group.name, unlisted: true });
      registered.toolNames.push(name);
    }
    return { registered: [...registered.toolNames], errors: [] };
  }

  private ensureGroup(name: string, group?: ToolGroup): RegisteredGroup {
    let entry = this.groups.get(name);
    if (entry && group) {
      // Tools of one group name from several roots share one group (DESIGN.md).
      entry.group = {
        ...entry.group,
        rulePrompt: entry.group.rulePrompt ?? group.rulePrompt,
        declareSkillRules: { ...group.declareSkillRules, ...entry.group.declareSkillRules },
        defaultPermission: entry.group.defaultPermission ?? group.defaultPermission,
      };
    }
    if (!entry) {
      entry = { name, group: group ?? { name, tools: [] }, toolNames: [], builtin: group?.builtin === true };
      this.groups.set(name, entry);
      this.changed();
    }
    return entry;
  }

  private uniqueModelName(name: string): string {
    for (let attempt = 0; ; attempt++) {
      const candidate = modelNameFor(name, attempt);
      const holder = this.byModelName.get(candidate) ?? (this.tools.has(candidate) ? candidate : undefined);
      if (holder === undefined) return candidate;
    }
  }

  private fail(file: string, message: string, hint?: string): RegisterResult {
    const diagnostic: Diagnostic = { severity: 'error', file, message, code: 'tool-registration' };
    if (hint) diagnostic.hint = hint;
    this.problems.push(diagnostic);
    return { ok: false, error: message };
  }

  private changed(): void {
    this.definitionsCache = undefined;
  }
}

function toDefinition(entry: RegisteredTool): ToolDefinition {
  const fn = entry.tool.definition.function;
  // Providers reject a function whose parameters are not an object schema.
  const given = fn.parameters && typeof fn.parameters === 'object' && !Array.isArray(fn.parameters) ? fn.parameters : undefined;
  const parameters = !given ? { type: 'object', properties: {} } : given.type === undefined ? { type: 'object', ...given } : given;
  const definition: ToolDefinition = {
    type: 'function',
    function:
      typeof fn.description === 'string'
        ? { name: entry.modelName, description: fn.description, parameters }
        : { name: entry.modelName, parameters },
  };
  return definition;
}

/** The tool as the UI and the CLI list it. */
export function toToolInfo(entry: RegisteredTool, permission: Required<ToolPermission>, enabled: boolean): ToolInfo {
  const { tool } = entry;
  const info: ToolInfo = {
    name: entry.name,
    modelName: entry.modelName,
    groupName: entry.groupName,
    description: tool.definition.function.description ?? '',
    parameters: toDefinition(entry).function.parameters,
    format: tool.source?.format ?? 'builtin',
    permission,
    enabled,
  };
  if (tool.source) info.source = tool.source;
  if (tool.declaredReturnType) info.declaredReturnType = tool.declaredReturnType;
  if (tool.secrets) info.secrets = [...tool.secrets];
  if (tool.meta) info.meta = tool.meta;
  return info;
}
