// Open WebUI Valves and UserValves of a loaded group, for `tooldesk tools config` and Settings →
// Tool groups: what each field is, its default and the value set now (secret ones only say
// whether the keychain holds one), and setting them (checked against the field's type).
import type { GroupValvesView, ValveKind, ValveView } from '../../../../shared/tool-valves.ts';
import type { OpenWebUiMeta } from '../../sources/open-webui/index.ts';
import type { ValveSpec } from '../../sources/open-webui/parse.ts';
import { readValves, setValves, valvesFile, type ValveSecrets } from '../../sources/open-webui/valves.ts';

export type { GroupValvesView, ValveKind, ValveView };

/** A loaded group as the tool registry (ToolGroup) or the API (ToolGroupInfo) has it. */
export interface GroupLike {
  name: string;
  tools: { meta?: Record<string, unknown>; source?: { format: string; file: string } }[];
  source?: { format: string; file: string };
}

/** What Settings → Tool groups uses (built over the runtime's home, tools and keychain). */
export interface ValvesService {
  get(group: string): Promise<GroupValvesView>;
  set(group: string, kind: ValveKind, values: Record<string, string>): Promise<GroupValvesView>;
}

export function createValvesService(home: string, groups: () => GroupLike[], secrets: ValveSecrets): ValvesService {
  return {
    get: (group) => viewValves(home, groups(), group),
    set: (group, kind, values) => updateValves(home, groups(), group, kind, values, secrets),
  };
}

/** The Open WebUI metadata of `group`, or an Error saying why it has none. */
export function openWebUiMetaOf(groups: GroupLike[], group: string): { meta: OpenWebUiMeta; file: string } | Error {
  const found = groups.find((g) => g.name === group);
  if (!found) return new Error(`no tool group "${group}"; \`tooldesk tools list\` shows the groups`);
  const tool = found.tools.find((t) => t.source?.format === 'open-webui' && t.meta?.openWebUi);
  if (!tool?.source) return new Error(`"${group}" is not an Open WebUI toolkit: only those have Valves`);
  return { meta: tool.meta!.openWebUi as OpenWebUiMeta, file: tool.source.file };
}

export async function viewValves(home: string, groups: GroupLike[], group: string): Promise<GroupValvesView> {
  const found = openWebUiMetaOf(groups, group);
  if (found instanceof Error) throw found;
  const saved = (await readValves(home))[group];
  const view = (kind: ValveKind, specs: ValveSpec[]): ValveView[] =>
    specs.map((spec) => {
      const base = { name: spec.name, schema: spec.schema, default: spec.default, ...(spec.description ? { description: spec.description } : {}), secret: !!spec.secret };
      if (spec.secret) return { ...base, secretSet: (saved?.secrets?.[kind] ?? []).includes(spec.name) };
      const values = saved?.[kind] ?? {};
      return Object.hasOwn(values, spec.name) ? { ...base, value: values[spec.name] } : base;
    });
  return { group, file: found.file, store: valvesFile(home), valves: view('valves', found.meta.valves), userValves: view('userValves', found.meta.userValves) };
}

/** Sets `assignments` (KEY → text as typed; empty = back to the default). Throws an Error naming the key. */
export async function updateValves(home: string, groups: GroupLike[], group: string, kind: ValveKind, assignments: Record<string, string>, secrets: ValveSecrets): Promise<GroupValvesView> {
  const found = openWebUiMetaOf(groups, group);
  if (found instanceof Error) throw found;
  const specs = kind === 'userValves' ? found.meta.userValves : found.meta.valves;
  if (specs.length === 0) throw new Error(`${group} has no ${kind === 'userValves' ? 'UserValves' : 'Valves'} class`);
  await setValves(home, group, kind, specs, assignments, secrets);
  return viewValves(home, groups, group);
}
