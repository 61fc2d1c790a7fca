import { describe, expect, it } from 'vitest';
import { mcpOfferNote, mcpToolCountText, switchedOffTools } from '../../../shared/mcp-tool-count.ts';

describe('mcpToolCountText', () => {
  it('says which of the tools the model does not get', () => {
    expect(mcpToolCountText({ tools: 1 })).toBe('1 tool');
    expect(mcpToolCountText({ tools: 12, appOnlyTools: 0, switchedOffTools: 0 })).toBe('12 tools');
    expect(mcpToolCountText({ tools: 14, appOnlyTools: 2, switchedOffTools: 1 })).toBe('14 tools (2 only for apps, 1 switched off)');
  });
});

describe('mcpOfferNote', () => {
  it('tells each reader what the other offers, and nothing when they offer the same', () => {
    expect(mcpOfferNote(['elicitation', 'sampling'], 'app')).toMatch(/^Counted with elicitation and sampling offered; tooldesk mcp list --status offers neither/);
    expect(mcpOfferNote([], 'cli')).toBe('counted without elicitation or sampling, which the app offers: a server that lists tools for them shows more there');
    expect(mcpOfferNote(['elicitation'], 'cli')).toBe('counted without sampling, which the app offers: a server that lists tools for it shows more there');
    expect(mcpOfferNote(['elicitation', 'sampling'], 'cli')).toBe('');
    expect(mcpOfferNote([], 'app')).toBe('');
  });
});

describe('switchedOffTools', () => {
  it("counts the server's tools switched off, not another server's", () => {
    expect(switchedOffTools({ ev__echo: false, ev__add: true, other__echo: false, evx__a: false }, 'ev')).toBe(1);
  });
});
