// The rules and tool sets of the settings, compiled once per change, and the identity of each MCP
// server that approvals of its tools were given for. One per runtime (or session manager); each
// executor's guard reads from it.
import { homedir } from 'node:os';
import type { PermissionLevel, ToolRule, ToolSet } from '../../../../shared/permissions.ts';
import type { McpServerConfig, Settings } from '../../../../shared/settings.ts';
import type { AuditWriter } from '../../audit/audit-log.ts';
import { compileRules, type CompiledRule } from './compile-rules.ts';
import { ruleProblems } from '../../../../shared/tool-rule.ts';
import type { ToolFileCheck } from './tool-file-check.ts';

export interface RuleBookSource {
  get(): Settings;
  onDidChange(listener: () => void): () => void;
  /** Records a server's identity (settings.serverBindings). Contract: may throw; the book logs it. */
  bind?(server: string, identity: string): void;
  /** Appends a rule to settings.toolRules. Contract: may throw. */
  addRule?(rule: ToolRule): void;
}

export interface RuleBookOptions {
  home?: string;
  /** Policies declared in tools' own files, checked against the file's content (absent: not checked). */
  toolFiles?: ToolFileCheck;
  audit?: AuditWriter;
  log?: (message: string) => void;
}

export class RuleBook {
  readonly home: string;
  readonly audit: AuditWriter | undefined;
  readonly toolFiles: ToolFileCheck | undefined;
  readonly log: (message: string) => void;
  private global: CompiledRule[] | undefined;
  private snapshot: Settings | undefined;
  private readonly sets = new Map<string, CompiledRule[]>();
  private readonly stop: () => void;

  constructor(
    private readonly source: RuleBookSource,
    options: RuleBookOptions = {},
  ) {
    this.home = options.home ?? homedir();
    this.audit = options.audit;
    this.toolFiles = options.toolFiles;
    this.log = options.log ?? (() => {});
    this.stop = source.onDidChange(() => {
      this.snapshot = undefined;
      this.global = undefined;
      this.sets.clear();
    });
  }

  /** The settings as of the last change (read once, not per call). */
  settings(): Settings {
    this.snapshot ??= this.source.get();
    return this.snapshot;
  }

  /** The settings' rules (scope chat excluded), then the tool set's, compiled. */
  rules(toolSet?: string): CompiledRule[] {
    if (!this.global) {
      // Compiled in place so numbers stay the positions in settings.toolRules.
      const all = this.settings().toolRules ?? [];
      this.global = compileRules(all, { home: this.home }).filter((_, i) => all[i]?.scope !== 'chat');
    }
    if (!toolSet) return this.global;
    let set = this.sets.get(toolSet);
    if (!set) {
      const found = findToolSet(this.settings(), toolSet);
      const own = compileRules(found?.rules ?? [], { home: this.home }, (n) => `tool set "${toolSet}" rule ${n}`);
      set = [...this.global, ...own];
      this.sets.set(toolSet, set);
    }
    return set;
  }

  workingDir(): string {
    return this.settings().workingDir ?? this.home;
  }

  /** Why approvals of this server's tools are suspended: its configuration is not the one they were given for. */
  serverChange(server: string): string | undefined {
    const settings = this.settings();
    const config = settings.mcpServers?.[server];
    if (!config) return undefined;
    const now = serverIdentity(config);
    const bound = settings.serverBindings?.[server];
    if (bound === undefined) {
      // Approvals made before identities were recorded: this configuration is the one they meant.
      this.bind(server, now);
      return undefined;
    }
    return bound === now ? undefined : `the server changed: it was ${bound}, it is now ${now}`;
  }

  bind(server: string, identity?: string): void {
    const config = this.settings().mcpServers?.[server];
    if (!config || !this.source.bind) return;
    try {
      this.source.bind(server, identity ?? serverIdentity(config));
    } catch (error) {
      this.log(`Recording the identity of MCP server ${server} failed: ${(error as Error).message}`);
    }
  }

  /** An allow rule from an approval card, checked like `rules add`; bound to its MCP server now. */
  addRule(rule: ToolRule): void {
    const problems = ruleProblems(rule);
    if (rule.action !== 'allow') problems.push('an approval card only adds allow rules');
    if (problems.length) throw new Error(`the rule from the approval card is not valid: ${problems.join('; ')}`);
    if (!this.source.addRule) throw new Error('rules cannot be saved here');
    this.source.addRule({ action: 'allow', tool: rule.tool, ...(rule.where?.length ? { where: rule.where } : {}), ...(rule.reason ? { reason: rule.reason } : {}) });
    const server = Object.keys(this.settings().mcpServers ?? {}).find((name) => rule.tool.startsWith(`${name}__`));
    if (server) this.bind(server);
  }

  close(): void {
    this.stop();
  }
}

export function findToolSet(settings: Settings, name: string): ToolSet | undefined {
  return (settings.toolSets ?? []).find((s) => s.name === name);
}

/** command + args, or the URL: what approvals of a server's tools are bound to. */
export function serverIdentity(config: McpServerConfig): string {
  if ('url' in config && typeof config.url === 'string') return `url ${config.url}`;
  const stdio = config as { command?: string; args?: string[] };
  return `command ${JSON.stringify([stdio.command ?? '', ...(stdio.args ?? [])])}`;
}

export function levelOf(value: unknown): PermissionLevel | undefined {
  return value === 'ask' || value === 'default' || value === 'read-only-auto' || value === 'trusted' ? value : undefined;
}
