// Providers for the Settings panel: test a configuration, list its models, find local servers;
// and which provider and key a request means (a saved one by id, or an unsaved config).
import type { ProviderConfig, Settings } from '../../../../shared/settings.ts';
import { detectLocalProviders, type DetectOptions } from '../../llm/detect-local-providers.ts';
import { createOpenAICompatibleProvider } from '../../llm/openai-compatible-provider.ts';
import { apiError } from '../../../../shared/api.ts';
import type { ProviderService, SecretService } from './services.ts';

export interface ProviderRequest {
  providerId?: string;
  provider?: ProviderConfig;
  apiKey?: string;
}

/** The provider a request names and its key: an explicit key wins, else the one its config names, if any. */
export async function resolveProviderRequest(
  request: ProviderRequest,
  settings: Pick<Settings, 'providers'>,
  secrets: Pick<SecretService, 'get'>,
): Promise<{ provider: ProviderConfig; apiKey: string | null }> {
  const saved = request.providerId ? settings.providers.find((p) => p.id === request.providerId) : undefined;
  if (request.providerId && !saved) throw apiError('NotFoundError', `no provider with id "${request.providerId}"`);
  const provider = request.provider ?? saved;
  if (!provider) throw apiError('InvalidRequestError', 'name a saved provider (providerId) or pass one (provider)');
  // An explicit key wins (testing a key before saving it).
  const apiKey = request.apiKey ?? (provider.apiKeySecret ? await secrets.get(provider.apiKeySecret).catch(() => null) : null);
  return { provider, apiKey };
}

export interface ProviderServiceOptions {
  /** Per request, ms. */
  timeoutMs?: number;
  detect?: DetectOptions;
}

export function createProviderService(options: ProviderServiceOptions = {}): ProviderService {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const models = (config: ProviderConfig, apiKey: string | null) =>
    createOpenAICompatibleProvider({ config, apiKey, timeoutMs, retry: { maxRetries: 0 } }).listModels(AbortSignal.timeout(timeoutMs));
  return {
    async test(config, apiKey) {
      const started = Date.now();
      const result = await models(config, apiKey);
      const latencyMs = Date.now() - started;
      if (!result.ok) return { ok: false, message: result.error.message, latencyMs };
      const ids = result.models.map((m) => m.id);
      const hasModel = !config.model || ids.length === 0 || ids.includes(config.model);
      return {
        ok: true,
        latencyMs,
        models: ids,
        message: hasModel
          ? `${config.name || config.baseURL} answered in ${latencyMs} ms with ${ids.length} model${ids.length === 1 ? '' : 's'}.`
          : `${config.name || config.baseURL} answered, but has no model "${config.model}"; pick one of: ${ids.slice(0, 10).join(', ')}.`,
      };
    },
    async listModels(config, apiKey) {
      const result = await models(config, apiKey);
      if (!result.ok) throw apiError('ProviderError', result.error.message);
      return result.models;
    },
    detectLocal: () => detectLocalProviders(options.detect),
  };
}
