// Every model of every configured provider, for a chat's "Model" picker. Providers are asked in
// parallel; one that cannot answer still offers its configured model, and the reason is reported.
import type { ModelChoice, ModelList } from '../../../shared/api.ts';
import type { ProviderConfig, Settings } from '../../../shared/settings.ts';

/** Contract: resolves with the provider's model ids or rejects with an Error written for the user. */
export type ListModels = (config: ProviderConfig) => Promise<string[]>;

export async function listAllModels(settings: Settings, listModels: ListModels): Promise<ModelList> {
  const problems: string[] = [];
  const lists = await Promise.all(
    settings.providers.map(async (config): Promise<ModelChoice[]> => {
      const providerName = config.name || config.id;
      const choice = (model: string): ModelChoice => ({ providerId: config.id, providerName, model });
      let ids: string[] = [];
      try {
        ids = [...(await listModels(config))].sort((a, b) => a.localeCompare(b));
      } catch (error) {
        problems.push(`${providerName}: ${(error as Error).message}`);
      }
      return [...new Set([...(config.model ? [config.model] : []), ...ids])].map(choice);
    }),
  );
  return { models: lists.flat(), problems };
}
