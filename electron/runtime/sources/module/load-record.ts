// What the app remembers of each module entry a tool host loaded.
import type { SourceEntry } from '../types.ts';

/** One `load` of one module entry, as the app remembers it (to reload it after a restart). */
export interface LoadRecord {
  loadId: number;
  entry: SourceEntry;
  /** The entry's group name: the sandbox of the processes its exec() starts is chosen by it. */
  label: string;
  toolDir: string;
  /** Secret names its tools declared: exec() may ask for these and no others. */
  secrets: Set<string>;
}
