// One typed event source (VS Code's Emitter in spirit): `emitter.event(listener)` subscribes and
// returns a disposer; `fire(value)` calls every listener. One error policy for the whole runtime:
// a listener that throws never stops the others; its error goes to `onListenerError`.

/** Removes a subscription. Calling it twice is harmless. */
export type Disposer = () => void;

/** Subscribes `listener`; returns its disposer. */
export type Event<T> = (listener: (value: T) => void) => Disposer;

export interface EmitterOptions {
  /** Contract: gets each error a listener threw (the emitter has already moved on); must not throw. */
  onListenerError?: (error: unknown) => void;
}

export class Emitter<T> {
  readonly #listeners = new Set<(value: T) => void>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(options: EmitterOptions = {}) {
    this.#onListenerError = options.onListenerError ?? (() => {});
  }

  /** Subscribes; the same function subscribed twice is called twice (each has its own disposer). */
  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so subscribing one function twice gives two independent entries.
    const entry = (value: T) => listener(value);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  };

  /**
   * Calls the listeners subscribed now, in order. One added during this round waits for the next;
   * one removed during it is not called any more.
   */
  fire(value: T): void {
    for (const listener of [...this.#listeners]) {
      if (!this.#listeners.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        try {
          this.#onListenerError(error);
        } catch {
          // The error reporter broke too: there is nowhere left to say it.
        }
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }

  /** Drops every listener. */
  dispose(): void {
    this.#listeners.clear();
  }
}
