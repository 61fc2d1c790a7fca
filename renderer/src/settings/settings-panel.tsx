import { Show } from 'solid-js';
import { useApp } from '../store/app-context.tsx';
import { ProvidersSection } from './providers-section.tsx';
import { GroupsSection } from './groups-section.tsx';
import { RuntimeSection } from './runtime-section.tsx';
import { McpServersSection } from './mcp-servers-section.tsx';
import { RulesSection } from './rules-section.tsx';
import { ToolSetsSection } from './tool-sets-section.tsx';
import { AuditSection } from './audit-section.tsx';
import { SchedulesSection } from '../schedules/schedules-section.tsx';
import './settings.css';

export function SettingsPanel() {
  const app = useApp();
  return (
    <div class="settings-panel stack" data-testid="settings-panel">
      <Show when={app.state.settings} fallback={<p class="muted">Loading settings…</p>}>
        <ProvidersSection />
        <GroupsSection />
        <McpServersSection />
        <RulesSection />
        <ToolSetsSection />
        <SchedulesSection />
        <AuditSection />
        <RuntimeSection />
      </Show>
    </div>
  );
}
