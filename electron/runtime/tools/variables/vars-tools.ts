// The `vars` group: ReadVar, ListVars, WriteVar, RemoveVars over the session's VariableSystem.
// ReadVar and ListVars are offered whenever any group is enabled (the executor sees to that);
// these tools never cache their own results as variables.
import { VARIABLE_TYPES } from '../../../../shared/variables.ts';
import type { VariableType } from '../../../../shared/variables.ts';
import { closeNamesHint } from '../close-names.ts';
import { countCodePoints, sliceCodePoints } from '../../base/code-points.ts';
import { READ_ONLY_PERMISSION } from '../approval/approval-policy.ts';
import { DEFAULT_TRUNCATE_CHARS } from '../result/truncate-content.ts';
import type { Tool, ToolGroup, ToolRunResult } from '../types.ts';
import type { VariableSystem } from './variable-system.ts';

export const VARS_GROUP = 'vars';
export const READ_VAR = 'ReadVar';
export const LIST_VARS = 'ListVars';
export const WRITE_VAR = 'WriteVar';
export const REMOVE_VARS = 'RemoveVars';
/** Offered with any enabled group, even when `vars` itself is off. */
export const ALWAYS_OFFERED_VAR_TOOLS: readonly string[] = [READ_VAR, LIST_VARS];

const LIST_PAGE = 50;
/** One ReadVar answer stays bounded; larger values are read in slices or passed by $VAR_REF. */
export const MAX_READ_CHARS = 32_000;

export function createVarsToolGroup(variables: VariableSystem): ToolGroup {
  return {
    name: VARS_GROUP,
    builtin: true,
    tools: [readVarTool(variables), listVarsTool(variables), writeVarTool(variables), removeVarsTool(variables)],
    rulePrompt:
      'WriteVar stores text you will need later (type LLMAdd); RemoveVars deletes variables you no longer need. ' +
      'Rules (Rule/...) cannot be overwritten or removed.',
  };
}

function varTool(tool: Omit<Tool, 'SKIP_CACHE_RESULT' | 'permission'>): Tool {
  return { ...tool, SKIP_CACHE_RESULT: true, permission: { ...READ_ONLY_PERMISSION } };
}

const ok = (text: string, data?: unknown): ToolRunResult => ({ status: 'SUCCESS', data: data ?? text, formattedText: text });
const fail = (error: string): ToolRunResult => ({ status: 'ERROR', error });

function unknownVariable(variables: VariableSystem, name: string): ToolRunResult {
  return fail(`No variable named "${name}".${closeNamesHint(name, variables.names())} Use ListVars to see what exists.`);
}

function readVarTool(variables: VariableSystem): Tool {
  return varTool({
    definition: {
      type: 'function',
      function: {
        name: READ_VAR,
        description:
          'Read a stored variable (a full tool result, a rule, a note). Long values are read in slices: ' +
          `start and length count characters; length defaults to ${DEFAULT_TRUNCATE_CHARS}, at most ${MAX_READ_CHARS}.`,
        parameters: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Variable name, e.g. Search_call_1_result or Rule/web/cite' },
            start: { type: 'integer', minimum: 0, description: 'First character to read (default 0)' },
            length: { type: 'integer', minimum: 1, description: `How many characters (default ${DEFAULT_TRUNCATE_CHARS}, at most ${MAX_READ_CHARS})` },
          },
          required: ['name'],
        },
      },
    },
    // The model chose the slice size itself (bounded above); cutting it again would hide what it asked for.
    SKIP_EXTERNAL_TRUNCATE: true,
    async execute(args) {
      const name = String(args.name);
      const variable = variables.get(name);
      if (!variable) return unknownVariable(variables, name);
      const total = countCodePoints(variable.value);
      const start = Math.min(Math.max(0, Number(args.start ?? 0) || 0), total);
      const asked = Number(args.length ?? DEFAULT_TRUNCATE_CHARS) || DEFAULT_TRUNCATE_CHARS;
      const length = Math.min(MAX_READ_CHARS, Math.max(1, asked));
      const text = sliceCodePoints(variable.value, start, length);
      const end = start + countCodePoints(text);
      if (start === 0 && end === total) return ok(text);
      const more =
        end < total
          ? ` Next slice: ReadVar ${JSON.stringify({ name, start: end, length: Math.min(length, total - end) })}`
          : ' This is the end.';
      return ok(`${text}\n\n[${name}: characters ${start}–${end} of ${total}.${more}]`, text);
    },
  });
}

