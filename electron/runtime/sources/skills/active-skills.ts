// Which skills each conversation activated (by session id). Activating twice adds nothing, and
// run_skill_python is open only for a skill active in that conversation. Owned by the runtime's
// skill source (one per runtime), dropped with it.
export class ActiveSkills {
  readonly #bySession = new Map<string, Set<string>>();

  /** True when `id` was not active yet in `sessionId`. */
  activate(sessionId: string, id: string): boolean {
    let set = this.#bySession.get(sessionId);
    if (!set) this.#bySession.set(sessionId, (set = new Set()));
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }

  isActive(sessionId: string, id: string): boolean {
    return this.#bySession.get(sessionId)?.has(id) ?? false;
  }

  of(sessionId: string): string[] {
    return [...(this.#bySession.get(sessionId) ?? [])];
  }

  /** Forget a conversation (it closed). */
  drop(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }
}
