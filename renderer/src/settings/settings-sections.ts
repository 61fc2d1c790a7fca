// The sections of Settings, in the order the page lists them. Each is a self-contained component
// that renders one `<section class="settings-section">` with its own heading; the page gives it an
// entry in the section list on the left, a place in the scrolling column and a "?" that opens its
// docs page. Adding a section is one line here:
// `{ id: 'skills', title: 'Skills', component: SkillsSection, docs: 'tools/skills.md' },`.
import type { Component } from 'solid-js';
import { ProvidersSection } from './providers-section.tsx';
import { GroupsSection } from './groups-section.tsx';
import { McpServersSection } from './mcp-servers/mcp-servers-section.tsx';
import { RulesSection } from './rules-section.tsx';
import { ToolSetsSection } from './tool-sets-section.tsx';
import { AuditSection } from './audit-section.tsx';
import { SchedulesSection } from '../schedules/schedules-section.tsx';
import { SkillsSection } from '../skills/skills-section.tsx';
import { LimitsSection, PythonSection, SandboxSection, ToolFoldersSection } from './runtime-section.tsx';

export interface SettingsSectionEntry {
  /** Unique, kebab-case: the section's anchor is `settings-<id>`. */
  id: string;
  /** Its name in the section list (the section's own heading may say more). */
  title: string;
  component: Component;
  /** Its page of the user docs, a path under docs/ (a test checks that it exists). */
  docs: string;
}

export const SETTINGS_SECTIONS: SettingsSectionEntry[] = [
  { id: 'providers', title: 'Providers', component: ProvidersSection, docs: 'chatting.md' },
  { id: 'groups', title: 'Tool groups', component: GroupsSection, docs: 'tools/README.md' },
  { id: 'mcp', title: 'MCP servers', component: McpServersSection, docs: 'mcp/servers.md' },
  { id: 'rules', title: 'Rules', component: RulesSection, docs: 'permissions.md' },
  { id: 'skills', title: 'Skills', component: SkillsSection, docs: 'tools/skills.md' },
  { id: 'tool-sets', title: 'Tool sets', component: ToolSetsSection, docs: 'permissions.md' },
  { id: 'schedules', title: 'Schedules', component: SchedulesSection, docs: 'schedules.md' },
  { id: 'audit', title: 'Audit log', component: AuditSection, docs: 'permissions.md' },
  { id: 'tool-folders', title: 'Tool folders', component: ToolFoldersSection, docs: 'getting-started.md' },
  { id: 'sandbox', title: 'Sandbox', component: SandboxSection, docs: 'security.md' },
  { id: 'limits', title: 'Limits', component: LimitsSection, docs: 'settings.md' },
  { id: 'python', title: 'Python', component: PythonSection, docs: 'tools/python-powershell.md' },
];
