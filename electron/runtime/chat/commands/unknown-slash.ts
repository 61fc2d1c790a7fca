// `/name` for a tool that does not exist is answered here, never sent to the model: "no tool
// named … — did you mean …", by close spelling first, then by words of the tools' descriptions.
import type { ToolDefinition } from '../../../../shared/tools.ts';
import { closeNames } from '../../tools/close-names.ts';
import { ToolSearchIndex } from '../../tools/find-tools-ranking.ts';

export function unknownToolAnswer(name: string, tools: ToolDefinition[]): string {
  const names = tools.map((t) => t.function.name);
  let close = closeNames(name, names, 3);
  if (close.length === 0) close = new ToolSearchIndex(tools).search(name, 3).map((h) => h.definition.function.name);
  const meant = close.length ? ` — did you mean ${close.map((n) => `/${n}`).join(', ')}?` : '. Type / in the message box to see the tools this chat can use.';
  return `No tool named "${name}"${meant} (Nothing was sent to the model.)`;
}
