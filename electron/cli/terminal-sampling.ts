// MCP sampling on the terminal (`tooldesk tools run`): a server asks the client's model to answer
// some messages. The messages are shown, and the provider Tooldesk is set up with (the active one,
// as `tooldesk chat` uses) answers them only after a yes (`--yes` says yes, and says so); no tools
// are offered to the model. No provider, or a no, ends as a refusal the server reads and the
// result shows — never a missing tool or a crash.
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { McpInteractions } from '../runtime/host/mcp-client.ts';
import type { ProviderResolution } from '../runtime/llm/resolve-provider.ts';
import type { TerminalApprover } from './terminal-approver.ts';

export function terminalSampling(
  approver: TerminalApprover,
  out: NodeJS.WritableStream,
  yes: boolean,
  /** Contract: the provider to answer with, resolved when a request comes; never rejects. */
  provider: () => Promise<ProviderResolution>,
): NonNullable<McpInteractions['sample']> {
  return async (ask, signal): Promise<CreateMessageResult> => {
    // Loaded with the first request: it brings the chat's model streaming.
    const { sampleWith, samplingCard } = await import('../runtime/host/mcp-asks/mcp-chat-asks.ts');
    const card = samplingCard(ask, { id: 'terminal', sessionId: 'cli' });
    if (card.kind !== 'sampling') throw new Error('internal: not a sampling request');
    out.write(`\nMCP server "${ask.server}" asks the model to answer (sampling, at most ${card.maxTokens} tokens):\n`);
    if (card.systemPrompt) out.write(`  system: ${card.systemPrompt}\n`);
    for (const m of card.messages) out.write(`  ${m.role}: ${m.text}\n`);
    const resolution = await provider();
    if (!resolution.ok) {
      out.write('  refused: no model to answer with\n');
      throw new Error(`Tooldesk has no model to answer this sampling request: ${resolution.reason}`);
    }
    const model = `${resolution.config.name} (${resolution.config.model})`;
    if (yes) out.write(`  answered by ${model} (--yes)\n`);
    else {
      const answer = (await approver.question(`  Let ${model} answer it? [y/N] `))?.trim().toLowerCase();
      if (answer !== 'y' && answer !== 'yes') {
        out.write('  refused\n');
        throw new Error(answer === null || answer === undefined ? 'the sampling request was not answered: nobody could be asked (the input ended)' : 'the user did not allow this sampling request');
      }
    }
    return sampleWith(resolution.provider, resolution.config.model, card, signal);
  };
}
