// What an interrupted turn was doing, in words the chat and the CLI both show (each adds what its
// Continue is: a button, or `/continue`).
import type { TurnInterruption } from './chat.ts';

export function interruptionCause(interruption: TurnInterruption): string {
  const tools = [...new Set(interruption.calls.map((call) => call.toolName))].join(', ');
  switch (interruption.during) {
    case 'answer':
      return 'Tooldesk stopped while the model was answering';
    case 'approval':
      return `Tooldesk stopped while ${tools} waited for your approval`;
    case 'tool':
      return `Tooldesk stopped while ${tools} was running, so it may have done part of its work`;
  }
}
