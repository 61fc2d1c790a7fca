// Known model servers for Settings → "+ Add provider": picking one fills the name and base URL
// and says what the server needs (a key from a web page, or a program running on this machine).
// Every entry speaks the OpenAI chat-completions API at `baseURL` (Anthropic and Gemini through
// their OpenAI-compatible endpoints).

export interface ProviderPreset {
  id: string;
  name: string;
  baseURL: string;
  /** True when the server refuses requests without an API key. */
  needsApiKey: boolean;
  /** One line for the user: where the key comes from, or what must be running. */
  hint: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', name: 'OpenAI', baseURL: 'https://api.openai.com/v1', needsApiKey: true, hint: 'Needs an API key from platform.openai.com/api-keys.' },
  { id: 'openrouter', name: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', needsApiKey: true, hint: 'Needs an API key from openrouter.ai/keys; one key reaches many vendors’ models.' },
  {
    id: 'anthropic',
    name: 'Anthropic',
    baseURL: 'https://api.anthropic.com/v1',
    needsApiKey: true,
    hint: 'Anthropic’s OpenAI-compatible endpoint. Needs an API key from console.anthropic.com.',
  },
  {
    id: 'gemini',
    name: 'Google Gemini',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    needsApiKey: true,
    hint: 'Gemini’s OpenAI-compatible endpoint. Needs an API key from aistudio.google.com/apikey.',
  },
  { id: 'deepseek', name: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1', needsApiKey: true, hint: 'Needs an API key from platform.deepseek.com.' },
  { id: 'ollama', name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', needsApiKey: false, hint: 'Runs locally on port 11434 (start the Ollama app or `ollama serve`); no key.' },
  { id: 'lmstudio', name: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', needsApiKey: false, hint: 'Runs locally on port 1234 (LM Studio → Developer → Start server); no key.' },
  { id: 'llamacpp', name: 'llama.cpp', baseURL: 'http://127.0.0.1:8080/v1', needsApiKey: false, hint: 'Runs locally on port 8080 (`llama-server -m MODEL.gguf --jinja` for tool calls); no key.' },
  { id: 'vllm', name: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', needsApiKey: false, hint: 'Runs on port 8000 (`vllm serve MODEL --enable-auto-tool-choice`); a key only if started with --api-key.' },
];

/** The preset whose base URL this is (trailing slashes ignored), if any. */
export function presetForBaseURL(baseURL: string): ProviderPreset | undefined {
  const url = baseURL.trim().replace(/\/+$/, '');
  return url ? PROVIDER_PRESETS.find((p) => p.baseURL === url) : undefined;
}
