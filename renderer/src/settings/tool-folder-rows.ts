// The other projects' tool folders as rows of Settings → Tool folders. With the home as working
// folder, Agenvoy's project folder (WORKDIR/.config/agenvoy/tools/script) is its home folder:
// one folder, so one row, whose switch sets both keys (discovery loads that folder once).
import type { WellKnownRoot } from '../../../shared/settings.ts';

export interface ToolFolderRow {
  keys: WellKnownRoot[];
  label: string;
  path: string;
  /** Why one row stands for two kinds of folder. */
  note?: string;
}

const KINDS: { key: WellKnownRoot; label: string; path: string; homeKind?: WellKnownRoot }[] = [
  { key: 'agenvoyHome', label: 'Agenvoy script tools', path: '~/.config/agenvoy/tools/script' },
  { key: 'agenvoyProject', label: 'Agenvoy project tools', path: '.config/agenvoy/tools/script', homeKind: 'agenvoyHome' },
  { key: 'ompHome', label: 'oh-my-pi tools', path: '~/.omp/agent/tools' },
  { key: 'ompProject', label: 'oh-my-pi project tools', path: '.omp/tools', homeKind: 'ompHome' },
];

/** `folders`: each kind's path on this machine (app info), when known. */
export function toolFolderRows(folders: Partial<Record<WellKnownRoot, string>> | undefined): ToolFolderRow[] {
  const rows: ToolFolderRow[] = [];
  for (const kind of KINDS) {
    const path = folders?.[kind.key] ?? kind.path;
    const same = kind.homeKind && folders?.[kind.key] !== undefined && folders[kind.key] === folders[kind.homeKind];
    const homeRow = same ? rows.find((r) => r.keys.includes(kind.homeKind!)) : undefined;
    if (homeRow) {
      homeRow.keys.push(kind.key);
      homeRow.note = `also the folder of ${kind.label}, since the working folder is your home`;
    } else rows.push({ keys: [kind.key], label: kind.label, path });
  }
  return rows;
}
