// A RuleBook over the settings store, writing the audit log under the Tooldesk home.
import type { SettingsStore } from './settings-store.ts';
import { auditDir, fileAuditWriter } from '../audit/audit-log.ts';
import { RuleBook } from '../tools/rules/rule-book.ts';
import { toolFileCheck } from '../tools/rules/tool-file-check.ts';

export function settingsRuleBook(settings: SettingsStore, home: string, log: (message: string) => void = () => {}): RuleBook {
  return new RuleBook(
    {
      get: () => settings.get(),
      onDidChange: (listener) => settings.onDidChange(() => listener()),
      bind: (server, identity) => settings.set('serverBindings', { ...settings.get().serverBindings, [server]: identity }),
      addRule: (rule) => settings.set('toolRules', [...(settings.get().toolRules ?? []), rule]),
    },
    { audit: fileAuditWriter(auditDir(home), { onError: log }), toolFiles: toolFileCheck(home, log), log },
  );
}
