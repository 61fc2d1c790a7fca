// Open WebUI Tools files (the sixth format): a `.py` file with a top-level `class Tools` whose
// public methods are the tools. Every `.py` entry comes here first; the ones that are not Open
// WebUI files go on to the Python module loader unchanged. The rule (README, "Open WebUI Tools"):
// a top-level `class Tools` with a nested `Valves`/`UserValves` class or a public method that has
// a docstring; a `class Tools` with neither stays a plain module.
import { readFile, stat } from 'node:fs/promises';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { Tool, ToolGroup } from '../../tools/types.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { fileStem } from '../cached-modules/groups.ts';
import { DEFAULT_TOOL_SOURCE_MAX_BYTES } from '../files/read-text-file.ts';
import { mapLimit } from '../process/map-limit.ts';
import { loadPythonModules } from '../python/index.ts';
import type { LoadResult, SourceContext, SourceEntry, SourceLoader } from '../types.ts';
import { parseOpenWebUiFiles, type OpenWebUiModule, type ValveSpec } from './parse.ts';
import { missingImportsDiagnostic, missingPydanticDiagnostic, probeRequirements, requirementName, unmetRequirementsDiagnostic, type RequirementsProbe } from './requirements.ts';
import { createOpenWebUiTool } from './tool.ts';

/** What the UI and `tools config` read from an Open WebUI tool's `meta.openWebUi`. */
export interface OpenWebUiMeta {
  title?: string;
  description?: string;
  version?: string;
  author?: string;
  valves: ValveSpec[];
  userValves: ValveSpec[];
}

export const loadPythonFiles: SourceLoader = async (entries, ctx) => {
  const candidates: SourceEntry[] = [];
  const plain: SourceEntry[] = [];
  // Every .py file is read once to look for `class Tools` (a few ms for a thousand files).
  const flags = await mapLimit(entries, 32, (entry) => isCandidate(entry.path, ctx.toolSourceMaxBytes ?? DEFAULT_TOOL_SOURCE_MAX_BYTES));
  entries.forEach((entry, i) => (flags[i] ? candidates : plain).push(entry));
  const parsed = await parseOpenWebUiFiles(candidates.map((e) => e.path), ctx);
  const modules: { entry: SourceEntry; module: OpenWebUiModule }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of candidates) {
    const module = parsed.get(entry.path);
    if (!module || (module.ok && module.kind === 'python')) plain.push(entry);
    else if (!module.ok) diagnostics.push({ ...module.error, severity: 'error', file: entry.path });
    else modules.push({ entry, module });
  }
  const python = plain.length ? await loadPythonModules(sortedLike(entries, plain), ctx) : { groups: [], diagnostics: [] };
  const own = await openWebUiGroups(modules, ctx);
  return { groups: [...python.groups, ...own.groups], diagnostics: [...python.diagnostics, ...diagnostics, ...own.diagnostics] };
};

async function isCandidate(path: string, maxBytes: number): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > maxBytes) return false;
    return hasToolsClassLine(await readFile(path));
  } catch {
    return false; // the Python loader says why it cannot be read
  }
}

const NEEDLE = Buffer.from('class Tools');

/** A line starting `class Tools` (then not a name character): bytes searched, nothing decoded. */
export function hasToolsClassLine(source: Buffer): boolean {
  for (let at = source.indexOf(NEEDLE); at !== -1; at = source.indexOf(NEEDLE, at + 1)) {
    const before = at === 0 ? 0x0a : source[at - 1];
    const after = source[at + NEEDLE.length];
    const startsLine = before === 0x0a || (at === 3 && source[0] === 0xef); // after a newline or a UTF-8 BOM
    if (startsLine && (after === undefined || !/[A-Za-z0-9_]/.test(String.fromCharCode(after)))) return true;
  }
  return false;
}

const sortedLike = (order: SourceEntry[], subset: SourceEntry[]): SourceEntry[] => {
  const keep = new Set(subset);
  return order.filter((e) => keep.has(e));
};

