// Locates resources/templates (one folder per format) beside the helper scripts.
import { join } from 'node:path';
import { resourcesDir } from '../process/helper-scripts.ts';

export type TemplateFormat = 'script-py' | 'script-js' | 'three-layer' | 'module-ts' | 'python' | 'powershell';
export const TEMPLATE_FORMATS: readonly TemplateFormat[] = ['script-py', 'script-js', 'three-layer', 'module-ts', 'python', 'powershell'];
/** The name every template uses; scaffolding replaces it with the new tool's name. */
export const TEMPLATE_TOOL_NAME = 'new_tool';

export const templatesDir = (): string => join(resourcesDir(), 'templates');
