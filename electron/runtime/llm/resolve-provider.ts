// The provider a turn uses: settings.activeProviderId → its config → its API key from the
// keychain → an OpenAI-compatible provider. Never throws: a reason says what is missing.
import type { ProviderConfig, Settings } from '../../../shared/settings.ts';
import type { SecretStore } from '../store/secret-store.ts';
import { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai-compatible-provider.ts';
import type { LlmProvider } from './types.ts';

export type ProviderResolution =
  | { ok: true; provider: LlmProvider; config: ProviderConfig }
  | { ok: false; reason: string; configured: boolean };

export const NO_PROVIDER_REASON =
  'No model provider is configured. Add one in Settings → Providers (or from a terminal: tooldesk config set providers …), or run a tool by hand with /tool_name {"arg": "value"}.';

export async function resolveProvider(
  settings: Settings,
  secrets: SecretStore | undefined,
  extra: Partial<OpenAICompatibleOptions> = {},
  /** A chat's own provider (its "Model" picker); falls back to the active one when it was removed. */
  chosenProviderId?: string,
): Promise<ProviderResolution> {
  const chosen = chosenProviderId ? settings.providers.find((p) => p.id === chosenProviderId) : undefined;
  const config = chosen ?? settings.providers.find((p) => p.id === settings.activeProviderId);
  if (!config) {
    if (settings.activeProviderId && settings.providers.length > 0) {
      return { ok: false, configured: true, reason: `The active provider "${settings.activeProviderId}" is not among the configured providers (${settings.providers.map((p) => p.id).join(', ')}). Pick one in Settings.` };
    }
    return { ok: false, configured: false, reason: NO_PROVIDER_REASON };
  }
  let apiKey: string | null = null;
  if (config.apiKeySecret) {
    try {
      apiKey = (await secrets?.get(config.apiKeySecret)) ?? null;
    } catch (error) {
      return { ok: false, configured: true, reason: `The API key of ${config.name} (secret "${config.apiKeySecret}") could not be read: ${(error as Error).message}` };
    }
    if (apiKey === null) {
      return { ok: false, configured: true, reason: `${config.name} needs its API key: store it with \`tooldesk secrets set ${config.apiKeySecret}\` or in Settings.` };
    }
  }
  return { ok: true, config, provider: createOpenAICompatibleProvider({ config, apiKey, ...extra }) };
}
