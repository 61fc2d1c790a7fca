// What the app remembers of each module entry a tool host loaded.
import type { SourceEntry } from '../types.ts';

/** One `load` of one module entry, as the app remembers it (to reload it after a restart). */
export interface LoadRecord {
  loadId: number;
  entry: SourceEntry;
  /** The entry's group name: the sandbox of the processes its exec() starts is chosen by it. */
  label: string;
  toolDir: string;
  /** Secret names each of its tools declared, by tool key: a call's exec() may ask for its own tool's. */
  secrets: Map<string, ReadonlySet<string>>;
}
