// Open WebUI Valves and UserValves of a loaded group, for `tooldesk tools config` and Settings →
// Tool groups: what each field is, its default and the value set now (secret ones only say
// whether the keychain holds one), and setting them (checked against the field's type).
import type { ToolGroup } from '../tools/types.ts';
import type { OpenWebUiMeta } from '../sources/open-webui/index.ts';
import type { ValveSpec } from '../sources/open-webui/parse.ts';
import { readValves, setValves, valvesFile, type ValveKind, type ValveSecrets } from '../sources/open-webui/valves.ts';

export type { ValveKind };

export interface ValveView {
  name: string;
  schema: Record<string, unknown>;
  default: unknown;
  description?: string;
  secret: boolean;
  /** The value you set (absent: the default applies; never the value of a secret). */
  value?: unknown;
  /** A secret's value is in the keychain. */
  secretSet?: boolean;
}

export interface GroupValvesView {
  group: string;
  file: string;
  /** Where the values are kept. */
  store: string;
  valves: ValveView[];
  userValves: ValveView[];
}

/** The Open WebUI metadata of `group`, or an Error saying why it has none. */
export function openWebUiMetaOf(groups: ToolGroup[], group: string): { meta: OpenWebUiMeta; file: string } | Error {
  const found = groups.find((g) => g.name === group);
  if (!found) return new Error(`no tool group "${group}"; \`tooldesk tools list\` shows the groups`);
  const meta = found.tools.map((t) => t.meta?.openWebUi as OpenWebUiMeta | undefined).find(Boolean);
  if (!meta || found.source?.format !== 'open-webui') return new Error(`"${group}" is not an Open WebUI toolkit: only those have Valves`);
  return { meta, file: found.source.file };
}

export async function viewValves(home: string, groups: ToolGroup[], group: string): Promise<GroupValvesView> {
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
export async function updateValves(home: string, groups: ToolGroup[], group: string, kind: ValveKind, assignments: Record<string, string>, secrets: ValveSecrets): Promise<GroupValvesView> {
  const found = openWebUiMetaOf(groups, group);
  if (found instanceof Error) throw found;
  const specs = kind === 'userValves' ? found.meta.userValves : found.meta.valves;
  if (specs.length === 0) throw new Error(`${group} has no ${kind === 'userValves' ? 'UserValves' : 'Valves'} class`);
  await setValves(home, group, kind, specs, assignments, secrets);
  return viewValves(home, groups, group);
}
