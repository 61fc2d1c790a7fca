// `_meta.ui` of an MCP tool: its app (resourceUri) and who may call it (visibility). Absent
// visibility means both the model and apps; ["app"] hides a tool from the model; ["model"]
// keeps apps from calling it. Also reads the older flat key `_meta["ui/resourceUri"]`.

export interface ToolUiMeta {
  resourceUri?: string;
  visibility: Array<'model' | 'app'>;
}

export function toolUiMeta(meta: unknown): ToolUiMeta {
  const m = (meta && typeof meta === 'object' ? meta : {}) as Record<string, unknown>;
  const ui = (m.ui && typeof m.ui === 'object' ? m.ui : {}) as Record<string, unknown>;
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : typeof m['ui/resourceUri'] === 'string' ? (m['ui/resourceUri'] as string) : undefined;
  const given = Array.isArray(ui.visibility) ? ui.visibility.filter((v): v is 'model' | 'app' => v === 'model' || v === 'app') : [];
  return {
    ...(uri && uri.startsWith('ui://') && uri.length <= 2048 ? { resourceUri: uri } : {}),
    visibility: Array.isArray(ui.visibility) ? given : ['model', 'app'],
  };
}

export const visibleToModel = (ui: ToolUiMeta): boolean => ui.visibility.includes('model');
