// Every model of every configured provider, for a chat's "Model" picker and its context meter.
// Providers are asked in parallel; one that cannot answer still offers its configured model, and
// the reason is reported.
import type { ModelChoice, ModelList } from '../../../shared/api.ts';
import type { ProviderConfig, Settings } from '../../../shared/settings.ts';
import type { ModelInfo } from './types.ts';

/** Contract: resolves with the provider's models or rejects with an Error written for the user. */
export type ListModels = (config: ProviderConfig) => Promise<ModelInfo[]>;

export async function listAllModels(settings: Settings, listModels: ListModels): Promise<ModelList> {
  const problems: string[] = [];
  const lists = await Promise.all(
    settings.providers.map(async (config): Promise<ModelChoice[]> => {
      const providerName = config.name || config.id;
      let listed: ModelInfo[] = [];
      try {
        listed = [...(await listModels(config))].sort((a, b) => a.id.localeCompare(b.id));
      } catch (error) {
        problems.push(`${providerName}: ${(error as Error).message}`);
      }
      const windows = new Map(listed.flatMap((m) => (m.contextWindow ? [[m.id, m.contextWindow] as const] : [])));
      const choice = (model: string): ModelChoice => {
        const window = windows.get(model);
        return { providerId: config.id, providerName, model, ...(window ? { contextWindow: window } : {}) };
      };
      return [...new Set([...(config.model ? [config.model] : []), ...listed.map((m) => m.id)])].map(choice);
    }),
  );
  return { models: lists.flat(), problems };
}
