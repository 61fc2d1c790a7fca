// FindTools as a built-in group of the chat's executor, so its calls take the one pipeline every
// call takes (validation, rules, approval policy, Inspect, audit). The group is unlisted: the
// catalog never offers it (the tool budget does, in budget mode) and a user's tool of that name
// wins. It reads only the chat's own tool definitions, so it never asks and never caches.
import { READ_ONLY_PERMISSION } from '../../tools/approval/approval-policy.ts';
import type { ToolDefinition } from '../../../../shared/tools.ts';
import type { ToolGroup } from '../../tools/types.ts';
import { FIND_TOOLS_DEFINITION, type ToolBudget } from './tool-budget.ts';

export const FIND_TOOLS_GROUP = 'find-tools';

/**
 * `definitions`: the chat's enabled definitions at the time of the call.
 * Contract: cheap, never throws.
 */
export function createFindToolsGroup(budget: ToolBudget, definitions: () => ToolDefinition[]): ToolGroup {
  return {
    name: FIND_TOOLS_GROUP,
    builtin: true,
    unlisted: true,
    tools: [
      {
        definition: FIND_TOOLS_DEFINITION,
        permission: { ...READ_ONLY_PERMISSION },
        // What it found is a list of definitions the model needs whole; nothing to read back later.
        SKIP_CACHE_RESULT: true,
        SKIP_EXTERNAL_TRUNCATE: true,
        async execute(args) {
          const found = budget.find(args, definitions());
          return found.status === 'SUCCESS' ? { status: 'SUCCESS', data: found.data, formattedText: found.finalText } : { status: 'ERROR', error: found.error };
        },
      },
    ],
  };
}
