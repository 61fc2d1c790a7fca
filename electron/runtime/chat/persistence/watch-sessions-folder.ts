// Notices sessions written by another process (the CLI's `tooldesk chat`, a second app window)
// so an open app lists them without a click. fs.watch on the folder, coalesced: a turn writes
// many lines, the list is re-read once per burst.
import { watch, type FSWatcher } from 'node:fs';

/** Contract: `changed` is called at most once per `delayMs` after files of the folder changed. Returns a disposer. */
export function watchSessionsFolder(dir: string, changed: () => void, delayMs = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, (_event, name) => {
      // Only the summaries matter: every write to a log rewrites its meta file too, new sessions included.
      if (name && !String(name).endsWith('.meta.json') && !String(name).endsWith('.jsonl')) return;
      timer ??= setTimeout(() => {
        timer = null;
        changed();
      }, delayMs);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No watching (an exotic filesystem): the list still refreshes on this app's own events.
    return () => {};
  }
  return () => {
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}
