// A server's tool list is untrusted input: it is bounded in count and schema size, and schemas
// whose `$ref`s only point at each other (nothing a value could ever satisfy or a provider could
// expand) are replaced. Each cut is reported so the server's row can say what was dropped.
import type { Tool as McpTool } from '@modelcontextprotocol/client';

export interface ToolBounds {
  maxTools: number;
  maxSchemaBytes: number;
}

const PERMISSIVE = { type: 'object', additionalProperties: true } as const;

export function boundTools(tools: McpTool[], bounds: ToolBounds): { tools: McpTool[]; problems: string[] } {
  const problems: string[] = [];
  const kept = tools.length > bounds.maxTools ? tools.slice(0, bounds.maxTools) : tools;
  if (kept !== tools) problems.push(`the server lists ${tools.length} tools; only the first ${bounds.maxTools} are used`);
  const out = kept.map((tool) => {
    const size = JSON.stringify(tool.inputSchema ?? {}).length;
    if (size > bounds.maxSchemaBytes) {
      problems.push(`tool "${tool.name}": its input schema is ${Math.round(size / 1024)} KB (over ${Math.round(bounds.maxSchemaBytes / 1024)} KB); arguments are passed unchecked`);
      return { ...tool, inputSchema: PERMISSIVE };
    }
    const cycle = refCycle(tool.inputSchema);
    if (cycle) {
      problems.push(`tool "${tool.name}": its input schema's $ref ${cycle} points back at itself; arguments are passed unchecked`);
      return { ...tool, inputSchema: PERMISSIVE };
    }
    return tool;
  });
  return { tools: out, problems };
}

/** A local `$ref` chain that comes back to where it started without any other keyword between. */
export function refCycle(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#')) return undefined;
    let node: unknown = schema;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!node || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };
  const seen = new Set<object>();
  const stack: unknown[] = [schema];
  let visited = 0;
  while (stack.length > 0 && visited++ < 100_000) {
    const node = stack.pop();
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const chain = new Set<unknown>([node]);
      let target = resolve(ref);
      let steps = 0;
      while (target && typeof target === 'object' && typeof (target as { $ref?: unknown }).$ref === 'string' && steps++ < 1000) {
        if (chain.has(target)) return ref;
        chain.add(target);
        target = resolve((target as { $ref: string }).$ref);
      }
      if (target === node) return ref;
    }
    for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push(child);
  }
  return undefined;
}
