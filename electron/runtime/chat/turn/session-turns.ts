// A chat's turns as its file and its events see them: the turn gate (one turn at a time), a
// `turn` record and a `session.turn` event at each start and end, and the turn a restart cut off
// ("Interrupted": a started record without its end), kept until a turn starts or the path
// changes under it. Losing a turn record (a full disk) only loses "Interrupted" after a restart.
import type { ChatEvent, TurnInterruption } from '../../../../shared/chat.ts';
import type { SessionRecord } from '../persistence/session-records.ts';
import { TurnGate } from './turn-gate.ts';

export interface SessionTurnsPorts {
  sessionId: string;
  newId(prefix: string): string;
  /** Why no turn may start (the session is closed), or undefined. */
  closedReason(): string | undefined;
  /** Writes a record to the session file (throws a FileError when the disk refuses). */
  record(record: SessionRecord): void;
  /** Contract: never throws. */
  emit(event: ChatEvent): void;
  /** Where a turn record the disk refused is reported. */
  file: string;
  log?: (message: string) => void;
}

export class SessionTurns {
  readonly gate: TurnGate;
  readonly #ports: SessionTurnsPorts;
  /** The turn a restart cut off, until a turn starts (Continue, Retry, a new message) or the path changes. */
  #interruption: TurnInterruption | undefined;

  constructor(ports: SessionTurnsPorts, interruption: TurnInterruption | undefined) {
    this.#ports = ports;
    this.#interruption = interruption;
    const { sessionId } = ports;
    this.gate = new TurnGate({
      newId: ports.newId,
      closedReason: ports.closedReason,
      started: (turnId) => {
        this.#interruption = undefined;
        this.#record({ t: 'turn', at: Date.now(), turnId, state: 'started' });
        ports.emit({ type: 'session.turn', sessionId, turnId, state: 'started' });
      },
      finished: ({ turnId, stopReason, error }) => {
        this.#record({ t: 'turn', at: Date.now(), turnId, state: 'finished', stopReason });
        ports.emit({ type: 'session.turn', sessionId, turnId, state: 'finished', stopReason, ...(error ? { error } : {}) });
      },
    });
  }

  /** The turn a restart cut off (shown "Interrupted" with Continue and Retry), or undefined. */
  interruption(): TurnInterruption | undefined {
    return this.#interruption;
  }

  /** The path changes under an interrupted turn (a branch switch, a delete): it can no longer go on. */
  endInterruption(): void {
    if (!this.#interruption) return;
    this.#record({ t: 'turn', at: Date.now(), turnId: this.#interruption.turnId, state: 'finished', stopReason: 'aborted' });
    this.#interruption = undefined;
  }

  #record(record: SessionRecord & { t: 'turn' }): void {
    try {
      this.#ports.record(record);
    } catch (error) {
      this.#ports.log?.(`Could not record the turn in ${this.#ports.file}: ${(error as Error).message}`);
    }
  }
}
