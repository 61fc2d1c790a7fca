// Which skills each conversation activated: those activated since this process started (by
// session id), those restored from a reopened chat's saved results (restore(): app restart,
// `chat --session`), and those whose activation result is in the conversation the call belongs
// to. Activating twice adds nothing, also across a restart, and run_skill_python is open only
// for a skill active in that conversation. Owned by the runtime's skill source. Listeners
// hear each first activation (a skill's accepted tool set applies from then on).
import { Emitter, type Disposer } from '../../base/emitter.ts';
import type { ToolResultRecord } from '../../tools/tool-session.ts';
import type { ToolContext } from '../../tools/types.ts';

/** The first line of activate_skill's result: how a conversation shows a skill was activated. */
export const activationHeading = (id: string): string => `# Skill ${id}\n`;

export class ActiveSkills {
  readonly #bySession = new Map<string, Set<string>>();
  readonly #activated = new Emitter<{ sessionId: string; id: string }>();

  /** True when `id` was not active yet in `sessionId` (listeners hear it then). */
  activate(sessionId: string, id: string): boolean {
    let set = this.#bySession.get(sessionId);
    if (!set) this.#bySession.set(sessionId, (set = new Set()));
    if (set.has(id)) return false;
    set.add(id);
    this.#activated.fire({ sessionId, id });
    return true;
  }

  /** Contract: `listener` runs after a skill became active in a conversation; returns a disposer. */
  onActivated(listener: (event: { sessionId: string; id: string }) => void): Disposer {
    return this.#activated.event(listener);
  }

  /** Active in the call's conversation (this process's memory, else the conversation's messages). */
  isActive(ctx: Pick<ToolContext, 'sessionId' | 'conversation'>, id: string): boolean {
    if (this.#bySession.get(ctx.sessionId)?.has(id)) return true;
    try {
      const heading = activationHeading(id);
      return ctx.conversation?.().messages.some((m) => m.role === 'tool' && m.content.startsWith(heading)) ?? false;
    } catch {
      return false;
    }
  }

  /**
   * A reopened conversation (app restart, `chat --session ID`): the skills whose activation result
   * is among its results are active again, without an event (the ToolSession re-applies its sets).
   * True when one became active.
   */
  restore(sessionId: string, results: readonly ToolResultRecord[], tool: string): boolean {
    let added = false;
    for (const result of results) {
      if (result.toolName !== tool || result.status !== 'SUCCESS') continue;
      // The result begins with activationHeading(id).
      const id = /^# Skill (\S+)\n/.exec(result.content)?.[1];
      if (!id) continue;
      let set = this.#bySession.get(sessionId);
      if (!set) this.#bySession.set(sessionId, (set = new Set()));
      if (set.has(id)) continue;
      set.add(id);
      added = true;
    }
    return added;
  }

  of(sessionId: string): string[] {
    return [...(this.#bySession.get(sessionId) ?? [])];
  }

  /** Forget a conversation (it closed). */
  drop(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }
}
