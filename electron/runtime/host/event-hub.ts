// The event stream of a host: session events as they are, plus tools, settings and session-list
// changes (coalesced re-listing).
import type { ApiEvent, ApiEventListener } from '../../../shared/api.ts';
import { Emitter, type Disposer } from '../base/emitter.ts';
import type { HostServices } from './services/services.ts';

/**
 * The event stream of a host: session events as they are, plus tools/settings/sessions changes.
 * Returns a subscribe function and the disposer of the underlying subscriptions.
 */
export function createEventHub(services: Pick<HostServices, 'sessions' | 'tools' | 'settings' | 'mcp' | 'schedules'>) {
  // A broken subscriber must not starve the others (the Emitter's policy).
  const events = new Emitter<ApiEvent>();
  const emit: ApiEventListener = (event) => events.fire(event);
  let lastSessionsKey = '';
  // Re-listing reads the session files: coalesce bursts (a turn appends several messages).
  let listing: Promise<void> | null = null;
  let again = false;
  const emitSessions = (): Promise<void> => {
    if (listing) {
      again = true;
      return listing;
    }
    listing = (async () => {
      do {
        again = false;
        const list = await services.sessions.list().catch(() => null);
        if (!list) continue;
        const key = JSON.stringify(list);
        if (key === lastSessionsKey) continue;
        lastSessionsKey = key;
        emit({ type: 'sessions.changed', sessions: list });
      } while (again);
    })().finally(() => {
      listing = null;
    });
    return listing;
  };
  const disposers = [
    services.sessions.onEvent((event) => {
      emit(event);
      // A new message or a finished turn changes the list's order, counts and titles.
      if (event.type === 'session.message' || event.type === 'session.turn') void emitSessions();
    }),
    // Sessions another process wrote (`tooldesk chat` in a terminal) show up without a click.
    services.sessions.onListChanged?.(() => void emitSessions()) ?? (() => {}),
    services.tools.onChanged((tools) => emit({ type: 'tools.changed', tools })),
    services.settings.onDidChange((next) => {
      emit({ type: 'settings.changed', settings: next });
      // Enable flags in the tools list come from settings.
      emit({ type: 'tools.changed', tools: services.tools.state() });
    }),
    services.mcp?.onChanged((servers) => emit({ type: 'mcp.changed', servers })),
    services.schedules?.onEvent(emit),
  ];
  return {
    emit,
    sessionsChanged: emitSessions,
    onEvent: events.event as (listener: ApiEventListener) => Disposer,
    dispose() {
      for (const d of disposers) d?.();
      events.dispose();
    },
  };
}