function listVarsTool(variables: VariableSystem): Tool {
  return varTool({
    definition: {
      type: 'function',
      function: {
        name: LIST_VARS,
        description: 'List stored variables (names, types, sizes, tags), newest first, rules first. Paged.',
        parameters: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: [...VARIABLE_TYPES], description: 'Only this type' },
            search: { type: 'string', description: 'Case-insensitive text in the name, description or tags' },
            tag: { type: 'string', description: 'Only variables with this tag' },
            offset: { type: 'integer', minimum: 0, description: 'Skip this many (for the next page)' },
            limit: { type: 'integer', minimum: 1, maximum: 500, description: `Page size (default ${LIST_PAGE})` },
          },
        },
      },
    },
    async execute(args) {
      const query = {
        type: args.type as VariableType | undefined,
        tag: args.tag as string | undefined,
        search: args.search as string | undefined,
        offset: Number(args.offset ?? 0) || 0,
        limit: Number(args.limit ?? LIST_PAGE) || LIST_PAGE,
      };
      const page = variables.list(query);
      if (page.total === 0) return ok('No variables match.', page);
      const rows = page.items.map((v) => {
        const tags = v.tags.length ? ` [${v.tags.join(', ')}]` : '';
        const desc = v.desc ? ` — ${v.desc}` : '';
        return `- ${v.name} (${v.type}, ${v.size} chars)${tags}${desc}`;
      });
      const shownTo = page.offset + page.items.length;
      const footer =
        shownTo < page.total
          ? `Showing ${page.offset + 1}–${shownTo} of ${page.total}. Next page: ListVars ${JSON.stringify({ ...stripUndefined(query), offset: shownTo })}`
          : `${page.total} variable(s) in all.`;
      return ok(`${rows.join('\n')}\n${footer}`, page);
    },
  });
}

function writeVarTool(variables: VariableSystem): Tool {
  return varTool({
    definition: {
      type: 'function',
      function: {
        name: WRITE_VAR,
        description: 'Store text in a variable for later use (read it with ReadVar or pass it as $VAR_REF{{name}}).',
        parameters: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, pattern: '^[^{}]+$', description: 'Variable name (no braces)' },
            value: { type: 'string', description: 'The text to store' },
            tags: { type: 'array', items: { type: 'string' } },
            desc: { type: 'string', description: 'A short description shown by ListVars' },
          },
          required: ['name', 'value'],
        },
      },
    },
    async execute(args) {
      const name = String(args.name);
      if (variables.peek(name)?.type === 'RULE') return fail(`"${name}" is a rule; rules cannot be overwritten.`);
      const variable = variables.add(name, String(args.value), 'LLMAdd', {
        tags: args.tags as string[] | undefined,
        desc: args.desc as string | undefined,
      });
      return ok(`Stored ${name} (${variable.size} chars). Reference it as $VAR_REF{{${name}}}.`);
    },
  });
}

function removeVarsTool(variables: VariableSystem): Tool {
  return varTool({
    definition: {
      type: 'function',
      function: {
        name: REMOVE_VARS,
        description: 'Remove variables by name. Rules cannot be removed.',
        parameters: {
          type: 'object',
          properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1 } },
          required: ['names'],
        },
      },
    },
    async execute(args) {
      const removed: string[] = [];
      const problems: string[] = [];
      for (const name of args.names as string[]) {
        const variable = variables.peek(name);
        if (!variable) problems.push(`${name}: no such variable`);
        else if (variable.type === 'RULE') problems.push(`${name}: rules cannot be removed`);
        else if (variables.remove(name)) removed.push(name);
      }
      const lines = [removed.length ? `Removed: ${removed.join(', ')}.` : 'Nothing removed.', ...problems];
      const data = { removed, problems };
      return removed.length || !problems.length ? ok(lines.join('\n'), data) : { status: 'ERROR', error: lines.join('\n'), data };
    },
  });
}

function stripUndefined(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}
