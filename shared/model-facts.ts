// What is known about a model from its name alone: whether it accepts images and how long its
// context window is. Names vary by server (Ollama tags, OpenRouter vendor prefixes), so the checks
// match on parts of the name; unknown means unknown, never a guess presented as fact.

const VISION = [
  /gpt-4o/, /gpt-4\.1/, /gpt-4-turbo/, /gpt-4-vision/, /gpt-5/, /\bo[134](-|$)/, /claude-(3|sonnet-4|opus-4|haiku-4)/, /claude-.*-4/,
  /gemini/, /gemma-?3/, /llava/, /bakllava/, /pixtral/, /-vl\b|-vl-|vl:/, /qwen.*vl/, /vision/, /minicpm-v/, /moondream/, /llama-?4/, /mistral-(small|medium)-3/,
];

/** True when the model is known to accept image input. */
export function acceptsImages(model: string): boolean {
  const name = model.toLowerCase();
  return VISION.some((re) => re.test(name));
}

const WINDOWS: Array<[RegExp, number]> = [
  [/gpt-4\.1/, 1_047_576],
  [/gpt-5/, 400_000],
  [/gpt-4o|gpt-4-turbo|\bo[134](-|$)/, 128_000],
  [/gpt-3\.5/, 16_385],
  [/claude/, 200_000],
  [/gemini-(1\.5|2)/, 1_048_576],
  [/deepseek/, 128_000],
  [/llama-?3\.[123]|llama3\.[123]/, 128_000],
  [/qwen-?2\.5|qwen3/, 32_768],
  [/mistral-(large|small|medium)|mixtral/, 32_768],
  [/gemma-?3/, 128_000],
];

/** The model's context window in tokens, when known. */
export function contextWindow(model: string): number | undefined {
  const name = model.toLowerCase();
  return WINDOWS.find(([re]) => re.test(name))?.[1];
}
