import { describe, expect, it } from 'vitest';
import { boundTools, refCycle } from '../../../../../electron/runtime/sources/mcp/mapping/bound-tools.ts';
import { asksForSecret } from '../../../../../electron/runtime/sources/mcp/connection/elicitation-policy.ts';

const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }) => ({ name, inputSchema }) as never;

describe('bounds on a server tool list', () => {
  it('keeps the first maxTools and says so', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`));
    const out = boundTools(many, { maxTools: 1000, maxSchemaBytes: 1e6 });
    expect(out.tools).toHaveLength(1000);
    expect(out.problems).toEqual(['the server lists 10000 tools; only the first 1000 are used']);
  });

  it('replaces a huge schema and a pure $ref cycle with a permissive one', () => {
    const huge = tool('huge', { type: 'object', properties: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(80) }])) });
    const cyclic = tool('cyclic', { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } } });
    const recursive = tool('tree', { type: 'object', properties: { child: { $ref: '#' } } });
    const out = boundTools([huge, cyclic, recursive], { maxTools: 10, maxSchemaBytes: 256 * 1024 });
    expect(out.tools[0]!.inputSchema).toEqual({ type: 'object', additionalProperties: true });
    expect(out.tools[1]!.inputSchema).toEqual({ type: 'object', additionalProperties: true });
    expect(out.tools[2]).toBe(recursive); // a real recursive schema is fine
    expect(out.problems[0]).toMatch(/tool "huge": its input schema is \d+ KB/);
    expect(out.problems[1]).toMatch(/tool "cyclic": its input schema's \$ref .* points back at itself/);
    expect(refCycle({ $ref: '#' })).toBe('#');
  });
});

describe('form elicitation asking for secrets', () => {
  it('spots password-like fields and leaves ordinary ones', () => {
    expect(asksForSecret({ properties: { password: { type: 'string' } } })).toBe('password');
    expect(asksForSecret({ properties: { x: { type: 'string', format: 'password' } } })).toBe('x');
    expect(asksForSecret({ properties: { apiKey: { type: 'string' } } })).toBe('apiKey');
    expect(asksForSecret({ properties: { name: { type: 'string' }, maxTokens: { type: 'number' }, email: { type: 'string' } } })).toBeUndefined();
  });
});