async function openWebUiGroups(modules: { entry: SourceEntry; module: OpenWebUiModule }[], ctx: SourceContext): Promise<LoadResult> {
  const groups: ToolGroup[] = [];
  const diagnostics: Diagnostic[] = [];
  const wanted = modules.flatMap(({ module }) => module.requirements.map(requirementName).filter((n): n is string => n !== null));
  const imported = modules.flatMap(({ module }) => (module.imports ?? []).map((i) => i.name));
  const needsProbe = wanted.length > 0 || imported.length > 0 || modules.some(({ module }) => module.usesPydantic || module.valves || module.userValves);
  const probe = needsProbe ? await probeRequirements(wanted, ctx, imported) : null;
  const clashing = clashingNames(modules.filter(({ module }) => blockingDiagnostics(module, '').length === 0).map(({ module }) => module));
  for (const { entry, module } of modules) {
    const file = entry.path;
    for (const d of module.diagnostics) diagnostics.push({ ...d, file });
    const blockers = blockingDiagnostics(module, file);
    diagnostics.push(...blockers, ...probeDiagnostics(module, file, probe), ...requestDiagnostics(module, file));
    if (blockers.length) continue;
    const group = fileStem(file);
    const meta = { openWebUi: metaOf(module) };
    const owui: SourceEntry = { ...entry, format: 'open-webui' };
    const tools: Tool[] = module.tools.map((parsed) => {
      for (const name of parsed.unknownInjected) {
        diagnostics.push({ severity: 'info', file, line: parsed.line, code: 'unknown-injected-argument', message: `${parsed.function.name}() asks for ${name}, which Tooldesk does not provide: it gets None` });
      }
      // Two toolkits with a method of one name keep both, qualified by toolkit, as Open WebUI keeps
      // each toolkit's tools apart; the method called is still the file's own.
      const method = parsed.function.name;
      const name = clashing.has(method) ? qualifiedName(group, method) : method;
      if (name !== method) {
        const others = clashing.get(method)!.filter((g) => g !== group);
        diagnostics.push({ severity: 'info', file, line: parsed.line, code: 'name-qualified', message: `${method}() is also a tool of ${others.join(', ')}: both are kept, this one as ${name}` });
      }
      const cached: CachedTool = { type: 'function', function: { ...parsed.function, name }, line: parsed.line, ...(parsed.declaredReturnType ? { declaredReturnType: parsed.declaredReturnType } : {}) };
      return { ...createOpenWebUiTool(cached, owui, group, ctx, parsed.injected.includes('__event_call__'), method), meta };
    });
    if (tools.length) groups.push({ name: group, tools, source: { format: 'open-webui', file, root: entry.root } });
  }
  return { groups, diagnostics };
}

/** An `open_webui` import: the file cannot run outside Open WebUI. */
function blockingDiagnostics(module: OpenWebUiModule, file: string): Diagnostic[] {
  return module.openWebUiImports.map((found) => ({
    severity: 'error',
    file,
    line: found.line,
    code: 'open-webui-import',
    message: `It imports ${found.name}, which exists only inside an Open WebUI server: its tools are unavailable here`,
    hint: 'Remove the open_webui import (and what uses it) to run this toolkit in Tooldesk.',
  }));
}

/** `__request__` (Open WebUI's HTTP request): most toolkits treat it as optional, so it gets None, said once per method. */
function requestDiagnostics(module: OpenWebUiModule, file: string): Diagnostic[] {
  return module.needsRequest.map((method) => ({
    severity: 'warning',
    file,
    line: method.line,
    code: 'open-webui-request',
    message: `${method.method}() takes __request__, Open WebUI's HTTP request object, which Tooldesk cannot give: it gets None (code that reads it fails)`,
    hint: 'If the method needs the request (its app state, its headers), it cannot run outside Open WebUI.',
  }));
}

/** Method names that two or more toolkits define: name → the toolkits (file stems). */
function clashingNames(modules: OpenWebUiModule[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const module of modules) {
    const group = fileStem(module.path);
    for (const tool of module.tools) owners.set(tool.function.name, [...(owners.get(tool.function.name) ?? []), group]);
  }
  return new Map([...owners].filter(([, groups]) => new Set(groups).size > 1));
}

/** `imap_mailbox__list_folders`: the toolkit's name, then the method's. */
const qualifiedName = (group: string, method: string) => `${group}__${method}`;

function probeDiagnostics(module: OpenWebUiModule, file: string, probe: RequirementsProbe | null): Diagnostic[] {
  if (!probe) return [];
  const out: Diagnostic[] = [];
  const unmet = unmetRequirementsDiagnostic(file, module.requirements, probe);
  if (unmet) out.push(unmet);
  const missing = missingImportsDiagnostic(file, module.imports ?? [], module.requirements, probe);
  if (missing) out.push(missing);
  if (!probe.pydantic && (module.usesPydantic || module.valves || module.userValves) && !module.requirements.some((r) => requirementName(r) === 'pydantic')) {
    out.push(missingPydanticDiagnostic(file, probe.python));
  }
  return out;
}

function metaOf(module: OpenWebUiModule): OpenWebUiMeta {
  const f = module.frontmatter;
  return {
    ...(f.title ? { title: f.title } : {}),
    ...(module.description ? { description: module.description } : {}),
    ...(f.version ? { version: f.version } : {}),
    ...(f.author ? { author: f.author } : {}),
    valves: module.valves ?? [],
    userValves: module.userValves ?? [],
  };
}
