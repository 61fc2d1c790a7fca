// Which argument order a module tool's execute expects. Hosts differ: oh-my-pi / xcsh (and seed
// 003) call execute(toolCallId, params, onUpdate, ctx, signal); pi-mono and earendil's pi call
// execute(toolCallId, params, signal, onUpdate, ctx) for custom tools and extensions alike.
// The parameter names say it best when they are there; else the module's host decides.
import type { ModuleHost } from './imports.ts';

export type ExecuteOrder = 'update-third' | 'signal-third';

/** The declared parameter names of a function, from its source text (empty when unreadable). */
export function parameterNames(fn: (...args: never[]) => unknown): string[] {
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  const arrow = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
  if (arrow) return [arrow[1]!];
  const open = source.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let end = -1;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  if (end < 0) return [];
  const list = source.slice(open + 1, end);
  const names: string[] = [];
  let current = '';
  depth = 0;
  for (const c of list) {
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') depth--;
    if (c === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim()) names.push(current);
  return names.map((n) => n.trim().replace(/^\.\.\./, '').split(/[=:\s]/)[0]!.replace(/^_+/, ''));
}

export function executeOrder(execute: (...args: never[]) => unknown, host: ModuleHost, shape: 'factory' | 'extension'): ExecuteOrder {
  const third = parameterNames(execute)[2]?.toLowerCase() ?? '';
  if (/signal|abort/.test(third)) return 'signal-third';
  if (/update|progress|emit|report/.test(third)) return 'update-third';
  if (host === 'pi-mono') return 'signal-third';
  if (host === 'oh-my-pi') return 'update-third';
  return shape === 'extension' ? 'signal-third' : 'update-third';
}
