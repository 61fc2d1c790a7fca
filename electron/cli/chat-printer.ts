// How `tooldesk chat` shows a turn to a person: the answer streams to stdout; reasoning, tool
// calls, approvals' outcomes and notices go to stderr, keeping stdout the answer alone.
import type { ChatEvent } from '../../shared/chat.ts';
import type { CliIO } from './command.ts';

const preview = (text: string, max = 200) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

export function humanPrinter(io: CliIO) {
  let streamedText = false;
  let endsWithNewline = true;
  let reasoningOpen = false;
  const out = (text: string) => {
    if (!text) return;
    if (reasoningOpen) {
      io.stderr.write('\n');
      reasoningOpen = false;
    }
    io.stdout.write(text);
    streamedText = true;
    endsWithNewline = text.endsWith('\n');
  };
  const err = (text: string) => {
    if (!endsWithNewline) {
      io.stdout.write('\n');
      endsWithNewline = true;
    }
    if (reasoningOpen) {
      io.stderr.write('\n');
      reasoningOpen = false;
    }
    io.stderr.write(text);
  };
  return {
    get streamedText() {
      return streamedText;
    },
    out,
    finish() {
      if (!endsWithNewline) io.stdout.write('\n');
      if (reasoningOpen) io.stderr.write('\n');
    },
    onEvent(event: ChatEvent) {
      switch (event.type) {
        case 'session.delta':
          if (event.reasoning) {
            if (!reasoningOpen) {
              if (!endsWithNewline) {
                io.stdout.write('\n');
                endsWithNewline = true;
              }
              io.stderr.write('(thinking) ');
              reasoningOpen = true;
            }
            io.stderr.write(event.reasoning);
          }
          if (event.text) out(event.text);
          break;
        case 'tool.started':
          err(`→ ${event.toolName} ${preview(event.summary ?? JSON.stringify(event.args), 160)}\n`);
          break;
        case 'tool.progress':
          if (event.update.text) err(`  … ${preview(event.update.text, 160)}\n`);
          break;
        case 'tool.finished': {
          const ms = event.result.durationMs === undefined ? '' : ` ${Math.round(event.result.durationMs)} ms`;
          err(`← ${event.toolName} ${event.result.status}${ms}: ${preview(event.result.finalText)}\n`);
          break;
        }
        case 'approval.resolved':
          if (event.decision) err(`  ${event.decision.decision}${event.decision.reason ? `: ${event.decision.reason}` : ''}\n`);
          break;
        case 'session.notice':
          err(`${event.level === 'warning' ? 'warning: ' : ''}${event.message}\n`);
          break;
        default:
          break;
      }
    },
  };
}
