// The small stand-in for pi / oh-my-pi / xcsh host packages: the values tools really import
// (`Type`, `StringEnum`, `Text`, `defineTool` …), so their modules load without the host installed.
import * as TypeBox from '@sinclair/typebox';
import * as truncation from './pi-truncate.ts';
import * as tui from './pi-tui.ts';

const { Type } = TypeBox;

/** pi-ai's StringEnum: a string schema with an `enum` list (what providers accept best). */
export function StringEnum<T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** pi-coding-agent's defineTool: an identity helper that only exists for type inference. */
export function defineTool<T>(definition: T): T {
  return definition;
}

/**
 * What only the real host can do: pi's built-in tools (tools that wrap `createBashTool` …) and
 * pi-ai's model calls. Each fails with a message saying so instead of "x is not a function".
 */
const BUILT_IN_TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Find', 'Ls'];

function unavailable(name: string, what: string) {
  return (..._args: unknown[]): never => {
    throw new Error(`${name}: ${what} are not available in Tooldesk`);
  };
}

function hostOnly(): Record<string, unknown> {
  const values: Record<string, unknown> = {
    getModel: () => undefined,
    getModels: () => [],
    getProviders: () => [],
  };
  for (const tool of BUILT_IN_TOOLS) {
    for (const name of [`create${tool}Tool`, `create${tool}ToolDefinition`]) values[name] = unavailable(name, 'pi’s built-in tools');
  }
  // complete() returns a promise (so it rejects); stream() returns an iterable (so it throws).
  for (const name of ['complete', 'completeSimple']) {
    const fail = unavailable(name, 'pi-ai model calls');
    values[name] = async (...args: unknown[]) => fail(...args);
  }
  for (const name of ['stream', 'streamSimple']) values[name] = unavailable(name, 'pi-ai model calls');
  return values;
}

/** Everything an aliased import of a host package sees (named and default). */
export function createPiShim(): Record<string, unknown> {
  const shim: Record<string, unknown> = {
    ...TypeBox,
    ...hostOnly(),
    ...tui,
    ...truncation,
    Type,
    StringEnum,
    defineTool,
  };
  shim.default = shim;
  return shim;
}
