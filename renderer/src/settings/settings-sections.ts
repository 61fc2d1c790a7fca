// The sections of Settings, in the order the page lists them. Each is a self-contained component
// that renders one `<section class="settings-section">` with its own heading; the page gives it an
// entry in the section list on the left and a place in the scrolling column. Adding a section is
// one line here: `{ id: 'skills', title: 'Skills', component: SkillsSection },`.
import type { Component } from 'solid-js';
import { ProvidersSection } from './providers-section.tsx';
import { GroupsSection } from './groups-section.tsx';
import { McpServersSection } from './mcp-servers-section.tsx';
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
}

export const SETTINGS_SECTIONS: SettingsSectionEntry[] = [
  { id: 'providers', title: 'Providers', component: ProvidersSection },
  { id: 'groups', title: 'Tool groups', component: GroupsSection },
  { id: 'mcp', title: 'MCP servers', component: McpServersSection },
  { id: 'rules', title: 'Rules', component: RulesSection },
  { id: 'skills', title: 'Skills', component: SkillsSection },
  { id: 'tool-sets', title: 'Tool sets', component: ToolSetsSection },
  { id: 'schedules', title: 'Schedules', component: SchedulesSection },
  { id: 'audit', title: 'Audit log', component: AuditSection },
  { id: 'tool-folders', title: 'Tool folders', component: ToolFoldersSection },
  { id: 'sandbox', title: 'Sandbox', component: SandboxSection },
  { id: 'limits', title: 'Limits', component: LimitsSection },
  { id: 'python', title: 'Python', component: PythonSection },
];
