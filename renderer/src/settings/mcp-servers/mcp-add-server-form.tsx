// Settings → MCP servers → "Add server…": a name and a command line (split as a shell would, quotes
// kept) for a local server, or a URL for a remote one; the runtime checks the rest and names it.
import { Show, createSignal } from 'solid-js';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { useApp } from '../../store/app-context.tsx';
import { splitCommandLine } from './split-command-line.ts';

export function AddServerForm(props: { onAdded: (rows: McpServerView[]) => void; onCancel: () => void }) {
  const app = useApp();
  const [kind, setKind] = createSignal<'command' | 'url'>('command');
  const [name, setName] = createSignal('');
  const [target, setTarget] = createSignal('');
  const [problem, setProblem] = createSignal<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    if (!name().trim()) return setProblem('Give the server a name (its tools are called NAME__tool).');
    if (!target().trim()) return setProblem(kind() === 'url' ? 'Give the server’s URL.' : 'Give the command that starts the server.');
    let request: { name: string; command?: string; args?: string[]; url?: string };
    if (kind() === 'url') request = { name: name().trim(), url: target().trim() };
    else {
      const words = splitCommandLine(target());
      if (!words || words.length === 0) return setProblem('The command has an unclosed quote.');
      request = { name: name().trim(), command: words[0]!, args: words.slice(1) };
    }
    try {
      props.onAdded(await app.api.addMcpServer(request));
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <form class="card stack mcp-add" onSubmit={(e) => void submit(e)} data-testid="mcp-add-form">
      <div class="row" role="radiogroup" aria-label="Kind of server">
        <label>
          <input type="radio" name="mcp-kind" checked={kind() === 'command'} onChange={() => setKind('command')} /> Local (command)
        </label>
        <label>
          <input type="radio" name="mcp-kind" checked={kind() === 'url'} onChange={() => setKind('url')} /> Remote (URL)
        </label>
      </div>
      <label>
        Name
        <input type="text" value={name()} onInput={(e) => setName(e.currentTarget.value)} data-testid="mcp-add-name" placeholder="files" />
      </label>
      <label>
        {kind() === 'url' ? 'URL' : 'Command and arguments'}
        <input
          type={kind() === 'url' ? 'url' : 'text'}
          value={target()}
          onInput={(e) => setTarget(e.currentTarget.value)}
          data-testid="mcp-add-target"
          placeholder={kind() === 'url' ? 'https://example.com/mcp' : 'npx -y @modelcontextprotocol/server-filesystem ~/Documents'}
        />
      </label>
      <Show when={problem()}>
        <p class="error small" role="alert" data-testid="mcp-add-problem">
          {problem()}
        </p>
      </Show>
      <div class="row">
        <button type="submit" class="primary" data-testid="mcp-add-submit">
          Add
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
