// Open WebUI Valves and UserValves of a tool group, as the API, Settings → Tool groups and
// `tooldesk tools config` show them (fields read from the file's AST; values the user set).

export type ValveKind = 'valves' | 'userValves';

export interface ValveView {
  name: string;
  /** The field's JSON schema (type, enum …) from its annotation. */
  schema: Record<string, unknown>;
  /** The default written in the file (null when it is not a literal). */
  default: unknown;
  description?: string;
  /** Kept in the keychain: its value is never shown, only whether one is set. */
  secret: boolean;
  /** The value you set (absent: the default applies; never present for a secret). */
  value?: unknown;
  secretSet?: boolean;
}

export interface GroupValvesView {
  group: string;
  file: string;
  /** Where the plain values are kept (TOOLDESK_HOME/tool-valves.json). */
  store: string;
  valves: ValveView[];
  userValves: ValveView[];
}
