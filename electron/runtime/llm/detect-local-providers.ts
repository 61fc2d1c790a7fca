// Finds a local model server to propose when no provider is configured: Ollama on :11434 and
// LM Studio on :1234, probed in parallel through /v1/models with a short timeout.
import type { DetectedProvider } from '../../../shared/api.ts';
import { PROVIDER_PRESETS } from '../../../shared/provider-presets.ts';

export interface LocalCandidate {
  id: string;
  name: string;
  baseURL: string;
}

export const LOCAL_CANDIDATES: LocalCandidate[] = PROVIDER_PRESETS.filter((p) => p.id === 'ollama' || p.id === 'lmstudio').map(({ id, name, baseURL }) => ({ id, name, baseURL }));

export interface DetectOptions {
  candidates?: LocalCandidate[];
  /** Per probe, ms. Default 400. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

async function probe(candidate: LocalCandidate, timeoutMs: number, signal?: AbortSignal): Promise<DetectedProvider | null> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${candidate.baseURL}/models`, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return {
      provider: { id: candidate.id, name: candidate.name, kind: 'openai-compatible', baseURL: candidate.baseURL, model: models[0] ?? '' },
      models,
    };
  } catch {
    return null;
  }
}

/** Never throws; servers that do not answer in time are left out. */
export async function detectLocalProviders(options: DetectOptions = {}): Promise<DetectedProvider[]> {
  const found = await Promise.all((options.candidates ?? LOCAL_CANDIDATES).map((c) => probe(c, options.timeoutMs ?? 400, options.signal)));
  return found.filter((d): d is DetectedProvider => d !== null);
}
