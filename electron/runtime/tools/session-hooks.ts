// A conversation's lifecycle reaches its tools: every tool with an `onSession` hook hears the
// event (a chat closing, switched, started). Hooks run side by side; one that throws is logged
// and never stops the others or the caller.
import { errorText } from './run-tool.ts';
import type { RegisteredTool, ToolCatalog } from './tool-catalog.ts';
import type { SessionEvent } from './types.ts';

export async function notifySessionHooks(catalog: ToolCatalog, event: SessionEvent, log: (message: string) => void): Promise<void> {
  const withHooks = catalog
    .allGroups()
    .flatMap((g) => g.toolNames)
    .map((name) => catalog.resolve(name))
    .filter((entry): entry is RegisteredTool => typeof entry?.tool.onSession === 'function');
  await Promise.all(
    withHooks.map(async (entry) => {
      try {
        await entry.tool.onSession!(event);
      } catch (error) {
        log(`onSession(${event.reason}) of ${entry.name} failed: ${errorText(error)}`);
      }
    }),
  );
}
