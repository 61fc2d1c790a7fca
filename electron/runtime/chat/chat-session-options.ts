// What a ChatSession is built over: its file (and, reopened, what the file replayed), the
// settings, the runtime's ToolSession factory, the provider of each turn, and where its events
// and problems go. The SessionManager makes these for every session it opens.
import type { ChatEvent, ChatSettings } from '../../../shared/chat.ts';
import type { Settings } from '../../../shared/settings.ts';
import type { ProviderResolution } from '../llm/resolve-provider.ts';
import type { ToolSessionFactory } from '../tools/tool-session.ts';
import type { BoundOptions } from './tool-calls/bound-tool-result.ts';
import type { SessionFile, SessionState } from './persistence/session-file.ts';

export interface ChatSessionOptions {
  file: SessionFile;
  /** The replayed file (SessionFile.open); absent for a new session. */
  state?: SessionState;
  settings: () => Settings;
  /** Opens this chat's ToolSession (executor, group sync, the chat's choice of tools). */
  toolSession: ToolSessionFactory;
  /** Resolved at the start of every turn, so provider changes apply to running sessions; `chat` names the chat's own model. */
  provider: (chat?: ChatSettings) => Promise<ProviderResolution>;
  /** Every event also goes here (the SessionManager's fan-out); it does not count as an approver. */
  forward?: (event: ChatEvent) => void;
  /** Someone outside can answer approvals (the manager has listeners). */
  hasApprover?: () => boolean;
  /** Caps of what the session keeps of each tool result (defaults in bound-tool-result.ts). */
  storedResult?: BoundOptions;
  log?: (message: string) => void;
}
