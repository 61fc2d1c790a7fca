// Locates resources/templates (one folder per format of shared/new-tool-formats.ts) beside the
// helper scripts.
import { join } from 'node:path';
import { NEW_TOOL_FORMATS, type NewToolFormat } from '../../../../shared/new-tool-formats.ts';
import { resourcesDir } from '../process/helper-scripts.ts';

export type TemplateFormat = NewToolFormat;
export const TEMPLATE_FORMATS: readonly TemplateFormat[] = NEW_TOOL_FORMATS;
/** The name every template uses; scaffolding replaces it with the new tool's name. */
export const TEMPLATE_TOOL_NAME = 'new_tool';

export const templatesDir = (): string => join(resourcesDir(), 'templates');
