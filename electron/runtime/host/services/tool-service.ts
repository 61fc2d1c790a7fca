// The tools side of the API over the tool registry and tool authoring. The Tools panel's
// list comes from a catalog ToolSession kept in sync with the registry and the settings, so
// it shows exactly what a session sees: model names, effective permissions, enable state.
import { sep } from 'node:path';
import { apiError, type ToolFiles, type ToolsState } from '../../../../shared/api.ts';
import type { NewToolFormat } from '../../../../shared/new-tool-formats.ts';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { Emitter } from '../../base/emitter.ts';
import type { SettingsStore } from '../../store/settings-store.ts';
import type { ToolSessionFactory } from '../../tools/tool-session.ts';
import type { ToolGroupSource } from '../../tools/tools-change.ts';
import type { ToolService } from './services.ts';

/** What the Tools panel needs of the loaded tools. */
export interface ToolCatalogPort {
  source: ToolGroupSource;
  /** Opens a ToolSession kept in step with the source and the settings' switches (the panel's catalog). */
  toolSession: ToolSessionFactory;
}

/** Tool authoring (create/read/update/delete user tools); absent = read-only tools panel. Contract: the registry has re-read the folder before a write resolves. */
export interface ToolAuthoringPort {
  /** `entry`: the file or folder the registry loads; `files`: for the editor (script, three-layer). */
  create(format: NewToolFormat, name: string, files?: Record<string, string>): Promise<{ entry: string; paths: string[]; files?: ToolFiles }>;
  read(name: string): Promise<ToolFiles>;
  update(name: string, files: Record<string, string>): Promise<ToolFiles>;
  delete(name: string): Promise<void>;
}

const severityRank = { error: 0, warning: 1, info: 2 } as const;

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => severityRank[a.severity] - severityRank[b.severity] || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0),
  );
}

export function createToolService(tools: ToolCatalogPort, store: SettingsStore, authoring?: ToolAuthoringPort): ToolService & { close(): void } {
  const registry = tools.source;
  // Subscribed after the catalog's own sync (emitters call in subscription order), so a change
  // reaches the panel with the catalog already updated.
  const catalog = tools.toolSession({ sessionId: 'tools-panel' });
  const changed = new Emitter<ToolsState>();
  const state = (): ToolsState => ({
    groups: catalog.listGroups(),
    diagnostics: sortDiagnostics([...registry.diagnostics(), ...catalog.diagnostics()]),
  });
  const offChanged = registry.onChanged(() => changed.fire(state()));

  /** Whether `file` is the entry (a module or Python file) or inside it (a tool folder). */
  const ofEntry = (entry: string) => (file?: string) => file !== undefined && (file === entry || file.startsWith(entry + sep));

  /**
   * A tool the user just made is meant to be used: its group is switched on unless the user has
   * already decided about that group (an explicit "off" stays off).
   */
  const enableGroupOfNewTool = (entry: string) => {
    const group = registry.groups().find((g) => g.tools.some((t) => ofEntry(entry)(t.source?.file)));
    if (!group) return; // it did not load; its diagnostics say why
    const { groupDefaults } = store.get();
    if (!Object.hasOwn(groupDefaults, group.name)) store.set('groupDefaults', { ...groupDefaults, [group.name]: true });
  };

  const needAuthoring = (): ToolAuthoringPort => {
    if (!authoring) throw apiError('NotAvailableError', 'creating and editing tools is not available here');
    return authoring;
  };

  return {
    state,
    reload: async () => {
      await registry.reload?.();
      return state();
    },
    // Authoring re-reads the folder it wrote before answering, so the list is current.
    create: async (format, name, files) => {
      const created = await needAuthoring().create(format, name, files);
      enableGroupOfNewTool(created.entry);
      const own = ofEntry(created.entry);
      return {
        format,
        name,
        paths: created.paths,
        tools: registry.groups().flatMap((g) => g.tools.filter((t) => own(t.source?.file)).map((t) => t.definition.function.name)),
        diagnostics: sortDiagnostics(registry.diagnostics().filter((d) => own(d.file))),
        ...(created.files ? { files: created.files } : {}),
      };
    },
    read: (name) => needAuthoring().read(name),
    update: (name, files) => needAuthoring().update(name, files),
    delete: (name) => needAuthoring().delete(name),
    onChanged: changed.event,
    close() {
      offChanged();
      changed.dispose();
      catalog.close();
    },
  };
}
